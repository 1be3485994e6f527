"""The version the Python tools print with --version, as the programs do
(stencil-miniapp --version): the project's version and the revision of the
source tree, "0.1.0 (revision 6d5e744d1e2f)".

Installed (cmake --install), the tools sit in PREFIX/share/stencil-miniapp/
tools/ and the version is the file VERSION one folder up, written when the
programs were built. In a checkout it is CMakeLists.txt's project() version
and git describe of the checkout, as CMake takes them.
"""
import os
import re
import subprocess

HOME = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))


def _revision():
    """git describe of HOME where HOME is a checkout's top, else "unknown"."""
    try:
        top = subprocess.run(["git", "-C", HOME, "rev-parse", "--show-toplevel"], capture_output=True,
                             text=True, check=True).stdout.strip()
        if os.path.realpath(top) != HOME:
            return "unknown"
        return subprocess.run(["git", "-C", HOME, "describe", "--always", "--dirty", "--abbrev=12"],
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def version_text():
    """'0.1.0 (revision ...)', or 'unknown' where neither file says."""
    try:
        with open(os.path.join(HOME, "VERSION")) as f:
            return f.read().strip()
    except OSError:
        pass
    try:
        with open(os.path.join(HOME, "CMakeLists.txt")) as f:
            found = re.search(r"project\(stencil-miniapp VERSION ([0-9.]+)", f.read())
    except OSError:
        found = None
    return f"{found.group(1)} (revision {_revision()})" if found else "unknown"


def print_version_if_asked(argv):
    """True, once the version is printed, where argv asks for --version."""
    if "--version" not in argv[1:]:
        return False
    print(f"{os.path.basename(argv[0])} {version_text()}")
    return True
