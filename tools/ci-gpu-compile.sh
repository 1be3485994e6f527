#!/usr/bin/env bash
# Compiles the HIP back-end for gfx90a (MI250X) and the CUDA back-end for
# sm_90 (H100/H200) -- compile only, no GPU here -- and prints each
# compiler's per-kernel resource table. Fails if a kernel spills or uses
# scratch. Then runs the CUDA build's kernel tests, which must skip visibly.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh host hip
OUT=${OUT:-build-ci-logs}
mkdir -p "$OUT"
status=0

echo "== HIP back-end, gfx90a (hipcc $(hipcc --version 2>/dev/null | grep -o 'clang version [0-9.]*' | head -1))"
CXX=hipcc cmake -S . -B build-hip -G Ninja -DSTENCIL_BACKEND=HIP -DSTENCIL_HIP_ARCHS=gfx90a \
  -DSTENCIL_RESOURCE_REPORT=ON >"$OUT/hip-configure.log" 2>&1 || { cat "$OUT/hip-configure.log"; exit 1; }
cmake --build build-hip -j"$(nproc)" -v >"$OUT/hip-build.log" 2>&1 || { grep -E -A5 "error" "$OUT/hip-build.log" | head -60; exit 1; }
python3 tools/resource-report.py hip "$OUT/hip-build.log" || status=1

echo
echo "== CUDA back-end, sm_90 ($(/usr/local/cuda/bin/nvcc --version | tail -2 | head -1))"
PATH=/usr/local/cuda/bin:$PATH cmake -S . -B build-cuda -G Ninja -DSTENCIL_BACKEND=CUDA -DSTENCIL_CUDA_ARCHS=90 \
  -DSTENCIL_RESOURCE_REPORT=ON >"$OUT/cuda-configure.log" 2>&1 || { cat "$OUT/cuda-configure.log"; exit 1; }
cmake --build build-cuda -j"$(nproc)" -v >"$OUT/cuda-build.log" 2>&1 || { grep -E -A5 "error" "$OUT/cuda-build.log" | head -60; exit 1; }
python3 tools/resource-report.py cuda "$OUT/cuda-build.log" || status=1

echo
echo "== CUDA kernel tests without a GPU (they must skip, saying so)"
(cd build-cuda && ./tests/stencil_kernel_tests --gtest_filter='AllVariants/Kernels.*fused_xyz_R4*' 2>&1 | grep -E "SKIPPED|no GPU|PASSED|FAILED" | head -5)
exit $status
