"""Issue 62 item 1: a question whose answer changes the verdict is never pre-answered. Walks every calculator the
build embedded (every page, preset, the clock's procedures, blitz copies, in every language) and checks each radio
group that starts with an option checked: its answer must not change the verdict (who wins, what is decided, the
summary) for any values, the page's format choice aside."""

from __future__ import annotations

import json
import random
from html.parser import HTMLParser

from calculators import evaluate
from calculators.registry import CALCULATORS
from calculators.spec import Calculator

#: The page's own choice, not a question about the game: the Pokémon page asks the match format first, and the
#: clock has a copy per format (a preset). Its default is the page's, its wording changes the other questions'.
PAGE_CHOICES = {("pokemon-time-limit", "format")}
SAMPLES = 1500


class Calculators(HTMLParser):
    """Each embedded calculator of a page: (id, presets, {radio group: the value checked in the HTML})."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, dict[str, str], dict[str, str]]] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "data-calc" in a and "calc" in (a.get("class") or "").split():
            self.found.append((a["data-calc"], json.loads(a.get("data-presets") or "{}"), {}))
        elif tag == "input" and a.get("type") == "radio" and "checked" in a and self.found:
            self.found[-1][2][a["name"]] = a["value"]


def samples(spec: Calculator, presets: dict[str, str], rng: random.Random):
    """Values a judge may have entered: every choice (or none), small counts (or none), the example's text."""
    for _ in range(SAMPLES):
        values = {}
        for f in spec.fields:
            if f.kind == "choice":
                options = ["", *f.choices]
            elif f.kind == "integer":
                low = f.minimum if f.minimum is not None else 0
                options = ["", *(str(n) for n in range(low, low + 4))]
            else:
                options = ["", spec.example.get(f.name, "")]
            values[f.name] = rng.choice(options)
        yield values | presets


def verdict_of(calc_id: str, inputs: dict[str, str], lang: str):
    v = evaluate(calc_id, inputs, lang)
    return v["ok"], json.dumps(v["result"], sort_keys=True), v["summary"], tuple(sorted((e["field"], e["code"]) for e in v["errors"]))


def decisive(spec: Calculator, field: str, presets: dict[str, str], lang: str) -> dict[str, str] | None:
    """Values for which the field's answer changes the verdict, or None."""
    rng = random.Random(f"{spec.id}.{field}")
    probes = [dict(spec.example) | presets, *samples(spec, presets, rng)]
    for values in probes:
        if len({verdict_of(spec.id, values | {field: c}, lang) for c in spec.field(field).choices}) > 1:
            return values
    return None


def embedded(site):
    for page in sorted(site.rglob("*.html")):
        parser = Calculators()
        parser.feed(page.read_text(encoding="utf-8"))
        for calc_id, presets, checked in parser.found:
            yield page.relative_to(site).as_posix(), calc_id, presets, checked


def test_every_calculator_is_walked(site):
    """The walk is not empty: every calculator of the registry is embedded somewhere, presets included."""
    found = {(calc_id, json.dumps(presets, sort_keys=True)) for _, calc_id, presets, _ in embedded(site)}
    assert {calc_id for calc_id, _ in found} == set(CALCULATORS)
    assert ("naruto-tiebreak", '{"mode": "blitz"}') in found and ("pokemon-time-limit", '{"format": "bo3"}') in found


def test_no_question_that_decides_starts_answered(site):
    walked, answered = 0, []
    cache: dict[tuple, dict | None] = {}
    for page, calc_id, presets, checked in embedded(site):
        lang = page.split("/")[0] if page.split("/")[0] in ("fr", "it") else "en"
        spec = CALCULATORS[calc_id]
        walked += 1
        for field in checked:
            if (calc_id, field) in PAGE_CHOICES:
                continue
            key = (calc_id, field, json.dumps(presets, sort_keys=True), lang)
            if key not in cache:
                cache[key] = decisive(spec, field, presets, lang)
            if cache[key] is not None:
                answered.append((page, calc_id, field, checked[field], cache[key]))
    assert walked >= 3 * len(CALCULATORS), walked
    assert not answered, answered
