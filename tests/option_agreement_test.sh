#!/usr/bin/env bash
# Ranks launched with different command lines (an MPMD launch, parts
# joined by ':') are refused before the first step in one line naming the
# option that differs. They hung (--steps 12 beside --steps 10), or exited
# 0 with a checksum of neither problem (another --precision or --source on
# one rank). The same options written as --steps=12 and --steps 12 agree.
# usage: option_agreement_test.sh MPIEXEC NUMPROC_FLAG APP WORKDIR [PREFLAGS...]
set -euo pipefail
mpiexec=$1 np_flag=$2 app=$3 work=$4
shift 4
preflags=("$@")
expect=$(dirname "$0")/expect_failure.sh
rm -rf "$work" && mkdir -p "$work"
fail() { echo "option_agreement_test: $*"; exit 1; }
# mpmd "FIRST ARGS" "SECOND ARGS": the command line of one rank each, in
# the array $line (each part word-split on purpose).
mpmd() {
  # shellcheck disable=SC2206,SC2054 # each part's arguments are words; commas inside the grid size
  line=("$mpiexec" "$np_flag" 1 "${preflags[@]}" "$app" --grid 16,16,16 --quiet $1 : "$np_flag" 1 "$app"
        --grid 16,16,16 --quiet $2)
}
mpmd "--steps 12" "--steps 10"
bash "$expect" 20 "the ranks were given different options: --steps is '12' on rank 0 and '10' on rank 1" "${line[@]}"
mpmd "--steps 12" "--steps 12 --precision fp64"
bash "$expect" 20 "the ranks were given different options: --precision is given on rank 1 and not on rank 0" "${line[@]}"
mpmd "--steps 12 --source 1,1,1" "--steps 12 --source 2,1,1"
bash "$expect" 20 "the ranks were given different options: --source is '1,1,1' on rank 0 and '2,1,1' on rank 1" "${line[@]}"
mpmd "--steps 12 --steps 12" "--steps 12 --checksum"
bash "$expect" 20 "the ranks were given different options: the command lines part after '12': '--steps' on rank 0, '--checksum' on rank 1" "${line[@]}"
mpmd "--steps=4 --checksum" "--steps 4 --checksum"
"${line[@]}" >"$work/same.txt" 2>&1 || { cat "$work/same.txt"; fail "--steps=4 and --steps 4 were taken for different options"; }
# The same options, but each part its own OMP_NUM_THREADS (HOST back-end).
# shellcheck disable=SC2054 # commas inside the grid size
line=("$mpiexec" "$np_flag" 1 "${preflags[@]}" env OMP_NUM_THREADS=1 "$app" --grid 16,16,16 --quiet --steps 4 :
      "$np_flag" 1 env OMP_NUM_THREADS=2 "$app" --grid 16,16,16 --quiet --steps 4)
if "$mpiexec" "$np_flag" 1 "${preflags[@]}" "$app" --grid 8,8,8 --steps 1 --warmup 0 2>/dev/null | grep -q "HOST back-end"; then
  bash "$expect" 20 "the ranks run OpenMP teams of 1 to 2 threads" "${line[@]}"
fi
echo "option agreement ok"
