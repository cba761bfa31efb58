"""pokemon-time-limit: the criteria of the Italian source (002_7144f48c743ad393.txt), rule by rule."""

from __future__ import annotations

from pathlib import Path
import re

import pytest
from babel.messages.pofile import read_po

from sitebuild.typeset import CATALOG_TYPESETTING
from hypothesis import given
from hypothesis import strategies as st

from calculators.players import isolated
from calculators.pokemon_time_limit import SPEC
from calculators import LANGUAGES
from calculators import evaluate as evaluate_as_given
from calculators.i18n import Translator
from rules_core.errors import NotAWholeNumber, OutOfRange, RuleError
from rules_core.pokemon import (
    Criterion,
    GameAlreadyWon,
    MatchAlreadyDecided,
    MatchFormat,
    Player,
    time_limit_outcome,
)

ID = "pokemon-time-limit"


def evaluate(calc_id: str, inputs: dict[str, str], lang: str = "en") -> dict:
    """The verdict with the late questions (criterion 1) answered "no" where a case does not answer
    them: they start unanswered (test_the_late_questions_start_unanswered)."""
    return evaluate_as_given(calc_id, {"late_a": "no", "late_b": "no", **inputs}, lang)
LOCALE = Path(__file__).resolve().parents[2] / "calculators" / "locale"

# (inputs, winner, decided_by, findings of each step in order) — one row per criterion deciding in each format.
CASES = [
    # Single game, criterion 1: a player late or absent (judge informed) loses.
    ({"format": "bo1", "late_a": "yes"}, "b", "late", ["a_late"]),
    ({"format": "bo1", "late_b": "yes", "prizes_a": "6", "prizes_b": "1"}, "a", "late", ["b_late"]),
    # Both late: criterion 1 ignored, the Prize cards decide.
    ({"format": "bo1", "late_a": "yes", "late_b": "yes", "prizes_a": "2", "prizes_b": "3"}, "a", "prizes", ["both", "a_ahead"]),
    # Criterion 2: fewer Prize cards left wins.
    ({"format": "bo1", "prizes_a": "4", "prizes_b": "1"}, "b", "prizes", ["neither", "b_ahead"]),
    # Criterion 3: equal Prize cards, Sudden Death.
    ({"format": "bo1", "prizes_a": "3", "prizes_b": "3"}, None, "sudden_death", ["neither", "equal", "tied"]),
    ({"format": "bo1", "late_a": "yes", "late_b": "yes", "prizes_a": "1", "prizes_b": "1"}, None, "sudden_death",
     ["both", "equal", "tied"]),
    # Best of three, criterion 1: late or absent without permission (judge informed) loses, even ahead in games.
    ({"format": "bo3", "late_a": "yes", "games_a": "1"}, "b", "late", ["a_late"]),
    ({"format": "bo3", "late_b": "yes"}, "a", "late", ["b_late"]),
    # Criterion 2: more completed games won.
    ({"format": "bo3", "games_a": "1", "games_b": "0"}, "a", "games", ["neither", "a_ahead"]),
    ({"format": "bo3", "late_a": "yes", "late_b": "yes", "games_a": "0", "games_b": "1"}, "b", "games", ["both", "b_ahead"]),
    # 1-0 where the leader has more Prize cards left: games decide first.
    ({"format": "bo3", "games_a": "1", "games_b": "0", "in_progress": "yes", "prizes_a": "6", "prizes_b": "1"}, "a", "games",
     ["neither", "a_ahead"]),
    # Criterion 3: 1-1 with a game in progress, fewer Prize cards wins.
    ({"format": "bo3", "games_a": "1", "games_b": "1", "in_progress": "yes", "prizes_a": "5", "prizes_b": "2"}, "b",
     "prizes", ["neither", "equal", "b_ahead"]),
    ({"format": "bo3", "games_a": "0", "games_b": "0", "in_progress": "yes", "prizes_a": "1", "prizes_b": "2"}, "a", "prizes", ["neither", "equal", "a_ahead"]),
    # 1-1 without a game in progress: criterion 3 skipped, Sudden Death.
    ({"format": "bo3", "games_a": "1", "games_b": "1", "in_progress": "no"}, None, "sudden_death",
     ["neither", "equal", "no_game_in_progress", "tied"]),
    # 1-1 with a game in progress and equal Prize cards: Sudden Death.
    ({"format": "bo3", "games_a": "1", "games_b": "1", "in_progress": "yes", "prizes_a": "4", "prizes_b": "4"}, None,
     "sudden_death", ["neither", "equal", "equal", "tied"]),
]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("inputs", "winner", "decided_by", "findings"), CASES)
def test_criteria(inputs, winner, decided_by, findings, lang):
    verdict = evaluate(ID, inputs, lang)
    assert verdict["ok"], verdict["errors"]
    result = verdict["result"]
    assert set(result) == {"winner", "decided_by", "sudden_death", "steps"}
    assert result["winner"] == winner
    assert result["decided_by"] == decided_by
    assert result["sudden_death"] is (decided_by == "sudden_death")
    assert [step["found"] for step in result["steps"]] == findings
    assert result["steps"][-1]["criterion"] == decided_by
    assert len(verdict["details"]) == len(result["steps"])
    assert verdict["summary"]


