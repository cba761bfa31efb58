"""The build's tables of verdicts (sitebuild/answers.py): every entry is what evaluate() answers, for the
key's values and for the form's whole inputs with its empty fields sent (what the engine gets), each file
is the bytes its name's digest says, and each stays within the first visit's budget."""

from __future__ import annotations

import json

import pytest

from calculators import evaluate
from calculators.registry import CALCULATORS
from sitebuild.answers import TABLES, covered, entries, written_answers
from sitebuild.engine import digest

#: What a first visit may fetch for one calculator before its first verdict, compressed (issue 54).
BUDGET_BYTES = 30_000


def files(site):
    for calc_id, entry in written_answers(site).items():
        for lang, parts in entry["files"].items():
            for part, name in parts.items():
                yield calc_id, lang, part, entry["by"], site / "calc" / "answers" / name


def test_every_entry_is_what_evaluate_answers(site):
    checked = 0
    for calc_id, lang, part, by, path in files(site):
        data = path.read_bytes()
        assert path.name.split(".")[-2] == digest(data), path.name
        spec = CALCULATORS[calc_id]
        table = json.loads(data)
        held = [inputs for inputs, _ in entries(table)]
        # Every input the table covers is in the file once (the tree lost or doubled none).
        wanted = [inputs for inputs in covered(spec, TABLES[calc_id]) if inputs.get(by, "") == part]
        assert sorted(json.dumps(i, sort_keys=True) for i in held) == sorted(json.dumps(i, sort_keys=True) for i in wanted)
        for inputs, verdict in entries(table):
            assert "" not in inputs.values(), inputs
            assert inputs.get(by, "") == part if by else part == "", (path.name, inputs)
            assert verdict == evaluate(calc_id, inputs, lang), (path.name, inputs)
            # The page leaves its empty fields out of the key; the engine gets them as "": the same verdict.
            sent = {f.name: "" for f in spec.fields if f.kind != "choice"} | inputs
            assert verdict == evaluate(calc_id, sent, lang), (path.name, inputs)
            checked += 1
        # Each verdict once (the phone stores and parses the raw JSON), and every one of them reached.
        verdicts = [json.dumps(verdict, sort_keys=True) for verdict in table["verdicts"]]
        assert len(set(verdicts)) == len(verdicts) == len({json.dumps(v, sort_keys=True) for _, v in entries(table)})
    assert checked > 3 * 256, checked  # Swiss rounds for 256 player counts in three languages, at least


@pytest.mark.parametrize("calc_id,lang,inputs", [
    ("naruto-rounds", "fr", {"players": "24"}),
    ("pokemon-time-limit", "it", {"format": "bo1", "late_a": "no", "late_b": "no",
                                  "prizes_a": "2", "prizes_b": "2"}),
])
def test_the_benchmarks_links_are_in_the_tables(site, calc_id, lang, inputs):
    entry = written_answers(site)[calc_id]
    name = entry["files"][lang][inputs.get(entry["by"], "") if entry["by"] else ""]
    table = json.loads((site / "calc" / "answers" / name).read_bytes())
    assert inputs in [held for held, _ in entries(table)]


def test_each_file_stays_within_the_first_visits_budget(site):
    for calc_id, lang, part, _, path in files(site):
        for suffix in (".br", ".gz"):
            size = path.with_name(path.name + suffix).stat().st_size
            assert size <= BUDGET_BYTES, (path.name, suffix, size)
