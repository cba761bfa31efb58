"""Links to the round clock and the blitz timer keep the calculators' promise: a value the tool
cannot take gets its localized error, the link's other values are kept, and nothing is defaulted
silently. Each row of issue #38 in the three languages; the round that runs with an unknown game
under Playwright's fake clock; random links checked against the Python grammar.

Words come from the catalogs, bounds from ``rules_core``; no test here lets time pass for real.
"""

from __future__ import annotations

import datetime as dt
import random
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from calculators.i18n import LANGUAGES, language_folder
from calculators.players import player as named
from calculators.spec import MAX_LINE_FIELD
from rules_core import clock as rules
from rules_core.naruto import BLITZ_WARNINGS_TO_LOSE
from rules_core.players import Player
from sitebuild.words import words
from tests.browser.venue.conftest import START, open_live, open_paused
from tests.browser.pages import field_error
from tests.unit.test_venue_input import python_parse

#: What a link sets is the clock's own (venue/clock-address.js), down to the procedure's link when time
#: is called: the page's calculators' engine is not started (conftest: HELD_ENGINE).
pytestmark = pytest.mark.engine_held

PREFIX = {lang: language_folder(lang) for lang in LANGUAGES}
MINUTE_MS = 60_000
#: One of the issue's unreadable ends per language: every form is seen once.
BAD_END = {"en": "-1", "fr": "1e309", "it": "NaN"}


def open_link(page, site_url, lang, pairs):
    return open_live(page, f"{site_url}/{PREFIX[lang]}clock/?{urlencode(pairs)}", ".clock")


def link_errors(clock):
    """The clock's list of what its link got wrong (in an alert; the blitz timer's list is another)."""
    return clock.locator(".clock-link-errors > li")


def blitz_link_errors(page):
    """The blitz timer's list of what the link got wrong, shown even when the timer is not (not a game
    in blitz): found on the page, not in the timer."""
    return page.locator(".blitz-link-errors > li")


def extensions(clock, t):
    """Each table's extension: the items of the extensions' group."""
    return clock.get_by_role("group", name=t("clock.ext.title"), exact=True).get_by_role("listitem")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_unreadable_end_and_bad_extensions_are_said_and_the_rest_kept(new_page, site_url, lang):
    page = new_page()  # no time passes (nothing runs): the shared context
    t = words(lang)
    end = BAD_END[lang]
    clock = open_link(page, site_url, lang, [
        ("clock.game", "pokemon-bo3"), ("clock.end", end), ("clock.minutes", "-5"),
        ("clock.ext", "7:5"), ("clock.ext", "5:-3"), ("clock.ext", "1:5"), ("clock.ext", "1:6")])
    expect(link_errors(clock)).to_have_text([
        t("clock.link.error.end", value=end),
        t("clock.link.error.ext", value="5:-3", tables=rules.MAX_TABLE, minutes=rules.MAX_EXTENSION_MINUTES),
        t("clock.link.error.ext_twice", table=1),
        # the length's own error too: the list is in view whatever the form shows
        t("error.out_of_range", label=t("clock.minutes.label"), value=-5, minimum=1, maximum=rules.MAX_ROUND_MINUTES),
    ])
    expect(clock).to_have_attribute("data-clock-state", "idle")  # no round from an end it cannot read
    expect(clock).to_have_attribute("data-clock-end", "")
    # what the link got right is kept: the game, the typed length (with its own error), two tables
    expect(page.get_by_label(t("clock.game.pokemon-bo3"), exact=True)).to_be_checked()
    minutes = t("clock.minutes.label")
    expect(page.get_by_label(minutes)).to_have_value("-5")
    expect(field_error(clock, "minutes")).to_have_text(  # an integer, out of range
        t("error.out_of_range", label=minutes, value=-5, minimum=1, maximum=rules.MAX_ROUND_MINUTES))
    items = extensions(clock, t)
    expect(items).to_have_count(2)
    assert [(i.get_attribute("data-table"), i.get_attribute("data-minutes")) for i in items.all()] == [("1", "5"), ("7", "5")]
    # the link stays as it came: a reload or another language shows the same errors
    assert f"clock.end={urlencode({'': end})[1:]}" in page.url and "clock.ext=5%3A-3" in page.url


