#!/usr/bin/env bash
# cmake --install, then the installed programs, tools and job scripts from
# the prefix alone, as a computing centre's user would run them: from an
# empty folder, with PATH naming the prefix's bin/ and the system's, nothing
# of the checkout or the build folder in view. The prefix holds a space.
#  - each program and tool answers --version with the build's version;
#  - a short job: mpirun -np 2 stencil-miniapp --grid 32,32,32 --steps 5,
#    with snapshots and SEG-Y traces, verified by stencil-verify-output and
#    read by the installed Python package;
#  - a study tool: the installed jobscripts/local/scaling.sh (two runs and
#    the collector), and stencil-report-table on a report;
#  - no installed text file names the source tree or the build folder, no
#    installed job script a build folder, every one parses (bash -n);
#  - nothing is written into the prefix (Python's own __pycache__ aside);
#  - a prefix the job scripts cannot name is refused before any file is
#    installed.
# usage: install_test.sh BUILD_DIR MPIEXEC
set -euo pipefail
build=$(cd "$1" && pwd) mpiexec=$2
source_dir=$(cd "$(dirname "$0")/.." && pwd)
# A temporary folder outside the checkout and the build, kept where the
# test fails, so that what went wrong can be looked at.
work=$(mktemp -d "${TMPDIR:-/tmp}/stencil-install-test.XXXXXX")
fail() { echo "install_test: $* (files in $work)"; exit 1; }
mkdir -p "$work/run here"
prefix="$work/odd prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.txt" 2>&1 || { cat "$work/install.txt"; fail "cmake --install failed"; }
python_dir=$(find "$prefix/lib" -type d -name site-packages | head -1)
[ -f "$python_dir/stencil_miniapp/__init__.py" ] || fail "no Python package under $prefix/lib"
bad=$(grep -rIl -e "$source_dir" -e "$build" "$prefix" || true)
[ -z "$bad" ] || fail "installed files name the checkout or the build folder: $bad"
while IFS= read -r -d '' script; do
  bash -n "$script" || fail "$script does not parse"
  # shellcheck disable=SC2016 # the $ are the scripts', matched literally
  ! grep -nE '(^|[^a-z])build(-hip|-cuda)?/(miniapp|bench)/|source jobscripts/|cd "\$\(dirname "\$0"\)/\.\./\.\."' "$script" ||
    fail "$script still names a checkout's path"
done < <(find "$prefix/share/stencil-miniapp/jobscripts" \( -name '*.sh' -o -name '*.sbatch' \) -print0)
# A prefix the job scripts cannot name ($, a line break) is refused before
# any file goes in.
# shellcheck disable=SC2016 # the $ is the folder's name
for refused in "$work/cost\$HOME" "$work/two"$'\n'"lines"; do
  if cmake --install "$build" --prefix "$refused" >"$work/install-refused.txt" 2>&1; then
    fail "cmake --install into a prefix holding \$ or a line break was not refused"
  fi
  grep -q "cannot name a prefix holding" "$work/install-refused.txt" || { cat "$work/install-refused.txt"; fail "the refusal does not say why"; }
  [ ! -e "$refused" ] || fail "the refused install left files: $(find "$refused" | head -3)"
done
# A prefix relative to the folder cmake --install runs in: the job scripts
# must still name it absolutely.
(cd "$work" && cmake --install "$build" --prefix relative >"$work/install-relative.txt" 2>&1) ||
  { cat "$work/install-relative.txt"; fail "cmake --install --prefix relative failed"; }
grep -qF "APP=\${APP:-\"$work/relative/bin/stencil-miniapp\"}" "$work/relative/share/stencil-miniapp/jobscripts/local/run.sh" ||
  fail "a relative prefix is not named absolutely in the installed run.sh"
touch "$work/stamp"
sleep 1
# The user's view: the prefix, the system's programs (mpirun, python3), nothing else.
in_prefix() {
  (cd "$work/run here" && env -i HOME="$work/run here" PATH="$prefix/bin:/usr/local/bin:/usr/bin:/bin" \
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
    OMP_NUM_THREADS=1 "$@")
}
version=$("$build/miniapp/stencil-miniapp" --version | sed 's/^stencil-miniapp //')
for program in stencil-miniapp stencil-halo-bench stencil-bench stencil-verify-output stencil-report-table \
  stencil-make-model stencil-timeline-svg stencil-collect stencil-project; do
  [ -x "$prefix/bin/$program" ] || { [ "$program" = stencil-bench ] && continue; fail "no $program in bin/"; }
  said=$(in_prefix "$program" --version) || fail "$program --version failed"
  [ "$said" = "$program $version" ] || fail "$program --version says '$said', not '$program $version'"
done
launcher=$(basename "$mpiexec")
in_prefix "$launcher" -np 2 stencil-miniapp --grid 32,32,32 --steps 5 --snapshot-every 5 --receiver-line z=3 \
  --trace-format both --output out --report run.json >"$work/job.txt" 2>&1 || { cat "$work/job.txt"; fail "the job failed"; }
grep -q "^FOM:" "$work/job.txt" || fail "the job printed no FOM line"
in_prefix stencil-verify-output out >"$work/verify.txt" || { cat "$work/verify.txt"; fail "the job's outputs do not verify"; }
in_prefix stencil-report-table miniapp run.json >"$work/table.txt" || { cat "$work/table.txt"; fail "report-table failed"; }
in_prefix env PYTHONPATH="$python_dir" python3 -c 'import stencil_miniapp as sm, sys
p = sm.read_snapshot("out/snapshot_000005.xmf", xarray=False, verify=True)
t = sm.read_traces("out/traces.sgy", xarray=False)
r = sm.read_report("run.json")
assert p.shape == (32, 32, 32) and t.shape == (32, 5) and r["version"] in sm.__version__, (p.shape, t.shape)
print("python: read_snapshot, read_traces, read_report from the prefix")' || fail "the installed Python package does not read the job's files"
in_prefix env RANKS_LIST="1 2" WEAK_LOCAL=16,16,16 STUDIES=weak STEPS=3 WARMUP=1 RESULTS=study \
  "$prefix/share/stencil-miniapp/jobscripts/local/scaling.sh" >"$work/study.txt" 2>&1 ||
  { cat "$work/study.txt"; fail "the installed scaling.sh failed"; }
[ -f "$work/run here/study/scaling.md" ] || fail "the study wrote no scaling.md"
changed=$(find "$prefix" -newer "$work/stamp" -not -type d -not -path '*/__pycache__*' -print)
[ -z "$changed" ] || fail "the runs wrote into the prefix: $changed"
echo "install_test: the programs, tools, job scripts and Python package run from the prefix alone ($version)"
rm -rf "$work"
