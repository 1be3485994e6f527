#!/usr/bin/env bash
# Prepares .deps/ (git-ignored) for a GPU node that cannot reach a package
# archive: run it on a machine that can (Debian or Ubuntu), then copy the
# repository, .deps/ included, to the GPU node. tools/gpu.sh check and
# tools/gpu.sh miniapp find everything there.
#   .deps/root/      GoogleTest, Google Benchmark, nlohmann-json, zlib and stb,
#                    unpacked from the distribution's packages (no install
#                    needed; zlib links statically from there)
#   .deps/ompi-4.1.4-cuda-install.tar.xz
#                    a CUDA-aware Open MPI build, if you name its archive (an
#                    install/ tree, as shipped by your site or built with
#                    --with-cuda); without it the GPU runs use staged MPI
#   .deps/ompi-ucx-cuda-install.tar.xz
#                    a second one whose pml is UCX (Open MPI 5 with a UCX
#                    built with CUDA), if you name it: tools/gpu.sh ucx
#                    compares the two
#
# usage: tools/prepare-offline-deps.sh [OB1_OPENMPI_ARCHIVE.tar.xz [UCX_OPENMPI_ARCHIVE.tar.xz]]
set -euo pipefail
archive=${1:+$(realpath "$1")}
ucx_archive=${2:+$(realpath "$2")}
cd "$(dirname "$0")/.."
mkdir -p .deps/debs .deps/root
(cd .deps/debs && apt-get download libgtest-dev libbenchmark-dev libbenchmark1debian libstb-dev nlohmann-json3-dev \
  zlib1g-dev >/dev/null)
for deb in .deps/debs/*.deb; do dpkg -x "$deb" .deps/root; done
# Links to absolute paths (zlib1g-dev's libz.so -> /lib/.../libz.so.1.2.13)
# name files of this machine, not of the GPU node: drop them, so the linker
# takes the static libz.a beside them.
find .deps/root -type l -lname '/*' -delete
if [ -n "$archive" ]; then
  [ -f "$archive" ] || { echo "prepare-offline-deps: $archive: no such file" >&2; exit 2; }
  cp "$archive" .deps/ompi-4.1.4-cuda-install.tar.xz
fi
if [ -n "$ucx_archive" ]; then
  [ -f "$ucx_archive" ] || { echo "prepare-offline-deps: $ucx_archive: no such file" >&2; exit 2; }
  cp "$ucx_archive" .deps/ompi-ucx-cuda-install.tar.xz
fi
du -sh .deps