def test_steps_report_what_they_compared():
    result = evaluate(ID, {"format": "bo3", "games_a": "1", "games_b": "1", "in_progress": "yes",
                           "prizes_a": "5", "prizes_b": "2"})["result"]
    assert result["steps"] == [
        {"criterion": "late", "found": "neither", "a": False, "b": False, "winner": None},
        {"criterion": "games", "found": "equal", "a": 1, "b": 1, "winner": None},
        {"criterion": "prizes", "found": "b_ahead", "a": 5, "b": 2, "winner": "b"},
    ]


SUDDEN_DEATH_WORDS = {
    "en": ("Sudden Death", "older Pokémon rules document the text cites"),
    "fr": ("Mort subite", "ancien document de règles Pokémon que cite le texte"),
    "it": ("Partita Secca", "documento di regole Pokémon citato dal testo"),
}
#: Words that belong only to the best-of-three condition of criterion 1 (without a judge's permission).
PERMISSION = {"en": "permission", "fr": "autorisation", "it": "permesso"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_sudden_death_cites_the_section_of_each_format(lang):
    single = evaluate(ID, {"format": "bo1", "prizes_a": "2", "prizes_b": "2"}, lang)
    bo3 = evaluate(ID, {"format": "bo3", "games_a": "1", "games_b": "1", "in_progress": "no"}, lang)
    for verdict, section, other in ((single, "22.5.1", "18.5.3"), (bo3, "18.5.3", "22.5.1")):
        text = " ".join([verdict["summary"], *verdict["details"]])
        assert section in verdict["summary"] and section in verdict["details"][-1]
        assert other not in text
        for words in SUDDEN_DEATH_WORDS[lang]:
            assert words in verdict["details"][-1]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_tie_with_no_game_in_progress_says_it_is_the_pages_reading(lang):
    """Best of three, tied on completed games, no game in progress: criterion 3 is skipped and
    criterion 4 has no Prize cards to compare; the verdict says it reads criterion 4 as Sudden
    Death all the same, and the page declares that reading in a note after criterion 4."""
    t = Translator(lang)
    no_game = evaluate(ID, {"format": "bo3", "games_a": "1", "games_b": "1", "in_progress": "no"}, lang)
    assert no_game["summary"] == t(f"{ID}.summary.sudden_death.bo3_no_game")
    assert no_game["details"][-1] == t(f"{ID}.detail.sudden_death.bo3_no_game", number=4)
    tied_prizes = evaluate(ID, {"format": "bo3", "games_a": "1", "games_b": "1", "in_progress": "yes",
                                "prizes_a": "2", "prizes_b": "2"}, lang)
    assert tied_prizes["summary"] == t(f"{ID}.summary.sudden_death.bo3")
    assert tied_prizes["details"][-1] == t(f"{ID}.detail.sudden_death.bo3", number=4)
    page = (LOCALE.parents[1] / "docs" / lang / "pokemon.md").read_text(encoding="utf-8")
    after_criterion_4 = page.split("{ #pokemon-bo3-4 }", 1)[1].split("<!-- calc:pokemon-time-limit -->", 1)[0]
    assert after_criterion_4.lstrip().startswith("!!! note")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_late_detail_states_the_condition_of_the_chosen_format(lang):
    single = evaluate(ID, {"format": "bo1", "late_a": "yes", "name_a": "Ada"}, lang)
    bo3 = evaluate(ID, {"format": "bo3", "late_a": "yes", "name_a": "Ada"}, lang)
    assert PERMISSION[lang] in bo3["details"][0] and "Ada" in bo3["details"][0]
    assert PERMISSION[lang] not in single["details"][0] and "Ada" in single["details"][0]
    assert single["details"][0] != bo3["details"][0]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_names_are_used_and_optional(lang):
    named = evaluate(ID, {"prizes_a": "1", "prizes_b": "2", "name_a": "  Ada  ", "name_b": "Bo"}, lang)
    assert named["summary"].startswith(isolated("Ada") + " ")
    unnamed = evaluate(ID, {"prizes_a": "1", "prizes_b": "2"}, lang)
    assert unnamed["summary"].startswith({"en": "Player A", "fr": "Le joueur A", "it": "Il giocatore A"}[lang])


def test_fields_the_format_does_not_use_are_hidden_and_ignored():
    single = evaluate(ID, {"format": "bo1", "games_a": "2", "games_b": "x", "in_progress": "maybe",
                           "prizes_a": "1", "prizes_b": "3"})
    assert single["ok"] and single["hidden_fields"] == ["games_a", "games_b", "in_progress"]
    assert single["result"]["winner"] == "a"
    no_game = evaluate(ID, {"format": "bo3", "games_a": "0", "games_b": "0", "in_progress": "no", "prizes_a": "0",
                            "prizes_b": "zz"})
    assert no_game["ok"] and no_game["hidden_fields"] == ["prizes_a", "prizes_b"]
    assert no_game["result"]["decided_by"] == "sudden_death"
    in_game = evaluate(ID, {"format": "bo3", "games_a": "1", "games_b": "1", "in_progress": "yes", "prizes_a": "2",
                            "prizes_b": "1"})
    assert in_game["hidden_fields"] == [] and in_game["result"]["winner"] == "b"


def test_prize_cards_are_asked_only_when_their_criterion_is_reached():
    assert evaluate(ID, {"format": "bo1", "late_a": "yes"})["ok"]
    assert evaluate(ID, {"format": "bo3", "in_progress": "yes", "games_a": "0", "games_b": "1"})["result"]["winner"] == "b"
    missing = evaluate(ID, {"format": "bo1", "prizes_b": "3"})
    assert [(e["field"], e["code"]) for e in missing["errors"]] == [("prizes_a", "needed")]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_verdict_from_answers_not_given(lang):
    """Issue 46: games won left empty are not 0-0 (that verdict was Sudden Death before anything was answered)."""
    blank = evaluate(ID, {"format": "bo3"}, lang)
    assert not blank["ok"] and [(e["field"], e["code"]) for e in blank["errors"]] == [
        ("games_a", "needed"), ("games_b", "needed")]
    assert all(e["message"] == Translator(lang)(f"{ID}.error.needed", label=Translator(lang)(f"{ID}.{e['field']}.label"))
               for e in blank["errors"])
    # A player late decides before the games are asked (criterion 1): nothing more is needed.
    assert evaluate(ID, {"format": "bo3", "late_b": "yes"}, lang)["result"]["winner"] == "a"
    half = evaluate(ID, {"format": "bo3", "games_a": "1"}, lang)
    assert [(e["field"], e["code"]) for e in half["errors"]] == [("games_b", "needed")]


BAD = [
    ({"format": "bo3", "games_a": "2"}, "games_a", {"en": "already decided", "fr": "déjà décidée", "it": "già deciso"}),
    ({"format": "bo3", "games_b": "2", "in_progress": "yes"}, "games_b", {"en": "already decided", "fr": "déjà décidée", "it": "già deciso"}),
    ({"format": "bo3", "games_a": "3"}, "games_a", {"en": "0 to 1", "fr": "de 0 à 1", "it": "0"}),
    ({"format": "bo3", "games_a": "-1"}, "games_a", {"en": "\u22121", "fr": "\u22121", "it": "\u22121"}),  # a number read: the page's minus sign
    ({"format": "bo3", "games_a": "one"}, "games_a", {"en": "“one”", "fr": "«\u00a0one\u00a0»", "it": "one"}),
    ({"prizes_a": "0", "prizes_b": "3"}, "prizes_a", {"en": "already won the game", "fr": "déjà gagné la manche", "it": "già vinto la partita"}),
    ({"prizes_a": "2", "prizes_b": "7"}, "prizes_b", {"en": "1 to 6", "fr": "de 1 à 6", "it": "1"}),
    ({"prizes_a": "−2", "prizes_b": "1"}, "prizes_a", {"en": "\u22122", "fr": "\u22122", "it": "\u22122"}),
    ({"prizes_a": "2.5", "prizes_b": "1"}, "prizes_a", {"en": "2.5", "fr": "2.5", "it": "2.5"}),
    ({"prizes_a": "2"}, "prizes_b", {"en": "needed", "fr": "nécessaire", "it": "necessario"}),
    ({"format": "bo5"}, "format", {"en": "bo5", "fr": "bo5", "it": "bo5"}),
    ({"late_a": "maybe", "prizes_a": "1", "prizes_b": "2"}, "late_a", {"en": "maybe", "fr": "maybe", "it": "maybe"}),
    ({"name_a": "x" * 41, "prizes_a": "1", "prizes_b": "2"}, "name_a", {"en": "41", "fr": "41", "it": "41"}),
]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("inputs", "field", "words"), BAD)
def test_bad_inputs(inputs, field, words, lang):
    verdict = evaluate(ID, inputs, lang)
    assert not verdict["ok"] and verdict["result"] is None and verdict["summary"] == ""
    assert [e["field"] for e in verdict["errors"]] == [field]
    message = verdict["errors"][0]["message"]
    assert message.startswith(_label(field, lang, inputs.get("format", "bo1"))), message
    assert words[lang] in message, message


