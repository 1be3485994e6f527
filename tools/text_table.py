"""Prints a table of strings as aligned columns, or as a Markdown table."""


def print_table(header, rows, markdown=False):
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