@pytest.mark.parametrize("lang", ["it"])  # one language (conftest: "Languages")
def test_a_negative_time_left_and_blitz_warnings_out_of_range_are_errors_not_clamped(new_page, site_url, lang):
    page = new_page()
    t = words(lang)
    clock = open_link(page, site_url, lang, [
        ("clock.game", "naruto-blitz"), ("clock.left", "-100"), ("blitz.a", "-1"), ("blitz.b", "99")])
    expect(link_errors(clock)).to_have_text([t("clock.link.error.left", value="-100")])
    expect(clock).to_have_attribute("data-clock-state", "idle")
    timer = page.get_by_role("region", name=t("blitz.title"), exact=True)
    expect(timer).to_have_attribute("data-ready", "true")

    def refused(player, value):
        label = t("blitz.warnings.label", name=named(t, Player(player)))
        return t("error.out_of_range", label=label, value=value, minimum=0, maximum=BLITZ_WARNINGS_TO_LOSE)

    expect(blitz_link_errors(page)).to_have_text([refused("a", -1), refused("b", 99)])
    for player in ("a", "b"):  # none counted: 99 is not "the most there can be"
        expect(timer.locator(f'.blitz-player[data-player="{player}"]')).to_have_attribute("data-warnings", "0")
    expect(timer.get_by_role("link", name=t("blitz.rule"), exact=True)).to_be_hidden()  # no "lost" line


@pytest.mark.parametrize("lang", ["en"])  # one language (conftest: "Languages")
def test_an_end_beyond_any_round_and_too_many_extensions_are_errors(new_page, site_url, lang):
    page = new_page()
    t = words(lang)
    now = int(dt.datetime.now(dt.timezone.utc).timestamp() * 1000)
    tables = rules.MAX_EXTENSIONS + 5
    clock = open_link(page, site_url, lang, [("clock.game", "naruto-standard"), ("clock.end", str(now + 10**15))]
                      + [("clock.ext", f"{n}:5") for n in range(1, tables + 1)])
    expect(link_errors(clock)).to_have_text([
        t("clock.link.error.end_far", maximum=rules.MAX_AHEAD_MINUTES),
        t("clock.link.error.ext_many", count=tables, maximum=rules.MAX_EXTENSIONS),
    ])
    expect(clock).to_have_attribute("data-clock-state", "idle")
    expect(extensions(clock, t)).to_have_count(rules.MAX_EXTENSIONS)


@pytest.mark.parametrize("lang", ["fr"])  # one language (conftest: "Languages")
def test_a_time_left_beyond_any_round_is_an_error(new_page, site_url, lang):
    page = new_page()
    t = words(lang)
    clock = open_link(page, site_url, lang, [("clock.game", "pokemon-bo1"), ("clock.left", "999999999999999")])
    expect(link_errors(clock)).to_have_text([t("clock.link.error.left_far", maximum=rules.MAX_AHEAD_MINUTES)])
    expect(clock).to_have_attribute("data-clock-state", "idle")
    expect(page.get_by_label(t("clock.game.pokemon-bo1"), exact=True)).to_be_checked()


@pytest.mark.parametrize("lang", ["it"])  # one language (conftest: "Languages")
def test_an_unknown_game_runs_the_shared_round_and_asks_for_the_game(new_page, site_url, lang):
    page = new_page()
    t = words(lang)
    end = int(dt.datetime.now(dt.timezone.utc).timestamp() * 1000) + 30 * MINUTE_MS
    clock = open_link(page, site_url, lang, [("clock.game", "evil"), ("clock.end", str(end))])
    games = ", ".join(t(f"clock.game.{g.value}") for g in rules.Game)
    error = field_error(clock, "game")
    expect(error).to_have_text(t("error.not_a_choice", label=t("clock.game.label"), value="evil", choices=games))
    expect(link_errors(clock)).to_have_count(0)
    expect(clock).to_have_attribute("data-clock-state", "running")  # the round's time is kept
    assert clock.get_attribute("data-clock-end") == str(end)
    expect(clock.locator("input[name=game]:checked")).to_have_count(0)  # no game chosen for the organiser
    expect(page.locator(".clock-procedure[data-chosen]")).to_have_count(0)


