#!/usr/bin/env bash
# The ROCm and the Open MPI that users run, from Debian sid, in a chroot
# beside the build (compile only for HIP: no GPU is needed):
#   1. the HIP back-end with sid's ROCm (hipcc 7, clang 21), one build per
#      target, gfx90a (MI250X) and gfx942 (MI300A/X), each with its resource
#      table; fails on scratch or spills that tools/resource-report.py does
#      not expect. The first target builds everything, tests and benchmarks
#      included; the others only the kernels' library, which holds every
#      kernel (the rest is host code, already compiled once);
#   2. what sid's Open MPI and UCX say of ROCm (tools/mpi-gpu-probe.c,
#      ompi_info, ucx_info);
#   3. the HOST back-end against that Open MPI through pml ucx: --check
#      bit for bit against one domain at 2, 3 and 4 ranks.
# The chroot is made with mmdebstrap (about a minute) unless SID_ROOT
# already holds one. Needs root (mmdebstrap, chroot, bind mounts).
#
# usage: tools/ci-rocm-sid.sh    env: SID_ROOT (default build-sid/root),
#        OUT (logs and tables, default build-ci-logs), SID_TARGETS (default "gfx90a gfx942")
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
root=${SID_ROOT:-$repo/build-sid/root}
OUT=${OUT:-build-ci-logs}
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
targets=${SID_TARGETS:-gfx90a gfx942}
packages=hipcc,libamdhip64-dev,cmake,ninja-build,g++,make,python3,binutils,libopenmpi-dev,openmpi-bin,ucx-utils,libgtest-dev,libbenchmark-dev,zlib1g-dev,nlohmann-json3-dev,libstb-dev

# Mounts a killed run left under the chroot go first: with the repository
# bound at $root/src, removing or re-making the chroot would reach into it.
mounts_under_root() { awk -v r="$root/" 'index($2, r) == 1 {print $2}' /proc/mounts | sort -r; }
for m in $(mounts_under_root); do umount -l "$m"; done
[ -z "$(mounts_under_root)" ] || { echo "ci-rocm-sid: mounts remain under $root; not touching it" >&2; exit 1; }

if [ ! -x "$root/usr/bin/hipcc" ]; then
  command -v mmdebstrap >/dev/null || tools/install-deps.sh sid
  echo "== making a Debian sid chroot in $root"
  rm -rf "$root" && mkdir -p "$(dirname "$root")"
  # sid's Release file can be past its Valid-Until on a mirror snapshot.
  mmdebstrap --variant=apt --aptopt='Acquire::Check-Valid-Until "false"' --include="$packages" \
    sid "$root" >"$OUT/sid-mmdebstrap.log" 2>&1 || { tail -20 "$OUT/sid-mmdebstrap.log"; exit 1; }
fi

# hipcc needs /proc; UCX needs /dev/shm and /sys. The repository appears as /src.
mounted=()
bind() { # bind SOURCE TARGET [options]
  mkdir -p "$2" && mount --bind "$1" "$2" && mounted=("$2" "${mounted[@]}")
  [ -z "${3:-}" ] || mount -o remount,bind,"$3" "$2"
}
# shellcheck disable=SC2317 # called by the EXIT trap
unmount_all() { for m in "${mounted[@]}"; do umount -l "$m" || true; done; }
trap unmount_all EXIT
mkdir -p "$root/proc" && mount -t proc proc "$root/proc" && mounted=("$root/proc")
bind /dev "$root/dev"
bind /dev/shm "$root/dev/shm"
bind /sys "$root/sys" ro
bind "$repo" "$root/src"
in_sid() { chroot "$root" env -i PATH=/usr/bin:/bin HOME=/root OMPI_ALLOW_RUN_AS_ROOT=1 \
  OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 bash -c "cd /src && $1"; }

