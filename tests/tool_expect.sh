# shellcheck shell=bash disable=SC2154 # work: the sourcing test's
# Sourced by the tests of the Python tools. Needs $work (a scratch folder)
# and a function fail MESSAGE.
#
# expect STATUS LABEL COMMAND...: COMMAND exits with STATUS (any non-zero
# for "nonzero"), with no traceback; a refusal (any status but 0, 1 and 3,
# which tools use for findings) is one line on stderr. Its output is left
# in $work/out.txt and $work/err.txt.
expect() {
  local want=$1 label=$2 status=0
  shift 2
  "$@" >"$work/out.txt" 2>"$work/err.txt" || status=$?
  if [ "$want" = nonzero ]; then [ "$status" -ne 0 ] || fail "$label: exited 0"
  else [ "$status" -eq "$want" ] || { cat "$work/out.txt" "$work/err.txt"; fail "$label: exit $status, not $want"; }; fi
  ! grep -q Traceback "$work/err.txt" || { cat "$work/err.txt"; fail "$label: a traceback"; }
  if [ "$status" -ne 0 ] && [ "$want" != 1 ] && [ "$want" != 3 ]; then
    [ "$(wc -l <"$work/err.txt")" -eq 1 ] || { cat "$work/err.txt"; fail "$label: not one line on stderr"; }
  fi
  echo "ok  $label: exit $status${status:+ }$(head -c 150 "$work/err.txt")"
}

# said LABEL TEXT FILE...: the output holds TEXT (a fixed string).
said() {
  local label=$1 text=$2
  shift 2
  grep -qF -- "$text" "$@" || { cat "$@"; fail "$label: does not say '$text'"; }
}
