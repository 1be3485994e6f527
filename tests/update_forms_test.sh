#!/usr/bin/env bash
# usage: update_forms_test.sh MPIEXEC NUMPROC_FLAG [PREFLAGS...] -- APP
# Runs each case in every form a step may take and compares the final
# checksums bit for bit: the update's two bodies (--update tile, where a
# launch of its own adds the source after the update; --update cells, where
# the update adds it itself), and one step a graph against four and up to
# sixteen (--steps-per-graph 1, 4 and 16, the last with host work every 5
# steps, so that chunks of every length start unaligned and end short; on
# the HOST back-end, one step at a time against several enqueued together). The cases put the source where its
# copies matter: on a face a rank stores into its own or a linked
# neighbour's halo, and on the ring of a deep halo. Exit 1 on any
# difference, each case's line saying which. Warnings are no result: several
# ranks on one GPU warn of slow steps, and the bits are what is compared.
set -u
mpiexec=$1 np_flag=$2
shift 2
preflags=()
while [ "$1" != -- ]; do preflags+=("$1"); shift; done
app=$2
status=0
run() { # ranks args... -> the checksum line, or what the run said instead
  local ranks=$1; shift
  "$mpiexec" "$np_flag" "$ranks" "${preflags[@]}" "$app" --grid 44,38,35 --steps 23 --warmup 3 --checksum --quiet "$@" 2>&1 |
    grep -E '^checksum:|^stencil-miniapp:' | grep -v '^stencil-miniapp: warning: '
}
cases=("1 --comm none --radius 3"
       "1 --comm none --periodic x,y,z --source 1,5,33"
       "2 --comm staged --procs 1,1,2 --overlap off --source 20,19,17"
       "2 --comm staged --procs 2,1,1 --halo-depth 3 --radius 2 --source 21,3,4"
       "4 --comm peer --procs 2,2,1 --periodic x,y --source 21,18,9"
       "3 --comm peer --procs 3,1,1 --periodic x --radius 7 --precision fp64 --source 14,2,30")
forms=("--update cells" "--update tile --steps-per-graph 4" "--update cells --steps-per-graph 1"
       "--update tile --steps-per-graph 16 --nan-check 5")
for c in "${cases[@]}"; do
  # shellcheck disable=SC2086 # each case and form is a list of flags
  base=$(run $c --update tile --steps-per-graph 1)
  if [[ $base != checksum:* ]]; then
    echo "DIFFER: $c: the tile, one step at a time, gave '$base'"
    status=1
    continue
  fi
  for f in "${forms[@]}"; do
    # shellcheck disable=SC2086
    got=$(run $c $f)
    if [ "$got" = "$base" ]; then
      echo "same bits: $c: $f: $got"
    else
      echo "DIFFER: $c: $f gave '$got', the tile one step at a time '$base'"
      status=1
    fi
  done
done
exit $status
