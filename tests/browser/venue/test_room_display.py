"""The round clock for a whole hall: the room display (``clock.view=room``) on a projector or a
phone on its side, the round number ("round 3 of 5") and the Swiss planner's link to a clock for
round 1, and the time first on a judge's phone opening a shared link.

Time is Playwright's fake clock where it passes; words come from the catalogs, bounds from
``rules_core``."""

from __future__ import annotations

import datetime as dt
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from calculators import evaluate
from calculators.i18n import LANGUAGES, language_folder
from rules_core import clock as rules
from sitebuild.words import words
from tests.browser.pages import assert_axe_clean, field_error, summary
from tests.browser.test_each_page import too_small
from tests.browser.test_qr import decoded, qr_dialog
from tests.browser.venue.conftest import START, open_blitz_clock, open_live, open_paused
from tests.browser.venue.test_clock import RECORDER, game_name

PREFIX = {lang: language_folder(lang) for lang in LANGUAGES}
MINUTE_MS = 60_000
#: A projector, a laptop's screen, a phone on its side.
SCREENS = [(1920, 1080), (1280, 720), (844, 390)]


def room_fits(page) -> None:
    """Nothing scrolls, everything the hall reads is on screen, the digits span half the width or more."""
    width, height = page.evaluate("[innerWidth, innerHeight]")
    assert page.evaluate("document.scrollingElement.scrollHeight") <= height
    room = page.locator('.clock[data-view="room"]')  # the layout of the room view's parts is the subject
    for part in (".clock-heading", ".clock-digits", ".clock-status", ".clock-extensions", ".clock-room-controls"):
        if not room.locator(part).is_visible():
            continue
        box = room.locator(part).bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= height + 0.5, (part, box, width, height)
    digits = room.locator(".clock-digits").bounding_box()
    assert digits["width"] >= width / 2 and digits["x"] >= 0 and digits["x"] + digits["width"] <= width
    # Issue 46: the game and the round on one line share a baseline; the procedure line keeps off the box's edge.
    lines = room.locator(".clock-heading > p:visible").evaluate_all(BASELINES)
    for (top_a, bottom_a, base_a), (top_b, bottom_b, base_b) in zip(lines, lines[1:]):
        if top_b < bottom_a and top_a < bottom_b:  # side by side (a narrow screen puts one under the other)
            assert abs(base_a - base_b) <= 0.5, (lines, width, height)
    if room.locator(".clock-procedure-title").is_visible():
        gap = room.evaluate("""r => {
            const face = r.querySelector('.clock-face').getBoundingClientRect();
            const line = r.querySelector('.clock-procedure-title');
            return (face.bottom - line.getBoundingClientRect().bottom) / parseFloat(getComputedStyle(line).fontSize); }""")
        assert gap >= 0.3, (gap, width, height)


#: Each element's top, bottom and the baseline of its last line (a zero-height inline-block sits on it).
BASELINES = """els => els.map((el) => {
    const probe = el.appendChild(Object.assign(document.createElement('span'), {style: 'display:inline-block'}));
    const box = el.getBoundingClientRect();
    const found = [box.top, box.bottom, probe.getBoundingClientRect().bottom];
    probe.remove();
    return found;
})"""


