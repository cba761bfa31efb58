"""What a shared link or a typed name can carry into a verdict: exact choice ids only, and names
that cannot reorder the sentence around them (right-to-left text, direction overrides)."""

from __future__ import annotations

import pytest

from calculators import CALCULATORS, LANGUAGES, evaluate
from calculators.players import END_ISOLATE, ISOLATE

CHOICES = [(spec.id, field.name, field.choices) for spec in CALCULATORS.values() for field in spec.fields
           if field.kind == "choice"]
RTL = "\u202eboB"


@pytest.mark.parametrize(("calc_id", "field", "choices"), CHOICES)
@pytest.mark.parametrize("bad", ["evil", "UPPER", "9", " "])
def test_a_choice_that_is_not_an_id_is_an_error_naming_the_field(calc_id, field, choices, bad):
    value = choices[0].upper() if bad == "UPPER" else bad
    if value in choices or not value.strip():
        value = "x" + value.strip()
    spec = CALCULATORS[calc_id]
    # The other choices set so that this field is asked (Pokémon asks "in progress?" in a bo3 only).
    contexts = [{}] + [{f.name: c} for f in spec.fields if f.kind == "choice" and f.name != field for c in f.choices]
    inputs = next(({**c, field: value} for c in contexts
                   if not spec.hidden or field not in spec.hidden({**c, field: value})), None)
    assert inputs is not None, f"{calc_id}.{field} is never asked"
    verdict = evaluate(calc_id, inputs, "en")
    assert not verdict["ok"] and field in [e["field"] for e in verdict["errors"]], verdict


def named_inputs():
    """A valid input per calculator that shows player names, with the right-to-left name typed."""
    return [
        ("naruto-end-of-time", {"starter": "a", "active": "a", "name_a": RTL}),
        ("naruto-tiebreak", {"rewards_a": "2", "rewards_b": "1", "name_a": RTL}),
        ("pokemon-time-limit", {"late_a": "no", "late_b": "no", "prizes_a": "1", "prizes_b": "2", "name_a": RTL}),
        ("judge-tower-shame", {"shame": f"{RTL}: 3, Ann: 1"}),
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("calc_id", "inputs"), named_inputs())
def test_names_are_isolated_from_the_sentence(calc_id, inputs, lang):
    verdict = evaluate(calc_id, inputs, lang)
    assert verdict["ok"], verdict["errors"]
    sentences = [verdict["summary"], *verdict["details"]]
    shown = [s for s in sentences if RTL in s]
    assert shown, "the name appears nowhere"
    for sentence in shown:
        assert sentence.count(RTL) == sentence.count(f"{ISOLATE}{RTL}{END_ISOLATE}"), sentence