def _label(field: str, lang: str, fmt: str) -> str:
    """The label the form shows: the format's own variant where the field has one."""
    with (LOCALE / lang / "LC_MESSAGES" / "pokemon.po").open("rb") as fh:
        catalog = read_po(fh)
    message = catalog.get(f"{ID}.{field}.label.{fmt}") or catalog[f"{ID}.{field}.label"]
    return CATALOG_TYPESETTING.get(lang, str)(message.string)  # as compiled


def test_rules_core_errors_name_the_field_and_quote_the_value():
    with pytest.raises(MatchAlreadyDecided) as err:
        time_limit_outcome(MatchFormat.BEST_OF_THREE, games_b=2)
    assert (err.value.field, err.value.value) == ("games_b", 2)
    with pytest.raises(GameAlreadyWon):
        time_limit_outcome(MatchFormat.SINGLE_GAME, prizes_a=1, prizes_b=0)
    with pytest.raises(OutOfRange):
        time_limit_outcome(MatchFormat.SINGLE_GAME, prizes_a=7, prizes_b=1)
    with pytest.raises(NotAWholeNumber):
        time_limit_outcome(MatchFormat.BEST_OF_THREE, games_a=True)
    with pytest.raises(RuleError) as err:
        time_limit_outcome(MatchFormat.SINGLE_GAME, prizes_a=2)
    assert (err.value.field, err.value.code) == ("prizes_b", "needed")
    # A single game ignores games won entirely (they are not part of its criteria).
    assert time_limit_outcome(MatchFormat.SINGLE_GAME, games_a=5, prizes_a=1, prizes_b=2).winner is Player.A