@pytest.mark.engine_held  # the clock around its calculators (conftest: HELD_ENGINE)
def test_the_room_display_shows_the_clock_page_s_time_and_calls_time_once(page, site_url):
    """Opened from a link: the same remaining time as the clock page at the same instant, each table's
    extension, no Material chrome, no scrolling on three screens; then time, once, with the procedure."""
    t = words("en")
    end = int(START.timestamp() * 1000) + 50 * MINUTE_MS
    query = urlencode([("clock.game", "pokemon-bo3"), ("clock.end", end), ("clock.round", 3), ("clock.rounds", 5),
                       ("clock.ext", "12:3"), ("clock.ext", "4:5")])
    clock = open_paused(page, f"{site_url}/clock/?{query}", ".clock", RECORDER)
    parts = [  # what a judge reads: the face, the status line, each table's extension
        lambda c: c.get_by_role("timer"), lambda c: c.get_by_role("status"),
        lambda c: c.get_by_role("group", name=t("clock.ext.title"), exact=True).get_by_role("listitem")]
    on_page = [part(clock).all_text_contents() for part in parts]

    room_page = page.context.new_page()  # the same fake time: a second screen at the same instant
    room_page.add_init_script(RECORDER)
    room_page.goto(f"{site_url}/clock/?{query}&clock.view=room")
    room = room_page.locator('.clock[data-view="room"]')
    expect(room).to_have_attribute("data-ready", "true")
    for part, texts in zip(parts, on_page):  # to the second, at the same instant
        expect(part(room)).to_have_text(texts)
    expect(room.get_by_text(t("clock.round.show_of", round=3, rounds=5), exact=True)).to_be_visible()
    expect(game_name(room, t("clock.game.pokemon-bo3"))).to_be_visible()
    expect(parts[2](room)).to_have_count(2)
    for chrome in (".md-header", ".md-sidebar", ".md-footer", "article h1"):
        expect(room_page.locator(chrome).first).to_be_hidden()
    for width, height in SCREENS:
        room_page.set_viewport_size({"width": width, "height": height})
        room_fits(room_page)

    page.clock.fast_forward(50 * MINUTE_MS)
    expect(room).to_have_attribute("data-clock-state", "time")
    expect(room.get_by_text(t("clock.time"), exact=True)).to_be_visible()
    # The digits take the alarm's colour on its red (the full-contrast black of a running round is not for it).
    face_colour = room.locator(".clock-face").evaluate("f => getComputedStyle(f).color")
    expect(room.get_by_role("timer")).to_have_css("color", face_colour)
    procedure = room_page.locator("#clock-pokemon-bo3").evaluate(
        "h => [...h.childNodes].filter((n) => !n.classList?.contains('headerlink')).map((n) => n.textContent).join('').trim()")
    expect(room.get_by_text(procedure, exact=True)).to_be_visible()  # the procedure's title on the face
    for width, height in SCREENS:
        room_page.set_viewport_size({"width": width, "height": height})
        room_fits(room_page)
    page.clock.fast_forward(10 * MINUTE_MS)  # the tables' ends pass too; the round's time is called once
    assert room_page.evaluate("window.__signals") == ["round", "table 4", "table 12"]
    room_page.close()


@pytest.mark.engine_held  # the page around its calculators (conftest: HELD_ENGINE)
@pytest.mark.parametrize("lang", ["fr"])  # one language (conftest: "Languages")
def test_the_room_display_is_reached_in_one_tap_and_kept_in_the_address(new_page, site_url, lang):
    page = new_page()  # no time passes: the shared context
    t, clock = open_blitz_clock(page, site_url, lang, ".clock")
    clock.get_by_role("button", name=t("clock.room"), exact=True).click()
    expect(page.locator("html")).to_have_attribute("data-clock-view", "room")
    expect(page).to_have_url(f"{site_url}/{PREFIX[lang]}clock/?clock.game=naruto-blitz&clock.view=room")
    expect(page.get_by_role("banner")).to_be_hidden()
    assert_axe_clean(page)  # contrast and names of the room display, as of every page
    assert too_small(page, ".clock-room-controls button") == []
    # kept through a reload and in another language (the address carries it)
    page.reload()
    expect(clock).to_have_attribute("data-view", "room")
    other = "en" if lang != "en" else "fr"
    page.goto(f"{site_url}/{PREFIX[other]}clock/?clock.game=naruto-blitz&clock.view=room")
    english = words(other)
    clock = page.get_by_role("region", name=english("clock.title"), exact=True)
    expect(clock).to_have_attribute("data-view", "room")
    # its QR code is the room display's own link, for a second screen or a player's phone
    clock.get_by_role("button", name=english("ui.qr.button"), exact=True).click()
    svg = qr_dialog(page, other).locator("svg.qr-code")
    assert decoded(svg) == page.url
    page.keyboard.press("Escape")  # closes the dialog first
    clock.get_by_role("button", name=english("clock.room.leave"), exact=True).click()
    expect(page.locator("html")).not_to_have_attribute("data-clock-view", "room")
    expect(page.get_by_role("banner")).to_be_visible()
    assert "clock.view" not in page.url
    expect(clock.get_by_role("button", name=english("clock.room"), exact=True)).to_be_focused()


