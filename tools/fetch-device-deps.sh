#!/usr/bin/env bash
# Prepares .deps/ (git-ignored) for the lent GPU machines, which reach no
# package registry: Debian's GoogleTest, Google Benchmark and stb headers, unpacked, and
# the CUDA-aware Open MPI from ../shared/tools. Run here, then name .deps in
# the device call's `carry`.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .deps/debs .deps/root
(cd .deps/debs && apt-get download libgtest-dev libbenchmark-dev libbenchmark1debian libstb-dev >/dev/null)
for deb in .deps/debs/*.deb; do dpkg -x "$deb" .deps/root; done
ompi=../shared/tools/cuda-aware-openmpi/ompi-4.1.4-cuda-install.tar.xz
[ -f "$ompi" ] && cp "$ompi" .deps/
du -sh .deps
