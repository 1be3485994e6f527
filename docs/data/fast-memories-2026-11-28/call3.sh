#!/usr/bin/env bash
# Issue 58, call 3, on one GPU (an H100 or an H200): the wave update with two
# planes of loads in flight (--planes-ahead 2; stencil-bench --ahead=2)
# against one, in one build, so that the two run the same binary. Not run
# yet: the session that wrote it had no device time left.
#
#   tests   the GPU suites that cover the wave update's shapes, two planes
#           ahead included (WaveKernel.*, StoredFaces.*, TunedShape.*, the
#           kernel and physics suites): about 5 minutes with the build
#   timing  stencil-bench at 512^3 (copy; wave R = 1, 4, 8 with --ahead=1,2;
#           fused_xyz R = 4, 8; both precisions; every benchmark at least
#           1 s), then the mini-app --comm none at R = 4, one GPU, one and
#           two planes ahead interleaved: 64^3 and 128^3 over 100,000 steps,
#           256^3 over 10,000 and 512^3 over 1,500 (each about a second or
#           more), two rounds; about 6 minutes with the build
#
# usage, from the repository root with .deps/ (tools/README.md):
#   bash docs/data/fast-memories-2026-11-28/call3.sh tests|timing
# Results: tests in $OUT (default .out), timing in results/planes-ahead-*.
set -euo pipefail
case ${1:-} in
  tests)
    tools/gpu.sh check --skip-bench \
      --tests 'WaveKernel|StoredFaces|TunedShape|Kernels|Physics|LaunchShape'
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
    echo "usage: call3.sh tests|timing" >&2
    exit 2
    ;;
esac
