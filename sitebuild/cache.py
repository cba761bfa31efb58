"""Files the build writes where other builds may read them at once (the caches in ``.cache/``, the
compiled catalogs): written under a name of this process's own, then renamed, so a reader finds the
whole file or none, never half of one (the tests run builds beside each other)."""

from __future__ import annotations

import os
from pathlib import Path


def write_whole(path: Path, data: bytes) -> Path:
    """``path`` holding ``data``, replaced in one step."""
    partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")  # a name no other build writes to
    partial.write_bytes(data)
    partial.replace(path)
    return path
