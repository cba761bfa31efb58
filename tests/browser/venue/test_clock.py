"""The round clock (/clock/, /fr/clock/, /it/clock/): an absolute end time kept in the URL, so
a reload or another judge's phone shows the same remaining time; time extensions per table;
the "time" state with the chosen game's end-of-time procedure (the existing calculators).

Time is Playwright's fake clock (``page.clock``), never real waiting. Words come from the
catalogs, rule numbers from ``rules_core``.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from playwright.sync_api import expect

from calculators import evaluate
from calculators.i18n import LANGUAGES, language_folder
from sitebuild.words import words
from rules_core import naruto
from rules_core.clock import MAX_ROUND_MINUTES, MAX_TABLE
from tests.browser.conftest import holding, seed_snapshot
from tests.browser.pages import details, field_error, pick_language, summary
from tests.browser.venue.conftest import START, open_live, open_paused

PREFIX = {lang: language_folder(lang) for lang in LANGUAGES}
MINUTE_MS = 60_000
BLITZ_MS = naruto.BLITZ_GAME_MINUTES * MINUTE_MS

# Records what the page signals (beeps) and what it asks of the wake lock, which headless
# Chromium does not grant: a stub that behaves like the real API.
RECORDER = """
window.__signals = [];
document.addEventListener("venue:signal", (e) => window.__signals.push(e.detail), true);
window.__wake = [];
Object.defineProperty(navigator, "wakeLock", { configurable: true, value: {
  async request(type) {
    window.__wake.push("request");
    const sentinel = new EventTarget();
    sentinel.released = false;
    sentinel.release = async () => { sentinel.released = true; window.__wake.push("release");
                                      sentinel.dispatchEvent(new Event("release")); };
    window.__sentinel = sentinel;
    return sentinel;
  },
}});
"""


def mmss(ms: int) -> str:
    seconds = -(-ms // 1000)
    return f"{seconds // 60:02d}:{seconds % 60:02d}"


def open_clock(page, site_url, lang="en", query="", at=START):
    """Open the clock page with the fake clock at ``at``, paused: time moves only when a test says."""
    return open_paused(page, f"{site_url}/{PREFIX[lang]}clock/{query}", ".clock", RECORDER, at)


def start_blitz(page, clock, lang="en"):
    t = words(lang)
    page.get_by_label(t("clock.game.naruto-blitz"), exact=True).check()
    clock.get_by_role("button", name=t("clock.start"), exact=True).click()
    expect(clock).to_have_attribute("data-clock-state", "running")


def game_name(clock, name: str):
    """The game the clock times, as its heading shows it (its radio button in the setup, hidden while a
    round runs, has the same words)."""
    return clock.get_by_text(name, exact=True).filter(visible=True)


def end_of(clock) -> int:
    return int(clock.get_attribute("data-clock-end"))


@pytest.mark.engine_held  # the clock around its calculators (conftest: HELD_ENGINE)
def test_blitz_round_stays_right_after_a_reload(page, site_url):
    clock = open_clock(page, site_url)
    t = words("en")
    # blitz length is the rules': no field to type it in, the rule's sentence instead
    page.get_by_label(t("clock.game.naruto-blitz"), exact=True).check()
    expect(page.get_by_label(t("clock.minutes.label"))).to_be_hidden()
    expect(clock.get_by_role("link", name=t("clock.minutes.fixed", minutes=naruto.BLITZ_GAME_MINUTES), exact=True)).to_be_visible()
    expect(clock.get_by_role("timer")).to_have_text(mmss(BLITZ_MS))
    start_blitz(page, clock)
    end = end_of(clock)
    assert end - page.evaluate("Date.now()") in range(BLITZ_MS - 1000, BLITZ_MS + 1)
    page.clock.fast_forward("10:00")
    page.reload()
    expect(clock).to_have_attribute("data-ready", "true")
    expect(clock).to_have_attribute("data-clock-state", "running")
    assert end_of(clock) == end  # the absolute end survives the reload
    expect(clock.get_by_role("timer")).to_have_text(mmss(end - page.evaluate("Date.now()")))
    expect(clock.get_by_role("timer")).to_have_text(mmss(BLITZ_MS - 10 * MINUTE_MS))
    # a reload is no new round: nothing sounded, the game stays set
    assert page.evaluate("window.__signals") == []
    expect(game_name(clock, t("clock.game.naruto-blitz"))).to_be_visible()


@pytest.mark.engine_held  # the clock around its calculators (conftest: HELD_ENGINE)
def test_copied_link_opens_the_same_clock_on_another_phone(context, page, browser, watch, site_url, request):
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    clock = open_clock(page, site_url, "fr")
    t = words("fr")
    page.get_by_label(t("clock.game.pokemon-bo3"), exact=True).check()
    page.get_by_label(t("clock.minutes.label")).fill("50")
    clock.get_by_role("button", name=t("clock.start"), exact=True).click()
    end = end_of(clock)
    page.clock.fast_forward("05:00")
    clock.get_by_role("button", name=t("clock.copy"), exact=True).click()
    link = page.evaluate("navigator.clipboard.readText()")
    assert link.startswith(f"{site_url}/fr/clock/?") and f"clock.end={end}" in link and "clock.game=pokemon-bo3" in link

    other = browser.new_context(service_workers="block")  # as the first phone's `context`
    second = holding(request, other.new_page())  # its calculators' start is not the subject
    watch.attach(second)
    now = dt.datetime.fromtimestamp(page.evaluate("Date.now()") / 1000, tz=dt.timezone.utc)
    second.clock.install(time=now)
    second.add_init_script(RECORDER)
    second.goto(link)
    # both phones at the same instant, a little later
    later = now + dt.timedelta(seconds=10)
    second.clock.pause_at(later)
    page.clock.pause_at(later)
    shared = second.get_by_role("region", name=t("clock.title"), exact=True)
    expect(shared).to_have_attribute("data-ready", "true")
    expect(shared).to_have_attribute("data-clock-state", "running")
    assert end_of(shared) == end
    expect(shared.get_by_role("timer")).to_have_text(mmss(45 * MINUTE_MS - 10_000))
    expect(clock.get_by_role("timer")).to_have_text(mmss(45 * MINUTE_MS - 10_000))
    expect(game_name(shared, t("clock.game.pokemon-bo3"))).to_be_visible()
    # the other judge sees the same clock, not a new one: no setting to change mid-round
    expect(shared.get_by_role("group", name=t("clock.game.label"), exact=True)).to_be_hidden()
    expect(shared.get_by_label(t("clock.minutes.label"))).to_be_hidden()
    other.close()


@pytest.mark.parametrize("lang", ["it"])  # one language (conftest: "Languages")
def test_time_is_called_with_the_procedure_of_the_game(page, site_url, lang):
    clock = open_clock(page, site_url, lang)
    t = words(lang)
    start_blitz(page, clock, lang)
    page.clock.fast_forward(BLITZ_MS - 1000)
    expect(clock).to_have_attribute("data-clock-state", "running")
    banner = clock.get_by_text(t("clock.time"), exact=True)  # the face's "Time", in big letters
    expect(banner).to_be_hidden()
    page.clock.fast_forward(2000)
    expect(clock).to_have_attribute("data-clock-state", "time")
    expect(banner).to_be_visible()
    expect(clock.get_by_role("status")).to_have_text(t("clock.state.time"))
    assert page.evaluate("window.__signals") == ["round"]
    procedure = clock.get_by_role("link", name=t("clock.procedure"))
    expect(procedure).to_have_attribute("href", "#clock-naruto-blitz")
    # the link leads to the blitz procedure, with its rules and calculators; no other game's is marked
    procedure.click()
    section = page.locator('.clock-procedure[data-clock-game="naruto-blitz"]')
    expect(section).to_have_attribute("data-chosen", "")
    expect(page.locator("#clock-naruto-blitz")).to_be_in_viewport()
    expect(section.locator('a[href$="naruto/#naruto-blitz-7"]')).to_be_visible()
    expect(page.locator(".clock-procedure[data-chosen]")).to_have_count(1)
    # the judge enters who started and who is active, and reads the turns to play
    calc = page.locator("#calc-naruto-end-of-time-blitz")
    expect(calc).to_have_attribute("data-state", "ready")
    for question in ("starter", "active"):
        calc.get_by_role("group", name=t(f"naruto-end-of-time.{question}.label")).get_by_label(
            t(f"naruto-end-of-time.{question}.a"), exact=True).check()
    verdict = evaluate("naruto-end-of-time", {"starter": "a", "active": "a", "mode": "blitz"}, lang)
    expect(summary(calc)).to_have_text(verdict["summary"])
    expect(details(calc)).to_have_text(verdict["details"])


@pytest.mark.engine_held  # the clock around its calculators (conftest: HELD_ENGINE)
def test_a_link_whose_end_is_past_opens_in_the_time_state(page, site_url):
    past = int(START.timestamp() * 1000) - MINUTE_MS
    clock = open_clock(page, site_url, "it", f"?clock.game=pokemon-bo1&clock.end={past}")
    expect(clock).to_have_attribute("data-clock-state", "time")
    expect(clock.get_by_role("timer")).to_have_text("00:00")
    expect(page.locator('.clock-procedure[data-clock-game="pokemon-bo1"]')).to_have_attribute("data-chosen", "")
    expect(page.locator("#calc-pokemon-time-limit-bo1")).to_be_visible()
    expect(page.locator('.clock-procedure[data-clock-game="pokemon-bo3"]')).not_to_have_attribute("data-chosen", "")
    # a time called before the page opened does not sound again on every phone that opens the link
    assert page.evaluate("window.__signals") == []


@pytest.mark.engine_held  # the clock around its calculators (conftest: HELD_ENGINE)
def test_a_table_extension_ends_after_the_round_and_sounds_once(page, site_url):
    clock = open_clock(page, site_url)
    t = words("en")
    start_blitz(page, clock)
    end = end_of(clock)
    page.get_by_label(t("clock.ext.table.label")).fill("12")
    page.get_by_label(t("clock.ext.minutes.label")).fill("3")
    clock.get_by_role("button", name=t("clock.ext.add"), exact=True).click()
    item = clock.locator('.clock-ext-list li[data-table="12"]')
    expect(item).to_have_attribute("data-end", str(end + 3 * MINUTE_MS))
    expect(page).to_have_url(re.compile(r"clock\.ext=12%3A3"))

    page.clock.fast_forward(BLITZ_MS + 1000)
    expect(clock).to_have_attribute("data-clock-state", "time")
    expect(item).to_have_attribute("data-state", "running")  # the table plays on
    page.clock.fast_forward(3 * MINUTE_MS)
    expect(item).to_have_attribute("data-state", "time")
    expect(item).to_contain_text(t("clock.ext.time", table=12))
    page.clock.fast_forward(5 * MINUTE_MS)
    expect(item).to_have_attribute("data-state", "time")
    assert page.evaluate("window.__signals") == ["round", "table 12"]  # each end once, never again
    # its button takes the extension off the list and out of the address
    clock.get_by_role("button", name=t("clock.ext.remove", table=12)).click()
    expect(item).to_have_count(0)
    expect(page).not_to_have_url(re.compile(r"clock\.ext="))


@pytest.mark.engine_held  # the clock around its calculators (conftest: HELD_ENGINE)
def test_pause_and_resume_keep_the_remaining_time(page, site_url):
    clock = open_clock(page, site_url)
    t = words("en")
    start_blitz(page, clock)
    page.clock.fast_forward("05:00")
    clock.get_by_role("button", name=t("clock.pause"), exact=True).click()
    expect(clock).to_have_attribute("data-clock-state", "paused")
    expect(clock).to_have_attribute("data-clock-end", "")
    left = BLITZ_MS - 5 * MINUTE_MS
    expect(clock.get_by_role("timer")).to_have_text(mmss(left))
    page.clock.fast_forward("20:00")
    expect(clock.get_by_role("timer")).to_have_text(mmss(left))  # a paused clock does not run
    page.reload()
    expect(clock).to_have_attribute("data-ready", "true")
    expect(clock).to_have_attribute("data-clock-state", "paused")
    clock.get_by_role("button", name=t("clock.resume"), exact=True).click()
    expect(clock).to_have_attribute("data-clock-state", "running")
    assert end_of(clock) - page.evaluate("Date.now()") in range(left - 1000, left + 1)
    clock.get_by_role("button", name=t("clock.add", minutes=1), exact=True).click()
    assert end_of(clock) - page.evaluate("Date.now()") in range(left + MINUTE_MS - 1000, left + MINUTE_MS + 1)


@pytest.mark.engine_held  # the clock around its calculators (conftest: HELD_ENGINE)
def test_wake_lock_held_while_running_released_on_pause(page, site_url):
    clock = open_clock(page, site_url, "fr")
    t = words("fr")
    assert page.evaluate("window.__wake") == []  # nothing held before the round starts
    start_blitz(page, clock, "fr")
    wake = clock.get_by_text(t("clock.wake.on"), exact=True)  # the line under the clock
    expect(wake).to_be_visible()
    assert page.evaluate("window.__wake") == ["request"]
    clock.get_by_role("button", name=t("clock.pause"), exact=True).click()
    expect(wake).to_be_hidden()
    assert page.evaluate("window.__wake") == ["request", "release"]
    page.clock.fast_forward("01:00")
    assert page.evaluate("window.__wake") == ["request", "release"]  # not taken again while paused
    clock.get_by_role("button", name=t("clock.resume"), exact=True).click()
    expect(wake).to_be_visible()
    # the browser drops the lock while the page is hidden; coming back takes it again
    page.evaluate("window.__sentinel.release().then(() => document.dispatchEvent(new Event('visibilitychange')))")
    page.wait_for_function("window.__wake.length === 5")
    assert page.evaluate("window.__wake") == ["request", "release", "request", "release", "request"]
    page.clock.fast_forward(BLITZ_MS)
    expect(clock).to_have_attribute("data-clock-state", "time")
    assert page.evaluate("window.__wake")[-1] == "release"  # time called: the screen may sleep again


@pytest.mark.engine_held  # the clock around its calculators (conftest: HELD_ENGINE)
@pytest.mark.parametrize("lang", ["en"])  # one language (conftest: "Languages")
def test_typed_values_get_a_localized_error_and_survive_reload_and_language(new_page, site_url, lang):
    page = new_page()  # no time passes (the round is never started): the shared context
    clock = open_live(page, f"{site_url}/{PREFIX[lang]}clock/", ".clock")
    t = words(lang)
    label = t("clock.minutes.label")
    page.get_by_label(label).fill("")
    clock.get_by_role("button", name=t("clock.start"), exact=True).click()
    error = field_error(clock, "minutes")
    expect(error).to_have_text(t("error.required", label=label))
    expect(clock).to_have_attribute("data-clock-state", "idle")  # no round without a length
    page.get_by_label(label).fill("9x")
    expect(error).to_have_text(t("error.not_integer", label=label, value="9x"))
    expect(page.get_by_label(label)).to_have_attribute("aria-invalid", "true")
    table = t("clock.ext.table.label")
    page.get_by_label(table).fill("0")
    expect(field_error(clock, "table")).to_have_text(
        t("error.out_of_range", label=table, value=0, minimum=1, maximum=MAX_TABLE))
    page.reload()
    expect(clock).to_have_attribute("data-ready", "true")
    expect(page.get_by_label(label)).to_have_value("9x")
    expect(error).to_have_text(t("error.not_integer", label=label, value="9x"))
    expect(page.get_by_label(table)).to_have_value("0")
    other = "fr"
    pick_language(page, other)
    french = words(other)
    expect(page.get_by_label(french("clock.minutes.label"))).to_have_value("9x")
    expect(error).to_have_text(french("error.not_integer", label=french("clock.minutes.label"), value="9x"))
    page.get_by_label(french("clock.minutes.label")).fill(str(MAX_ROUND_MINUTES + 1))
    expect(error).to_have_text(
        french("error.out_of_range", label=french("clock.minutes.label"), value=MAX_ROUND_MINUTES + 1, minimum=1,
               maximum=MAX_ROUND_MINUTES))


def test_print_and_landscape(new_page, site_url):
    page = new_page()  # an idle clock's layout: the shared context
    clock = open_live(page, f"{site_url}/fr/clock/", ".clock")
    page.set_viewport_size({"width": 844, "height": 390})  # a phone on its side
    digits = clock.get_by_role("timer")
    digits.scroll_into_view_if_needed()
    expect(digits).to_be_in_viewport()
    box = digits.bounding_box()
    assert box["height"] < 390 / 2 and box["x"] >= 0 and box["x"] + box["width"] <= 844  # fits, with room for the buttons
    page.emulate_media(media="print")
    expect(page.get_by_role("banner")).to_be_hidden()
    expect(clock.get_by_role("button", name=words("fr")("clock.start"), exact=True)).to_be_hidden()  # the controls
    expect(digits).to_be_visible()


VENUE_TARGETS = ", ".join([
    ".clock button", ".clock input[type=text]", ".clock .calc-choice", ".blitz-timer button",
    ".qr-dialog button", ".link-toast button",
])


def test_time_state_timer_and_qr_dialog_pass_axe_with_44px_targets(phone, site_url):
    """The states axe's page crawl does not see (time called, a table extension, the blitz timer,
    the QR dialog), on a phone: no violation, every control at least 44 px. (Real time: the round's
    end is given in the past.)"""
    from tests.browser.pages import assert_axe_clean
    from tests.browser.test_each_page import too_small

    page = phone
    t = words("it")
    past = int(dt.datetime.now(dt.timezone.utc).timestamp() * 1000) - MINUTE_MS
    page.goto(f"{site_url}/it/clock/?clock.game=naruto-blitz&clock.end={past}&clock.ext=7:5&blitz.a=2")
    clock = page.get_by_role("region", name=t("clock.title"), exact=True)
    expect(clock).to_have_attribute("data-ready", "true")
    expect(clock).to_have_attribute("data-clock-state", "time")
    # the blitz timer says a player lost, with the rule
    expect(page.get_by_role("alert").filter(has=page.get_by_role("link", name=t("blitz.rule"), exact=True))).to_be_visible()
    expect(clock.locator('.clock-ext-list li[data-table="7"]')).to_have_attribute("data-state", "running")
    assert_axe_clean(page)
    assert too_small(page, VENUE_TARGETS) == []
    clock.get_by_role("button", name=t("ui.qr.button"), exact=True).click()
    expect(page.get_by_role("dialog", name=t("ui.qr.title"))).to_be_visible()
    assert_axe_clean(page)
    assert too_small(page, VENUE_TARGETS) == []


def test_the_clock_works_offline_after_one_visit(fresh, engine_snapshot, own_server):
    """A judge's phone visited the site once (the home page, and the engine's snapshot as a
    calculator page leaves it); then, in airplane mode and with no server at all, the clock runs,
    calls time with the procedure's calculator, and shares itself by QR code. (An engine that starts
    in full offline: test_offline.)"""
    server, origin = own_server()
    context, page, watch = fresh(origin)
    seed_snapshot(context, origin, engine_snapshot)
    watch.attach_context(context)
    page.goto(f"{origin}/it/")
    expect(page.locator("html")).to_have_attribute("data-offline", "ready")
    context.set_offline(True)
    server.shutdown()

    t = words("it")
    clock = open_clock(page, origin, "it")
    start_blitz(page, clock, "it")
    page.clock.fast_forward(BLITZ_MS + 1000)
    expect(clock).to_have_attribute("data-clock-state", "time")
    expect(page.locator("#calc-naruto-end-of-time-blitz")).to_have_attribute("data-state", "ready")
    expect(page.locator("html")).to_have_attribute("data-engine-start", "snapshot")
    clock.get_by_role("button", name=t("ui.qr.button"), exact=True).click()
    svg = page.get_by_role("dialog", name=t("ui.qr.title")).locator("svg.qr-code")
    expect(svg).to_have_attribute("data-qr-text", page.url.split("#")[0])
    page.keyboard.press("Escape")
    clock.get_by_role("button", name=t("clock.room"), exact=True).click()  # the room display, offline too
    expect(page.locator("html")).to_have_attribute("data-clock-view", "room")
    page.reload()
    expect(clock).to_have_attribute("data-view", "room")
    expect(clock).to_have_attribute("data-clock-state", "time")
