"""Shareable calculators: a filled-in calculator round-trips through its link, in any language;
an invalid link opens showing the localized error. The round planner's chart."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from calculators import evaluate
from calculators.i18n import LANGUAGES, Translator, language_folder
from sitebuild.words import words
from tests.browser.conftest import expect_ready, forget
from tests.browser.large_text import LARGE_TEXT, SMALL_PHONE
from tests.browser.pages import calculator, field, pick_language, shame_bar, shame_rows, summary, toast

PREFIX = {lang: language_folder(lang) for lang in LANGUAGES}


def players_label(lang: str) -> str:
    return Translator(lang)("naruto-rounds.players.label")


def open_link(new_page, url):
    """``url`` opened in another tab, as a pasted link is."""
    page = new_page()
    page.goto(url)
    return page


# One pair (conftest: "Languages"): a link's grammar is the same in every language; the pair proves a
# link copied in one language opens in its own and in another (the languages' words: tests/site).
@pytest.mark.parametrize(("lang", "other"), [("fr", "it")])
def test_copied_link_reopens_the_same_calculator(page, open_calc, new_page, site_url, lang, other):
    calc = open_calc(f"{PREFIX[lang]}naruto/", "naruto-rounds")
    page.get_by_label(players_label(lang), exact=True).fill("40")
    field(calc, lang, "naruto-rounds", "rounds").fill("6")
    verdict = evaluate("naruto-rounds", {"players": "40", "rounds": "6"}, lang)
    # the summary is the same with or without the rounds: wait on the machine result, which is not
    result = json.dumps(verdict["result"], separators=(",", ":"), ensure_ascii=False)
    expect(calc).to_have_attribute("data-result", result)
    expect(summary(calc)).to_have_text(verdict["summary"])
    calc.get_by_role("button", name=Translator(lang)("ui.copy_calc_link"), exact=True).click()
    expect(toast(page)).to_be_visible()
    link = page.evaluate("navigator.clipboard.readText()")
    assert link == f"{site_url}/{PREFIX[lang]}naruto/?naruto-rounds.players=40&naruto-rounds.rounds=6#calc-naruto-rounds"

    for target, shown_in in ((link, lang), (link.replace(f"/{PREFIX[lang]}naruto/", f"/{PREFIX[other]}naruto/"), other)):
        opened = open_link(new_page, target)
        again = calculator(opened, shown_in, "naruto-rounds")
        expect_ready(again)
        expect(field(again, shown_in, "naruto-rounds", "players")).to_have_value("40")
        expect(field(again, shown_in, "naruto-rounds", "rounds")).to_have_value("6")
        expect(again).to_have_attribute("data-result", result)
        expect(again).to_be_in_viewport()
        opened.close()


@pytest.mark.parametrize("lang", ["it"])  # one language (conftest: "Languages")
def test_invalid_link_shows_the_localized_error(new_page, site_url, lang):
    page = open_link(new_page, f"{site_url}/{PREFIX[lang]}naruto/?naruto-rounds.players=2#calc-naruto-rounds")
    calc = calculator(page, lang, "naruto-rounds")
    expect_ready(calc)
    expect(field(calc, lang, "naruto-rounds", "players")).to_have_value("2")
    message = evaluate("naruto-rounds", {"players": "2"}, lang)["errors"][0]["message"]
    expect(calc.get_by_role("alert")).to_have_text(message)
    expect(calc).to_have_attribute("data-result", "null")
    expect(summary(calc)).to_have_text("")


#: Holds every request to the engine for 2 s: a slow phone's verdict, still on its way.
SLOW_ENGINE = """const post = Worker.prototype.postMessage;
Worker.prototype.postMessage = function (message, ...rest) {
  if (message && message.type === "eval") setTimeout(() => post.call(this, message, ...rest), 2000);
  else post.call(this, message, ...rest);
};"""


#: Types into a field and leaves it, in one go: the address before and after leaving.
TYPE_AND_LEAVE = """(field) => {
  field.focus();
  field.value = "123";
  field.dispatchEvent(new Event("input", { bubbles: true }));
  const typed = location.search;
  field.blur();
  return [typed, location.search];
}"""


def test_a_language_picked_right_after_typing_keeps_the_last_value(open_calc, page, site_url):
    """The address follows the fields a moment after the keystrokes (calc.js: replaceState on every
    keystroke delayed the verdicts); leaving the field, for the language menu say, writes it at once."""
    page.add_init_script(SLOW_ENGINE)
    calc = open_calc("it/naruto/", "naruto-rounds")
    field = page.get_by_label(players_label("it"), exact=True)
    typed, left = field.evaluate(TYPE_AND_LEAVE)
    assert "players" not in typed and "naruto-rounds.players=123" in left
    assert summary(calc).text_content() == ""  # its verdict is still on its way
    pick_language(page, "fr")
    expect(page).to_have_url(f"{site_url}/fr/naruto/?naruto-rounds.players=123")


def test_planner_chart_and_rounds_below_minimum(open_calc, page):
    calc = open_calc("fr/naruto/", "naruto-rounds")
    page.get_by_label(players_label("fr"), exact=True).fill("24")
    field(calc, "fr", "naruto-rounds", "rounds").fill("5")
    figure = calc.get_by_role("figure")
    expect(figure).to_be_visible()
    expected = evaluate("naruto-rounds", {"players": "24", "rounds": "5"}, "fr")["result"]
    expect(figure.locator("figcaption")).to_have_text(Translator("fr")("naruto-rounds.ui.caption", rounds=5))
    rows = figure.locator("tbody tr")
    expect(rows).to_have_count(len(expected["records"]))
    best = expected["records"][0]
    expect(rows.first.locator("td").first).to_have_text(f"{best['wins']}–{best['losses']}")
    t = Translator("fr")  # every column named (axe: empty-table-header)
    expect(figure.locator("thead th")).to_have_text([t(f"naruto-rounds.ui.{word}") for word in ("record", "players", "cut")])
    assert json.loads(calc.get_attribute("data-result")) == expected
    expect(figure.locator("svg[role=img] rect")).to_have_count(len(expected["records"]))
    # each bar's hover text is the catalog's sentence (French spacing too), never a colon written in JavaScript
    # (the number as the chart shows it, to a tenth; the noun agreeing with it)
    title = figure.locator("svg g title").first.text_content()
    shown = float(re.search(r"(\d+(?:,\d)?) ", title).group(1).replace(",", "."))
    assert abs(shown - best["expected_players"]) <= 0.051
    score = t("naruto-rounds.ui.score", wins=best["wins"], losses=best["losses"])
    assert title == t("naruto-rounds.ui.bar", score=score, players=shown), title
    # fewer than the minimum: the rule's error, no chart, no verdict
    field(calc, "fr", "naruto-rounds", "rounds").fill("3")
    expect(calc.get_by_role("alert")).to_have_text(
        evaluate("naruto-rounds", {"players": "24", "rounds": "3"}, "fr")["errors"][0]["message"])
    expect(figure).to_be_hidden()
    expect(calc).to_have_attribute("data-result", "null")


def test_tracker_link_opens_the_shared_counters(new_page, site_url):
    """A shared Judge Tower link wins over the tracker's stored state; plain visits leave the URL alone."""
    page = open_link(new_page, f"{site_url}/fr/judge-tower/?judge-tower-shame.shame=Ann%3A%202%0ABob%3A%207%0ACy%3A%20-1#calc-judge-tower-shame")
    calc = calculator(page, "fr", "judge-tower-shame")
    expect_ready(calc)
    rows = shame_rows(calc, "fr")
    expect(rows).to_have_count(3)
    expect(rows.get_by_role("status")).to_have_text(["2", "7", "−1"])
    expect(rows.nth(1)).to_have_attribute("data-out", "true")  # 7 > 2 × 3
    expected = evaluate("judge-tower-shame", {"shame": "Ann: 2\nBob: 7\nCy: -1"}, "fr")["result"]
    assert json.loads(calc.get_attribute("data-result")) == expected
    forget(page, site_url)  # the next visits are other phones'
    page.close()

    page = open_link(new_page, f"{site_url}/it/judge-tower/")
    calc = calculator(page, "it", "judge-tower-shame")
    expect_ready(calc)
    expect(shame_bar(calc)).not_to_have_text("")
    page.evaluate("dispatchEvent(new Event('pagehide'))")  # would write anything still to be written
    assert "?" not in page.url  # the tracker's start-up values are not put in the address bar
    forget(page, site_url)
    page.close()

    page = open_link(new_page, f"{site_url}/?judge-tower-shame.shame=abc".replace("/?", "/judge-tower/?"))
    calc = calculator(page, "en", "judge-tower-shame")
    expect_ready(calc)
    message = evaluate("judge-tower-shame", {"shame": "abc"}, "en")["errors"][0]["message"]
    expect(shame_bar(calc)).to_have_text(message)  # the tracker shows its hidden field's error
    expect(calc).to_have_attribute("data-result", "null")


