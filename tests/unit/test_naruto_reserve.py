"""naruto-reserve: list syntax, every limit and boundary, the swap, evaluate() in en/fr/it."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from calculators import evaluate
from rules_core import naruto_reserve as rules
from rules_core.errors import RuleError
from calculators.i18n import LANGUAGES, Count, Translator

LANGS = LANGUAGES
XSS = "<img src=x onerror=alert(1)>"


def block(count: int, prefix: str, tag: str = "") -> list[str]:
    """``count`` cards in lines of 3 copies of distinct names (``prefix 0``, ``prefix 1``...)."""
    lines, i = [], 0
    while count > 0:
        lines.append(f"{min(3, count)} {prefix} {i}{tag}")
        count -= 3
        i += 1
    return lines


def deck(total: int = 40, ninja: int = 0, prefix: str = "") -> str:
    return "\n".join(block(ninja, f"{prefix}Ninja", " [ninja]") + block(total - ninja, f"{prefix}Card"))


def reserve(total: int = 10, ninja: int = 0) -> str:
    return deck(total, ninja, prefix="Side ")


def check(deck_text: str, reserve_text: str = "", out: str = "", into: str = "") -> dict:
    verdict = evaluate("naruto-reserve", {"deck": deck_text, "reserve": reserve_text, "out": out, "in": into}, "en")
    assert verdict["ok"], verdict["errors"]
    return verdict["result"]


def codes(result: dict) -> list[str]:
    return [v["code"] for v in result["violations"]]


# --- one case per rule and per boundary ---------------------------------------------------------

@pytest.mark.parametrize("size, legal", [(39, False), (40, True), (41, False)])
def test_deck_size(size, legal):
    result = check(deck(size))
    assert result["legal"] is legal
    assert result["counts"]["deck"] == size
    assert codes(result) == ([] if legal else ["deck_size"])
    if not legal:
        assert result["violations"][0] == {"code": "deck_size", "count": size, "limit": 40}


@pytest.mark.parametrize("ninja, legal", [(25, True), (26, False)])
def test_deck_ninja(ninja, legal):
    result = check(deck(40, ninja))
    assert result["counts"]["deck_ninja"] == ninja
    assert codes(result) == ([] if legal else ["deck_ninja"])


@pytest.mark.parametrize("size, legal", [(0, True), (9, False), (10, True), (11, False)])
def test_reserve_size(size, legal):
    result = check(deck(), reserve(size) if size else "")
    assert result["counts"]["reserve"] == size
    assert codes(result) == ([] if legal else ["reserve_size"])



@pytest.mark.parametrize("lang", LANGS)
def test_a_legal_deck_without_a_sideboard_states_no_sideboard_size(lang):
    """A Sideboard, when there is one, has exactly RESERVE_SIZE cards: the verdict for a deck entered
    without one says so in its own sentence, never "a Sideboard of 0 cards"."""
    without = evaluate("naruto-reserve", {"deck": deck(40, 7)}, lang)
    with_one = evaluate("naruto-reserve", {"deck": deck(40, 7), "reserve": reserve(10, 2)}, lang)
    assert without["result"]["legal"] and with_one["result"]["legal"]
    numbers = lambda text: re.findall(r"\d+", text)
    assert numbers(without["summary"]) == ["40", "7"]  # the deck and its Ninja: no Sideboard count
    assert sorted(numbers(with_one["summary"])) == sorted(["40", str(rules.RESERVE_SIZE), "7", "9"])
    reserve_word = {"en": "Sideboard", "fr": "Réserve", "it": "Riserva"}[lang]
    assert reserve_word in without["summary"] and without["summary"] != with_one["summary"]

@pytest.mark.parametrize("lang", LANGS)
def test_too_many_ninja_without_a_sideboard_never_counts_one(lang):
    """«Mazzo + Riserva: 40 Ninja senza Plotone (40 nel mazzo, 0 nella Riserva)» with no Sideboard entered: the
    combined limit's line still says the count and its limit, with no "0 in the Sideboard"."""
    ninja = rules.TOTAL_NINJA_MAX + 1
    verdict = evaluate("naruto-reserve", {"deck": deck(40, ninja)}, lang)
    assert "total_ninja" in codes(verdict["result"])
    [line] = [text for v, text in zip(verdict["result"]["violations"], verdict["details"]) if v["code"] == "total_ninja"]
    assert re.findall(r"\d+", line) == [str(ninja), str(rules.TOTAL_NINJA_MAX)], line