def test_the_round_with_an_unknown_game_counts_down_then_calls_time_once_a_game_is_chosen(page, site_url):
    """Under the fake clock: the same remaining time as the link's end, the game asked for and
    chosen while the round runs, then time called with that game's procedure."""
    end = int(START.timestamp() * 1000) + 20 * MINUTE_MS
    t = words("en")
    clock = open_paused(page, f"{site_url}/clock/?clock.game=evil&clock.end={end}", ".clock", "")
    expect(clock).to_have_attribute("data-clock-state", "running")
    expect(clock.get_by_role("timer")).to_have_text("19:50")  # the page opened 10 s after START
    page.get_by_label(t("clock.game.pokemon-bo3"), exact=True).check()
    expect(field_error(clock, "game")).to_be_hidden()
    # chosen: the running clock's own layout again, its setup hidden
    expect(clock.get_by_role("group", name=t("clock.game.label"), exact=True)).to_be_hidden()
    expect(page).to_have_url(f"{site_url}/clock/?clock.game=pokemon-bo3&clock.end={end}")
    page.clock.fast_forward(20 * MINUTE_MS)
    expect(clock).to_have_attribute("data-clock-state", "time")
    expect(clock.get_by_role("link", name=t("clock.procedure"))).to_have_attribute("href", "#clock-pokemon-bo3")


#: Strings a link may carry: digits and signs, spaces, letters, exponents, separators, very long ones.
PIECES = ["", "0", "1", "-1", "+7", "\u22123", "12", "1e3", "NaN", " ", "x", ":", "5:5", "9" * 20, "\u00a03",
          "evil", "naruto-blitz", "pokemon-bo3", "%", "\u202e", "1.5", "0x1f", "9" * (MAX_LINE_FIELD + 1)]


def random_text(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 3)))


@pytest.mark.parametrize("seed", range(4))
def test_random_links_give_each_value_or_its_error(new_page, site_url, seed):
    """Random strings in every parameter: no page error (the watch), no state but a valid clock or
    an error, and each parameter either taken as the calculators' grammar reads it or refused."""
    rng = random.Random(seed)
    lang = LANGUAGES[seed % len(LANGUAGES)]
    pairs = [(name, random_text(rng)) for name in ("clock.game", "clock.end", "clock.left", "clock.minutes", "blitz.a")]
    pairs += [("clock.ext", f"{random_text(rng)}:{random_text(rng)}") for _ in range(2)]
    if seed % 2:
        pairs[0] = ("clock.game", rng.choice([g.value for g in rules.Game]))
    page = new_page()
    clock = open_link(page, site_url, lang, pairs)
    given = dict(pairs)
    game_error = field_error(clock, "game")
    errors = link_errors(clock).all_text_contents()
    state = clock.get_attribute("data-clock-state")
    assert state in ("idle", "running", "paused", "time")

    known = [g.value for g in rules.Game]
    if given["clock.game"] in known:
        expect(clock.locator(f'input[name=game][value="{given["clock.game"]}"]')).to_be_checked()
        expect(game_error).to_be_hidden()
    else:
        expect(clock.locator("input[name=game]:checked")).to_have_count(0)
        expect(game_error).to_be_visible()
    # These strings never make an end near the bound (now + the longest round): far past or far beyond.
    end = python_parse(given["clock.end"], 0, int(page.evaluate("Date.now()")) + rules.MAX_AHEAD_MINUTES * MINUTE_MS)
    if "value" in end:  # read as Python reads it: a past end, time called
        assert clock.get_attribute("data-clock-end") == str(end["value"]) and state == "time"
    else:
        assert clock.get_attribute("data-clock-end") == "" and state in ("idle", "paused")
        assert end.get("empty") or errors, "an end it cannot take is said"
    expect(page.get_by_label(words(lang)("clock.minutes.label"))).to_have_value(given["clock.minutes"])
    warnings = python_parse(given["blitz.a"], 0, BLITZ_WARNINGS_TO_LOSE)
    timer = page.locator('.blitz-player[data-player="a"]')
    expect(timer).to_have_attribute("data-warnings", str(warnings.get("value", 0)))
    expect(blitz_link_errors(page)).to_have_count(1 if "error" in warnings else 0)


#: (round, rounds) from a link -> the error of the field at fault (its catalog key and params), and
#: which field: the round number or the total.
ROUND_LINKS = [
    ("6", "5", "round", "error.out_of_range", {"value": 6, "minimum": 1, "maximum": 5}),
    ("0", None, "round", "error.out_of_range", {"value": 0, "minimum": 1, "maximum": rules.MAX_ROUND_NUMBER}),
    ("abc", None, "round", "error.not_integer", {"value": "abc"}),
    (None, "100", "rounds", "error.out_of_range", {"value": 100, "minimum": 1, "maximum": rules.MAX_ROUND_NUMBER}),
    ("", "5", "round", "error.required", {}),
]


