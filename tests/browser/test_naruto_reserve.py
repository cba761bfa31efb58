"""naruto-reserve end to end in en/fr/it: legal and illegal lists, line errors, live counters, HTML as text."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import expect_ready
from tests.browser.pages import calculator, details, field_error, field_errors, summary

from calculators import evaluate
from calculators.i18n import Translator

PAGES = {"en": "naruto/", "fr": "fr/naruto/", "it": "it/naruto/"}


def block(count: int, prefix: str, tag: str = "") -> list[str]:
    return [f"{min(3, count - i)} {prefix} {i // 3}{tag}" for i in range(0, count, 3)]


DECK = "\n".join(["# registered deck", "3x Kakashi Hatake [ninja]", *block(21, "Ninja", " [ninja]"),
                  *block(10, "Team", " [Gruppo]"), "1 Gaara [Légendaire]", *block(5, "Card")])
RESERVE = "\n".join(["1 Sakura [ninja]", "3 Side Card", "1 Orochimaru [LEGENDARY]", *block(5, "Side Other")])
ILLEGAL_DECK = DECK.replace("3x Kakashi Hatake [ninja]", "3x Kakashi Hatake [ninja]\n1 Extra")
ILLEGAL_RESERVE = RESERVE.replace("1 Sakura [ninja]", "1 kakashi hatake\n1 gaara")


def label(lang: str, field: str) -> str:
    return Translator(lang)(f"naruto-reserve.{field}.label")


def counters(calc):
    """The reserve widget's counts, by what each counts (a definition list: each count under its term)."""
    return {key: calc.locator(f'.reserve-counter[data-counter="{key}"] dd')
            for key in ("deck", "reserve", "deck_ninja", "total_ninja")}


@pytest.mark.parametrize("lang", ["fr"])  # one language (conftest: "Languages")
def test_legal_then_illegal_then_line_error(open_calc, page, lang):
    calc = open_calc(PAGES[lang], "naruto-reserve")
    shown = counters(calc)
    expect(shown["deck"]).to_have_text("–")
    expect(calc.locator('.reserve-counter[data-counter="deck_ninja"] dt')).to_have_text(
        Translator(lang)("naruto-reserve.ui.deck-ninja"))
    deck, reserve = calc.get_by_label(label(lang, "deck"), exact=True), calc.get_by_label(label(lang, "reserve"), exact=True)
    deck.fill(DECK)
    reserve.fill(RESERVE)
    said = summary(calc)
    expected = evaluate("naruto-reserve", {"deck": DECK, "reserve": RESERVE, "out": "", "in": ""}, lang)
    assert expected["result"]["legal"] is True
    expect(said).to_have_text(expected["summary"])
    for key, text in {"deck": "40/40", "reserve": "10/10", "deck_ninja": "24/25", "total_ninja": "25/30"}.items():
        expect(shown[key]).to_have_text(text)
    expect(calc).to_have_attribute("data-result", json.dumps(expected["result"], separators=(",", ":"), ensure_ascii=False))
    expect(details(calc)).to_have_count(0)  # no problem listed for a legal list
    expect(field_errors(calc).filter(visible=True)).to_have_count(0)

    # Illegal: every violation named, each in its own sentence.
    deck.fill(ILLEGAL_DECK)
    reserve.fill(ILLEGAL_RESERVE)
    verdict = evaluate("naruto-reserve", {"deck": ILLEGAL_DECK, "reserve": ILLEGAL_RESERVE}, lang)
    assert {v["code"] for v in verdict["result"]["violations"]} == {"deck_size", "reserve_size", "copies", "legendary"}
    expect(details(calc)).to_have_text(verdict["details"])
    expect(said).to_have_text(verdict["summary"])
    expect(said).not_to_have_text(expected["summary"])
    expect(shown["deck"]).to_have_text("41/40")
    expect(calc.locator('.reserve-counter[data-counter="deck"]')).to_have_attribute("data-over", "true")

    # A line that cannot be read: localized error with the field label and its line number, no verdict.
    reserve.fill("1 Sakura\nSakura Haruno")
    [error] = evaluate("naruto-reserve", {"deck": ILLEGAL_DECK, "reserve": "1 Sakura\nSakura Haruno"}, lang)["errors"]
    box = field_error(calc, "reserve")
    expect(box).to_have_text(error["message"])
    expect(box).to_contain_text(label(lang, "reserve"))  # the message names the field
    expect(reserve).to_have_attribute("aria-invalid", "true")
    expect(said).to_have_text("")
    expect(details(calc)).to_have_count(0)
    expect(calc).to_have_attribute("data-result", "null")
    expect(shown["deck"]).to_have_text("–")