@pytest.mark.parametrize("lang", ["fr"])  # one language (conftest: "Languages")
def test_an_over_long_tracker_link_shows_its_error_never_the_stored_players(new_page, site_url, lang):
    """The tracker stored Alice and Bob; a link whose value is over the field's limit is refused with
    its error, and no verdict for players who are not in the link is shown."""
    from urllib.parse import quote

    from calculators import CALCULATORS

    path = f"{site_url}/{PREFIX[lang]}judge-tower/"
    page = open_link(new_page, f"{path}?judge-tower-shame.shame=Alice%3A3%2C%2CBob%3A1#calc-judge-tower-shame")
    calc = calculator(page, lang, "judge-tower-shame")
    names = shame_rows(calc, lang).get_by_role("textbox")
    expect(names).to_have_count(2)
    expect(names.first).to_have_value("Alice")
    expect(names.last).to_have_value("Bob")
    limit = CALCULATORS["judge-tower-shame"].field("shame").max_length
    value = ("Carl: 1, " * limit)[: limit + 1]
    message = evaluate("judge-tower-shame", {"shame": value}, lang)["errors"][0]["message"]
    for _ in range(2):  # opened, then reloaded: the stored players never take the link's place
        if _ == 0:
            page.goto(f"{path}?judge-tower-shame.shame={quote(value)}#calc-judge-tower-shame")
        else:
            page.reload()
        expect_ready(calc)
        expect(shame_bar(calc)).to_have_text(message)
        expect(calc).to_have_attribute("data-result", "null")
        typed = names.evaluate_all("fields => fields.map((field) => field.value)")
        assert not any(typed), typed
        expect(summary(calc)).not_to_contain_text("Alice")
    forget(page, site_url)


