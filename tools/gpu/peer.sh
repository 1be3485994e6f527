# shellcheck shell=bash
# --comm peer on one node of several GPUs: build, check, time, and the
# table last. It needs no package archive (tools/prepare-offline-deps.sh);
# with .deps/ompi-4.1.4-cuda-install.tar.xz the same build also times
# GPU-aware MPI (ob1) and NCCL beside peer.
#
# Checks, bit for bit against one domain: periodic and open splits, R = 1,
# 4 and 8, both precisions, graphs on and off, two ranks sharing one GPU
# and four ranks on two GPUs, faces forced onto MPI (STENCIL_NODE_RANKS=1);
# the planted bugs (peer-skip-wait, peer-early-signal, peer-wrong-face)
# must fail their check. Then the timings, each against one GPU's --comm
# none step of the same box in this call: weak 512^3 and 128^3 per GPU,
# strong 256^3 (and 512^3) on two (and four) GPUs; --repeat rounds,
# interleaved; a --timeline of a two-GPU periodic 512^3 run per path.
# Reports and logs go to the results folder $OUT (default .out), the table
# (tools/report-table.py peer) to $OUT/table.txt.
#
# usage: tools/gpu.sh peer [--repeat N] [--gpus N] [--cases "two-weak512 four-strong512 ..."]
#   --repeat: rounds of the timings (default 2)
#   --gpus:   the GPUs to use (default all); 4 or more adds the four-GPU cases
#   --cases:  only these timed cases (default all)

peer_settings() { echo repeat gpus only; } # what --dry-run prints
peer_options() {
  repeat=2 gpus="" only=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --repeat) value "$1" $#; repeat=$2; shift ;;
      --gpus) value "$1" $#; gpus=$2; shift ;;
      --cases) value "$1" $#; only=$2; shift ;;
      *) other_option "$1" ;;
    esac
    shift
  done
}

