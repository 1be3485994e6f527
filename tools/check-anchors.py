#!/usr/bin/env python3
"""The docs' pointers into the code still hold: every anchor names a file
that exists and a symbol that file still has. One line per failure,
`DOC:LINE: ...`; exit 1 if any, 0 if none, 2 on bad input.

usage: check-anchors.py [--root DIR] [DOC...]
  without DOCs: docs/STEP.md and docs/ARCHITECTURE.md.
  --root DIR: the tree the anchors' paths are relative to (default: the
  folder above tools/, this script's repository).

What it checks:
  - anchors `PATH: SYMBOL`, in backticks or in a code block, on one line:
    PATH from the top of the repository, SYMBOL an identifier or a
    qualified name (`HaloExchange::pack`). The file must exist and hold
    every part of the name as a whole word (`grep -w`); a qualified name
    must also be written so in it (`HaloExchange<T>::pack`, as a .cpp
    defines a member) or be a member of a class the file declares.
  - the map's entries (ARCHITECTURE.md): under a heading that names a
    folder (`## halo/`, `## Rooms of miniapp/`), a bullet `- [room/ ]`NAME`,
    ...: text` names files in that folder (`halo_plan` is halo_plan.hpp and
    halo_plan.cpp, `tuner.*` every tuner file, `device.hpp/.cpp` both);
    each NAME must be there, and each name in backticks in the text must
    be a file of the folder or appear, as above, in one of the entry's.
  - quoted values: a constant's value written beside its anchor,
    `PATH: kName` (VALUE), `PATH: kName` (VALUE UNIT) or `PATH: kName` = VALUE,
    must be the value PATH defines (`constexpr int kName = 8;`, literal
    arithmetic such as `100LL * 100 * 100`; VALUE may be a cube, `100³`).
    A value in another form beside an anchor, before it (`8 (`PATH: kName`)`)
    or beside a constant without its file (`kName` (8)) is reported too.
    The rules in full: tools/anchor_values.py.
  - line numbers: `PATH:123` is reported, since lines move and names do not.
"""
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from anchor_values import QuotedValues  # noqa: E402
from tool_errors import ToolError, run  # noqa: E402

DEFAULT_DOCS = ("docs/STEP.md", "docs/ARCHITECTURE.md")
PATH = r"[A-Za-z0-9_][\w./-]*\.(?:cpp|hpp|cu|h|c|py|sh|cmake|txt)"
SYMBOL = r"~?[A-Za-z_]\w*(?:::~?[A-Za-z_]\w*)*"
# The path must not continue a longer word, so `foo/bar.cpp` is read whole.
ANCHOR = re.compile(rf"(?<![\w./-])({PATH}): ({SYMBOL})(?![\w(<])")
LINE_NUMBER = re.compile(rf"(?<![\w./-])({PATH}):(\d+)")
# An anchor whose symbol went to the next line is read by no one: refuse it.
SPLIT = re.compile(rf"`({PATH}):$")
# A map entry: "- `name`, `name`: text" or "- config/ `name`: text".
MAP_ENTRY = re.compile(r"^- (?:(\w+)/ )?((?:`[^`]+`(?: \([^)]*\))?(?:, )?)+):(.*)$")
# Backticked words of a map entry's text that are names in the code:
# `Stream`, `HaloPath<T>`, `FaceRoutes::prime`, `subnormal_handling()`.
CODE_NAME = re.compile(r"`([A-Za-z_]\w*)(?:<[\w, ]*>)?((?:::\w+)*)(?:\(\))?`")
QUOTED_VALUES = QuotedValues(PATH, SYMBOL)


class Repo:
    """The tree the docs point into, each file read once."""

    def __init__(self, root):
        self.root = root
        self.texts = {}

    def exists(self, path):
        return os.path.isfile(os.path.join(self.root, path))

    def text(self, path):
        if path not in self.texts:
            with open(os.path.join(self.root, path), encoding="utf-8", errors="replace") as f:
                self.texts[path] = f.read()
        return self.texts[path]

    def has_word(self, path, word):
        # A word match, as `grep -w`: `run` is not found in `run_plain`.
        pattern = r"(?<!\w)" + re.escape(word) + r"(?!\w)"
        return re.search(pattern, self.text(path)) is not None

    def has_member(self, path, owner, member):
        """`owner::member` in `path`: written so (`Owner<T>::member`, as a .cpp
        defines it), or `member` in a file that declares `owner` (a header)."""
        qualified = rf"(?<!\w){re.escape(owner)}(?:<[^;{{}}()]*?>)?::~?{re.escape(member)}(?!\w)"
        if re.search(qualified, self.text(path)):
            return True
        # Not `template class Owner<float>;`, an instantiation in a .cpp.
        kind = r"(?<!template )(?:class|struct|enum class|enum)"
        declared = rf"(?<!\w){kind}\s+{re.escape(owner)}(?!\w)"
        return bool(re.search(declared, self.text(path))) and self.has_word(path, member)


def symbol_parts(symbol):
    """The words a qualified name is made of: `A::b` is `A` and `b`."""
    return [part.lstrip("~") for part in symbol.split("::")]


