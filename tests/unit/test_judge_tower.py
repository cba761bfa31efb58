"""Judge Tower calculators: starting hand (general rule 1) and shame counters (shame counter 1, end of game 1-2),
from the French source 001_da3b75fdb68251db.txt."""

from __future__ import annotations

from pathlib import Path

import re

import pytest
from babel.messages.pofile import read_po

from sitebuild.typeset import CATALOG_TYPESETTING
from hypothesis import given
from hypothesis import strategies as st

from calculators import LANGUAGES, evaluate
from calculators.judge_tower_shame import parse_counters
from calculators.i18n import Count, Translator
from calculators.players import isolated, typed
from rules_core.errors import NotAWholeNumber, OutOfRange
from rules_core.judge_tower import (
    TooFewPlayers,
    TooManyPlayers,
    shame_limit,
    shame_standing,
    starting_hand_size,
)

HAND, SHAME = "judge-tower-hand", "judge-tower-shame"
LOCALE = Path(__file__).resolve().parents[2] / "calculators" / "locale"
# "counters" (the counters as read): what the tracker shows for a shared link (issue #15).
SHAME_KEYS = {"players", "limit", "eliminated", "winners_if_library_runs_out", "counters"}


# --- starting hand: "une taille de main de départ égale à son niveau d'arbitrage" ---

@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("level", range(6))
def test_hand_size_for_each_level(level, lang):
    verdict = evaluate(HAND, {"level": str(level)}, lang)
    assert verdict["ok"] and verdict["result"] == {"hand_size": level}
    assert str(level) in verdict["summary"]
    assert starting_hand_size(level) == level


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("raw", ["6", "-1", "x", "2.0"])
def test_hand_bad_levels(raw, lang):
    verdict = evaluate(HAND, {"level": raw}, lang)
    assert not verdict["ok"] and [e["field"] for e in verdict["errors"]] == ["level"]
    assert raw in verdict["errors"][0]["message"]
    assert verdict["errors"][0]["message"].startswith(_message("judge-tower-hand.level.label", lang))


def test_hand_level_required_and_rules_core_bounds():
    assert [e["field"] for e in evaluate(HAND, {})["errors"]] == ["level"]
    with pytest.raises(OutOfRange):
        starting_hand_size(6)
    with pytest.raises(NotAWholeNumber):
        starting_hand_size("3")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_level_is_explained_in_words(lang):
    for level in range(6):
        text = _message(f"judge-tower-hand.level.{level}", lang)
        assert text.startswith(str(level)) and len(text) > 10
    assert "Rules Advisor" in _message("judge-tower-hand.level.0", lang)
    # The level describes the judge certification, never the reader, whose gender is unknown
    # (« non certifié » agreed with a man).
    assert not re.search(r"\bnon certifi", _message("judge-tower-hand.level.0", lang))


# --- shame counters ---

@pytest.mark.parametrize(("players", "limit"), [(2, 4), (3, 6), (6, 12), (100, 200)])
def test_limit_is_twice_the_players_who_started(players, limit):
    assert shame_limit(players) == limit
    result = evaluate(SHAME, {"shame": ", ".join(["0"] * players)})["result"]
    assert (result["players"], result["limit"]) == (players, limit)