status=0
echo "== sid: $(in_sid 'hipcc --version | grep -E "HIP version|clang version" | paste -sd";" -')"
what="tests and benchmarks included" only=""
for target in $targets; do
  echo
  echo "== HIP back-end, $target, sid's ROCm ($what)"
  log=$OUT/sid-hip-$target-build.log
  in_sid "CXX=hipcc cmake -S . -B build-sid-$target -G Ninja -DSTENCIL_BACKEND=HIP \
    -DSTENCIL_HIP_ARCHS=$target -DSTENCIL_RESOURCE_REPORT=ON" >"$OUT/sid-hip-$target-configure.log" 2>&1 ||
    { tail -30 "$OUT/sid-hip-$target-configure.log"; exit 1; }
  # --clean-first: the resource table comes from the compiler's remarks, which
  # only a compile prints.
  in_sid "cmake --build build-sid-$target -j$(nproc) -v --clean-first $only" >"$log" 2>&1 ||
    { grep -E -A5 "error" "$log" | head -60; exit 1; }
  what="the kernels' library" only="--target stencil_kernels"
  python3 tools/resource-report.py hip "$log" "$target (hipcc 7, ROCm 6.4)" >"$OUT/resources-$target-rocm64.txt" ||
    status=1
  grep -E "SPILLS|expected|kernels," "$OUT/resources-$target-rocm64.txt"
done

echo
echo "== sid's Open MPI and UCX: what they say of ROCm"
in_sid "ompi_info | grep -E 'Open MPI:|MPI extensions'; ompi_info --parsable | grep -o 'mca:accelerator:[a-z]*' | sort -u
  ucx_info -v | grep -o -E 'Library version: .*|--with-(rocm|cuda)[^ ]*' | paste -sd' ' -" | tee "$OUT/sid-mpi-gpu.txt"
# pml ucx enables itself only where UCX offers one of pml_ucx_tls's
# transports on a pml_ucx_devices device (InfiniBand, or GPU IPC); this
# machine has shared memory only, so the run names any.
ucx=(--mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any --oversubscribe)
in_sid "mkdir -p build-sid-host && cc -O2 tools/mpi-gpu-probe.c -o build-sid-host/mpi-gpu-probe \
  \$(mpicc --showme:compile) \$(mpicc --showme:link) && mpirun ${ucx[*]} -np 1 build-sid-host/mpi-gpu-probe" |
  tee -a "$OUT/sid-mpi-gpu.txt"

echo
echo "== HOST back-end through sid's Open MPI, pml ucx: --check bit for bit"
in_sid "cmake -S . -B build-sid-host -G Ninja -DSTENCIL_BACKEND=HOST -DSTENCIL_BUILD_TESTS=OFF" \
  >"$OUT/sid-host-configure.log" 2>&1 || { tail -30 "$OUT/sid-host-configure.log"; exit 1; }
in_sid "cmake --build build-sid-host -j$(nproc) --target stencil-miniapp" >"$OUT/sid-host-build.log" 2>&1 ||
  { grep -E -A5 "error" "$OUT/sid-host-build.log" | head -40; exit 1; }
cases=("2|--procs 1,1,2 --radius 4"
       "3|--procs 3,1,1 --radius 3 --precision fp64"
       "4|--procs 2,2,1 --radius 6 --halo-depth 2"
       "4|--procs 1,2,2 --radius 2 --periodic z --overlap off")
for spec in "${cases[@]}"; do
  IFS='|' read -r ranks args <<<"$spec"
  line=$(in_sid "OMP_NUM_THREADS=1 mpirun ${ucx[*]} -np $ranks build-sid-host/miniapp/stencil-miniapp \
    --grid 72,64,56 --steps 24 $args --check --quiet 2>&1" | tee -a "$OUT/sid-host-check.log" | grep -E "^check:" ||
    echo "no check line")
  printf '%s ranks %-48s %s\n' "$ranks" "$args" "$line"
  [[ $line == *"(bitwise equal)" ]] || { echo "FAILED: pml ucx --check $args"; status=1; }
done
exit $status
