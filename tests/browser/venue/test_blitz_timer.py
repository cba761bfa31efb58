"""The blitz action timer, on the Naruto page's blitz section and on the clock page when blitz is
chosen: the rules' "about N seconds" per action are signalled and the overrun shown (no penalty
is given by the tool), and at the rules' number of warnings it states that the player loses.

Numbers from ``rules_core.naruto``, words from the catalogs, time from ``page.clock``.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from calculators.i18n import LANGUAGES, language_folder
from calculators.players import player
from rules_core.players import Player
from sitebuild.words import words
from rules_core.naruto import BLITZ_ACTION_SECONDS, BLITZ_WARNINGS_TO_LOSE
from tests.browser.venue.conftest import open_blitz_clock, open_paused


PREFIX = {lang: language_folder(lang) for lang in LANGUAGES}
SIGNALS = """window.__signals = [];
document.addEventListener("venue:signal", (e) => window.__signals.push(e.detail), true);"""


def open_timer(page, site_url, path):
    return open_paused(page, f"{site_url}/{path}", ".blitz-timer", SIGNALS)


@pytest.mark.engine_held  # the clock around its calculators (conftest: HELD_ENGINE)
@pytest.mark.parametrize("lang", ["fr"])  # one language (conftest: "Languages")
def test_action_signal_after_the_rules_seconds(page, site_url, lang):
    t = words(lang)
    timer = open_timer(page, site_url, f"{PREFIX[lang]}naruto/#naruto-blitz-4")
    expect(timer).to_have_attribute("data-blitz-state", "idle")
    expect(timer.get_by_text(t("blitz.hint", seconds=BLITZ_ACTION_SECONDS), exact=True)).to_be_visible()
    tap = timer.get_by_role("button", name=re.compile(re.escape(t("blitz.tap"))))

    def count(text):  # the seconds left (or over), written in the tap button under its label
        return tap.get_by_text(text, exact=True)

    tap.click()
    expect(timer).to_have_attribute("data-blitz-state", "running")
    expect(count(t("blitz.left", seconds=BLITZ_ACTION_SECONDS))).to_be_visible()
    page.clock.fast_forward((BLITZ_ACTION_SECONDS - 1) * 1000)
    expect(count(t("blitz.left", seconds=1))).to_be_visible()
    assert page.evaluate("window.__signals") == []  # nothing before the time is up
    page.clock.fast_forward(1000)
    expect(timer).to_have_attribute("data-blitz-state", "over")
    expect(timer.get_by_role("status")).to_have_text(t("blitz.over", seconds=BLITZ_ACTION_SECONDS))
    page.clock.fast_forward(3000)
    expect(count(t("blitz.overrun", over=3))).to_be_visible()
    assert page.evaluate("window.__signals") == ["action"]  # once per action
    # the overrun gives no warning by itself: that is the judge's decision
    for player in ("a", "b"):
        expect(timer.locator(f'.blitz-player[data-player="{player}"]')).to_have_attribute("data-warnings", "0")
    tap.click()  # the next action starts a new count
    expect(timer).to_have_attribute("data-blitz-state", "running")
    expect(count(t("blitz.left", seconds=BLITZ_ACTION_SECONDS))).to_be_visible()


@pytest.mark.engine_held  # the page around its calculators (conftest: HELD_ENGINE)
@pytest.mark.parametrize("lang", ["it"])  # one language (conftest: "Languages")
def test_the_second_warning_loses_the_game(new_page, site_url, lang):
    page = new_page()  # no time passes: the shared context
    t, timer = open_blitz_clock(page, site_url, lang, ".blitz-timer")
    name = player(t, Player.B)
    warn = timer.get_by_role("button", name=t("blitz.warn", name=name), exact=True)
    rule = page.get_by_role("link", name=t("blitz.rule"))
    lost = timer.get_by_role("alert").filter(has=rule)  # the line that says the player lost, with the rule
    for count in range(1, BLITZ_WARNINGS_TO_LOSE):
        warn.click()
        expect(timer.get_by_text(t("blitz.count", name=name, count=count), exact=True)).to_be_visible()
        expect(lost).to_be_hidden()  # not before the rules' number of warnings
    warn.click()
    expect(lost).to_be_visible()
    expect(lost.get_by_text(t("blitz.lost", name=name, count=BLITZ_WARNINGS_TO_LOSE), exact=True)).to_be_visible()
    expect(lost.get_by_role("link", name=t("blitz.rule"))).to_have_attribute("href", "../naruto/#naruto-blitz-4")
    expect(warn).to_be_disabled()
    # kept through a reload, and taking one back clears the message
    page.reload()
    expect(timer).to_have_attribute("data-ready", "true")
    expect(lost).to_be_visible()
    timer.get_by_role("button", name=t("blitz.undo", name=name), exact=True).click()
    expect(lost).to_be_hidden()
    expect(timer.locator('.blitz-player[data-player="a"]')).to_have_attribute("data-warnings", "0")


@pytest.mark.engine_held  # the page around its calculators (conftest: HELD_ENGINE)
def test_the_timer_shows_only_when_blitz_is_played(new_page, site_url):
    page = new_page()  # no time passes: the shared context
    t = words("en")
    page.goto(f"{site_url}/clock/")
    expect(page.get_by_role("region", name=t("clock.title"), exact=True)).to_have_attribute("data-ready", "true")
    timer = page.get_by_role("region", name=t("blitz.title"), exact=True)
    expect(timer).to_be_hidden()
    page.get_by_label(t("clock.game.naruto-blitz"), exact=True).check()
    expect(timer).to_be_visible()
