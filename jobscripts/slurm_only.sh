# shellcheck shell=bash
# Sourced by every Slurm job script as soon as it is in the folder it was
# submitted from, before its site file: --help prints the script's header
# (its #SBATCH lines and what it runs); outside an allocation the script
# stops in one line, before it makes a results folder or loads a module.
if [ "${1:-}" = --help ] || [ "${1:-}" = -h ]; then
  sed -n '2,$p' "$0" | awk '/^#/ {print; next} {exit}' | sed 's/^# //; s/^#$//'
  exit 0
fi
if [ -z "${SLURM_JOB_ID:-}" ]; then
  echo "$(basename "$0"): runs inside a Slurm allocation (sbatch $0); on a machine without" \
    "Slurm, use jobscripts/local/scaling.sh or jobscripts/local/run.sh" >&2
  exit 2
fi
