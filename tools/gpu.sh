#!/usr/bin/env bash
# One driver for the runs on a GPU node: one preamble (the dependencies in
# .deps/ through tools/offline-deps.sh, the CUDA-aware MPI builds there, the
# build itself; tools/gpu/common.sh), then one part (tools/gpu/PART.sh).
#
# usage: tools/gpu.sh PART [OPTIONS]
#        tools/gpu.sh PART --help              the part's options
#        tools/gpu.sh --dry-run PART [OPTIONS] check the options, print the
#                                              part's settings, run nothing
# parts:
#   check       one GPU: the CUDA build, its resource table, the GPU test
#               suite, the benchmark, a short table last
#   miniapp     several GPUs: builds against the system MPI and a GPU-aware
#               one, the bitwise checks, the timing matrix of every halo
#               path, the halo benchmark, optional sweep and scaling runs
#   node        several GPUs: checks, weak and strong scaling against one
#               GPU's --comm none step, the choices, timelines
#   peer        --comm peer on several GPUs: checks, the planted bugs, each
#               case against one GPU beside MPI and NCCL
#   shell       the boundary slabs on one GPU, before and after a change
#   timing      whether the timings hold: agreement, the auto matrix, the
#               projection's calibration
#   ucx         Open MPI over UCX beside ob1 and NCCL
#   experiment  one performance experiment, kept as docs/data/ keeps them
# Tables come from tools/report-table.py.
# env:  OUT (the results folder; each part says its default),
#       STENCIL_CUDA_ARCHS (default 90)
# exit: the part's status; 2, with one line on stderr, for an unknown part
#       or option or an option without its value
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tools/gpu/common.sh
source tools/gpu/common.sh
parts="check miniapp node peer shell timing ucx experiment"
dry_run=0
if [ "${1:-}" = --dry-run ]; then dry_run=1; shift; fi
case ${1:-} in
  -h | --help) header tools/gpu.sh; exit 0 ;;
  "") die "name a part: ${parts// /, } (tools/gpu.sh --help)" ;;
  *) [[ " $parts " == *" $1 "* ]] || die "unknown part '$1': one of ${parts// /, } (tools/gpu.sh --help)" ;;
esac
part=$1
shift
# shellcheck source=/dev/null # one of tools/gpu/*.sh, each checked on its own
source "tools/gpu/$part.sh"
"${part}_options" "$@"
if [ "$dry_run" = 1 ]; then
  echo "tools/gpu.sh $part would run with:"
  for setting in $("${part}_settings"); do declare -p "$setting"; done | sed -E 's/^declare -[-a-zA-Z]* /  /'
  exit 0
fi
gpu_env
"${part}_main"