def test_no_clipboard_says_so_and_shows_the_link_to_copy(open_calc, page, site_url):
    """A plain-http venue network or a refused permission: never "Link copied", the link selected."""
    page.add_init_script("navigator.clipboard.writeText = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));")
    calc = open_calc("it/naruto/", "naruto-rounds")
    page.get_by_label(players_label("it"), exact=True).fill("12")
    calc.get_by_role("button", name=words("it")("ui.copy_calc_link"), exact=True).click()
    note = toast(page)
    expect(note.get_by_text(words("it")("ui.share.copy_failed"), exact=True)).to_be_visible()
    link = note.get_by_role("textbox", name=words("it")("ui.share.link"))
    expect(link).to_have_value(f"{site_url}/it/naruto/?naruto-rounds.players=12#calc-naruto-rounds")
    expect(link).to_be_focused()
    assert link.evaluate("f => f.selectionEnd - f.selectionStart") == len(link.input_value())
    expect(note).not_to_contain_text(Translator("it")("ui.link_copied", url=""))


def test_on_a_phone_the_verdict_sits_under_the_fields_and_a_links_verdict_comes_into_view(phone, site_url):
    """Issue 46, "the answer in view": the verdict right below the last field, above the share
    controls; a shared link with a long list scrolls its verdict into view when it arrives."""
    from urllib.parse import quote

    deck = "\n".join(f"3 Card {n}" for n in range(14))
    phone.goto(f"{site_url}/naruto/?naruto-reserve.deck={quote(deck)}#calc-naruto-reserve")
    calc = calculator(phone, "en", "naruto-reserve")
    expect_ready(calc)
    expect(summary(calc)).to_have_text(evaluate("naruto-reserve", {"deck": deck}, "en")["summary"])
    expect(summary(calc)).to_be_in_viewport()
    order = calc.evaluate("""el => [...el.querySelectorAll('form, .calc-verdict, .calc-share, .calc-qr')]
                                    .map((node) => node.className.split(' ')[0])""")
    assert order == ["calc-form", "calc-verdict", "calc-share", "calc-qr"], order
    rounds = calculator(phone, "en", "naruto-rounds")
    field(rounds, "en", "naruto-rounds", "rounds").fill("4")  # the last field, typed
    field(rounds, "en", "naruto-rounds", "players").fill("24")
    expect(summary(rounds)).not_to_be_empty()
    expect(summary(rounds)).to_be_in_viewport()