@pytest.mark.parametrize("side_ninja, legal", [(5, True), (6, False)])
def test_total_ninja(side_ninja, legal):
    result = check(deck(40, 25), reserve(10, side_ninja))
    assert result["counts"] == {"deck": 40, "reserve": 10, "deck_ninja": 25, "total_ninja": 25 + side_ninja}
    assert codes(result) == ([] if legal else ["total_ninja"])
    if not legal:
        assert result["violations"][0] == {"code": "total_ninja", "count": 31, "limit": 30, "deck": 25, "reserve": 6}


def test_platoon_ninja_do_not_count():
    text = "\n".join(block(27, "Plat", " [platoon]") + block(13, "Card"))
    result = check(text, "\n".join(block(10, "Grp", " [gruppo]")))
    assert result["legal"] and result["counts"]["deck_ninja"] == 0 and result["counts"]["total_ninja"] == 0


@pytest.mark.parametrize("in_reserve, legal", [(1, True), (2, False)])
def test_copies_split_across_deck_and_reserve(in_reserve, legal):
    result = check("2 Kakashi Hatake\n" + deck(38), f"{in_reserve} Kakashi Hatake\n" + reserve(10 - in_reserve))
    assert codes(result) == ([] if legal else ["copies"])
    if not legal:
        assert result["violations"][0] == {"code": "copies", "count": 4, "limit": 3, "card": "Kakashi Hatake",
                                           "deck": 2, "reserve": 2}


def test_legendary_once_in_each_list():
    result = check("1 Gaara [legendary]\n" + deck(39), "1 gaara [Légendaire]\n" + reserve(9))
    assert codes(result) == ["legendary"]
    assert result["violations"][0] == {"code": "legendary", "count": 2, "limit": 1, "card": "Gaara",
                                       "deck": 1, "reserve": 1}


def test_two_different_legendary_cards_once_each():
    result = check("1 Gaara [legendary]\n" + deck(39), "1 Orochimaru [leggendaria]\n" + reserve(9))
    assert result["legal"] and result["violations"] == []


def test_legendary_twice_in_the_deck_alone():
    assert codes(check("2 Gaara [legendary]\n" + deck(38))) == ["legendary"]


def test_every_violation_reported_at_once():
    result = check("4 Kakashi\n1 Gaara [legendary]\n" + deck(37, 26), "1 Gaara\n" + reserve(8, 6))
    assert sorted(codes(result)) == sorted(["deck_size", "reserve_size", "deck_ninja", "total_ninja", "copies", "legendary"])
    assert result["legal"] is False


# --- syntax -----------------------------------------------------------------------------------

@pytest.mark.parametrize("line, name, count", [
    ("3 Kakashi Hatake", "Kakashi Hatake", 3),
    ("3x Kakashi Hatake", "Kakashi Hatake", 3),
    ("3 x Kakashi Hatake", "Kakashi Hatake", 3),
    ("3X Kakashi Hatake", "Kakashi Hatake", 3),
    ("3 × Kakashi Hatake", "Kakashi Hatake", 3),
    ("  2   Kakashi    Hatake  ", "Kakashi Hatake", 2),
    ("1 Xavier", "Xavier", 1),
    ("1 X", "X", 1),
    ("3\tKakashi Hatake", "Kakashi Hatake", 3),
    ("99 Kakashi", "Kakashi", 99),
])
def test_quantity_forms(line, name, count):
    entry = rules.parse_line("deck", line, 1)
    assert (entry.name, entry.count) == (name, count)


@pytest.mark.parametrize("tags, kind, legendary", [
    ("ninja", rules.Kind.NINJA, False), ("NINJA", rules.Kind.NINJA, False),
    ("platoon", rules.Kind.PLATOON, False), ("group", rules.Kind.PLATOON, False),
    ("groupe", rules.Kind.PLATOON, False), ("Gruppo", rules.Kind.PLATOON, False), ("plotone", rules.Kind.PLATOON, False),
    ("legendary", None, True), ("légendaire", None, True), ("LEGENDAIRE", None, True), ("Légendaire", None, True),
    ("leggendaria", None, True), ("leggendario", None, True),
    ("ninja, legendary", rules.Kind.NINJA, True), (" Groupe ,LÉGENDAIRE ", rules.Kind.PLATOON, True),
    ("ninja, ninja", rules.Kind.NINJA, False), ("", None, False), ("ninja,", rules.Kind.NINJA, False),
])
def test_tags_in_three_languages(tags, kind, legendary):
    entry = rules.parse_line("deck", f"2 Naruto [{tags}]", 4)
    assert (entry.name, entry.kind, entry.legendary, entry.line) == ("Naruto", kind, legendary, 4)


