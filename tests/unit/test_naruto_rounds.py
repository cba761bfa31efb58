"""naruto-rounds: the two tables of the French source, every boundary, every bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculators import CALCULATORS, error_message, evaluate
from calculators.i18n import LANGUAGES, Count, Translator
from rules_core.naruto import FinalPhase
from rules_core.errors import NotAWholeNumber, RuleError
from rules_core.naruto import (
    MIN_PARTICIPANTS,
    BelowMinimumRounds,
    BelowTable,
    CutStatus,
    FinalPhase,
    expected_records,
    final_phase,
    min_swiss_rounds,
    planned_rounds,
)

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


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("players", "rounds", "phase"), TABLE)
def test_evaluate_tables(players, rounds, phase, lang):
    verdict = evaluate("naruto-rounds", {"players": str(players)}, lang)
    assert verdict["ok"] and not verdict["errors"]
    result = verdict["result"]
    assert (result["swiss_rounds"], result["final_phase"], result["rounds"]) == (rounds, phase, rounds)
    assert str(rounds) in verdict["summary"] and str(Count(players, lang)) in verdict["summary"]
    assert verdict["lang"] == lang


# The source's word for the tournaments its top cut binds («Dans chaque tournoi officiel de 8 joueurs ou plus»).
OFFICIAL = {"en": "official tournament", "fr": "tournoi officiel", "it": "torneo ufficiale"}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("players", "rounds", "phase"), [row for row in TABLE if row[2] != "none"])
def test_the_top_cut_is_stated_for_an_official_tournament(players, rounds, phase, lang):
    """«De 8 à 16 participants, la phase finale est un Top 4» made the cut compulsory for any tournament;
    the source binds only official ones, and the detail line says so."""
    details = evaluate("naruto-rounds", {"players": str(players)}, lang)["details"]
    assert any(OFFICIAL[lang] in line and f"Top {FinalPhase(phase).size}" in line for line in details), details


@pytest.mark.parametrize("players", [3, 0, -1, -100])
def test_below_the_table_is_an_error(players):
    with pytest.raises(BelowTable) as caught:
        min_swiss_rounds(players)
    assert caught.value.field == "players" and caught.value.value == players
    with pytest.raises(BelowTable):
        final_phase(players)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("players", [-1, -100])
def test_a_negative_count_of_participants_is_the_field_s_error(players, lang):
    """«con −1 il regolamento non indica alcun numero di turni svizzeri»: a count below the field's minimum
    is refused as a number out of the field's range, not answered by the rules' table."""
    spec = CALCULATORS["naruto-rounds"]
    field = spec.field("players")
    assert field.minimum is not None and field.minimum <= 0 < MIN_PARTICIPANTS
    [error] = evaluate("naruto-rounds", {"players": str(players)}, lang)["errors"]
    expected = RuleError("players", "out_of_range", players, minimum=field.minimum, maximum=field.maximum)
    assert error == {"field": "players", "code": "out_of_range",
                     "message": error_message(Translator(lang), "naruto-rounds", expected)}
    [error] = evaluate("naruto-rounds", {"players": str(field.minimum)}, lang)["errors"]
    assert error["code"] == "below_table"


@pytest.mark.parametrize("value", [4.0, "4", True, None])
def test_rules_core_refuses_non_integers(value):
    with pytest.raises(NotAWholeNumber):
        min_swiss_rounds(value)


ERROR_CASES = {
    # input -> words the English message must contain
    "3": "start at 4",
    "-5": "outside the accepted range",
    "": "required",
    "   ": "required",
    "abc": "cannot be read as a whole number",
    "24.5": "cannot be read as a whole number",
    "1e3": "cannot be read as a whole number",
    "２４": "cannot be read as a whole number",  # full-width digits are not silently accepted
    "1000001": "outside the accepted range",
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


# ---- round planner -------------------------------------------------------------------------

@pytest.mark.parametrize(("players", "rounds"), [(4, 3), (8, 3), (16, 5), (24, 4), (24, 7), (65, 6), (300, 9), (1000, 20)])
def test_expected_players_add_up_to_n(players, rounds):
    records = expected_records(players, rounds)
    assert [r.wins for r in records] == list(range(rounds, -1, -1))
    assert all(r.wins + r.losses == rounds for r in records)
    assert sum(r.expected_players for r in records) == pytest.approx(players)


@given(st.integers(min_value=4, max_value=5000), st.integers(min_value=0, max_value=8))
def test_planner_properties(players, extra):
    rounds = min_swiss_rounds(players) + extra
    records = expected_records(players, rounds)
    assert sum(r.expected_players for r in records) == pytest.approx(players)
    cuts = [r.cut for r in records]
    # best records first: in ... in, at most one partial, then out
    assert cuts == sorted(cuts, key=[CutStatus.IN, CutStatus.PARTIAL, CutStatus.OUT].index)
    assert cuts.count(CutStatus.PARTIAL) <= 1
    size = final_phase(players).size
    assert sum(r.expected_players for r in records if r.cut is CutStatus.IN) <= size


@pytest.mark.parametrize(("players", "rounds", "last_in", "partial"), [
    # 16 players, 3 rounds, Top 4: 2 expected at 3-0 (in), 6 at 2-1 (only some fit)
    (16, 3, "3-0", "2-1"),
    # 32 players, 5 rounds, Top 8: 1 at 5-0, 5 at 4-1 (6 <= 8, in), 10 at 3-2 (partial)
    (32, 5, "4-1", "3-2"),
    # 64 players, 3 rounds... (below the minimum of 5: tested elsewhere); 64 players, 6 rounds:
    # 1 at 6-0, 6 at 5-1 (7 <= 8), 15 at 4-2 (partial)
    (64, 6, "5-1", "4-2"),
    # exactly filling the cut: 32 players, 2 at 4-0... 32 players 4 rounds: 2 at 4-0, 8 at 3-1 (10 > 8)
    (32, 4, "4-0", "3-1"),
])
def test_records_reaching_the_final_phase(players, rounds, last_in, partial):
    records = {f"{r.wins}-{r.losses}": r.cut for r in expected_records(players, rounds)}
    assert records[last_in] is CutStatus.IN
    assert records[partial] is CutStatus.PARTIAL
    assert all(cut is CutStatus.OUT for key, cut in records.items()
               if int(key.split("-")[0]) < int(partial.split("-")[0]))


def test_exactly_full_cut_has_no_partial():
    # 8 players, 3 rounds, Top 4: 1 at 3-0, 3 at 2-1 -> exactly 4: both in, the rest out
    cuts = [r.cut for r in expected_records(8, 3)]
    assert cuts == [CutStatus.IN, CutStatus.IN, CutStatus.OUT, CutStatus.OUT]


def test_no_final_phase_means_every_record_is_out():
    assert all(r.cut is CutStatus.OUT for r in expected_records(7, 4))


@pytest.mark.parametrize(("players", "rounds"), [(24, 3), (65, 5), (16, 2), (4, 1)])
def test_rounds_below_the_minimum_is_an_error_citing_the_rule(players, rounds):
    with pytest.raises(BelowMinimumRounds) as caught:
        planned_rounds(players, rounds)
    assert caught.value.params["minimum"] == min_swiss_rounds(players)
    for lang, words in (("en", "minimum of"), ("fr", "minimum de"), ("it", "minimo di")):
        [error] = evaluate("naruto-rounds", {"players": str(players), "rounds": str(rounds)}, lang)["errors"]
        assert error["field"] == "rounds" and words in error["message"] and str(min_swiss_rounds(players)) in error["message"]


@pytest.mark.parametrize("raw", ["0", "21", "x", "4.5"])
def test_bad_rounds(raw):
    [error] = evaluate("naruto-rounds", {"players": "24", "rounds": raw}, "en")["errors"]
    assert error["field"] == "rounds"


def test_more_rounds_than_the_minimum_is_allowed():
    verdict = evaluate("naruto-rounds", {"players": "24", "rounds": "6"}, "en")
    assert verdict["ok"] and verdict["result"]["rounds"] == 6 and verdict["result"]["swiss_rounds"] == 4
    assert [r["wins"] for r in verdict["result"]["records"]] == [6, 5, 4, 3, 2, 1, 0]
    assert any("estimate" in line.lower() for line in verdict["details"])


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("players", "rounds"), [(1_000_000, None), (512, "6"), (24, None), (9, None)])
def test_the_estimate_promises_no_better_record_than_exists(players, rounds, lang):
    """"Only some players at 6–0 … better records get in" where 6–0 is the best record: the sentence must
    hold at every size. A better record is named only when the records above the cut hold players."""
    t = Translator(lang)
    verdict = evaluate("naruto-rounds", {"players": str(players), "rounds": rounds or ""}, lang)
    records = verdict["result"]["records"]
    last = max(i for i, r in enumerate(records) if r["cut"] != "out")
    best = last == 0 or not any(r["expected_players"] for r in records[:last])
    record = t("naruto-rounds.ui.score", wins=records[last]["wins"], losses=records[last]["losses"])
    key = f"naruto-rounds.detail.cut_{records[last]['cut']}{'_best' if best else ''}"
    assert verdict["details"][-1] == t(key, rounds=verdict["result"]["rounds"], size=FinalPhase(verdict["result"]["final_phase"]).size, record=record)

