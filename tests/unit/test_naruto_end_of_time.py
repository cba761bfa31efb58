"""naruto-end-of-time and naruto-tiebreak: turns left, criteria in order, hidden/needed fields, en/fr/it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators.players import isolated, typed
from calculators import evaluate
from rules_core import naruto_end_of_time as rules
from rules_core.errors import RuleError
from calculators.i18n import LANGUAGES, Count, Translator

LANGS = LANGUAGES
MODES = ("standard", "blitz")
XSS = "<img src=x onerror=alert(1)>"
CRITERIA = ("rewards", "deck", "characters", "combat", "entrance")

# --- turns left -----------------------------------------------------------------------------------

TURNS = {
    # (starter, active): the turns from the rule text
    ("a", "a"): [("a", "finish"), ("b", "last"), ("a", "extra"), ("b", "extra"), ("a", "extra"), ("b", "extra")],
    ("b", "b"): [("b", "finish"), ("a", "last"), ("b", "extra"), ("a", "extra"), ("b", "extra"), ("a", "extra")],
    ("a", "b"): [("b", "finish"), ("a", "extra"), ("b", "extra"), ("a", "extra"), ("b", "extra")],
    ("b", "a"): [("a", "finish"), ("b", "extra"), ("a", "extra"), ("b", "extra"), ("a", "extra")],
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("starter, active", list(TURNS))
def test_turns_left(starter, active, mode):
    verdict = evaluate("naruto-end-of-time", {"starter": starter, "active": active, "mode": mode}, "en")
    assert verdict["ok"], verdict["errors"]
    assert verdict["result"] == {"turns": [{"player": p, "kind": k} for p, k in TURNS[starter, active]]}
    assert len(verdict["details"]) == len(TURNS[starter, active]) + 1


@pytest.mark.parametrize("lang, standard, blitz", [
    ("en", "#naruto-end-of-time", "#naruto-blitz"),
    ("fr", "#naruto-end-of-time", "#naruto-blitz"),
    ("it", "#naruto-end-of-time", "#naruto-blitz"),
])
def test_turns_cite_the_section_of_the_mode(lang, standard, blitz):
    for mode, section, other in (("standard", standard, blitz), ("blitz", blitz, standard)):
        details = evaluate("naruto-end-of-time", {"starter": "a", "active": "b", "mode": mode}, lang)["details"]
        assert details[-1].endswith(f"({section}).") and other + ")" not in details[-1]


def test_mode_defaults_to_standard():
    assert evaluate("naruto-end-of-time", {"starter": "a", "active": "a"}, "en")["details"][-1].endswith("(#naruto-end-of-time).")


@pytest.mark.parametrize("lang, first, last", [
    ("en", f"1. {isolated('Alice')} finishes the current turn.", "2. Player B plays one last turn"),
    ("fr", f"1. {isolated('Alice')} finit le tour en cours.", "2. Le joueur B joue un dernier tour"),
    ("it", f"1. {isolated('Alice')} finisce il turno in corso.", "2. Il giocatore B gioca un ultimo turno"),
])
def test_turn_lines_use_names_or_localized_defaults(lang, first, last):
    details = evaluate("naruto-end-of-time", {"starter": "a", "active": "a", "name_a": " Alice ", "name_b": "  "}, lang)["details"]
    assert details[0] == first and details[1].startswith(last)


@pytest.mark.parametrize("inputs, field, code_word", [
    ({"active": "a"}, "starter", "required"),
    ({"starter": "a"}, "active", "required"),
    ({"starter": "c", "active": "a"}, "starter", "c"),
    ({"starter": "a", "active": "a", "mode": "rapid"}, "mode", "rapid"),
    ({"starter": "a", "active": "a", "name_a": "x" * 41}, "name_a", "41"),
])
@pytest.mark.parametrize("lang", LANGS)
def test_turns_bad_inputs(inputs, field, code_word, lang):
    verdict = evaluate("naruto-end-of-time", inputs, lang)
    assert verdict["ok"] is False and verdict["result"] is None
    assert [e["field"] for e in verdict["errors"]] == [field]
    if code_word != "required":
        assert code_word in verdict["errors"][0]["message"]


def test_name_of_40_characters_is_accepted():
    assert evaluate("naruto-end-of-time", {"starter": "a", "active": "a", "name_a": "x" * 40}, "en")["ok"]


def test_html_in_a_name_is_kept_as_given():
    details = evaluate("naruto-end-of-time", {"starter": "b", "active": "a", "name_a": XSS}, "en")["details"]
    assert details[0] == f"1. {isolated(XSS)} finishes the current turn."


def test_rules_core_turns_reject_unknown_players():
    with pytest.raises(RuleError) as info:
        rules.turns_left("a", "c")
    assert (info.value.field, info.value.code) == ("active", "not_a_choice")


@given(st.sampled_from("ab"), st.sampled_from("ab"), st.integers(1, 30))
def test_both_players_have_played_as_many_turns_at_the_end(starter, active, played):
    """Before time is called the starter has played ``played`` turns (the current one included); the other
    player as many, or one fewer when the starter is active. After the list, both have played as many turns,
    and the turns after the active one alternate."""
    turns = rules.turns_left(starter, active)
    other = "b" if starter == "a" else "a"
    count = {starter: played, other: played - (1 if active == starter else 0)}
    for turn in turns[1:]:
        count[turn.player.value] += 1
    assert count[starter] == count[other]
    assert turns[0] == rules.Turn(rules.Player(active), rules.TurnKind.FINISH)
    players = [t.player for t in turns]
    assert all(a is not b for a, b in zip(players, players[1:]))
    extras = [t.player.value for t in turns if t.kind is rules.TurnKind.EXTRA]
    assert extras == [starter, other] * rules.EXTRA_TURNS_EACH


# --- tiebreak -------------------------------------------------------------------------------------

def inputs(*pairs, **extra) -> dict[str, str]:
    values = {f"{c}_{p}": str(v) for c, pair in zip(CRITERIA, pairs) for p, v in zip("ab", pair) if v is not None}
    return {**values, **extra}


@pytest.mark.parametrize("pairs, winner, decided_by", [
    (((3, 1),), "a", "rewards"),
    (((1, 3),), "b", "rewards"),
    (((2, 2), (10, 12)), "b", "deck"),
    (((2, 2), (10, 10), (6, 5)), "a", "characters"),
    (((2, 2), (10, 10), (6, 6), (14, 20)), "b", "combat"),
    (((2, 2), (10, 10), (6, 6), (14, 14), (9, 8)), "a", "entrance"),
    (((0, 0), (0, 0), (0, 0), (0, 0), (0, 0)), None, "coin_toss"),
    (((9, 9), (30, 30), (20, 20), (55, 55), (40, 40)), None, "coin_toss"),
])
@pytest.mark.parametrize("mode", MODES)
def test_each_criterion_decides(pairs, winner, decided_by, mode):
    verdict = evaluate("naruto-tiebreak", inputs(*pairs, mode=mode), "en")
    assert verdict["ok"], verdict["errors"]
    result = verdict["result"]
    assert (result["winner"], result["decided_by"]) == (winner, decided_by)
    assert [(s["criterion"], s["a"], s["b"]) for s in result["steps"]] == [
        (c, a, b) for c, (a, b) in zip(CRITERIA, pairs)]
    assert len(verdict["details"]) == len(pairs) + 1
    section = {"standard": "#naruto-tiebreak", "blitz": "#naruto-blitz-tiebreak"}[mode]
    assert verdict["details"][-1].endswith(f"({section}).")


@pytest.mark.parametrize("lang, words", [
    ("en", "the judge tosses a coin"), ("fr", "l'arbitre procède à un tirage au sort"), ("it", "l'arbitro procede a un sorteggio"),
])
def test_full_tie_is_the_judges_coin_toss(lang, words):
    verdict = evaluate("naruto-tiebreak", inputs((1, 1), (5, 5), (2, 2), (3, 3), (4, 4)), lang)
    assert words in verdict["summary"] and verdict["result"]["winner"] is None


@pytest.mark.parametrize("lang", LANGS)
def test_winner_summary_names_the_player_and_criterion(lang):
    t = Translator(lang)
    verdict = evaluate("naruto-tiebreak", inputs((1, 1), (5, 5), (2, 3), name_a="Alice", name_b="Bob"), lang)
    assert verdict["summary"] == t("naruto-tiebreak.summary.winner", winner=typed("Bob"), number=3,
                                   criterion=t("naruto-tiebreak.criterion.characters"))
    assert isolated("Bob") in verdict["summary"] and "3" in verdict["summary"]


def test_later_fields_are_hidden_and_not_needed_when_an_earlier_criterion_decides():
    verdict = evaluate("naruto-tiebreak", inputs((4, 2), deck_a="abc", characters_b="-3"), "en")
    assert verdict["ok"] and verdict["result"]["decided_by"] == "rewards"
    assert verdict["hidden_fields"] == sorted(f"{c}_{p}" for c in CRITERIA[1:] for p in "ab")
    verdict = evaluate("naruto-tiebreak", inputs((4, 4), (7, 6)), "en")
    assert verdict["ok"] and verdict["hidden_fields"] == sorted(f"{c}_{p}" for c in CRITERIA[2:] for p in "ab")


@pytest.mark.parametrize("raw, shown", [
    ({}, ["rewards"]),
    ({"rewards_a": "2"}, ["rewards"]),
    ({"rewards_a": "2", "rewards_b": "x"}, ["rewards"]),
    ({"rewards_a": "2", "rewards_b": "2"}, ["rewards", "deck"]),
    (inputs((2, 2), (4, 4), (1, 1), (5, 5)), CRITERIA),
])
def test_hidden_fields_follow_the_raw_inputs(raw, shown):
    hidden = evaluate("naruto-tiebreak", raw, "en")["hidden_fields"]
    assert hidden == sorted(f"{c}_{p}" for c in CRITERIA if c not in shown for p in "ab")


@pytest.mark.parametrize("lang", LANGS)
def test_needed_field_that_is_empty_is_reported(lang):
    verdict = evaluate("naruto-tiebreak", inputs((3, 3)), lang)
    assert verdict["ok"] is False
    # both players' counts are needed: both fields say so at once, each under its own label
    assert [e["field"] for e in verdict["errors"]] == ["deck_a", "deck_b"]
    label = Translator(lang)("naruto-tiebreak.deck_a.label")
    assert verdict["errors"][0]["message"].startswith(label) and verdict["errors"][0]["message"] != label
    assert verdict["errors"][1]["message"] != verdict["errors"][0]["message"]
    verdict = evaluate("naruto-tiebreak", inputs((3, 3), (5, 5), (2, 2), (9, None)), lang)
    assert [e["field"] for e in verdict["errors"]] == ["combat_b"]
    assert verdict["hidden_fields"] == ["entrance_a", "entrance_b"]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("raw, field, word", [
    ({"rewards_b": "1"}, "rewards_a", None),
    (inputs((-1, 2)), "rewards_a", "0"),
    (inputs(("two", 2)), "rewards_a", "two"),
    (inputs((1.5, 2)), "rewards_a", "1.5"),
    (inputs((1, 10_000)), "rewards_b", "9999"),
    (inputs((1, 1), (5, 5), (6, 2)), "characters_a", "6"),
    (inputs((1, 1), (5, 5), (2, 6)), "characters_b", "5"),
    (inputs((1, 2), name_b="x" * 41), "name_b", "41"),
    (inputs((1, 2), mode="fast"), "mode", "fast"),
])
def test_tiebreak_bad_inputs(lang, raw, field, word):
    verdict = evaluate("naruto-tiebreak", raw, lang)
    assert verdict["ok"] is False and verdict["result"] is None and verdict["summary"] == ""
    assert [e["field"] for e in verdict["errors"]] == [field]
    if word:
        word = str(Count(int(word), lang)) if word.isdigit() else word  # a number read: grouped ("9,999")
        assert word in verdict["errors"][0]["message"]


#: Each rule's own term for the turns played after time (rules naruto-16 and naruto-blitz-8, as printed).
EXTRA_TERM = {"standard": {"en": "additional turn", "fr": "tour additionnel", "it": "turno aggiuntivo"},
              "blitz": {"en": "extra turn", "fr": "tour supplémentaire", "it": "turno supplementare"}}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("mode", ["standard", "blitz"])
def test_extra_turns_take_the_term_of_the_rule_applied(lang, mode):
    verdict = evaluate("naruto-end-of-time", {"starter": "a", "active": "b", "mode": mode}, lang)
    kinds = [turn["kind"] for turn in verdict["result"]["turns"]]
    extra = [line for line, kind in zip(verdict["details"], kinds) if kind == "extra"]
    other = EXTRA_TERM["blitz" if mode == "standard" else "standard"][lang]
    assert extra and all(EXTRA_TERM[mode][lang] in line for line in extra), verdict["details"]
    assert not any(other in line for line in verdict["details"][:-1]), verdict["details"]


#: The verb that compares the number typed with the cards left: a sentence, not « 11, soit plus que les cartes ».
MORE_THAN_DECK = {"en": "is more than the number of cards", "fr": "dépasse le nombre de cartes",
                  "it": "supera il numero di carte"}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("deck", [0, 1, 10])
def test_more_characters_than_cards_is_a_sentence_at_every_size(lang, deck):
    verdict = evaluate("naruto-tiebreak", inputs((1, 1), (deck, deck), (deck + 1, 0)), lang)
    [error] = verdict["errors"]
    assert error["field"] == "characters_a" and MORE_THAN_DECK[lang] in error["message"], error["message"]
    assert f"({deck})" in error["message"]


def test_characters_equal_to_deck_is_accepted():
    assert evaluate("naruto-tiebreak", inputs((1, 1), (5, 5), (5, 4)), "en")["result"]["winner"] == "a"


def test_html_in_names_is_kept_as_given():
    verdict = evaluate("naruto-tiebreak", inputs((1, 0), name_a=XSS), "en")
    assert verdict["summary"].startswith(isolated(XSS)) and isolated(XSS) in verdict["details"][0]


COUNTS = st.integers(0, 3)


@st.composite
def all_counts(draw):
    pairs = {}
    for c in CRITERIA:
        pairs[c] = (draw(COUNTS), draw(COUNTS))
    decks = pairs["deck"]
    pairs["characters"] = tuple(min(ch, d) for ch, d in zip(pairs["characters"], decks))
    return pairs


@settings(max_examples=200)
@given(all_counts())
def test_swapping_players_swaps_the_winner_and_keeps_the_reason(pairs):
    result = rules.tiebreak(pairs)
    swapped = rules.tiebreak({c: (b, a) for c, (a, b) in pairs.items()})
    assert swapped.decided_by == result.decided_by
    assert swapped.winner == (result.winner.other if result.winner else None)
    via_evaluate = evaluate("naruto-tiebreak", inputs(*[pairs[c] for c in CRITERIA]), "en")["result"]
    assert via_evaluate["decided_by"] == result.decided_by


FIELDS = ["starter", "active", "mode", "name_a", "name_b"] + [f"{c}_{p}" for c in CRITERIA for p in "ab"]


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(FIELDS), st.one_of(st.sampled_from(["", "0", "1", "2", "a", "b", "blitz", "-1"]),
                                                           st.text(max_size=45))),
       st.sampled_from(LANGS), st.sampled_from(["naruto-end-of-time", "naruto-tiebreak"]))
def test_evaluate_never_raises(inputs, lang, calc_id):
    verdict = evaluate(calc_id, inputs, lang)
    assert verdict["ok"] == (verdict["result"] is not None) == (not verdict["errors"])
    assert all(e["field"] in FIELDS for e in verdict["errors"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_more_cards_left_than_a_legal_deck_holds_is_refused(lang):
    """Issue 46, defect 5: 60 cards left where a deck is built of exactly DECK_SIZE cards is a typo."""
    from rules_core.naruto_reserve import DECK_SIZE

    base = {"rewards_a": "3", "rewards_b": "3"}
    too_many = evaluate("naruto-tiebreak", {**base, "deck_a": str(DECK_SIZE + 20), "deck_b": "12"}, lang)
    assert not too_many["ok"] and [e["field"] for e in too_many["errors"]] == ["deck_a"]
    assert str(DECK_SIZE) in too_many["errors"][0]["message"]
    assert evaluate("naruto-tiebreak", {**base, "deck_a": str(DECK_SIZE), "deck_b": "12"}, lang)["ok"]
