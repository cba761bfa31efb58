"""Find a Chromium for the browser tests: Playwright's own where installed, else Debian's.

``python -m tools.chromium --ensure`` installs Debian's ``chromium`` with apt
when none is found and we run as root; it prints the path it will use.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

SYSTEM_PATHS = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
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


def system_chromium() -> str | None:
    for path in SYSTEM_PATHS:
        if Path(path).is_file():
            return path
    return shutil.which("chromium")


def find() -> str | None:
    """Path of the Chromium to use, or None."""
    return os.environ.get("CHROMIUM") or playwright_chromium() or system_chromium()


def ensure() -> str:
    path = find()
    if path:
        return path
    if os.geteuid() != 0:
        sys.exit("No Chromium found. Install one: `apt-get install chromium` (as root) or `playwright install chromium`.")
    subprocess.run(["apt-get", "update", "-qq"], check=True)
    subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"], check=True,
                   env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
    path = system_chromium()
    if not path:
        sys.exit("apt-get installed chromium but no binary was found")
    return path


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ensure", action="store_true", help="install Debian's chromium if none is found")
    args = parser.parse_args()
    path = ensure() if args.ensure else find()
    print(path or "no chromium found")
    sys.exit(0 if path else 1)
