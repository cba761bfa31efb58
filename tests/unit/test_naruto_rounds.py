"""naruto-rounds: the two tables of the French source, every boundary, every bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculators import evaluate
from rules_core.errors import NotAWholeNumber, RuleError
from rules_core.naruto import BelowTable, FinalPhase, final_phase, min_swiss_rounds

# (participants, minimum Swiss rounds, final phase) — straight from the source's two tables.
TABLE = [
    (4, 3, "none"), (7, 3, "none"), (8, 3, "top4"), (16, 3, "top4"),
    (17, 4, "top8"), (32, 4, "top8"), (33, 5, "top8"), (64, 5, "top8"),
    (65, 6, "top8"), (10_000, 6, "top8"),
]


@pytest.mark.parametrize(("players", "rounds", "phase"), TABLE)
def test_tables(players, rounds, phase):
    assert min_swiss_rounds(players) == rounds
    assert final_phase(players) is FinalPhase(phase)


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
@pytest.mark.parametrize(("players", "rounds", "phase"), TABLE)
def test_evaluate_tables(players, rounds, phase, lang):
    verdict = evaluate("naruto-rounds", {"players": str(players)}, lang)
    assert verdict["ok"] and not verdict["errors"]
    assert verdict["result"] == {"swiss_rounds": rounds, "final_phase": phase}
    assert str(rounds) in verdict["summary"] and str(players) in verdict["summary"]
    assert verdict["lang"] == lang


@pytest.mark.parametrize("players", [3, 0, -1, -100])
def test_below_the_table_is_an_error(players):
    with pytest.raises(BelowTable) as caught:
        min_swiss_rounds(players)
    assert caught.value.field == "players" and caught.value.value == players
    with pytest.raises(BelowTable):
        final_phase(players)


@pytest.mark.parametrize("value", [4.0, "4", True, None])
def test_rules_core_refuses_non_integers(value):
    with pytest.raises(NotAWholeNumber):
        min_swiss_rounds(value)


ERROR_CASES = {
    # input -> words the English message must contain
    "3": "start at 4",
    "-5": "start at 4",
    "": "required",
    "   ": "required",
    "abc": "not a whole number",
    "24.5": "not a whole number",
    "1e3": "not a whole number",
    "２４": "not a whole number",  # full-width digits are not silently accepted
    "1000001": "too large",
    "9" * 200: "too long",
}


@pytest.mark.parametrize(("raw", "words"), ERROR_CASES.items())
def test_bad_inputs_name_the_field(raw, words):
    verdict = evaluate("naruto-rounds", {"players": raw}, "en")
    assert not verdict["ok"] and verdict["result"] is None and verdict["summary"] == ""
    [error] = verdict["errors"]
    assert error["field"] == "players"
    assert error["message"].startswith("Number of participants:")
    assert words in error["message"]


@pytest.mark.parametrize(("lang", "label"), [("fr", "Nombre de participants"), ("it", "Numero di partecipanti")])
@pytest.mark.parametrize("raw", ["3", "", "x", "-2"])
def test_errors_are_localized(lang, label, raw):
    [error] = evaluate("naruto-rounds", {"players": raw}, lang)["errors"]
    assert error["message"].startswith(label)
    english = evaluate("naruto-rounds", {"players": raw}, "en")["errors"][0]["message"]
    assert error["message"] != english


def test_missing_field_and_extra_fields():
    assert evaluate("naruto-rounds", {}, "en")["errors"][0]["field"] == "players"
    assert evaluate("naruto-rounds", {"players": "9", "other": "x"}, "en")["result"]["final_phase"] == "top4"


def test_unknown_language_and_calculator():
    verdict = evaluate("naruto-rounds", {"players": "9"}, "de")
    assert not verdict["ok"] and verdict["errors"][0]["field"] == "lang" and "de" in verdict["errors"][0]["message"]
    verdict = evaluate("no-such", {}, "fr")
    assert not verdict["ok"] and verdict["errors"][0]["field"] == "id" and "no-such" in verdict["errors"][0]["message"]


def test_unicode_minus_and_plus_sign():
    assert evaluate("naruto-rounds", {"players": "+24"}, "en")["result"]["swiss_rounds"] == 4
    assert evaluate("naruto-rounds", {"players": "\u22125"}, "en")["errors"][0]["field"] == "players"


@given(st.integers(min_value=4, max_value=10**6), st.integers(min_value=0, max_value=10**6))
def test_more_players_never_means_fewer_rounds_nor_smaller_final(players, more):
    bigger = players + more
    assert min_swiss_rounds(bigger) >= min_swiss_rounds(players)
    assert final_phase(bigger).size >= final_phase(players).size


@given(st.text(max_size=30))
def test_any_text_gives_a_verdict_or_a_named_error(raw):
    verdict = evaluate("naruto-rounds", {"players": raw}, "it")
    assert verdict["ok"] != bool(verdict["errors"])
    assert all(error["field"] == "players" and error["message"] for error in verdict["errors"])


def test_rule_error_is_a_value_error_quoting_the_value():
    err = BelowTable("players", 2)
    assert isinstance(err, RuleError) and isinstance(err, ValueError) and "2" in str(err)


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "calculators", *args], capture_output=True, text=True, check=False)


def test_cli_summary_json_and_exit_codes():
    done = run_cli("naruto-rounds", "players=24", "--lang", "fr")
    assert done.returncode == 0 and "au moins 4 rondes suisses" in done.stdout and "Top 8" in done.stdout
    done = run_cli("naruto-rounds", "players=24", "--json")
    assert done.returncode == 0
    assert json.loads(done.stdout) == evaluate("naruto-rounds", {"players": "24"}, "en")
    done = run_cli("naruto-rounds", "players=3", "--lang", "it")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == evaluate("naruto-rounds", {"players": "3"}, "it")["errors"][0]["message"]
