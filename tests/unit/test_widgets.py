"""Widgets hold no rule: their limits come from the verdict or from the page's data block that the
build writes from rules_core, and Python reads every input they help fill in."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from calculators import CALCULATORS, evaluate
from sitebuild.contract import page_data
from sitebuild.render import render_calculator

WIDGETS = Path(__file__).resolve().parents[2] / "web" / "widgets"
#: Numbers allowed anywhere: counting from zero, first/next.
PLAIN = {0, 1}
#: Drawing geometry, named here so that a new number in a widget is a decision someone reviews.
LAYOUT = {"records-chart.js": {28, 48, 320, 60, 0.68, 6, 4, 8, 3}}
#: Comments and quoted strings, matched left to right (a "//" inside a string is no comment).
_COMMENT_OR_STRING = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
_NUMBER = re.compile(r"(?<![\w.$])(\d+(?:\.\d+)?|\.\d+)(?![\w.])")


def numbers(path: Path) -> set[float]:
    code = _COMMENT_OR_STRING.sub(lambda m: "" if m.group(0).startswith("/") else '""', path.read_text(encoding="utf-8"))
    return {float(n) for n in _NUMBER.findall(code)}


@pytest.mark.parametrize("path", sorted(WIDGETS.glob("*.js")), ids=lambda p: p.name)
def test_widget_holds_no_rule_number(path):
    allowed = PLAIN | LAYOUT.get(path.name, set())
    assert numbers(path) <= allowed, f"{path.name}: numbers {sorted(numbers(path) - allowed)} (take them from the verdict or data-rule-*)"


def test_no_widget_parses_an_input():
    """The shame tracker restores a shared link from the verdict's counters, not from its own grammar."""
    for path in WIDGETS.glob("*.js"):
        code = _COMMENT_OR_STRING.sub(lambda m: "" if m.group(0).startswith("/") else '""', path.read_text(encoding="utf-8"))
        assert not re.search(r"\.exec\(|\.match\(|\.split\(", code), path.name


@pytest.mark.parametrize("spec", [s for s in CALCULATORS.values() if s.widget_rules], ids=lambda s: s.id)
def test_widget_rules_are_in_the_page_data(spec):
    limits = page_data(render_calculator(spec, "en"), "en")["limits"]
    for name, value in spec.widget_rules.items():
        assert limits[f"{spec.id}.{name}"] == value


def test_reserve_counters_marked_from_the_verdict():
    """An empty Réserve breaks no limit; a short one is a reserve_size violation (what reserve.js marks)."""
    example = dict(CALCULATORS["naruto-reserve"].example)
    assert "reserve_size" not in {v["code"] for v in evaluate("naruto-reserve", example, "en")["result"]["violations"]}
    short = evaluate("naruto-reserve", {**example, "reserve": "2 X"}, "en")["result"]
    assert "reserve_size" in {v["code"] for v in short["violations"]} and short["counts"]["reserve"] == 2