def test_blank_and_comment_lines_are_ignored_and_lines_add_up():
    text = "# my deck\n\n   \n2 Kakashi Hatake [ninja]\n  # side note\n1 kakashi   HATAKE\n" + deck(37)
    result = check(text)
    assert result["legal"] and result["counts"]["deck"] == 40 and result["counts"]["deck_ninja"] == 3
    assert codes(check(text + "\n1 KAKASHI hatake")) == ["deck_size", "copies"]


def test_an_untagged_line_takes_the_tag_of_its_name():
    result = check("2 Naruto [ninja]\n" + deck(38), "1 naruto\n" + reserve(9))
    assert result["counts"]["total_ninja"] == 3


@pytest.mark.parametrize("line, code", [
    ("Kakashi Hatake", "no_quantity"),
    ("-1 Kakashi", "no_quantity"),
    ("x3 Kakashi", "no_quantity"),
    ("3", "no_name"),
    ("3x", "no_name"),
    ("3Kakashi", "syntax"),
    ("3xKakashi", "syntax"),
    ("2.5 Kakashi", "syntax"),
    ("3 Kakashi [ninja", "syntax"),
    ("3 Kaka]shi", "syntax"),
    ("3 Kakashi [ninja] Hatake", "syntax"),
    ("3 Kakashi [ninja][legendary]", "syntax"),
    ("3 [ninja]", "syntax"),
    ("0 Kakashi", "bad_quantity"),
    ("100 Kakashi", "bad_quantity"),
    ("3 Kakashi [shinobi]", "bad_tag"),
    ("3 Kakashi [ninja, platoon]", "conflicting_tags"),
    ("3 Kakashi [groupe, NINJA]", "conflicting_tags"),
])
def test_syntax_errors_name_the_line(line, code):
    with pytest.raises(RuleError) as info:
        rules.parse_list("reserve", f"# comment\n\n{line}\n1 Fine")
    assert (info.value.field, info.value.code, info.value.params["line"]) == ("reserve", code, 3)


def test_conflicting_tags_across_lines_and_lists():
    with pytest.raises(RuleError) as info:
        rules.check(rules.parse_list("deck", "1 Naruto [ninja]"), rules.parse_list("reserve", "\n1 NARUTO [platoon]"))
    assert (info.value.field, info.value.code, info.value.params["line"]) == ("reserve", "conflicting_tags", 2)


def test_line_length_limit():
    ok = "1 " + "K" * (rules.MAX_LINE_CHARS - 2)
    assert rules.parse_line("deck", ok, 1).count == 1
    with pytest.raises(RuleError) as info:
        rules.parse_list("deck", "1 A\n" + ok + "K")
    assert (info.value.code, info.value.params["line"], info.value.params["limit"]) == ("line_too_long", 2, 200)


def test_line_count_limit():
    assert len(rules.parse_list("deck", "\n".join(["1 A"] * rules.MAX_LINES))) == 1000
    with pytest.raises(RuleError) as info:
        rules.parse_list("deck", "\n".join(["1 A"] * (rules.MAX_LINES + 1)))
    assert (info.value.code, info.value.params["lines"]) == ("too_many_lines", 1001)


def test_character_limit():
    with pytest.raises(RuleError) as info:
        rules.parse_list("deck", "#" * (rules.MAX_CHARS + 1))
    assert info.value.code == "too_long"


# --- the swap ---------------------------------------------------------------------------------

def test_swap_that_keeps_the_deck_legal():
    result = check("3 Kakashi [ninja]\n" + deck(37, 22), "2 Sakura\n" + reserve(8), out="2 kakashi", into="2 SAKURA")
    assert result["legal"] is True
    swap = result["swap"]
    assert swap["legal"] is True and swap["counts"] == {"deck": 40, "deck_ninja": 23}
    after = {card["card"]: card["count"] for card in swap["deck"]}
    assert after["Kakashi"] == 1 and after["Sakura"] == 2 and sum(after.values()) == 40


def test_swap_that_breaks_the_deck():
    result = check(deck(40, 24), "\n".join(block(3, "Side Ninja", " [ninja]")) + "\n" + reserve(7),
                   out="2 Card 0", into="2 Side Ninja 0")
    assert result["swap"] == {**result["swap"], "legal": False, "counts": {"deck": 40, "deck_ninja": 26}}
    assert result["violations"] == [{"code": "swap", "count": 26, "limit": 25, "reason": "deck_ninja"}]
    assert result["legal"] is False