@pytest.mark.parametrize("lang", ["fr"])
def test_swap_between_games(open_calc, page, lang):
    calc = open_calc(PAGES[lang], "naruto-reserve")
    calc.get_by_label(label(lang, "deck"), exact=True).fill(DECK)
    calc.get_by_label(label(lang, "reserve"), exact=True).fill(RESERVE)
    calc.get_by_label(label(lang, "out"), exact=True).fill("1 Card 0")
    calc.get_by_label(label(lang, "in"), exact=True).fill("1 sakura")
    inputs = {"deck": DECK, "reserve": RESERVE, "out": "1 Card 0", "in": "1 sakura"}
    legal = evaluate("naruto-reserve", inputs, lang)
    assert legal["result"]["legal"] is True
    expect(details(calc)).to_have_text(legal["details"])
    calc.get_by_label(label(lang, "out"), exact=True).fill("2 Card 0")
    unequal = evaluate("naruto-reserve", {**inputs, "out": "2 Card 0"}, lang)
    assert unequal["result"]["legal"] is False
    expect(details(calc)).to_have_text(unequal["details"])
    expect(summary(calc)).not_to_have_text(legal["summary"])


def test_counters_stay_visible_on_a_phone(phone, site_url):
    page = phone
    page.goto(f"{site_url}/it/naruto/")
    calc = calculator(page, "it", "naruto-reserve")
    expect_ready(calc)
    deck = calc.get_by_label(label("it", "deck"), exact=True)
    deck.tap()
    deck.fill(DECK)
    shown = counters(calc)
    expect(shown["deck"]).to_have_text("40/40")
    box = deck.bounding_box()
    assert box["height"] >= 150 and box["x"] >= 0 and box["x"] + box["width"] <= 412
    last = calc.get_by_label(label("it", "in"), exact=True)
    last.scroll_into_view_if_needed()
    last.tap()
    viewport = page.viewport_size
    counter = calc.locator(".reserve-counters").bounding_box()
    assert 0 <= counter["y"] and counter["y"] + counter["height"] <= viewport["height"]  # still in view
    assert deck.bounding_box()["y"] + deck.bounding_box()["height"] < counter["y"] + counter["height"]  # the deck scrolled past
    expect(calc.locator(".reserve-counters")).to_be_in_viewport()


@pytest.mark.parametrize("lang", ["it"])  # one language (conftest: "Languages")
def test_a_sideboard_typed_alone_is_answered_at_once(open_calc, page, lang):
    """Issue 51, item 2: the most common check at a table, a player's Réserve counted alone. What the
    rules say of it alone is said at once, its counter counts it, the deck's counters wait for the
    deck, and nothing is asked of the deck field until the swap needs it."""
    calc = open_calc(PAGES[lang], "naruto-reserve")
    shown = counters(calc)
    reserve = calc.get_by_label(label(lang, "reserve"), exact=True)
    eleven = RESERVE.replace("1 Sakura [ninja]", "2 Sakura [ninja]")
    reserve.fill(eleven)
    verdict = evaluate("naruto-reserve", {"reserve": eleven}, lang)
    assert verdict["ok"] and verdict["result"]["legal"] is False
    expect(summary(calc)).to_have_text(verdict["summary"])
    expect(details(calc)).to_have_text(verdict["details"])
    expect(shown["reserve"]).to_have_text("11/10")
    expect(calc.locator('.reserve-counter[data-counter="reserve"]')).to_have_attribute("data-over", "true")
    for key in ("deck", "deck_ninja", "total_ninja"):
        expect(shown[key]).to_have_text("–")
    # Must not happen: the deck reported missing while nothing needs it.
    expect(field_errors(calc).filter(visible=True)).to_have_count(0)

    reserve.fill(RESERVE)
    verdict = evaluate("naruto-reserve", {"reserve": RESERVE}, lang)
    assert verdict["ok"] and verdict["result"]["legal"] is None and verdict["details"] == []
    expect(summary(calc)).to_have_text(verdict["summary"])
    expect(shown["reserve"]).to_have_text("10/10")
    expect(calc.locator('.reserve-counter[data-counter="reserve"]')).not_to_have_attribute("data-over", "true")

    calc.get_by_label(Translator(lang)("naruto-reserve.out.label"), exact=True).fill("1 Card 0")  # a swap needs the deck
    [error] = evaluate("naruto-reserve", {"reserve": RESERVE, "out": "1 Card 0"}, lang)["errors"]
    expect(field_error(calc, "deck")).to_have_text(error["message"])
    expect(summary(calc)).to_have_text("")
