"""The round clock and the blitz timer are tested with Playwright's fake clock (``page.clock``),
which fakes time for a whole browser context: here ``page`` is a page in a context of its own, never
the session's shared, warmed one (tests/browser/conftest.py). Tests in which no time passes (typed
values, warnings, layout) take a page of the shared context instead (``new_page``, ``open_live``):
a context of their own cost ~1–2 s each for nothing they check (DESIGN.md, "Tests")."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import expect

from calculators.i18n import language_folder
from sitebuild.words import words
from tests.browser.conftest import engine_held, expect_ready, seed_snapshot

#: The fake clock's start: a Saturday afternoon at a venue.
START = dt.datetime(2026, 11, 28, 14, 0, tzinfo=dt.timezone.utc)


@pytest.fixture
def page(context, cold_page, site_url, request):
    """A page in a context of its own that has the engine snapshot: its calculators start in ~0.5 s
    (or never, in a test marked ``engine_held``: then it needs no snapshot)."""
    if not engine_held(cold_page):
        seed_snapshot(context, site_url, request.getfixturevalue("engine_snapshot"))
    return cold_page


def open_paused(page, url: str, tool: str, init_script: str, at: dt.datetime = START):
    """Open ``url`` with the fake clock at ``at``, paused just after the page load (time moves only when
    a test says), once ``tool`` is listening and the page's calculators have their engine: a jump of
    the fake clock must not be taken for a stalled download (the start's watchdog runs on the page's
    timers; a held engine has said its files arrived). Returns the tool's locator."""
    page.clock.install(time=at)
    page.add_init_script(init_script)
    page.goto(url)
    page.clock.pause_at(at + dt.timedelta(seconds=10))
    located = page.locator(tool)
    expect(located).to_have_attribute("data-ready", "true")
    for calc in [] if engine_held(page) else page.locator(".calc[data-calc]").all():
        expect(calc).to_have_attribute("data-state", "ready")
    return located


def open_live(page, url: str, tool: str):
    """Open ``url`` with real time, for a test in which no time passes (a clock left idle): once
    ``tool`` is listening and the page's calculators have started (unless the test holds the
    engine: ``engine_held``). Returns the tool's locator."""
    page.goto(url)
    located = page.locator(tool)
    expect(located).to_have_attribute("data-ready", "true")
    for calc in [] if engine_held(page) else page.locator(".calc[data-calc]").all():
        expect_ready(calc)
    return located


def open_blitz_clock(page, site_url: str, lang: str, tool: str):
    """``open_live`` on the round clock of ``lang`` with Naruto's blitz chosen: its words and ``tool``'s locator."""
    prefix = language_folder(lang)
    return words(lang), open_live(page, f"{site_url}/{prefix}clock/?clock.game=naruto-blitz", tool)