# (text, eliminated, winners) — "supérieur au double" : equal to the limit stays in, one above loses.
CASES = [
    ("4, 0", [], [2]),  # 2 players, limit 4: a counter of 4 stays in
    ("5, 0", [1], [2]),  # one above loses
    ("6\n6\n7", [3], [1, 2]),  # 3 players, limit 6; tie among the winners
    ("-1, 0, 0", [], [1]),  # a first game starts at -1
    ("−1, −1, 3", [], [1, 2]),  # Unicode minus; tie
    ("13, 0, 0, 0, 0, 12", [1], [2, 3, 4, 5]),  # 6 players, limit 12
    ("5, 5", [1, 2], []),  # everyone out: nobody left to win
    ("Alice: 7\nBob: 2\nChloé: 2", [1], [2, 3]),  # eliminated players are excluded from the winners
]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("text", "eliminated", "winners"), CASES)
def test_shame_standing(text, eliminated, winners, lang):
    verdict = evaluate(SHAME, {"shame": text}, lang)
    assert verdict["ok"], verdict["errors"]
    result = verdict["result"]
    assert SHAME_KEYS <= set(result) <= SHAME_KEYS | {"names"}
    assert result["eliminated"] == eliminated
    assert result["winners_if_library_runs_out"] == winners
    assert len(verdict["details"]) == result["players"]  # one line per player, in order (the tracker relies on it)
    assert str(result["limit"]) in verdict["summary"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_names_are_reported_and_used(lang):
    verdict = evaluate(SHAME, {"shame": "Alice: 9\n3\n: 2\n<img src=x onerror=alert(1)>: 0"}, lang)
    assert verdict["result"]["names"] == ["Alice", None, None, "<img src=x onerror=alert(1)>"]
    assert "Alice" in verdict["summary"] and "<img src=x onerror=alert(1)>" in verdict["summary"]
    assert verdict["details"][1].startswith(_message("judge-tower-shame.player", lang).format(position=2))
    assert "names" not in evaluate(SHAME, {"shame": "1, 2"}, lang)["result"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_several_names_read_as_a_list_in_the_language(lang):
    """Two or more winners (or players out) are listed with the language's own "and" (common.po list.and),
    one alone as it is."""
    with (LOCALE / lang / "LC_MESSAGES" / "common.po").open("rb") as fh:
        joined = CATALOG_TYPESETTING.get(lang, str)(read_po(fh)["list.and"].string)
    summary = evaluate(SHAME, {"shame": "Ann: 0\nBob: 0\nCid: 0\nDee: 9"}, lang)["summary"]
    ann, bob, cid = (isolated(name) for name in ("Ann", "Bob", "Cid"))
    assert joined.format(items=f"{ann}, {bob}", last=cid) in summary
    assert f"{ann}, {bob}, {cid}" not in summary
    alone = evaluate(SHAME, {"shame": "Ann: 0\nBob: 1"}, lang)["summary"]
    assert _message("judge-tower-shame.summary.winner", lang).format(names=typed("Ann")) in alone


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("text", "won"), [("Ann: 0\nBob: 5", "Ann"), ("Ann: 9, Bob: 9, Cid: 3", "Cid")])
def test_the_last_player_in_has_won(text, won, lang):
    """With every other player out the game is over: the one left has won, not "would win if the
    library ran out"."""
    verdict = evaluate(SHAME, {"shame": text}, lang)
    assert _message("judge-tower-shame.summary.won", lang).format(player=typed(won)) in verdict["summary"]
    assert _message("judge-tower-shame.summary.winner", lang).format(names=typed(won)) not in verdict["summary"]
    [line] = [d for d in verdict["details"] if isolated(won) in d]
    assert line.endswith(_message("judge-tower-shame.detail.won", lang).format(player="", counter="").split(",", 1)[1])
    still_playing = evaluate(SHAME, {"shame": "Ann: 0, Bob: 5, Cid: 1"}, lang)["summary"]
    assert _message("judge-tower-shame.summary.winner", lang).format(names=typed("Ann")) in still_playing


#: A plural "all the others" over the other players: wrong when a single other player started.
ALL_OTHERS = {"en": r"\bevery other\b|\ball the others\b", "fr": r"\btou(?:te)?s les autres\b",
              "it": r"\btutt[ie] (?:gli|le) altr[ie]\b"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_win_reads_right_with_two_players(lang):
    """«tutti gli altri hanno perso» when one other player started: the win says nobody else is in the game."""
    verdict = evaluate(SHAME, {"shame": f"Ann: 0\nBob: {shame_limit(2) + 1}"}, lang)
    assert verdict["result"]["eliminated"] == [2]
    assert _message("judge-tower-shame.summary.won", lang).format(player=typed("Ann")) in verdict["summary"]
    wrong = [text for text in (verdict["summary"], *verdict["details"]) if re.search(ALL_OTHERS[lang], text, re.I)]
    assert not wrong


def test_italian_speaks_of_the_players_without_a_gender():
    """«gli ultimi rimasti», «tutti gli altri»: the players are typed names of any gender; Italian says
    «le ultime persone rimaste», «l'unica persona» (the terminology's «persona» for Judge Tower)."""
    with (LOCALE / "it" / "LC_MESSAGES" / "judge_tower.po").open("rb") as fh:
        sentences = {m.id: m.string for m in read_po(fh) if str(m.id).startswith(SHAME + ".")}
    masculine = re.compile(r"\b(?:gli ultimi|rimasti|tutti gli altri(?! casi)|eliminati)\b", re.I)
    assert not {key: text for key, text in sentences.items() if masculine.search(text)}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_library_fact_says_the_named_players_win(lang):
    """The tracker's bar: "If the library runs out: Dev" named Dev without saying what happens to Dev
    (rule jt-end-2: Dev wins). Its first word is the summary's verb for them, agreeing with their number."""
    t = Translator(lang)
    one, two = (t("judge-tower-shame.ui.facts_library", names="N", count=n) for n in (1, 2))
    assert one != two
    verb = one.split()[0][:3].lower()
    assert verb in t("judge-tower-shame.summary.winner", names=typed("N")).lower(), (verb, one)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_library_fact_states_the_whole_condition(lang):
    """"Wins if the library runs out" dropped rule jt-end-2's two refills (exiled cards, then the graveyard): the
    bar's condition is the leader's detail line's, word for word, so the short line cannot say less than it."""
    t = Translator(lang)
    condition = t("judge-tower-shame.ui.facts_library", names="N", count=1).rsplit(":", 1)[0].strip().lower()
    assert condition in t("judge-tower-shame.detail.leader", player="N", counter=0).lower(), condition


IF = {"en": "If ", "fr": "Si ", "it": "Se "}
WON = {"en": "has won", "fr": "a gagné", "it": "ha vinto"}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("text", ["Niccolò: 5, Anna: 5", "Ann: 9, Bob: 7, Cid: 7"])
def test_everyone_out_is_a_draw(text, lang):
    """Players who all lose simultaneously draw (Magic's rule 104.4a); the counters cannot show that the
    last ones went over together (a tracker adds one point per tap), so the verdict says both outcomes,
    conditionally. Never "everyone lost", never a draw asserted."""
    verdict = evaluate(SHAME, {"shame": text}, lang)
    assert _message("judge-tower-shame.summary.draw", lang) in verdict["summary"]
    assert "104.4a" in verdict["summary"]
    draw = _message("judge-tower-shame.summary.draw", lang)
    assert draw.startswith(IF[lang]) and WON[lang] in draw, draw
    assert not verdict["result"]["winners_if_library_runs_out"]
    assert _message("judge-tower-shame.summary.draw", lang) not in evaluate(SHAME, {"shame": "Ann: 9, Bob: 4"}, lang)["summary"]


def test_parsing_accepts_lines_commas_blank_entries_and_colons_in_names():
    assert parse_counters("A: 1,B:2\r\n\n , C :−1,\n") == (["A", "B", "C"], [1, 2, -1])
    assert parse_counters("Dr: No: 3, +2") == (["Dr: No", None], [3, 2])
    assert parse_counters("x" * 40 + ": 1, 0")[0][0] == "x" * 40


BAD = [
    ("3", "too_few_players", "1"),  # one player
    ("Alice: 3", "too_few_players", "1"),
    (", ,\n", "too_few_players", "0"),
    ("0, -2", "out_of_range", "\u22122"),  # a number read: written as the page writes numbers
    ("0, −2", "out_of_range", "\u22122"),  # typed with a minus sign: it was echoed with a hyphen
    ("0, 1000", "out_of_range", "1000"),
    ("0, three", "not_a_counter", "three"),
    ("Alice: 1, Bob:", "not_a_counter", "Bob:"),
    ("0, 1.5", "not_a_counter", "1.5"),
    ("Anna: 1,5; Bob: 2", "comma", "Anna: 1,5"),  # a decimal comma: never a player named "5; Bob"
    ("0, 1,5", "comma", "1,5"),
    ("3,1", "comma", "3,1"),  # no space after the comma: said how to write it, in every language alike
    ("0, " + "x" * 41 + ": 1", "name_too_long", "x" * 39),  # the quoted value is shortened
    (", ".join(["0"] * 101), "too_many_players", "101"),
]
CODE_WORDS = {  # a word of each error's sentence, per language
    "too_few_players": {"en": "at least 2", "fr": "au moins 2", "it": "almeno 2"},
    "out_of_range": {"en": "from \u22121", "fr": "de \u22121", "it": "da \u22121"},  # the rule's −1: a minus sign
    "comma": {"en": "(3, 1)", "fr": "(3, 1)", "it": "(3, 1)"},
    "not_a_counter": {"en": "not a shame counter", "fr": "pas un compteur de honte", "it": "non è un contatore della vergogna"},
    "name_too_long": {"en": "40", "fr": "40", "it": "40"},
    "too_many_players": {"en": "100", "fr": "100", "it": "100"},
}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("text", "code", "quoted"), BAD)
def test_shame_bad_inputs(text, code, quoted, lang):
    verdict = evaluate(SHAME, {"shame": text}, lang)
    assert not verdict["ok"] and verdict["result"] is None
    assert [e["field"] for e in verdict["errors"]] == ["shame"]
    message = verdict["errors"][0]["message"]
    assert message.startswith(_message("judge-tower-shame.shame.label", lang))
    quoted = str(Count(int(quoted), lang)) if quoted.isdigit() else quoted  # a number read: grouped ("1,000")
    assert quoted in message and CODE_WORDS[code][lang] in message, message


@pytest.mark.parametrize("lang", LANGUAGES)
def test_shame_empty_and_too_long(lang):
    assert not evaluate(SHAME, {"shame": "  \n "}, lang)["ok"]
    huge = evaluate(SHAME, {"shame": "0\n" * 3000}, lang)
    assert not huge["ok"] and huge["errors"][0]["field"] == "shame"


def test_rules_core_shame_errors():
    with pytest.raises(TooFewPlayers):
        shame_standing([0])
    with pytest.raises(TooManyPlayers):
        shame_limit(101)
    with pytest.raises(OutOfRange) as err:
        shame_standing([0, -2])
    assert (err.value.field, err.value.value) == ("shame", -2)
    with pytest.raises(NotAWholeNumber):
        shame_standing([0, "1"])


counters = st.lists(st.integers(-1, 30), min_size=2, max_size=12)


@given(counters, st.data())
def test_permuting_players_permutes_the_standing(values, data):
    order = data.draw(st.permutations(range(len(values))))
    before = shame_standing(values)
    after = shame_standing([values[i] for i in order])
    moved = {old + 1: new + 1 for new, old in enumerate(order)}
    assert sorted(moved[p] for p in before.eliminated) == list(after.eliminated)
    assert sorted(moved[p] for p in before.winners_if_library_runs_out) == list(after.winners_if_library_runs_out)


@given(counters)
def test_standing_invariants(values):
    s = shame_standing(values)
    assert s.limit == 2 * len(values)
    assert all((values[i - 1] > s.limit) == (i in s.eliminated) for i in range(1, len(values) + 1))
    assert not set(s.eliminated) & set(s.winners_if_library_runs_out)
    remaining = [c for i, c in enumerate(values, 1) if i not in s.eliminated]
    assert bool(s.winners_if_library_runs_out) == bool(remaining)
    assert all(values[i - 1] == min(remaining) for i in s.winners_if_library_runs_out)


@given(counters)
def test_swapping_two_players_swaps_the_winner(values):
    swapped = [values[1], values[0], *values[2:]]
    swap = {1: 2, 2: 1}
    before = shame_standing(values).winners_if_library_runs_out
    after = shame_standing(swapped).winners_if_library_runs_out
    assert sorted(swap.get(p, p) for p in before) == list(after)


@given(st.text(max_size=300), st.sampled_from(LANGUAGES))
def test_evaluate_never_raises(text, lang):
    verdict = evaluate(SHAME, {"shame": text}, lang)
    assert verdict["ok"] == (verdict["result"] is not None)


def _message(key: str, lang: str) -> str:
    with (LOCALE / lang / "LC_MESSAGES" / "judge_tower.po").open("rb") as fh:
        return CATALOG_TYPESETTING.get(lang, str)(read_po(fh)[key].string)  # as compiled


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("typed_counter", ["-2", "\u22122"])
def test_a_counter_read_as_a_number_is_written_as_the_page_writes_numbers(typed_counter, lang):
    """The value read (−2) and the rule's bound (−1) in one sentence, both with the minus sign,
    however the minus was typed (the choice: a number read is shown as a number, text as typed)."""
    [error] = evaluate(SHAME, {"shame": f"Ann: {typed_counter}, Bob: 0"}, lang)["errors"]
    assert "\u22122" in error["message"] and "\u22121" in error["message"] and "-2" not in error["message"]
    [error] = evaluate(SHAME, {"shame": "Ann: -x"}, lang)["errors"]
    assert "Ann: -x" in error["message"]  # text that is not a number: quoted as typed


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_hint_shows_the_separator_the_parser_reads(lang):
    """"Separated by commas" let a reader type "3,1", which is refused (a decimal comma in French and
    Italian): the hint shows a comma and a space, the one form read in every language."""
    hint = _message("judge-tower-shame.shame.hint", lang)
    assert "3, 1" in hint
    assert evaluate(SHAME, {"shame": "3, 1"}, lang)["ok"]
    assert not evaluate(SHAME, {"shame": "3,1"}, lang)["ok"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_hint_says_of_an_unspaced_comma_what_the_verdict_says(lang):
    """«"3,1" si legge come un numero decimale» while the verdict refuses "3,1" (a counter is a whole number):
    a hint quoting the unspaced form ends on the error's own reason."""
    hint = Translator(lang)("judge-tower-shame.shame.hint")
    [error] = evaluate(SHAME, {"shame": "3,1"}, lang)["errors"]
    reason = error["message"].rstrip(".").rsplit(". ", 1)[-1].lower()
    assert "3,1" not in hint or reason in hint.lower(), (reason, hint)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_term_for_a_player_out_of_the_game(lang):
    """«Hors jeu» on the bar, «Hors de la partie» in the verdict, «Ha perso» on a row: one state, one term —
    the row's word, found in every sentence that says a player is out."""
    t = Translator(lang)
    term = t("judge-tower-shame.ui.out").lower()
    sentences = [t("judge-tower-shame.ui.facts_out", names="N"), t("judge-tower-shame.ui.facts_none_out"),
                 t("judge-tower-shame.summary.out", names=typed("N")),
                 t("judge-tower-shame.detail.out", player="N", counter=9, limit=8)]
    assert all(term in sentence.lower() for sentence in sentences), (term, sentences)


def test_the_verdict_says_which_players_the_bar_tells_apart():
    """The tracker's bar names a shared name with its label where the sentences do: the verdict says
    which players (its script compares no names)."""
    from calculators import evaluate
    assert evaluate("judge-tower-shame", {"shame": "Dev: 1\n dev : 2\nBob: 0"}, "en")["result"]["told_apart"] == [1, 2]
    assert "told_apart" not in evaluate("judge-tower-shame", {"shame": "Dev: 1\nBob: 0"}, "en")["result"]
