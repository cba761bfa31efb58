"""Tests over the built site's files (no browser)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def site() -> Path:
    path = Path(os.environ.get("SITE_DIR", ROOT / "site"))
    if not (path / "index.html").is_file():
        pytest.fail(f"no built site in {path}: run `make build` (or `make test`)")
    return path
