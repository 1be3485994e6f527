#!/usr/bin/env bash
# Fails loudly unless APP links the MPI library named: Debian installs Open
# MPI and MPICH side by side, and a build that fell back to the other one
# would test the same library twice and say it tested both.
# usage: tools/check-mpi-link.sh APP openmpi|mpich
set -euo pipefail
app=$1 want=$2
libs=$(ldd "$app" | grep -Ei 'libmpi|open-pal|open-rte' || true)
openmpi=false mpich=false
grep -Eq 'libmpi\.so\.40|libopen-(pal|rte)' <<<"$libs" && openmpi=true
grep -q 'libmpich' <<<"$libs" && mpich=true
case "$want" in
  openmpi) ok=$openmpi other=$mpich ;;
  mpich) ok=$mpich other=$openmpi ;;
  *) echo "check-mpi-link: want openmpi or mpich, not '$want'" >&2; exit 2 ;;
esac
if ! $ok || $other; then
  echo "check-mpi-link: $app should link $want only; it links:" >&2
  echo "${libs:-  (no MPI library)}" >&2
  exit 1
fi
echo "check-mpi-link: $app links $want: $(awk '{print $1}' <<<"$libs" | tr '\n' ' ')"
