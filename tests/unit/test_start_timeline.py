"""tools.start_timeline puts its console lines before lines of web/'s scripts: each must still be there,
once (else the tool stops with the anchor's name, or marks the wrong step)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.start_timeline import MARKS

WEB = Path(__file__).resolve().parents[2] / "web"


@pytest.mark.parametrize(("rel", "anchor"), [(rel, anchor) for rel, marks in MARKS.items() for anchor, _ in marks])
def test_each_anchor_is_in_its_script_once(rel, anchor):
    source = (WEB / rel.removeprefix("calc/")).read_text(encoding="utf-8")
    assert source.count(anchor) == 1, f"{rel}: {anchor.strip()!r}"