@pytest.mark.parametrize("out, into, reason, expected", [
    ("2 Card 0", "1 Side Card 0", "unbalanced", {"taken": 2, "brought": 1}),
    ("1 Nobody", "1 Side Card 0", "not_in_deck", {"card": "Nobody", "count": 1, "available": 0}),
    ("1 Card 0", "4 Side Card 0", "not_in_reserve", {"card": "Side Card 0", "count": 4, "available": 3}),
])
def test_swap_problems(out, into, reason, expected):
    result = check(deck(), reserve(), out=out, into=into)
    found = [v for v in result["violations"] if v.get("reason") == reason]
    assert found and found[0] == {"code": "swap", "reason": reason, **found[0], **expected}
    assert result["swap"]["legal"] is False


def test_no_swap_key_without_out_and_in():
    assert set(check(deck())) == {"legal", "violations", "counts"}
    assert set(check(deck(), out="1 Card 0", into="")["swap"]) == {"deck", "counts", "legal"}


# --- evaluate() in three languages ----------------------------------------------------------------

LABELS = {"en": ("Deck", "line"), "fr": ("Deck", "ligne"), "it": ("Mazzo", "riga")}


@pytest.mark.parametrize("lang", LANGS)
def test_syntax_error_is_localized_with_field_label_and_line(lang):
    verdict = evaluate("naruto-reserve", {"deck": "3 Kakashi\n\nKakashi"}, lang)
    assert verdict["ok"] is False and verdict["result"] is None and verdict["details"] == []
    [error] = verdict["errors"]
    label, line = LABELS[lang]
    assert error["field"] == "deck" and error["message"].startswith(f"{label}, {line} 3")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("field", ["deck", "reserve", "out", "in"])
def test_every_list_field_reports_its_own_errors(lang, field):
    inputs = {"deck": deck(), field: "1 A\n[ninja]"}
    [error] = evaluate("naruto-reserve", inputs, lang)["errors"]
    assert error["field"] == field and " 2" in error["message"]


@pytest.mark.parametrize("lang, words", [
    ("en", "Kakashi Hatake: 4 copies (3 in the deck, 1 in the Sideboard), limit 3."),
    ("fr", "Kakashi Hatake\u00a0: 4 exemplaires (3 dans le deck, 1 dans la Réserve), limite 3."),  # French spacing, as compiled
    ("it", "Kakashi Hatake: 4 copie (3 nel mazzo, 1 nella Riserva), limite 3."),
])
def test_violation_sentence_names_card_and_numbers(lang, words):
    verdict = evaluate("naruto-reserve", {"deck": "3 Kakashi Hatake\n" + deck(37), "reserve": "1 Kakashi Hatake\n" + reserve(9)}, lang)
    assert verdict["ok"] and verdict["details"] == [words]
    assert verdict["summary"] and verdict["result"]["legal"] is False


@pytest.mark.parametrize("lang", LANGS)
def test_every_violation_code_has_a_sentence(lang):
    verdict = evaluate("naruto-reserve", {"deck": "4 Kakashi\n1 Gaara [legendary]\n" + deck(37, 26),
                                          "reserve": "1 Gaara\n" + reserve(8, 6), "out": "3 Nobody",
                                          "in": "1 Nobody Else"}, lang)
    assert len(verdict["details"]) == len(verdict["result"]["violations"])  # the swap's line is in the summary
    assert all("{" not in line for line in [*verdict["details"], verdict["summary"]])


@pytest.mark.parametrize("lang", LANGS)
def test_legal_summary_and_required_deck(lang):
    verdict = evaluate("naruto-reserve", {"deck": deck(), "reserve": reserve()}, lang)
    assert verdict["ok"] and verdict["result"]["legal"] and "40" in verdict["summary"] and verdict["details"] == []
    [error] = evaluate("naruto-reserve", {"deck": "  \n"}, lang)["errors"]
    assert error["field"] == "deck" and error["message"].startswith(LABELS[lang][0])


@pytest.mark.parametrize("lang", LANGS)
def test_too_long_list_names_the_field(lang):
    [error] = evaluate("naruto-reserve", {"deck": deck(), "reserve": "#" * 100_001}, lang)["errors"]
    assert error["field"] == "reserve" and str(Count(100_000, lang)) in error["message"]
    [error] = evaluate("naruto-reserve", {"deck": "\n".join(["1 A"] * 1001)}, lang)["errors"]
    assert error["field"] == "deck" and str(Count(1001, lang)) in error["message"]
    [error] = evaluate("naruto-reserve", {"deck": "1 " + "A" * 300}, lang)["errors"]
    assert error["field"] == "deck" and "302" in error["message"]