@pytest.mark.engine_held  # the page around its calculators (conftest: HELD_ENGINE)
def test_the_round_number_round_trips_and_a_new_round_is_the_next(new_page, site_url):
    page = new_page()
    t = words("it")
    clock = open_live(page, f"{site_url}/it/clock/", ".clock")
    round_field, total = page.get_by_label(t("clock.round.label")), page.get_by_label(t("clock.rounds.label"))
    page.get_by_label(t("clock.game.naruto-blitz"), exact=True).check()
    total.fill("5")
    round_field.fill("6")  # beyond the organiser's total
    expect(field_error(clock, "round")).to_have_text(
        t("error.out_of_range", label=t("clock.round.label"), value=6, minimum=1, maximum=5))
    clock.get_by_role("button", name=t("clock.start"), exact=True).click()
    expect(clock).to_have_attribute("data-clock-state", "idle")  # not started on a wrong round number
    round_field.fill("3")
    expect(page).to_have_url(f"{site_url}/it/clock/?clock.game=naruto-blitz&clock.round=3&clock.rounds=5")
    clock.get_by_role("button", name=t("clock.start"), exact=True).click()
    shown_round = clock.get_by_text(t("clock.round.show_of", round=3, rounds=5), exact=True)
    expect(shown_round).to_be_visible()
    page.reload()
    expect(shown_round).to_be_visible()
    clock.get_by_role("button", name=t("clock.pause"), exact=True).click()
    clock.get_by_role("button", name=t("clock.reset"), exact=True).click()
    expect(round_field).to_have_value("4")
    # beyond the largest round number the clock shows: the field's error, not a clamp
    round_field.fill(str(rules.MAX_ROUND_NUMBER + 1))
    total.fill("")
    expect(field_error(clock, "round")).to_have_text(t(
        "error.out_of_range", label=t("clock.round.label"), value=rules.MAX_ROUND_NUMBER + 1, minimum=1,
        maximum=rules.MAX_ROUND_NUMBER))


def test_the_swiss_planner_links_to_a_clock_for_round_one_of_the_minimum_then_the_planned_total(new_page, site_url):
    page = new_page()
    t = words("fr")
    page.goto(f"{site_url}/fr/naruto/?naruto-rounds.players=24#calc-naruto-rounds")
    calc = page.locator("#calc-naruto-rounds")
    expect(calc).to_have_attribute("data-state", "ready")
    link = calc.locator('a[href*="clock/?"]')  # the planner's link to a round clock
    expect(summary(calc)).not_to_be_empty()
    # from the players alone: a clock for round 1 of the minimum the rules give (issue 46, defect 6)
    minimum = evaluate("naruto-rounds", {"players": "24"}, "fr")["result"]["swiss_rounds"]
    expect(link).to_have_text(t("naruto-rounds.ui.clock", rounds=minimum))
    assert f"clock.rounds={minimum}" in link.get_attribute("href")
    calc.get_by_label(t("naruto-rounds.rounds.label")).fill("6")
    expect(link).to_have_text(t("naruto-rounds.ui.clock", rounds=6))
    link.click()
    clock = page.get_by_role("region", name=t("clock.title"), exact=True)
    expect(clock).to_have_attribute("data-ready", "true")
    expect(page).to_have_url(f"{site_url}/fr/clock/?clock.game=naruto-standard&clock.round=1&clock.rounds=6")
    expect(page.get_by_label(t("clock.round.label"))).to_have_value("1")
    expect(page.get_by_label(t("clock.rounds.label"))).to_have_value("6")
    expect(page.get_by_label(t("clock.game.naruto-standard"), exact=True)).to_be_checked()


