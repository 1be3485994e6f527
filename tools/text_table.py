"""Prints a table of strings as aligned columns, or as a Markdown table.

A cell is shown on one line whatever it holds, since some are the user's
text (a --label): a line break or other control character as its escape
(\\n, \\x1b), and in Markdown a | as \\|, which would otherwise end the cell.
"""
import re

# The characters that break a line or move the cursor: C0 and C1 controls
# and Unicode's line and paragraph separators.
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def one_line(cell, markdown):
    cell = CONTROL.sub(lambda m: repr(m.group())[1:-1], cell)
    return cell.replace("|", "\\|") if markdown else cell


def print_table(header, rows, markdown=False):
    header = [one_line(x, markdown) for x in header]
    rows = [[one_line(x, markdown) for x in row] for row in rows]
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for row in rows:
            print("| " + " | ".join(row) + " |")
        return
    widths = [max(len(x) for x in col) for col in zip(header, *rows)]
    fmt = "  ".join("{:>%d}" % w for w in widths)
    print(fmt.format(*header))
    for row in rows:
        print(fmt.format(*row))