formats = st.sampled_from(list(MatchFormat))
prizes = st.integers(1, 6)
games = st.integers(0, 1)


@given(formats, st.booleans(), st.booleans(), games, games, st.booleans(), prizes, prizes)
def test_swapping_players_swaps_the_winner(fmt, late_a, late_b, games_a, games_b, in_progress, prizes_a, prizes_b):
    one = time_limit_outcome(fmt, late_a=late_a, late_b=late_b, games_a=games_a, games_b=games_b,
                             in_progress=in_progress, prizes_a=prizes_a, prizes_b=prizes_b)
    two = time_limit_outcome(fmt, late_a=late_b, late_b=late_a, games_a=games_b, games_b=games_a,
                             in_progress=in_progress, prizes_a=prizes_b, prizes_b=prizes_a)
    assert two.winner == (one.winner.other if one.winner else None)
    assert one.decided_by == two.decided_by
    # Invariants: exactly one player late always decides; a winner exists unless it is Sudden Death.
    if late_a != late_b:
        assert one.decided_by is Criterion.LATE and one.winner is (Player.B if late_a else Player.A)
    assert (one.winner is None) == one.sudden_death
    assert [s.criterion for s in one.steps] == sorted((s.criterion for s in one.steps), key=list(Criterion).index)


@given(st.sampled_from(["bo1", "bo3"]), st.sampled_from(["no", "yes"]), st.sampled_from(["no", "yes"]),
       st.sampled_from(["0", "1"]), st.sampled_from(["0", "1"]), st.sampled_from(["no", "yes"]), prizes, prizes,
       st.sampled_from(LANGUAGES))
def test_swapping_players_swaps_the_winner_in_evaluate(fmt, la, lb, ga, gb, prog, pa, pb, lang):
    def run(a, b, ga, gb, pa, pb):
        return evaluate(ID, {"format": fmt, "late_a": a, "late_b": b, "games_a": ga, "games_b": gb,
                             "in_progress": prog, "prizes_a": str(pa), "prizes_b": str(pb)}, lang)

    one, two = run(la, lb, ga, gb, pa, pb), run(lb, la, gb, ga, pb, pa)
    assert one["ok"] and two["ok"]
    swap = {"a": "b", "b": "a", None: None}
    assert two["result"]["winner"] == swap[one["result"]["winner"]]


