#!/usr/bin/env python3
"""The tables of the mini-app's and the benchmarks' reports, one kind each:

  bench    BENCH.json [--markdown]       a stencil-bench JSON report, and the
                                         kernels' performance targets
  miniapp  REPORT.json... [--markdown]   one row per stencil-miniapp report:
                                         phases, hidden exchange, Gcell/s,
                                         time over the --comm none run
  node     RUNS_FOLDER [--markdown]      tools/gpu.sh node: each run over one
                                         GPU's step, per round and the median
  peer     RESULTS_FOLDER                tools/gpu.sh peer: each case and path
                                         over one GPU's step (also table.txt)
  timing   REPORTS_DIR [--markdown]      tools/gpu.sh timing: 200 against 2,000
                                         steps, auto against the best forced
  ucx      HALO_ROWS.txt                 tools/gpu.sh ucx: us per halo exchange
                                         per library, setting, path and size

usage: report-table.py KIND ARGS...
       report-table.py KIND --help       that kind's page
exit:  0; 1 when a mini-app report failed its --check (its row marked
       FAILED, the table printed) or a benchmark's result was wrong (WRONG
       under the table); 2 on bad usage or a file that is not the kind's
       report, in one line on stderr
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import table_bench  # noqa: E402
import table_miniapp  # noqa: E402
import table_node  # noqa: E402
import table_peer  # noqa: E402
import table_timing  # noqa: E402
import table_ucx  # noqa: E402
from tool_errors import ToolError, run  # noqa: E402

KINDS = {"bench": table_bench, "miniapp": table_miniapp, "node": table_node, "peer": table_peer,
         "timing": table_timing, "ucx": table_ucx}


def main():
    args = sys.argv[1:]
    if args and args[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if not args:
        raise ToolError(f"name a kind of report: {', '.join(KINDS)} (--help for the usage)")
    kind = KINDS.get(args[0])
    if kind is None:
        raise ToolError(f"unknown kind {args[0]!r}: one of {', '.join(KINDS)} (--help for the usage)")
    if {"-h", "--help"} & set(args[1:]):
        print(kind.__doc__.strip())
        return 0
    return kind.main(args[1:])


if __name__ == "__main__":
    run(main)
