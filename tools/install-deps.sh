#!/usr/bin/env bash
# Installs what building and testing need, from Debian/Ubuntu packages.
# usage: tools/install-deps.sh [host] [hip] [lint] [slurm] [sid] [mpich]
#   host: compiler, CMake, Open MPI, GoogleTest, Google Benchmark, zlib, nlohmann-json,
#         matplotlib, jsonschema (jobscripts/project.py), Universal Ctags
#         (tools/check-sizes.py), and the clients that read the outputs in the
#         tests: segyio, xarray, ParaView with its Python (pvbatch: Debian's
#         VTK has no XDMF reader; about 120 MB to fetch, a minute), parallel
#         HDF5 on Open MPI for --output-format hdf5 and h5py to read it
#         (about 4.4 MB to fetch, 11 s) (always)
#   hip:  Debian's ROCm compiler and runtime (to compile the HIP back-end)
#   lint: shellcheck, clang-format
#   slurm: a one-node Slurm (tools/local-slurm.sh): slurmctld, slurmd, its client, munge
#   sid:  mmdebstrap, which makes the Debian sid chroot of tools/ci-rocm-sid.sh
#   mpich: Debian's MPICH beside Open MPI (tools/ci-mpich.sh); Debian's
#         alternatives keep Open MPI as mpicxx and mpirun
# Packages already present are skipped; nothing is installed when all are.
set -euo pipefail
packages=(g++ cmake ninja-build make git python3 python3-matplotlib python3-jsonschema python3-numpy libstb-dev libopenmpi-dev openmpi-bin libgtest-dev libbenchmark-dev binutils
          zlib1g-dev nlohmann-json3-dev universal-ctags python3-segyio python3-xarray paraview python3-paraview
          libhdf5-openmpi-dev python3-h5py)
for extra in "$@"; do
  case "$extra" in
    host) ;;
    hip) packages+=(hipcc libamdhip64-dev rocm-device-libs) ;;
    lint) packages+=(shellcheck clang-format) ;;
    slurm) packages+=(slurmctld slurmd slurm-client munge) ;;
    sid) packages+=(mmdebstrap) ;;
    mpich) packages+=(mpich libmpich-dev) ;;
    *) echo "install-deps: unknown group '$extra'" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
echo "install-deps: installing ${missing[*]}"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
