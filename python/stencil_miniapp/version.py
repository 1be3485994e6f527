"""The package's version, as the programs print it (stencil-miniapp
--version): written into _version.py when the package is installed; in a
checkout, CMakeLists.txt's project() version and git describe."""
import os
import re
import subprocess


def _from_checkout():
    home = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
    try:
        with open(os.path.join(home, "CMakeLists.txt")) as f:
            found = re.search(r"project\(stencil-miniapp VERSION ([0-9.]+)", f.read())
    except OSError:
        return "unknown"
    if not found:
        return "unknown"
    try:
        revision = subprocess.run(["git", "-C", home, "describe", "--always", "--dirty", "--abbrev=12"],
                                  capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        revision = "unknown"
    return f"{found.group(1)} (revision {revision})"


try:
    from ._version import VERSION as __version__
except ImportError:
    __version__ = _from_checkout()
