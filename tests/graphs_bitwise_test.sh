#!/usr/bin/env bash
# usage: graphs_bitwise_test.sh MPIEXEC NUMPROC_FLAG [PREFLAGS...] -- APP
# Runs the mini-app with its steps replayed as graphs (--graphs on, where
# the build has them) and as plain launches (--graphs off), over
# the schedules the graphs capture differently: one rank with nothing to
# exchange (one graph per step, source included), MPI across ranks with
# overlap on and off (a graph before the host's MPI calls and one after),
# and NCCL where the build has it (the exchange inside the graph). The
# final checksums must agree bit for bit. A build without graphs (the HOST
# back-end) refuses --graphs on; there both runs are plain launches
# (--graphs auto), so it checks only that the option is accepted. Warnings
# are no result: several ranks on one GPU warn of slow steps.
set -u
mpiexec=$1 np_flag=$2
shift 2
preflags=()
while [ "$1" != -- ]; do preflags+=("$1"); shift; done
app=$2
status=0
run() { # ranks args... -> the checksum line
  local ranks=$1; shift
  "$mpiexec" "$np_flag" "$ranks" "${preflags[@]}" "$app" --grid 48,40,36 --steps 20 --warmup 3 --checksum --quiet "$@" 2>&1 |
    grep -E '^checksum:|^stencil-miniapp:' | grep -v '^stencil-miniapp: warning: '
}
cases=("1 --comm none" "2 --comm staged --procs 1,1,2" "3 --comm staged --procs 3,1,1 --overlap off"
       "2 --comm staged --procs 1,2,1 --precision fp64")
"$app" --help | grep -q "nccl" && [ "${STENCIL_TEST_NCCL:-0}" = 1 ] && cases+=("2 --comm nccl --procs 1,1,2")
with=on
run 1 --comm none --graphs on | grep -q '^checksum:' || with=auto
echo "graphs: --graphs $with against --graphs off"
for c in "${cases[@]}"; do
  # shellcheck disable=SC2086 # each case is a list of flags
  plain=$(run $c --graphs off) graphs=$(run $c --graphs $with)
  if [ -n "$plain" ] && [ "$plain" = "$graphs" ] && [[ $plain == checksum:* ]]; then
    echo "same bits: $c: $plain"
  else
    echo "DIFFER: $c: --graphs off '$plain', --graphs $with '$graphs'"
    status=1
  fi
done
exit $status
