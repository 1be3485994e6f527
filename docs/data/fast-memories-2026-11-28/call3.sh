#!/usr/bin/env bash
# Issue 58, call 3, on one GPU (an H100 or an H200): the wave update with two
# planes of loads in flight (--planes-ahead 2; stencil-bench --ahead=2)
# against one, in one build, so that the two run the same binary. Ran on an
# H200 on 2026-12-01 (docs/data/planes-ahead-h200-2026-12-01, call 4).
#
#   tests   the GPU suites that cover the wave update's shapes, two planes
#           ahead included (WaveKernel.*, StoredFaces.*, TunedShape.*, the
#           kernel and physics suites): about 5 minutes with the build
#   planted after `tests`, in its build: the update's loads of plane k + 2's
#           p_prev taken from plane k + 1 (one slice short) in the two-plane
#           walk (one plane's stay right); WaveKernel.* must fail (StoredFaces
#           compares the faces with the same launch's field), then the
#           source is put back
#   timing  stencil-bench at 512^3 (copy; wave R = 1, 4, 8 with --ahead=1,2;
#           fused_xyz R = 4, 8; both precisions; every benchmark at least
#           1 s), then the mini-app --comm none at R = 4, one GPU, one and
#           two planes ahead interleaved: 64^3 and 128^3 over 100,000 steps,
#           256^3 over 10,000 and 512^3 over 1,500 (each about a second or
#           more), two rounds; about 6 minutes with the build
#
# usage, from the repository root with .deps/ (tools/README.md):
#   bash docs/data/fast-memories-2026-11-28/call3.sh tests|planted|timing
# Results: tests in $OUT (default .out), timing in results/planes-ahead-*.
set -euo pipefail
case ${1:-} in
  tests)
    tools/gpu.sh check --skip-bench \
      --tests 'WaveKernel|StoredFaces|TunedShape|Kernels|Physics|LaunchShape'
    ;;
  planted)
    walk=kernels/fused_walk.hpp
    cp "$walk" /tmp/fused_walk.hpp.kept
    trap 'cp /tmp/fused_walk.hpp.kept "$walk"' EXIT
    sed -i 's/prefetch(a, target + Ahead \* slice)/prefetch(a, target + slice)/' "$walk"
    grep -q 'prefetch(a, target + slice)' "$walk" || { echo "planted: the line moved" >&2; exit 2; }
    cmake --build build-cuda --target stencil_kernel_tests -j"$(nproc)" >/dev/null
    if build-cuda/tests/stencil_kernel_tests --gtest_filter='*WaveKernel*:*StoredFaces*' >"${OUT:-.out}/planted.log" 2>&1; then
      echo "planted: NOT caught (the two-plane tests passed with the bug)"; exit 1
    fi
    grep -E '^\[  FAILED  \]|FAILED TEST' "${OUT:-.out}/planted.log" | head -20
    echo "planted: caught"
    ;;
  timing)
    bench="--sizes=512 --radii=1,4,8 --precision=fp32,fp64 --variants=wave,fused_xyz"
    bench+=" --ahead=1,2 --benchmark_min_time=1"
    variants=(--variant one="--planes-ahead 1" --variant two="--planes-ahead 2")
    tools/gpu.sh experiment planes-ahead-small "${variants[@]}" --sizes "64 128" --repeat 2 \
      --bench "$bench" -- --radius 4 --comm none --warmup 200 --steps 100000
    tools/gpu.sh experiment planes-ahead-256 "${variants[@]}" --sizes 256 --repeat 2 \
      -- --radius 4 --comm none --warmup 50 --steps 10000
    tools/gpu.sh experiment planes-ahead-512 "${variants[@]}" --sizes 512 --repeat 2 \
      -- --radius 4 --comm none --warmup 20 --steps 1500
    ;;
  *)
    echo "usage: call3.sh tests|planted|timing" >&2
    exit 2
    ;;
esac