def test_html_in_a_card_name_is_kept_as_given():
    verdict = evaluate("naruto-reserve", {"deck": f"4 {XSS}\n" + deck(36)}, "en")
    assert verdict["details"] == [f"{XSS}: 4 copies in the deck, limit 3."]


# --- properties -----------------------------------------------------------------------------------

NAMES = st.sampled_from(["Kakashi", "Naruto", "Sakura", "Gaara", "Jiraiya", "Itachi", "Hinata", "Rock Lee"])
TAG_OF = {"Kakashi": " [ninja]", "Naruto": " [ninja]", "Gaara": " [legendary]", "Hinata": " [platoon]"}
LINES = st.lists(st.tuples(st.integers(1, 5), NAMES), min_size=1, max_size=12)


def normalized(result: dict) -> dict:
    return {**result, "violations": sorted(result["violations"], key=repr)}


@settings(max_examples=60, deadline=None)
@given(LINES, LINES, st.randoms(use_true_random=False))
def test_reordering_lines_never_changes_the_verdict(deck_lines, side_lines, rnd):
    def text(lines):
        return "\n".join(f"{n} {name}{TAG_OF.get(name, '')}" for n, name in lines)
    before = check(text(deck_lines), text(side_lines))
    rnd.shuffle(deck_lines)
    rnd.shuffle(side_lines)
    assert normalized(check(text(deck_lines), text(side_lines))) == normalized(before)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 3), st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="[]#"),
                                  min_size=1, max_size=30).filter(lambda s: s.strip() and not s.strip()[0].isdigit()),
       st.sampled_from(["", " [ninja]", " [platoon]", " [legendary]"]))
@example(1, "X", " [ninja]")  # found by hypothesis in CI: "1 X" was read as the multiplier "1x"
def test_adding_any_card_to_a_legal_deck_makes_it_illegal(count, name, tag):
    legal = deck(40, 25)
    assert check(legal)["legal"]
    result = check(legal + f"\n{count} {name}{tag}")
    assert result["legal"] is False and "deck_size" in codes(result)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(["deck", "reserve", "out", "in", "other"]),
                       st.text(st.sampled_from("0123 xX×\n\r\t#[],aAéÉ-1ninjagroupelegendary"), max_size=60)),
       st.sampled_from(LANGS))
def test_evaluate_never_raises_on_any_text(inputs, lang):
    verdict = evaluate("naruto-reserve", inputs, lang)
    assert verdict["ok"] == (verdict["result"] is not None) == (not verdict["errors"])
    assert all(e["field"] in ("deck", "reserve", "out", "in") for e in verdict["errors"])