def test_with_a_phone_keyboard_up_the_verdict_comes_into_view_as_the_last_field_is_typed(phone, site_url):
    """Issue 46: the keyboard leaves ~480 px and the field typed in at its bottom edge; the verdict
    under it is scrolled up into view with the field still in view."""
    phone.set_viewport_size({"width": 412, "height": 480})  # a Pixel 7 with its keyboard up
    t = Translator("en")
    phone.goto(f"{site_url}/pokemon/")
    calc = calculator(phone, "en", "pokemon-time-limit")
    expect_ready(calc)
    for field in ("late_a", "late_b"):  # criterion 1, unanswered at first
        calc.locator(f'[data-field="{field}"]').get_by_label(t(f"pokemon-time-limit.{field}.no"), exact=True).check()
    calc.get_by_label(t("pokemon-time-limit.prizes_a.label"), exact=True).fill("4")
    last = calc.get_by_label(t("pokemon-time-limit.prizes_b.label"), exact=True)
    # Where a phone leaves a field it focuses for typing: at the bottom of what the keyboard leaves.
    last.evaluate("f => { f.scrollIntoView({block: 'end'}); f.focus({preventScroll: true}); }")
    phone.keyboard.type("2")
    verdict = summary(calc)
    expect(verdict).to_have_text(evaluate("pokemon-time-limit", {"late_a": "no", "late_b": "no", "prizes_a": "4", "prizes_b": "2"}, "en")["summary"])
    expect(verdict).to_be_in_viewport(ratio=1)
    expect(last).to_be_in_viewport(ratio=1)
    expect(last).to_be_focused()


#: Where the toast's lines break: the character before each line break, within the link.
LINE_ENDS = """toast => {
    const ends = [];
    let last = null;
    const walker = document.createTreeWalker(toast.querySelector('span'), NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (let i = 0; i < node.length; i++) {
            const range = document.createRange();
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            const rect = range.getClientRects()[0];
            if (!rect) continue;
            if (last && rect.top > last.top + 1) ends.push(last.char);
            last = {top: rect.top, char: node.data[i]};
        }
    }
    return ends;
}"""


def test_the_phone_toast_breaks_a_link_between_its_parts_and_a_tap_elsewhere_puts_it_away(phone, site_url):
    """Issue 46 polish: the toast broke the link mid-word; it stays until read (a tap elsewhere closes it)."""
    names = "&".join(f"naruto-tiebreak.name_{p}=Giocatrice%20{p}" for p in "ab")
    phone.goto(f"{site_url}/it/naruto/?{names}#calc-naruto-tiebreak")
    t = Translator("it")
    calc = calculator(phone, "it", "naruto-tiebreak")
    expect_ready(calc)
    calc.get_by_role("button", name=t("ui.copy_calc_link"), exact=True).tap()
    note = toast(phone)
    link = phone.evaluate("navigator.clipboard.readText()")
    expect(note).to_contain_text(link)
    ends = note.evaluate(LINE_ENDS)
    assert len(ends) >= 2, ends  # a 412 px phone: the link takes several lines
    assert set(ends) <= set("/?&=#.-: "), ends  # ...broken after its separators (or the sentence's spaces)
    calc.get_by_text(t("naruto-tiebreak.title"), exact=True).tap()
    expect(note).to_be_hidden()


def test_the_toast_stays_long_enough_to_read(cold_page, site_url):
    page = cold_page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])  # copied: the toast that goes by itself
    page.clock.install()
    page.goto(f"{site_url}/fr/glossary/")  # no calculator: no engine start on the fake clock
    # the page title's link, at the top: the toast does not appear under the pointer
    page.locator("#glossary").get_by_role("link", name=words("fr")("ui.rule.copy.section"), exact=True).click()
    note = toast(page)
    expect(note).to_contain_text(page.evaluate("navigator.clipboard.readText()"))
    page.clock.run_for(15_000)  # the old toast went after 8 s
    expect(note).to_be_visible()
    page.clock.run_for(10_000)
    expect(note).to_be_hidden()


