#!/usr/bin/env bash
# tools/check-data-index.py can fail: on a copy of docs/data's index in a
# scratch folder with five planted faults (a folder without a row, a folder
# without a README, a row for no folder, a row twice, two rows out of order)
# and five call scripts that break the driver rule (one with neither the
# driver nor a record line, one with its own preamble beside the driver, a
# record line off line 2, a record dated before its folder, a record with
# no date) it names each, one line each, and exits 1; scripts that source
# tools/gpu/common.sh, call tools/gpu.sh or carry a record line pass, and
# so does the repository's index. Bad input is one line and exit 2.
# usage: check_data_index_test.sh SCRATCH_DIR
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
check=("${PYTHON:-python3}" "$repo/tools/check-data-index.py")
scratch=${1:?usage: check_data_index_test.sh SCRATCH_DIR}
fail() { echo "check_data_index: $*"; exit 1; }

"${check[@]}" || fail "the repository's docs/data index does not pass"

rm -rf "$scratch" && mkdir -p "$scratch"
for d in alpha beta gamma; do mkdir "$scratch/$d" && echo "# $d" >"$scratch/$d/README.md"; done
mkdir "$scratch/delta" "$scratch/epsilon" && echo "# epsilon" >"$scratch/epsilon/README.md"
cat >"$scratch/README.md" <<'INDEX'
# Measured data

| folder | what |
|---|---|
| [`alpha/`](alpha/README.md) | first |
| [`gamma/`](gamma/README.md) | third, before the second |
| [`beta/`](beta/README.md) | second |
| [`beta/`](beta/README.md) | second, twice |
| [`delta/`](delta/README.md) | a folder without a README |
| [`zeta/`](zeta/README.md) | a row for no folder |
| [`zulu-2026-12-01/`](zulu-2026-12-01/README.md) | call scripts, below |
INDEX
# Call scripts: three that pass, then the five faults.
cat >"$scratch/alpha/driven.sh" <<'SCRIPT'
#!/usr/bin/env bash
set -euo pipefail
source tools/gpu/common.sh
gpu_env
SCRIPT
cat >"$scratch/alpha/part.sh" <<'SCRIPT'
#!/usr/bin/env bash
OUT=/tmp/out bash tools/gpu.sh check --skip-bench
SCRIPT
cat >"$scratch/alpha/kept.sh" <<'SCRIPT'
#!/usr/bin/env bash
# Record: ran on 2026-11-27 as it stands; new call scripts source tools/gpu/common.sh.
source tools/offline-deps.sh
SCRIPT
cat >"$scratch/beta/own.sh" <<'SCRIPT'
#!/usr/bin/env bash
# tools/gpu/common.sh is named here in a comment only.
export PATH=/usr/local/cuda/bin:$PATH
cmake -S . -B build -DSTENCIL_BACKEND=CUDA && cmake --build build
SCRIPT
cat >"$scratch/beta/both.sh" <<'SCRIPT'
#!/usr/bin/env bash
source tools/offline-deps.sh
tools/gpu.sh check
SCRIPT
mkdir "$scratch/zulu-2026-12-01"
printf '%s\n' '#!/usr/bin/env bash' '# A call.' \
  '# Record: ran on 2026-12-01 as it stands; new call scripts source tools/gpu/common.sh.' >"$scratch/zulu-2026-12-01/late.sh"
printf '%s\n' '#!/usr/bin/env bash' \
  '# Record: ran on 2026-11-30 as it stands; new call scripts source tools/gpu/common.sh.' >"$scratch/zulu-2026-12-01/early.sh"
printf '%s\n' '#!/usr/bin/env bash' \
  '# Record: ran on 2026-12-32 as it stands; new call scripts source tools/gpu/common.sh.' >"$scratch/zulu-2026-12-01/undated.sh"
echo "# zulu" >"$scratch/zulu-2026-12-01/README.md"
status=0
out=$("${check[@]}" "$scratch") || status=$?
echo "$out"
[ "$status" -eq 1 ] || fail "exit $status, not 1"
record="or mark a record on line 2: '# Record: ran on YYYY-MM-DD as it stands; new call scripts source tools/gpu/common.sh.'"
expected="README.md:10: zeta/ is not a folder of $scratch
README.md:8: beta/ has a row already, at line 7
delta/: no README.md
epsilon/: no row in README.md's table
README.md:7: beta/ comes after gamma/; the rows go in the folders' order
beta/both.sh: sources tools/offline-deps.sh itself (a preamble of its own); source tools/gpu/common.sh, $record
beta/own.sh: neither sources tools/gpu/common.sh nor calls tools/gpu.sh; use the driver, $record
zulu-2026-12-01/early.sh:2: the record says it ran on 2026-11-30, before its folder's date 2026-12-01
zulu-2026-12-01/late.sh:3: the record line goes on line 2, under the shebang
zulu-2026-12-01/undated.sh:2: the record's date 2026-12-32 is not a date (YYYY-MM-DD)"
[ "$out" = "$expected" ] || fail "not the ten planted faults"

# Bad input: one line on stderr, exit 2.
status=0
err=$("${check[@]}" "$scratch/no-such-folder" 2>&1 >/dev/null) || status=$?
if [ "$status" -ne 2 ] || [ "$(echo "$err" | wc -l)" -ne 1 ]; then fail "bad input: exit $status, '$err'"; fi
echo "check-data-index reports what it should"
