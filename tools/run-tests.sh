#!/usr/bin/env bash
# The test command: installs what it needs, builds the HOST back-end and runs
# every test through ctest (units, kernels, the mini-app under mpirun at
# 1-8 ranks, physics, benchmark smoke test). GPU suites skip without a GPU.
# usage: tools/run-tests.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh host
build=${1:-build}
cmake -S . -B "$build" -G Ninja -DSTENCIL_BACKEND=HOST
cmake --build "$build" -j"$(nproc)"
cd "$build"
ctest --output-on-failure -j"$(nproc)"