@pytest.mark.engine_held  # the page around its calculators (conftest: HELD_ENGINE)
def test_a_shared_running_round_shows_its_time_first_on_a_phone(new_page, site_url):
    page = new_page()
    page.set_viewport_size({"width": 412, "height": 915})  # a Pixel 7
    end = int(dt.datetime.now(dt.timezone.utc).timestamp() * 1000) + 30 * MINUTE_MS
    clock = open_live(page, f"{site_url}/fr/clock/?clock.game=pokemon-bo1&clock.end={end}", ".clock")
    expect(clock).to_have_attribute("data-clock-state", "running")
    expect(clock.get_by_role("timer")).to_be_in_viewport(ratio=1)
    intro = page.locator("article h1 ~ p").first
    assert intro.bounding_box()["y"] > clock.get_by_role("timer").bounding_box()["y"]  # the introduction below
    # an idle clock keeps the page's order: the introduction first
    page.goto(f"{site_url}/fr/clock/")
    expect(clock).to_have_attribute("data-ready", "true")
    assert intro.bounding_box()["y"] < clock.bounding_box()["y"]


@pytest.mark.engine_held  # the clock around its calculators (conftest: HELD_ENGINE)
def test_the_room_displays_controls_leave_the_image_and_come_back(page, site_url):
    """Issue 46: the controls are on the projected image: after a few seconds without a pointer, touch
    or key they go; a movement brings them back. The digits are in full contrast in both schemes."""
    end = int(START.timestamp() * 1000) + 30 * MINUTE_MS
    query = urlencode([("clock.game", "naruto-standard"), ("clock.end", end), ("clock.view", "room")])
    room = open_paused(page, f"{site_url}/it/clock/?{query}", '.clock[data-view="room"]', RECORDER)
    controls = room.get_by_role("button", name=words("it")("clock.room.leave"), exact=True)  # one of them
    page.mouse.move(10, 10)  # (the page's first seconds ran on the fake clock: they may have gone already)
    expect(controls).to_be_visible()
    page.clock.run_for(10_000)
    expect(controls).to_be_hidden()
    expect(room.get_by_role("timer")).to_be_visible()  # the time stays
    page.mouse.move(20, 20)
    expect(controls).to_be_visible()
    for scheme, colour in (("default", "rgb(0, 0, 0)"), ("slate", "rgb(255, 255, 255)")):
        page.evaluate("scheme => document.body.setAttribute('data-md-color-scheme', scheme)", scheme)
        expect(room.get_by_role("timer")).to_have_css("color", colour)


@pytest.mark.engine_held  # the page around its calculators (conftest: HELD_ENGINE)
@pytest.mark.parametrize("lang", ["en"])  # one language (conftest: "Languages")
def test_the_clock_from_the_planner_says_what_is_missing(new_page, site_url, lang):
    """Issue 51, item 6: opened from the Swiss planner the game is chosen and only the round length is
    missing: the status asks for the length, not for the game; once typed, it says to start."""
    page = new_page()
    t = words(lang)
    page.goto(f"{site_url}/{language_folder(lang)}clock/?clock.game=naruto-standard&clock.round=1&clock.rounds=5")
    clock = page.get_by_role("region", name=t("clock.title"), exact=True)
    expect(clock).to_have_attribute("data-ready", "true")
    status = clock.get_by_role("status")
    expect(status).to_have_text(t("clock.state.idle_length"))
    page.get_by_label(t("clock.minutes.label")).fill("50")
    expect(status).to_have_text(t("clock.state.idle_ready"))
    page.get_by_label(t("clock.game.naruto-blitz"), exact=True).check()  # blitz: the rules set the length
    expect(status).to_have_text(t("clock.state.idle_ready"))
    blank = new_page()
    blank.goto(f"{site_url}/{language_folder(lang)}clock/?clock.game=chess")  # no game chosen: the game first
    blank_clock = blank.get_by_role("region", name=t("clock.title"), exact=True)
    expect(blank_clock).to_have_attribute("data-ready", "true")
    expect(blank_clock.get_by_role("status")).to_have_text(t("clock.state.idle"))
