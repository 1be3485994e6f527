#!/usr/bin/env bash
# README's build (`cmake -S . -B build`: Makefiles) followed by the test
# command (tools/run-tests.sh, which prefers Ninja) must not clash over the
# folder's generator: the test command keeps the one it finds.
# usage: run_tests_reuses_build.sh WORKDIR
set -euo pipefail
work=$1
repo=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$work" && mkdir -p "$work"
cmake -S "$repo" -B "$work/build" -G "Unix Makefiles" -DSTENCIL_BACKEND=HOST >"$work/readme-build.txt" 2>&1 ||
  { cat "$work/readme-build.txt"; exit 1; }
"$repo/tools/run-tests.sh" --configure-only "$work/build" >"$work/run-tests.txt" 2>&1 ||
  { cat "$work/run-tests.txt"; echo "run-tests.sh failed on a Makefiles build folder"; exit 1; }
grep -q 'CMAKE_GENERATOR:INTERNAL=Unix Makefiles' "$work/build/CMakeCache.txt" ||
  { echo "the folder's generator changed"; exit 1; }
echo "run-tests.sh configured README's Makefiles build folder without a clash"
