#!/usr/bin/env bash
# The figure of merit does not depend on how long the run is: 300 steps
# run at least half as fast per step as 30 in the same job. Subnormal
# floats (the stencil's far tails, ahead of the wave) broke this on CPUs
# that handle them in microcode, 14x slower by the end of the default run;
# the HOST back-end now flushes them (kernels/host_denormals.hpp), which the
# HostDenormals tests check without a clock. Run it on a quiet node: a timed
# ratio is a measurement, and a busy machine makes it say nothing.
# usage: tools/fom-steady.sh MPIEXEC NUMPROC_FLAG APP [PREFLAGS...]
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "fom-steady.sh: usage: tools/fom-steady.sh MPIEXEC NUMPROC_FLAG APP [PREFLAGS...]" >&2
  exit 2
fi
mpiexec=$1 np_flag=$2 app=$3
shift 3
# Each missing program in one line: otherwise the pipe below hides why (a
# missing APP ended with mpirun's status 132 and no word).
command -v "$mpiexec" >/dev/null || { echo "fom-steady.sh: $mpiexec: no such launcher" >&2; exit 2; }
{ [ -x "$app" ] && [ -f "$app" ]; } || { echo "fom-steady.sh: $app: no such program (build first)" >&2; exit 2; }
fom() {
  "$mpiexec" "$np_flag" 2 "$@" --grid 96,96,96 --steps "$steps" --quiet 2>&1 | sed -n 's/^FOM: \([0-9.]*\) .*/\1/p'
}
steps=30 short=$(fom "$@" "$app")
steps=300 long=$(fom "$@" "$app")
if [ -z "$short" ] || [ -z "$long" ]; then echo "fom-steady.sh: a run printed no FOM line" >&2; exit 1; fi
python3 - "$short" "$long" <<'PY'
import sys
short, long = map(float, sys.argv[1:])
ratio = long / short
print("FOM: %.4f Gcell/s over 30 steps, %.4f over 300: ratio %.2f" % (short, long, ratio))
sys.exit(0 if ratio >= 0.5 else 1)
PY