@pytest.mark.parametrize("lang", ["en"])  # one language (conftest: "Languages")
def test_a_links_verdict_lands_below_the_sticky_header(phone, site_url, lang):
    """Issue 51, item 3: a shared link's verdict is scrolled into view with its first line below
    Material's sticky header, not under it (the scroll margin was only on elements with an id)."""
    phone.goto(f"{site_url}/{PREFIX[lang]}naruto/?naruto-rounds.players=24#calc-naruto-rounds")
    calc = calculator(phone, lang, "naruto-rounds")
    expect_ready(calc)
    verdict = summary(calc)
    expect(verdict).to_have_text(evaluate("naruto-rounds", {"players": "24"}, lang)["summary"])
    expect(verdict).to_be_in_viewport()
    header = phone.get_by_role("banner").bounding_box()
    assert verdict.bounding_box()["y"] >= header["y"] + header["height"], (verdict.bounding_box(), header)


def test_the_tiebreaks_next_question_comes_into_view_and_the_mode_is_first(phone, site_url):
    """Issue 62 item 8: the verdict came after the Standard/Blitz choice, and each field the tiebreak reveals appeared
    below the keyboard. The mode is asked first; a revealed question is scrolled into view when the field typed in
    stays in view too (at 200 % text on a small phone there is no room for both: the next test)."""
    phone.set_viewport_size({"width": 412, "height": 480})  # a Pixel 7 with its keyboard up
    t = Translator("en")
    phone.goto(f"{site_url}/naruto/")
    calc = calculator(phone, "en", "naruto-tiebreak")
    expect_ready(calc)
    expect(calc.locator("[data-field]").first).to_have_attribute("data-field", "mode")
    calc.get_by_label(t("naruto-tiebreak.rewards_a.label"), exact=True).fill("2")
    last = calc.get_by_label(t("naruto-tiebreak.rewards_b.label"), exact=True)
    last.evaluate("f => { f.scrollIntoView({block: 'end'}); f.focus({preventScroll: true}); }")
    phone.keyboard.type("2")  # tied: the next criterion's counts are asked
    revealed = calc.get_by_label(t("naruto-tiebreak.deck_a.label"), exact=True)
    expect(revealed).to_be_visible()
    expect(revealed).to_be_in_viewport(ratio=1)
    expect(last).to_be_in_viewport(ratio=1)
    expect(last).to_be_focused()


def test_at_200_percent_text_the_tiebreaks_next_question_comes_into_view(phone, site_url):
    """Issue 62 item 8, the rest: at 200 % text on a 360 px phone the field typed in and the question its answer
    reveals do not fit on the screen together, and the question stayed below it with no cue. The question is
    the next thing to answer: it is brought into view; the field typed in keeps the focus (must not: lose it)."""
    cdp = phone.context.new_cdp_session(phone)
    cdp.send("Page.setFontSizes", {"fontSizes": LARGE_TEXT})
    # a 360 × 740 phone with its keyboard up: 360 × 400 left to the page
    cdp.send("Emulation.setDeviceMetricsOverride", {**SMALL_PHONE, "width": 360, "screenWidth": 360, "height": 400, "screenHeight": 400})
    phone.emulate_media(reduced_motion="reduce")
    t = Translator("en")
    phone.goto(f"{site_url}/naruto/")
    calc = calculator(phone, "en", "naruto-tiebreak")
    expect_ready(calc)
    calc.get_by_label(t("naruto-tiebreak.rewards_a.label"), exact=True).fill("2")
    last = calc.get_by_label(t("naruto-tiebreak.rewards_b.label"), exact=True)
    last.evaluate("f => { f.scrollIntoView({block: 'end'}); f.focus({preventScroll: true}); }")
    revealed = calc.get_by_label(t("naruto-tiebreak.deck_a.label"), exact=True)
    phone.keyboard.type("2")  # tied: the next criterion's counts are asked
    expect(revealed).to_be_visible()
    expect(revealed).to_be_in_viewport(ratio=1)
    expect(last).to_be_focused()