def missing_in(repo, path, parts):
    """The first part of a name that `path` lacks, or None: every part as a
    word, and the last two as owner and member (a word alone is too weak:
    `HaloExchange::packs` would pass on a comment's "packs")."""
    for part in parts:
        if not repo.has_word(path, part):
            return part
    if len(parts) > 1 and not repo.has_member(path, parts[-2], parts[-1]):
        return "::".join(parts[-2:])
    return None


def check_anchor(repo, path, symbol):
    """Why `path: symbol` does not hold, or None where it does."""
    if not repo.exists(path):
        return f"no file {path} (anchor `{path}: {symbol}`)"
    missing = missing_in(repo, path, symbol_parts(symbol))
    if missing:
        return f"no `{missing}` in {path} (anchor `{path}: {symbol}`)"
    return None


def anchor_failures(repo, line):
    """The failures of one doc line's anchors, line numbers and quoted values."""
    failures = []
    for match in ANCHOR.finditer(line):
        why = check_anchor(repo, match.group(1), match.group(2))
        if why:
            failures.append(why)
    for match in LINE_NUMBER.finditer(line):
        path = match.group(1)
        failures.append(f"line number in `{match.group(0)}`: anchor by symbol (`{path}: SYMBOL`)")
    for match in SPLIT.finditer(line):
        failures.append(f"anchor `{match.group(1)}:` split over two lines; keep it on one")
    return failures + QUOTED_VALUES.failures(repo, line)


def heading_folder(line):
    """The folder a heading names (`## Rooms of miniapp/` is miniapp/), or None."""
    words = line.lstrip("#").split()
    if words and words[-1].endswith("/"):
        return words[-1]
    return None


def name_files(repo, base, name):
    """The files under `base` that one name of a map entry stands for."""
    # `device.hpp/.cpp` is device.hpp and device.cpp.
    stem, _, more = name.partition("/.")
    variants = [stem] + ([os.path.splitext(stem)[0] + "." + more] if more else [])
    found = []
    for variant in variants:
        # A bare stem (`halo_plan`) stands for each of its files.
        pattern = variant if "." in variant or "*" in variant else variant + ".*"
        matches = glob.glob(os.path.join(repo.root, base + pattern))
        found += [os.path.relpath(m, repo.root) for m in sorted(matches)]
    return [f for f in found if repo.exists(f)]


def missing_part(repo, files, name):
    """The first part of a code name (`A::b`, `A<T>`) that no file of `files` has, or None."""
    parts = [name.group(1)] + [p for p in name.group(2).split("::") if p]
    lacks = [missing_in(repo, f, parts) for f in files]
    return None if None in lacks else lacks[0]


def map_failures(repo, folder, line):
    """The failures of one map entry under `folder`, or [] if `line` is none."""
    match = MAP_ENTRY.match(line)
    if not match:
        return []
    room, names_text, text = match.groups()
    base = folder + (room + "/" if room else "")
    failures, files = [], []
    for name in re.findall(r"`([^`]+)`", names_text):
        found = name_files(repo, base, name)
        if not found:
            failures.append(f"no file for `{name}` in {base} (map entry)")
        files += found
    for name in CODE_NAME.finditer(text):
        # An entry may name a further file of its folder in its text
        # ("...; `output_setup`: folder and space").
        if not files or name_files(repo, base, name.group(1)):
            continue
        part = missing_part(repo, files, name)
        if part:
            failures.append(f"no `{part}` in {', '.join(files)} (map entry)")
    return failures


def doc_failures(repo, doc):
    """(line number, message) for every failure in one doc."""
    try:
        with open(doc, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise ToolError(f"{doc}: {e.strerror}") from None
    failures, folder = [], None
    for number, line in enumerate(lines, 1):
        if line.startswith("#"):
            folder = heading_folder(line)
            continue
        found = anchor_failures(repo, line)
        if folder:
            found += map_failures(repo, folder, line)
        failures += [(number, why) for why in found]
    return failures


def parse_args(args):
    """(root, docs) from the command line."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    docs = []
    while args:
        arg = args.pop(0)
        if arg == "--root":
            if not args:
                raise ToolError("--root needs a folder (--help for the usage)")
            root = args.pop(0)
        elif arg.startswith("-"):
            raise ToolError(f"unknown option {arg} (--help for the usage)")
        else:
            docs.append(arg)
    if not os.path.isdir(root):
        raise ToolError(f"{root}: no such folder")
    return root, docs or [os.path.join(root, d) for d in DEFAULT_DOCS]


def shown_name(doc, root):
    """A doc of the tree named from its top, as the anchors are; others as given."""
    top = os.path.abspath(root)
    inside = os.path.commonpath([os.path.abspath(doc), top]) == top
    return os.path.relpath(doc, root) if inside else doc


def main():
    args = sys.argv[1:]
    if any(a in ("-h", "--help") for a in args):
        print(__doc__.strip())
        return 0
    root, docs = parse_args(args)
    repo = Repo(root)
    failed = 0
    for doc in docs:
        shown = shown_name(doc, root)
        for number, why in doc_failures(repo, doc):
            print(f"{shown}:{number}: {why}")
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    run(main)