@given(st.dictionaries(st.sampled_from(["format", "late_a", "late_b", "games_a", "games_b", "in_progress",
                                        "prizes_a", "prizes_b", "name_a", "name_b", "other"]), st.text(max_size=50)),
       st.sampled_from(LANGUAGES))
def test_evaluate_never_raises(inputs, lang):
    verdict = evaluate(ID, inputs, lang)
    assert verdict["ok"] == (verdict["result"] is not None)
    assert verdict["ok"] or verdict["errors"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_late_questions_start_unanswered(lang):
    """Criterion 1 decides before any other: no verdict until the judge has answered both questions
    (nothing pre-chosen), each asked by name; one player late is not enough without the other's answer."""
    t = Translator(lang)
    for inputs in ({"prizes_a": "4", "prizes_b": "2"}, {"format": "bo3", "late_a": "yes"}):
        verdict = evaluate_as_given(ID, inputs, lang)
        unanswered = [f for f in ("late_a", "late_b") if f not in inputs]
        assert not verdict["ok"] and [(e["field"], e["code"]) for e in verdict["errors"]] == [(f, "required") for f in unanswered]
        assert [e["message"] for e in verdict["errors"]] == [
            t(f"{ID}.error.required", label=t(f"{ID}.{f}.label.{inputs.get('format', 'bo1')}")) for f in unanswered]
    assert evaluate_as_given(ID, {"late_a": "no", "late_b": "no", "prizes_a": "4", "prizes_b": "2"}, lang)["result"]["winner"] == "b"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_game_in_progress_is_asked_not_assumed(lang):
    """Issue 62 item 1: equal games left "no game in progress" pre-chosen, and Sudden Death shown before the
    judge had answered. Unanswered, it is needed once the games are equal, and only then."""
    t = Translator(lang)
    verdict = evaluate(ID, {"format": "bo3", "games_a": "1", "games_b": "1"}, lang)
    assert not verdict["ok"] and [(e["field"], e["code"]) for e in verdict["errors"]] == [("in_progress", "needed")]
    assert t(f"{ID}.in_progress.label") in verdict["errors"][0]["message"]
    assert evaluate(ID, {"format": "bo3", "games_a": "1", "games_b": "0"}, lang)["result"]["winner"] == "a"
    assert SPEC.field("in_progress").default == ""


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("fmt", [f.value for f in MatchFormat])
def test_an_unanswered_late_question_is_asked_with_the_formats_own_text(lang, fmt):
    """The error quotes the question the form shows for that format (with its conditions: the judge
    notified, before the end of the match, without permission), not the short label without them."""
    t = Translator(lang)
    verdict = evaluate_as_given("pokemon-time-limit", {"format": fmt, "late_a": "no"}, lang)
    [error] = verdict["errors"]
    assert error["field"] == "late_b"
    assert t(f"pokemon-time-limit.late_b.label.{fmt}") in error["message"]
    assert t("pokemon-time-limit.late_b.label") not in error["message"]


#: The reading the single-game Prize-card detail cites when both players were late or absent.
BOTH_LATE_READING = {"en": "this site reads this criterion as covering that case too",
                     "fr": "ce site lit ce critère comme couvrant aussi ce cas",
                     "it": "questo sito legge il criterio come valido anche in questo caso"}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("prizes", [("3", "1"), ("2", "2")])
def test_single_game_both_late_cites_the_reading_of_criterion_2(lang, prizes):
    """Criterion 2 of a single game literally covers players neither late nor absent: when both were,
    its detail says the site's reading applies it (the note under the rules), as best of three does."""
    values = {"late_a": "yes", "late_b": "yes", "prizes_a": prizes[0], "prizes_b": prizes[1]}
    both = evaluate("pokemon-time-limit", values, lang)["details"]
    neither = evaluate("pokemon-time-limit", {**values, "late_a": "no", "late_b": "no"}, lang)["details"]
    assert sum(BOTH_LATE_READING[lang] in line for line in both) == 1, both
    assert not any(BOTH_LATE_READING[lang] in line for line in neither), neither


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_game_in_progress_hint_names_both_buttons_as_labelled(lang):
    """«…; no se è scaduto tra due partite»: the hint names the buttons, so it writes their labels as printed."""
    t = Translator(lang)
    hint = t("pokemon-time-limit.in_progress.hint")
    for answer in ("yes", "no"):
        assert re.search(rf"\b{t(f'pokemon-time-limit.in_progress.{answer}')}\b", hint), (answer, hint)
