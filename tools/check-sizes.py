#!/usr/bin/env python3
"""The project's size rules for C++ sources: no file over 400 lines, no
function over 60 (the kernels' bodies, kernels/*.cu, fused_walk.hpp and
slab_walk.hpp, are exempt from the second rule). One line per offender,
`path:line: ...`; exit 1 if any, 0 if none, 2 on bad input.

usage: check-sizes.py [--skip-without-ctags] [FILE...]
  without FILEs: every *.cpp, *.hpp and *.cu that `git ls-files` lists in
  the current directory's repository and the working tree holds, paths
  relative to its top level, but for docs/data/ (records of what ran).
  --skip-without-ctags: without Universal Ctags, say so in one line and
  exit 77 (ctest's skip) instead of 2: a GPU node need not have it.

Functions are measured with Universal Ctags (C++ parser, `f` kind, with the
`end` field): from the line holding the name to the closing brace.
What it sees and what it does not:
  - free functions, member functions in and out of their class, operators,
    constructors, templates (the `template <...>` line above the name is not
    counted);
  - lambdas, as functions of their own (named here "lambda in SCOPE"); their
    lines also count in the function around them;
  - GoogleTest bodies, TEST(Suite, Name) { ... }, as a function TEST;
  - both branches of #if/#else, each as written;
  - not functions written by a macro's expansion (#define bodies); a macro
    call with no `;` after it, followed by a function, is taken for the
    function's head, so that function is reported under the macro's name.
"""
import fnmatch
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tool_errors import ToolError, run  # noqa: E402

MAX_FILE_LINES = 400
MAX_FUNCTION_LINES = 60
SOURCES = ("*.cpp", "*.hpp", "*.cu")
# Kernel bodies are written out long on purpose: one walk per launch.
FUNCTION_EXEMPT = ("kernels/*.cu", "kernels/fused_walk.hpp", "kernels/slab_walk.hpp")


def git_sources():
    """The tracked C++ sources of the current directory's repository, relative to its top."""
    try:
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True,
                             text=True, check=True).stdout.strip()
        listed = subprocess.run(["git", "ls-files", "--", *SOURCES], cwd=top, capture_output=True,
                                text=True, check=True).stdout
    except FileNotFoundError:
        raise ToolError("git not found") from None
    except subprocess.CalledProcessError:
        raise ToolError(f"{os.getcwd()}: not in a git repository; name the files instead") from None
    os.chdir(top)
    # A file deleted but not committed yet is no source any more; docs/data
    # holds records of what ran (probes built beside the mini-app on a GPU
    # node), kept as they ran, not the project's sources.
    return [line for line in listed.splitlines()
            if line and os.path.isfile(line) and not line.startswith("docs/data/")]


def line_count(path):
    """Lines as `wc -l` counts them, plus a last line without its newline."""
    if os.path.isdir(path):
        raise ToolError(f"{path}: a folder, not a source file")
    with open(path, "rb") as f:
        data = f.read()
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


SKIPPED = 77  # ctest's SKIP_RETURN_CODE for the tests that run this


def have_universal_ctags():
    try:
        out = subprocess.run(["ctags", "--version"], capture_output=True, text=True).stdout
    except FileNotFoundError:
        return False
    return "Universal Ctags" in out


def exempt(path):
    rel = os.path.normpath(path).replace(os.sep, "/")
    return any(fnmatch.fnmatch(rel, pattern) for pattern in FUNCTION_EXEMPT)


def functions(paths):
    """(path, first line, last line, name) of every function ctags finds in `paths`."""
    if not paths:
        return []
    command = ["ctags", "--languages=C++", "--map-C++=+.cu", "--kinds-C++=f", "--fields=+neS",
               "-x", "--_xformat=%N\t%F\t%n\t%{end}\t%{signature}\t%{scope}", *paths]
    try:
        result = subprocess.run(command, capture_output=True, text=True)
    except FileNotFoundError:
        raise ToolError("ctags not found: install Universal Ctags (tools/install-deps.sh)") from None
    if result.returncode != 0:
        first = (result.stderr.strip().splitlines() or ["no message"])[0]
        raise ToolError(f"ctags failed ({first}); is it Universal Ctags?")
    found = []
    for line in result.stdout.splitlines():
        name, path, first, last, signature, scope = (line.split("\t") + [""] * 6)[:6]
        if not last:
            continue  # no end found (an unbalanced body): nothing to measure
        if name.startswith("__anon"):
            name = f"lambda in {scope or 'file scope'}"
        elif name.startswith("TEST"):
            name += signature.replace(",", ", ")
        found.append((path, int(first), int(last), name))
    return found


def offenders(paths):
    lines = []
    for path in paths:
        n = line_count(path)
        if n > MAX_FILE_LINES:
            lines.append((path, 1, f"file is {n} lines (at most {MAX_FILE_LINES})"))
    measured = [p for p in paths if not exempt(p)]
    for path, first, last, name in functions(measured):
        n = last - first + 1
        if n > MAX_FUNCTION_LINES:
            lines.append((path, first, f"function {name} is {n} lines (at most {MAX_FUNCTION_LINES})"))
    return sorted(lines)


def main():
    args = sys.argv[1:]
    if any(a in ("-h", "--help") for a in args):
        print(__doc__.strip())
        return 0
    skip_without_ctags = "--skip-without-ctags" in args
    args = [a for a in args if a != "--skip-without-ctags"]
    for a in args:
        if a.startswith("-"):
            raise ToolError(f"unknown option {a} (usage: check-sizes.py [FILE...])")
    if skip_without_ctags and not have_universal_ctags():
        print("check-sizes: skipped: no Universal Ctags here (tools/install-deps.sh installs it)")
        return SKIPPED
    paths = args or git_sources()
    found = offenders(paths)
    for path, line, what in found:
        print(f"{path}:{line}: {what}")
    return 1 if found else 0


if __name__ == "__main__":
    run(main)