#: Plural words that must never follow a count of one (a grammar property, not a catalog's text).
PLURAL_AFTER_ONE = {"en": r"cards|copies|ninjas", "fr": r"cartes|exemplaires|ninjas|retirées|intégrées",
                    "it": r"carte|copie|ninja non|tolte|prese"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_count_of_one_reads_right(lang):
    """One card in the deck, one in the Sideboard, one taken out that is not in the deck and one brought in
    that is not in the Sideboard: every count is 1, and no message puts a plural word after it."""
    verdict = evaluate("naruto-reserve", {"deck": "1 Kakashi", "reserve": "1 Gaara", "out": "1 Naruto",
                                          "in": "1 Sasuke"}, lang)
    lines = [verdict["summary"], *verdict["details"], *(e["message"] for e in verdict["errors"])]
    assert len(lines) >= 4, lines  # the deck, the Sideboard and both swap lines are reported
    wrong = [line for line in lines if re.search(rf"\b1 ({PLURAL_AFTER_ONE[lang]})\b", line)]
    assert not wrong


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_illegal_deck_lists_as_many_problems_as_it_counts_and_says_the_swap_apart(lang):
    """Issue 46, defect 4: «Problemi trovati: 2» then exactly two bullets; the swap's verdict in the summary."""
    deck = "\n".join(["4 Naruto Uzumaki [ninja]", *(f"3 Card {n}" for n in range(13))])
    reserve = "\n".join(f"1 Extra {n}" for n in range(9))
    verdict = evaluate("naruto-reserve", {"deck": deck, "reserve": reserve, "in": "1 Extra 1", "out": "1 Card 1"}, lang)
    problems = verdict["result"]["violations"]
    assert problems and not verdict["result"]["legal"]
    assert len(verdict["details"]) == len(problems)
    swap_problems = [p for p in problems if p["code"] == "swap"]
    t = Translator(lang)
    assert verdict["summary"].startswith(t("naruto-reserve.summary.illegal", count=len(problems) - len(swap_problems)))
    assert t("naruto-reserve.summary.swap_also_illegal", count=len(swap_problems)) in verdict["summary"]
    swap = verdict["result"]["swap"]
    words = Translator(lang)(f"naruto-reserve.swap.{'legal' if swap['legal'] else 'illegal'}",
                             deck=swap["counts"]["deck"], deck_ninja=swap["counts"]["deck_ninja"])
    assert verdict["summary"].endswith(words)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("text, line", [
    ("3 Kakashi Hatake [ninja, platoon]", 1),  # both tags on one line
    ("3 Kakashi Hatake [ninja]\n1 kakashi  hatake [platoon]", 2),  # the two tags on two lines
])
def test_conflicting_tags_message_names_the_card(lang, text, line):
    [error] = evaluate("naruto-reserve", {"deck": text}, lang)["errors"]
    assert error["field"] == "deck" and f" {line}" in error["message"]
    assert "Kakashi" in error["message"].replace("kakashi", "Kakashi") and "ninja, platoon" not in error["message"]


# --- a Réserve typed alone (issue 51, item 2) -----------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_a_sideboard_alone_gets_what_the_rules_say_of_it(lang):
    """Size and copy limits, which the Réserve alone can break whatever the deck; the counts and the
    verdict that need the deck are not given (None), and the summary asks for the deck."""
    t = Translator(lang)
    legal = evaluate("naruto-reserve", {"reserve": reserve()}, lang)
    assert legal["ok"] and legal["result"]["legal"] is None and legal["details"] == []
    assert legal["result"]["counts"] == {"deck": None, "reserve": rules.RESERVE_SIZE, "deck_ninja": None, "total_ninja": None}
    assert legal["summary"] == f'{t("naruto-reserve.summary.reserve_alone", reserve=rules.RESERVE_SIZE)} {t("naruto-reserve.summary.needs_deck")}'
    side = f"{rules.COPIES_MAX + 1} Kakashi\n{rules.LEGENDARY_MAX + 1} Gaara [legendary]\n" + reserve(rules.RESERVE_SIZE - 1)
    bad = evaluate("naruto-reserve", {"reserve": side}, lang)
    assert bad["ok"] and bad["result"]["legal"] is False
    assert [(v["code"], v["count"]) for v in bad["result"]["violations"]] == [
        ("reserve_size", rules.RESERVE_SIZE - 1 + rules.COPIES_MAX + 1 + rules.LEGENDARY_MAX + 1),
        ("copies", rules.COPIES_MAX + 1), ("legendary", rules.LEGENDARY_MAX + 1)]
    assert len(bad["details"]) == 3 and all("{" not in line for line in bad["details"])
    assert t("naruto-reserve.summary.needs_deck") in bad["summary"]


def test_a_sideboard_alone_never_reports_what_needs_the_deck():
    """Thirty Ninja in a Réserve break its size, not the Ninja limits: those count the deck."""
    result = evaluate("naruto-reserve", {"reserve": reserve(rules.TOTAL_NINJA_MAX + 3, rules.TOTAL_NINJA_MAX + 3)}, "en")["result"]
    assert codes(result) == ["reserve_size"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_deck_is_asked_for_only_by_what_needs_it(lang):
    """Nothing typed: the deck is required; a swap without the deck: the deck is needed for it."""
    [error] = evaluate("naruto-reserve", {"reserve": "# only a comment"}, lang)["errors"]
    assert (error["field"], error["code"]) == ("deck", "required")
    for swap in ({"out": "1 Card 0"}, {"in": "1 Side Card 0"}):
        [error] = evaluate("naruto-reserve", {"reserve": reserve(), **swap}, lang)["errors"]
        assert (error["field"], error["code"]) == ("deck", "needed") and error["message"].startswith(LABELS[lang][0])


@pytest.mark.parametrize("lang", LANGS)
def test_a_legal_deck_with_a_bad_swap_is_not_called_illegal(lang):
    """"Not legal" reads as an illegal registered deck (a penalty): when only the swap breaks a rule, the
    summary says the deck and Sideboard are legal and the swap is not."""
    t = Translator(lang)
    swap_only = evaluate("naruto-reserve", {"deck": deck(), "reserve": reserve(), "out": "2 Card 0",
                                            "in": "1 Side Card 0\n4 Side Card 1"}, lang)
    count = len(swap_only["result"]["violations"])
    assert count >= 2 and swap_only["result"]["legal"] is False
    assert swap_only["summary"].startswith(t("naruto-reserve.summary.swap_illegal", count=count) + " ")
    no_reserve = evaluate("naruto-reserve", {"deck": deck(), "out": "1 Card 0", "in": "1 Side Card 0"}, lang)
    assert no_reserve["summary"].startswith(t("naruto-reserve.summary.swap_illegal_no_reserve", count=1) + " ")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("values, key", [
    ({"reserve": "1 Solo"}, "reserve_illegal"),
    ({"deck": deck(39)}, "illegal_no_reserve"),
    ({"deck": deck(39), "reserve": reserve()}, "deck_illegal"),  # a legal Sideboard is not called illegal
    ({"deck": deck(), "reserve": reserve(9)}, "reserve_illegal_deck_legal"),
    ({"deck": deck(39), "reserve": reserve(9)}, "illegal"),
    ({"deck": deck(ninja=rules.DECK_NINJA_MAX), "reserve": reserve(ninja=rules.TOTAL_NINJA_MAX - rules.DECK_NINJA_MAX + 1)},
     "illegal"),  # a limit counted over both lists blames both
    ({"deck": "4 Kakashi\n" + deck(36)}, "illegal_no_reserve"),
    ({"deck": deck(39), "reserve": reserve(), "out": "2 Card 0", "in": "1 Side Card 0"}, "deck_illegal"),
    ({"deck": deck(), "reserve": reserve(9), "out": "1 Card 0", "in": "3 Side Card 0"}, "reserve_illegal_deck_legal"),
])
def test_an_illegal_verdict_names_exactly_what_fails_and_counts_the_swap_apart(lang, values, key):
    """Never a bare "Not legal", never the swap's problems counted as the lists': the Sideboard alone, the
    deck alone, or both (a combined limit is both), each with its own count; the swap's in a sentence
    of its own, said once."""
    t = Translator(lang)
    verdict = evaluate("naruto-reserve", values, lang)
    problems = verdict["result"]["violations"]
    swap = [v for v in problems if v["code"] == "swap"]
    expected = t(f"naruto-reserve.summary.{key}", count=len(problems) - len(swap))
    if swap:
        expected += " " + t("naruto-reserve.summary.swap_also_illegal", count=len(swap))
    if "swap" in verdict["result"]:
        after = verdict["result"]["swap"]
        expected += " " + t(f"naruto-reserve.swap.{'legal' if after['legal'] else 'illegal'}",
                            deck=after["counts"]["deck"], deck_ninja=after["counts"]["deck_ninja"])
    elif key != "reserve_illegal":
        assert verdict["summary"] == expected
    assert verdict["summary"].startswith(expected) and len(verdict["details"]) == len(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_the_swap_is_judged_once(lang):
    """The summary says the swap is not legal; the sentence about the deck after it does not say it again."""
    t = Translator(lang)
    verdict = evaluate("naruto-reserve", {"deck": deck(), "reserve": reserve(), "out": "1 Card 0", "in": "2 Side Card 0"}, lang)
    judged = t("naruto-reserve.summary.swap_illegal", count=1).split(",")[-1].split(";")[-1].split(":")[0].strip()
    assert verdict["summary"].count(judged) == 1, verdict["summary"]
    after = {"deck": 41, "deck_ninja": 0}  # the sentence about the deck after it, with no verdict of its own
    assert t("naruto-reserve.swap.legal", **after).startswith(t("naruto-reserve.swap.illegal", **after).rstrip("."))


@pytest.mark.parametrize("lang", LANGS)
def test_a_copy_limit_without_copies_in_the_sideboard_says_the_deck_alone(lang):
    """No "(40 in the deck, 0 in the Sideboard)": the deck's count alone, as for a Sideboard alone."""
    t = Translator(lang)
    [line] = evaluate("naruto-reserve", {"deck": "4 Kakashi\n" + deck(36)}, lang)["details"]
    assert line == t("naruto-reserve.violation.copies.deck_alone", card="Kakashi", count=4, limit=rules.COPIES_MAX)
    sideboard_word = t("naruto-reserve.summary.reserve_illegal", count=1).split()[1].strip(" :")
    assert sideboard_word not in line and " 0 " not in line




@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("legendary", [False, True])
def test_a_swap_that_leaves_too_many_copies_in_the_deck_is_not_legal(lang, legendary):
    """After the swap the deck still meets the copy limits (Legendary: one): bringing in one more copy
    of a card the deck holds at its limit is not a legal swap, whatever the lists already break."""
    t = Translator(lang)
    code, limit = ("legendary", rules.LEGENDARY_MAX) if legendary else ("copies", rules.COPIES_MAX)
    tag = " [legendary]" if legendary else " [ninja]"
    verdict = evaluate("naruto-reserve", {"deck": f"{limit} Kiba{tag}\n" + deck(rules.DECK_SIZE - limit),
                                          "reserve": f"1 Kiba{tag}\n" + reserve(rules.RESERVE_SIZE - 1),
                                          "out": "1 Card 0", "in": "1 Kiba"}, lang)
    result = verdict["result"]
    assert result["swap"]["legal"] is False and result["swap"]["counts"]["deck"] == rules.DECK_SIZE
    expected = {"code": "swap", "reason": code, "card": "Kiba", "count": limit + 1, "limit": limit}
    assert expected in result["violations"]
    assert t(f"naruto-reserve.violation.swap.{code}", **expected) in verdict["details"]
    assert t("naruto-reserve.summary.swap_also_illegal", count=1) in verdict["summary"]


def test_a_swap_up_to_the_copy_limit_stays_legal():
    limit = rules.COPIES_MAX
    result = check(f"{limit - 1} Kiba\n" + deck(rules.DECK_SIZE - limit + 1),
                   "1 Kiba\n" + reserve(rules.RESERVE_SIZE - 1), out="1 Card 0", into="1 Kiba")
    assert result["legal"] is True and result["swap"]["legal"] is True


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("tag, code, limit", [("", "copies", rules.COPIES_MAX),
                                              (" [legendary]", "legendary", rules.LEGENDARY_MAX)])
def test_a_copy_limit_broken_in_the_sideboard_alone_says_all_in_the_sideboard(lang, tag, code, limit):
    """With a deck entered, a card whose copies are all in the Sideboard: no "(0 in the deck, 4 in the
    Sideboard)" but its own sentence."""
    t = Translator(lang)
    over = limit + 1
    verdict = evaluate("naruto-reserve", {"deck": deck(), "reserve": f"{over} Scroll{tag}\n" + reserve(rules.RESERVE_SIZE - over)}, lang)
    assert verdict["details"] == [t(f"naruto-reserve.violation.{code}.reserve_only", card="Scroll", count=over, limit=limit)]
    assert " 0 " not in verdict["details"][0]


@pytest.mark.parametrize("lang", LANGS)
def test_cards_brought_in_without_a_sideboard_say_none_was_entered(lang):
    """Not "more than the Sideboard holds (0)" when no Sideboard was entered; with a Sideboard that lacks
    the card, the count it holds."""
    t = Translator(lang)
    [line] = evaluate("naruto-reserve", {"deck": deck(), "out": "1 Card 0", "in": "1 V"}, lang)["details"]
    assert line == t("naruto-reserve.violation.swap.not_in_reserve.no_reserve", card="V", count=1)
    [line] = evaluate("naruto-reserve", {"deck": deck(), "reserve": reserve(), "out": "1 Card 0", "in": "1 V"}, lang)["details"]
    assert re.findall(r"\d+", line) == ["1"] and "V" in line, line  # never "not that many (0)"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("out", "into"), [("1 Nobody", "1 Side Card 0"), ("1 Card 0", "1 Nobody")])
def test_a_swapped_card_the_list_lacks_is_said_to_have_no_copy(lang, out, into):
    """«…mais le deck n'en contient pas autant (0)»: a card the deck or the Sideboard does not hold at all
    is said to have no copy there; only the count swapped is quoted."""
    details = evaluate("naruto-reserve", {"deck": deck(), "reserve": reserve(), "out": out, "in": into}, lang)["details"]
    [line] = [text for text in details if "Nobody" in text]
    assert re.findall(r"\d+", line) == ["1"], line


# A quoted example line whose one pair of brackets holds more than one tag.
TWO_TAGS = re.compile(r"\d+ [^«»“”\[\]]+\[[^\]]*,[^\]]*\]")


@pytest.mark.parametrize("lang", LANGS)
def test_the_hint_and_the_error_show_how_to_write_two_tags(lang):
    """«3 Naruto [ninja] [leggendaria]» is refused as unreadable: the deck's hint and that error both show a
    line with two tags in one pair of brackets, and the parser reads that example with both tags."""
    error = evaluate("naruto-reserve", {"deck": "3 Naruto [ninja] [legendary]"}, lang)["errors"][0]["message"]
    for text in (Translator(lang)("naruto-reserve.deck.hint"), error):
        examples = TWO_TAGS.findall(text)
        assert examples, text
        entry = rules.parse_line("deck", examples[-1], 1)
        assert entry.kind is not None and entry.legendary, examples