peer_main() {
  OUT=${OUT:-$PWD/.out}
  mkdir -p "$OUT"
  [ -n "$gpus" ] || gpus=$(nvidia-smi -L | wc -l)
  mpirun=(mpirun) modes="peer none"
  local mpi=()
  if has_mpi ob1; then
    unpack_mpi ob1
    export PATH=/tmp/gpumpi/install/bin:$PATH LD_LIBRARY_PATH=/tmp/gpumpi/install/lib:${LD_LIBRARY_PATH:-}
    mpirun=(/tmp/gpumpi/install/bin/mpirun --mca pml ob1) modes="peer gpu-aware nccl none" mpi=(--mpi /tmp/gpumpi)
  fi
  build_tree "${mpi[@]}" . build-gpu-peer "$OUT/build-gpu-peer" stencil-miniapp || exit 1
  grep -q "NCCL/RCCL *OFF" "$OUT/build-gpu-peer-configure.log" && modes=${modes/nccl /}
  app=build-gpu-peer/miniapp/stencil-miniapp
  status=0
  peer_checks
  peer_timings
  python3 tools/report-table.py peer "$OUT" --out "$OUT/table.txt" || status=1
  (cd "$OUT" && tar czf reports.tgz ./*.txt ./*.json &&
    find . -maxdepth 1 -type f ! -name reports.tgz ! -name table.txt -delete)
  exit $status
}

prun() { # prun RANKS NAME ARGS...
  local ranks=$1 name=$2
  shift 2
  "${mpirun[@]}" -np "$ranks" "$app" "$@" >"$OUT/$name.txt" 2>&1 || return 1
}
pcheck() { # pcheck RANKS NAME ARGS...: must be bitwise equal
  local name=$2
  if prun "$@" --check --steps 40 --quiet && grep -q "bitwise equal" "$OUT/$name.txt"; then
    echo "ok      $name"
  else
    echo "FAILED  $name: $(grep -h -E "^check:|error" "$OUT/$name.txt" | head -2)"; status=1
  fi
}
planted() { # planted RANKS NAME ARGS...: the check must fail
  local name=$2
  if prun "$@" --check --steps 40 --quiet --graphs off; then
    echo "FAILED  $name: the planted bug passed its check"; status=1
  else
    echo "caught  $name: $(grep -h -E "^check:" "$OUT/$name.txt" | head -1)"
  fi
}

peer_checks() {
  local g=192,160,176
  pcheck 2 peer-x-periodic-R8 --grid $g --procs 2,1,1 --periodic x,y,z --radius 8 --comm peer
  pcheck 2 peer-x-periodic-R8-fp64 --grid $g --procs 2,1,1 --periodic x,y,z --radius 8 --comm peer --precision fp64
  pcheck 2 peer-x-periodic-graphs-off --grid $g --procs 2,1,1 --periodic x,y,z --comm peer --graphs off
  pcheck 2 peer-z-open-R1 --grid $g --procs 1,1,2 --radius 1 --comm peer
  pcheck 2 peer-y-open-fp64 --grid $g --procs 1,2,1 --radius 4 --comm peer --precision fp64
  pcheck 2 peer-auto --grid $g --procs 2,1,1 --periodic x
  CUDA_VISIBLE_DEVICES=0 pcheck 2 peer-one-gpu-two-ranks --grid $g --procs 2,1,1 --periodic x,y,z --comm peer
  CUDA_VISIBLE_DEVICES=0,1 pcheck 4 peer-four-ranks-two-gpus --grid $g --procs 2,2,1 --periodic x,y,z --radius 5 \
    --comm peer
  if [ "$gpus" -ge 4 ]; then
    pcheck 4 peer-four-2x2x1-periodic --grid $g --procs 2,2,1 --periodic x,y,z --comm peer
    pcheck 4 peer-four-1x2x2-open-fp64-R7 --grid $g --procs 1,2,2 --radius 7 --comm peer --precision fp64
    pcheck 4 peer-four-2x2x1-graphs-off-R2 --grid $g --procs 2,2,1 --periodic x,y,z --radius 2 --comm peer \
      --graphs off
  fi
  if [[ $modes == *gpu-aware* ]]; then # some faces (or all) forced onto MPI
    STENCIL_NODE_RANKS=1 pcheck 2 peer-forced-mpi --grid $g --procs 2,1,1 --periodic x,y,z --comm peer
    [ "$gpus" -lt 4 ] ||
      STENCIL_NODE_RANKS=2 pcheck 4 peer-hybrid --grid $g --procs 2,2,1 --periodic x,y,z --comm peer
  fi
  planted 2 planted-skip-wait --grid $g --procs 2,1,1 --periodic x,y,z --comm peer --inject-fault peer-skip-wait
  planted 2 planted-early-signal --grid $g --procs 2,1,1 --periodic x,y,z --comm peer --inject-fault peer-early-signal
  CUDA_VISIBLE_DEVICES=0 planted 3 planted-wrong-face --grid $g --procs 3,1,1 --periodic x --comm peer \
    --inject-fault peer-wrong-face
  grep -h -E "^  (comm|rank 0's faces)" "$OUT/peer-auto.txt" || true
}

ptimed() { # ptimed RANKS NAME STEPS ARGS...: prints the slowest rank's step
  local ranks=$1 name=$2 steps=$3
  shift 3
  if prun "$ranks" "$name" --steps "$steps" --warmup 20 --radius 4 --report "$OUT/$name.json" "$@"; then
    echo "$name: $(grep -h -E "^  step " "$OUT/$name.txt" | awk '{print $4}') ms"
  else
    echo "FAILED  $name"; tail -5 "$OUT/$name.txt"; status=1
  fi
}

# peer_timings: about 1 s or more of timed steps each; one GPU's --comm
# none of the same box beside them in every round; a timeline per path.
peer_timings() {
  local cases=("two-weak512|2|2000|--local 512,512,512 --procs 2,1,1 --periodic x,y,z" # name|ranks|steps|args
    "two-weak128|2|30000|--local 128,128,128 --procs 1,1,2"
    "two-strong256|2|10000|--grid 256,256,256")
  if [ "$gpus" -ge 4 ]; then
    cases+=("four-weak512|4|2000|--local 512,512,512 --procs 2,2,1 --periodic x,y,z"
      "four-weak128|4|30000|--local 128,128,128 --procs 2,2,1 --periodic x,y,z"
      "four-strong256|4|10000|--grid 256,256,256"
      "four-strong512|4|6000|--grid 512,512,512")
  fi
  local round spec case ranks steps args mode
  for round in $(seq 1 "$repeat"); do
    ptimed 1 "r$round-one-512" 2000 --local 512,512,512 --comm none
    ptimed 1 "r$round-one-128" 30000 --local 128,128,128 --comm none
    ptimed 1 "r$round-one-256" 10000 --grid 256,256,256 --comm none
    for spec in "${cases[@]}"; do
      IFS='|' read -r case ranks steps args <<<"$spec"
      [ -z "$only" ] || [[ " $only " == *" $case "* ]] || continue
      for mode in $modes; do
        [ "$mode" = none ] && continue
        # shellcheck disable=SC2086 # args are words
        ptimed "$ranks" "r$round-$case-$mode" "$steps" $args --comm "$mode"
      done
    done
  done
  for mode in $modes; do
    [ "$mode" = none ] && continue
    prun 2 "timeline-$mode" --local 512,512,512 --procs 2,1,1 --periodic x,y,z --comm "$mode" --steps 400 \
      --timeline "$OUT/timeline-$mode.json" || status=1
  done
}
