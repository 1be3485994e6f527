"""The table of tools/gpu.sh ucx: microseconds per halo exchange, one row
per library and UCX setting, one column per halo path at each local size.

usage: report-table.py ucx HALO_ROWS.txt

HALO_ROWS.txt holds lines "LABEL MODE SIZE US" (halo-rows.txt of the
part); other lines (a FAILED run, a skipped path) are left out.
"""
from tool_errors import ToolError


def main(args):
    if len(args) != 1 or args[0].startswith("-"):
        raise ToolError("usage: report-table.py ucx HALO_ROWS.txt")
    rows, columns = {}, []
    try:
        with open(args[0]) as f:
            lines = f.read().splitlines()
    except IsADirectoryError:
        raise ToolError(f"{args[0]}: a folder, not a file") from None
    for line in lines:
        parts = line.split()
        if len(parts) != 4 or not parts[3].replace(".", "", 1).isdigit():
            continue  # a FAILED line, or a skipped path
        label, mode, size, us = parts
        column = f"{mode} {size}^3"
        if column not in columns:
            columns.append(column)
        rows.setdefault(label, {})[column] = us
    if not rows:
        raise ToolError(f"{args[0]}: no 'LABEL MODE SIZE US' rows: nothing to tabulate")
    width = max(len(r) for r in rows)
    print(" " * width + "".join(f"{c:>18}" for c in columns))
    for label, values in rows.items():
        print(f"{label:<{width}}" + "".join(f"{values.get(c, '-'):>18}" for c in columns))
    return 0
