#!/usr/bin/env bash
# The test command: installs what it needs, builds the HOST back-end and runs
# every test through ctest (units, kernels, the mini-app under mpirun at
# 1-8 ranks, physics, benchmark smoke test). GPU suites skip without a GPU.
# usage: tools/run-tests.sh [--configure-only] [BUILD_DIR]   (default build)
#   A folder configured before (README's `cmake -S . -B build`, Makefiles)
#   keeps its generator: Ninja and Makefiles cannot share a folder.
#   --configure-only configures the folder and stops, installing nothing
#   (tests/run_tests_reuses_build.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
configure_only=false
if [ "${1:-}" = --configure-only ]; then configure_only=true; shift; fi
build=${1:-build}
# Configuring needs only CMake and a compiler: --configure-only installs nothing.
$configure_only || tools/install-deps.sh host
generator=(-G Ninja)
[ -f "$build/CMakeCache.txt" ] && generator=()
cmake -S . -B "$build" "${generator[@]}" -DSTENCIL_BACKEND=HOST
$configure_only && exit 0
cmake --build "$build" -j"$(nproc)"
cd "$build"
ctest --output-on-failure -j"$(nproc)"
