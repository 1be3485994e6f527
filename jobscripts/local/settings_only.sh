# shellcheck shell=bash
# Sourced first by the local drivers that take their settings from the
# environment (scaling.sh, calibrate.sh): --help prints the script's header
# comment; any other argument is refused in one line, before anything runs.
if [ $# -gt 0 ]; then
  if [ "$1" != --help ] && [ "$1" != -h ]; then
    echo "$(basename "$0"): takes no arguments; its settings come from the environment (--help)" >&2
    exit 2
  fi
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit 0
fi
