"""Debian packages installed on demand, as the project installs Chromium (tools/chromium.py) and the
nginx test its server: ``apt-get`` as root, nothing when that is not possible."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import tempfile
from pathlib import Path


def unavailable() -> str | None:
    """Why packages cannot be installed here, or None when they can."""
    if shutil.which("apt-get") is None:
        return "apt-get is not available"
    if os.geteuid() != 0:
        return "installing with apt-get needs root"
    return None


def install(*packages: str) -> None:
    # One at a time: two test workers may both find a package missing, and apt-get fails on a held lock.
    with open(Path(tempfile.gettempdir()) / "rules-apt.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        subprocess.run(["apt-get", "update", "-qq"], check=True)
        subprocess.run(["apt-get", "install", "-y", "-qq", *packages], check=True,
                       env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
