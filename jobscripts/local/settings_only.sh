# shellcheck shell=bash
# Sourced first by the local drivers that take their settings from the
# environment (scaling.sh, calibrate.sh): --help prints the script's header
# comment; any other argument is refused in one line, before anything runs.
# stencil_counts checks their lists of counts the same way.
if [ $# -gt 0 ]; then
  if [ "$1" != --help ] && [ "$1" != -h ]; then
    echo "$(basename "$0"): takes no arguments; its settings come from the environment (--help)" >&2
    exit 2
  fi
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit 0
fi

# stencil_counts NAME LIST: one line and exit 2, before anything runs,
# unless LIST is one or more distinct whole numbers of 1 or more. mpirun
# reads -np 0 as every slot, and a word becomes its own complaint after
# the runs before it; a count named twice would be refused only when its
# second run came.
stencil_counts() {
  local n seen=" "
  for n in $2; do
    if ! [[ $n =~ ^[1-9][0-9]*$ ]]; then
      echo "$(basename "$0"): $1=\"$2\": $n is not a whole number of 1 or more" >&2
      exit 2
    fi
    case "$seen" in *" $n "*)
      echo "$(basename "$0"): $1=\"$2\" names $n twice" >&2
      exit 2
      ;;
    esac
    seen="$seen$n "
  done
  [ "$seen" != " " ] || { echo "$(basename "$0"): $1 is empty" >&2; exit 2; }
}

# stencil_absolute NAME...: each setting NAME that holds a relative path is
# made absolute against the current folder. The drivers call it before they
# move to the checkout, so that RESULTS=study means ./study of the folder
# they were started in, as it does for run.sh, and not a folder inside the
# checkout. TUNING's words off and auto name no file.
stencil_absolute() {
  local name
  for name in "$@"; do
    [[ $name == TUNING && ${!name:-} =~ ^(off|auto)$ ]] && continue
    case "${!name:-}" in "" | /*) ;; *) printf -v "$name" '%s/%s' "$PWD" "${!name}" ;; esac
  done
}
