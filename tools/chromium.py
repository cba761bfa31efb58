"""Find a Chromium: Chromium's headless shell for the browser tests, the desktop browser for `make bench`.

The headless shell is the same engine (Blink, V8, service workers, Cache Storage, WebAssembly)
without the desktop browser around it; it is what Playwright itself runs headless. Here it spends
about a third of the CPU per page that the desktop browser's own process does (DESIGN.md,
"Tests"). The benchmark and Lighthouse measure the browser a phone's user has.

``python -m tools.chromium --ensure [--shell]`` installs Debian's ``chromium`` (or
``chromium-headless-shell``) with apt when none is found and we run as root; it prints the path
it will use ("" for Playwright's own headless shell, which Playwright launches when given no path).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

from tools import apt

SYSTEM_PATHS = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
SHELL_PATHS = ("/usr/bin/chromium-headless-shell",)
#: Flags for a sandbox-less machine that must not reach the network (no sandbox, no GPU, no updates).
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]


def playwright_chromium() -> str | None:
    """The browser `playwright install chromium` put on this machine, if any."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    with sync_playwright() as p:
        path = p.chromium.executable_path
    return path if path and Path(path).is_file() else None


def _first(paths: tuple[str, ...]) -> str | None:
    return next((path for path in paths if Path(path).is_file()), None)


def find(shell: bool = False) -> str | None:
    """Path of the Chromium to use, or None. ``shell``: the headless shell where there is one
    (Debian's; ``""``: Playwright's own, which Playwright launches headless when given no path),
    else the desktop browser. ``CHROMIUM`` in the environment wins."""
    if os.environ.get("CHROMIUM"):
        return os.environ["CHROMIUM"]
    if shell and (path := _first(SHELL_PATHS)):
        return path
    own = playwright_chromium()
    if own:
        return "" if shell else own
    return _first(SYSTEM_PATHS) or shutil.which("chromium")


def ensure(shell: bool = False) -> str:
    """As :func:`find`, installing Debian's package first (as root) when what is wanted is missing."""
    path = find(shell)
    missing = path is None or (shell and path not in ("", os.environ.get("CHROMIUM")) and path not in SHELL_PATHS)
    if not missing:
        return path
    if apt.unavailable():
        if path:
            return path  # the desktop browser: the tests pass on it too, only slower
        sys.exit("No Chromium found. Install one: `apt-get install chromium-headless-shell chromium` (as root) "
                 "or `playwright install chromium`.")
    package = "chromium-headless-shell" if shell else "chromium"
    apt.install(package)
    path = find(shell)
    if path is None:
        sys.exit(f"apt-get installed {package} but no binary was found")
    return path


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ensure", action="store_true", help="install Debian's package if none is found")
    parser.add_argument("--shell", action="store_true", help="the headless shell (the browser tests)")
    args = parser.parse_args()
    path = ensure(args.shell) if args.ensure else find(args.shell)
    print("no chromium found" if path is None else path or "Playwright's own headless shell")
    sys.exit(0 if path is not None else 1)
