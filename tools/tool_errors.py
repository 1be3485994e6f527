"""Bad input to a command-line tool ends in one line on stderr and exit
status 2, never a traceback: a missing or truncated file, JSON that is not
a stencil-miniapp or stencil-bench report, gives a key twice or is nested
too deeply to read, a folder where a file was meant.

usage, in a tool:  from tool_errors import ToolError, load_json, run
                   ...
                   if __name__ == "__main__":
                       run(main)
(jobscripts/ reaches this folder through sys.path.)
"""
import argparse
import json
import os
import sys

from stencil_version import print_version_if_asked


class ToolError(Exception):
    """A message for the user, printed as it is."""


class OneLineParser(argparse.ArgumentParser):
    """argparse whose errors are one line (a ToolError), not usage and error."""

    def error(self, message):
        raise ToolError(f"{message} (--help for the usage)")


def refuse_constant(name):
    raise ValueError(f"{name} is not a JSON number")


def unique_keys(pairs):
    """An object whose keys are each given once: JSON allows a key twice,
    and Python keeps the last one silently, which of two link speeds, say,
    the writer meant."""
    found = {}
    for key, value in pairs:
        if key in found:
            raise ValueError(f"key {key!r} given twice in one object: which is meant?")
        found[key] = value
    return found


def load_json(path):
    """The JSON document in `path`, or a ToolError naming the file and what is wrong."""
    try:
        with open(path) as f:
            # Python reads NaN and Infinity, which JSON has not: a value no
            # check would then catch (NaN > 0 is false, and so is NaN <= 0).
            return json.load(f, parse_constant=refuse_constant, object_pairs_hook=unique_keys)
    except IsADirectoryError:
        raise ToolError(f"{path}: a folder, not a JSON file") from None
    except OSError as e:
        raise ToolError(f"{path}: {e.strerror}") from None
    except ValueError as e:
        raise ToolError(f"{path}: not valid JSON ({e})") from None
    except RecursionError:
        # Python's parser recurses once per nested list or object, so valid
        # JSON nested a thousand deep passes its recursion limit; no file
        # these tools read nests more than a few levels.
        raise ToolError(f"{path}: JSON nested too deeply for Python's parser") from None


def run(main):
    """Exits with main()'s status; bad input becomes one line and status 2.
    --version prints the tool's name and version, as the programs do."""
    prog = os.path.basename(sys.argv[0])
    if print_version_if_asked(sys.argv):
        sys.exit(0)
    try:
        status = main()
    except ToolError as e:
        print(f"{prog}: {e}", file=sys.stderr)
        sys.exit(2)
    except OSError as e:
        where = f"{e.filename}: " if e.filename else ""
        print(f"{prog}: {where}{e.strerror or e}", file=sys.stderr)
        sys.exit(2)
    # A field missing (KeyError), or of another kind than the tool reads:
    # a null or a list where it calls an object's .get() (AttributeError).
    except (AttributeError, KeyError, IndexError, TypeError, ValueError) as e:
        print(f"{prog}: unexpected input ({type(e).__name__}: {e}); is it a file stencil-miniapp "
              "or stencil-bench wrote?", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit(130)
    sys.exit(status or 0)