# Each case once, the languages in turn (conftest: "Languages"); the slice this replaced ran the first two
# cases in every language and never the last two.
@pytest.mark.parametrize(("lang", "case"), [(LANGUAGES[i % len(LANGUAGES)], case) for i, case in enumerate(ROUND_LINKS)])
def test_a_bad_round_number_in_a_running_rounds_link_is_said_in_view(new_page, site_url, lang, case):
    """The setup form is hidden while a round runs: a link's bad round number is said in the link's
    list, in view, and the round itself is kept."""
    round_, rounds, field, key, params = case
    page = new_page()
    t = words(lang)
    pairs = [("clock.game", "naruto-standard"), ("clock.left", str(20 * MINUTE_MS))]
    pairs += [(name, value) for name, value in (("clock.round", round_), ("clock.rounds", rounds)) if value is not None]
    clock = open_link(page, site_url, lang, pairs)
    expect(clock).to_have_attribute("data-clock-state", "paused")
    expect(clock.get_by_role("group", name=t("clock.game.label"), exact=True)).to_be_hidden()  # the setup
    expect(link_errors(clock)).to_have_text([t(key, label=t(f"clock.{field}.label"), **params)])
    expect(link_errors(clock).first).to_be_in_viewport()


@pytest.mark.parametrize(("lang", "game"), [("en", None), ("fr", "naruto-standard"), ("it", "pokemon-bo3")])
def test_a_blitz_links_errors_are_in_view_when_the_game_is_not_blitz(new_page, site_url, lang, game):
    """The blitz timer shows only in a blitz game: a link's bad warnings and a name given twice are
    said with the clock's own link errors all the same (README, "When something goes wrong")."""
    page = new_page()
    t = words(lang)
    pairs = [("clock.game", game)] if game else []
    clock = open_link(page, site_url, lang, [*pairs, ("blitz.a", "99"), ("blitz.b", "1"), ("blitz.b", "2")])
    expect(page.get_by_role("region", name=t("blitz.title"), exact=True)).to_be_hidden()
    label = t("blitz.warnings.label", name=named(t, Player("a")))
    errors = blitz_link_errors(page)
    expect(errors).to_have_text([
        t("error.out_of_range", label=label, value=99, minimum=0, maximum=BLITZ_WARNINGS_TO_LOSE),
        t("ui.share.twice", name="blitz.b")])
    for error in errors.all():
        expect(error).to_be_visible()
    expect(errors.first).to_be_in_viewport()
    expect(link_errors(clock)).to_have_count(0)  # the clock's own values are fine


@pytest.mark.parametrize("lang", ["en"])  # one language (conftest: "Languages")
def test_a_bad_length_with_the_blitz_game_is_said(new_page, site_url, lang):
    page = new_page()
    t = words(lang)
    clock = open_link(page, site_url, lang, [("clock.game", "naruto-blitz"), ("clock.minutes", "abc")])
    expect(clock.locator('[data-field="minutes"]')).to_be_hidden()  # the rules fix the blitz length
    expect(link_errors(clock)).to_have_text([t("error.not_integer", label=t("clock.minutes.label"), value="abc")])


@pytest.mark.parametrize("lang", ["fr"])  # one language (conftest: "Languages")
def test_a_name_given_twice_is_said_the_same_way_by_every_tool(new_page, site_url, lang):
    """The clock, the blitz timer and the calculators: the first value is used, and said."""
    page = new_page()
    t = words(lang)
    clock = open_link(page, site_url, lang, [
        ("clock.game", "naruto-blitz"), ("clock.game", "pokemon-bo1"), ("blitz.a", "1"), ("blitz.a", "2"),
        ("naruto-end-of-time-blitz.active", "b"), ("naruto-end-of-time-blitz.active", "a")])
    expect(link_errors(clock)).to_have_text([t("ui.share.twice", name="clock.game")])
    expect(page.get_by_label(t("clock.game.naruto-blitz"), exact=True)).to_be_checked()
    timer = page.get_by_role("region", name=t("blitz.title"), exact=True)
    expect(blitz_link_errors(page)).to_have_text([t("ui.share.twice", name="blitz.a")])
    expect(timer.locator('.blitz-player[data-player="a"]')).to_have_attribute("data-warnings", "1")
    calc = page.locator("#calc-naruto-end-of-time-blitz")
    expect(calc.locator(".calc-link-errors > li")).to_have_text([t("ui.share.twice", name="naruto-end-of-time-blitz.active")])
    expect(calc.locator("input[name=active][value=b]")).to_be_checked()
