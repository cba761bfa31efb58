"""The answer before the engine (sitebuild/answers.py, web/calculators/verdict.js): with the engine's download held
back (routes that never answer), a shared link's verdict and a typed value's come from the build's
tables, in each language, on the rule pages and on the clock's procedures; a value the tables do not
hold waits for the engine; a table that does not match its hash is never used."""

from __future__ import annotations

import datetime as dt
import functools
import json
import os
import re

import pytest
from playwright.sync_api import expect

from calculators.i18n import LANGUAGES, Translator
from tests.browser.conftest import SITE, expect_ready
from sitebuild.words import words
from tests.browser.pages import engine_status, expect_verdict, field_error, summary
from tests.browser.venue.conftest import START
from sitebuild.answers import TABLES, written_answers

ROOT_OF = {"en": "", "fr": "fr/", "it": "it/"}
#: The engine's files and its worker: what a first visit downloads before the engine can answer.
ENGINE = re.compile(r"/calc/(engine/worker\.js|pyodide-[^/]+/|wheel-[^/]+/)")


def hold_engine(page) -> list:
    """Hold every request for the engine (on the context: the worker's own requests too) until
    :func:`release`; returns the held routes."""
    held = []
    page.context.route(ENGINE, lambda route: route.continue_() if None in held else held.append(route))
    return held


def release(held: list) -> None:
    """Let the held requests, and every later one, through."""
    routes = list(held)
    held.append(None)
    for route in routes:
        route.continue_()


def expect_early(calc, lang: str) -> None:
    """The calculator is still starting, and its status says the answer came before it."""
    expect(calc).to_have_attribute("data-state", "loading")
    expect(engine_status(calc)).to_have_text(Translator(lang)("ui.early"))


#: (page, calculator element, link query): the two shared links of the benchmark's row among them.
LINKS = [
    ("naruto/", "calc-naruto-rounds", "naruto-rounds.players=24"),
    ("naruto/", "calc-naruto-rounds", "naruto-rounds.players=300"),  # issue 62 item 9: beyond the first tables' 256
    ("pokemon/", "calc-pokemon-time-limit", "pokemon-time-limit.late_a=no&pokemon-time-limit.late_b=no&pokemon-time-limit.prizes_a=2&pokemon-time-limit.prizes_b=2"),
    ("judge-tower/", "calc-judge-tower-hand", "judge-tower-hand.level=3"),
]


#: Each link in one language, the languages in turn (conftest, "Languages"): the tables' path is the same in every
#: language; that every language's table holds what evaluate() answers is tests/site/test_answers.py's.
LINKS_IN_TURN = [(LANGUAGES[i % len(LANGUAGES)], *link) for i, link in enumerate(LINKS)]


@pytest.mark.parametrize("lang,path,uid,query", LINKS_IN_TURN, ids=[f"{lang}-{uid}" for lang, _, uid, _ in LINKS_IN_TURN])
def test_a_shared_link_is_answered_before_the_engine(cold_page, site_url, lang, path, uid, query):
    page = cold_page
    held = hold_engine(page)
    page.goto(f"{site_url}/{ROOT_OF[lang]}{path}?{query}#{uid}")
    calc = page.locator(f"#{uid}")
    expect_verdict(calc, calc.get_attribute("data-calc"), lang)
    expect_early(calc, lang)
    assert held, "the engine was not held back: the test proves nothing"


def answer(calc, lang: str, choices: dict, numbers: dict) -> None:
    """A judge answers a procedure's questions (choices clicked, numbers typed) and reads its verdict."""
    for name, value in choices.items():
        calc.locator(f'input[name="{name}"][value="{value}"]').check()
    for name, value in numbers.items():
        calc.locator(f'input[name="{name}"]').fill(value)
    verdict = expect_verdict(calc, calc.get_attribute("data-calc"), lang)
    assert verdict["ok"], verdict


#: The clock's procedures, answered as a judge fills them in at time: choices clicked (Pokémon's late questions
#: start unanswered, so both are answered), numbers typed.
PROCEDURES = [
    ("calc-naruto-end-of-time-standard", {"starter": "a", "active": "b"}, {}),
    ("calc-naruto-end-of-time-blitz", {"starter": "b", "active": "b"}, {}),
    ("calc-pokemon-time-limit-bo1", {"late_a": "no", "late_b": "yes"}, {"prizes_a": "3", "prizes_b": "5"}),
    ("calc-pokemon-time-limit-bo3", {"late_a": "no", "late_b": "no"}, {"games_a": "1", "games_b": "0"}),
]


@pytest.mark.parametrize("lang", ["fr"])  # one language (conftest, "Languages")
def test_the_clocks_procedures_answer_before_the_engine(cold_page, site_url, lang):
    page = cold_page
    held = hold_engine(page)
    page.goto(f"{site_url}/{ROOT_OF[lang]}clock/")
    for uid, choices, numbers in PROCEDURES:
        calc = page.locator(f"#{uid}")
        answer(calc, lang, choices, numbers)
        expect_early(calc, lang)
    assert held


#: (the round clock's game, round minutes, its procedure's calculator, the judge's answers at time).
AT_TIME = [
    ("pokemon-bo3", 50, "calc-pokemon-time-limit-bo3", {"late_a": "yes", "late_b": "no", "in_progress": "yes"},
     {"games_a": "1", "games_b": "0", "prizes_a": "2", "prizes_b": "4"}),
    ("naruto-standard", 40, "calc-naruto-end-of-time-standard", {"starter": "b", "active": "a"}, {}),
]


#: Each game in one language, in turn (conftest, "Languages").
AT_TIME_IN_TURN = [(LANGUAGES[(i + 1) % len(LANGUAGES)], *row) for i, row in enumerate(AT_TIME)]


@pytest.mark.parametrize("lang,game,minutes,uid,choices,numbers", AT_TIME_IN_TURN,
                         ids=[f"{lang}-{game}" for lang, game, *_ in AT_TIME_IN_TURN])
def test_the_round_clock_at_time_answers_before_the_engine(cold_page, site_url, watch, lang, game, minutes, uid,
                                                            choices, numbers):
    """The round clock runs to time (the fake clock) while the engine's download never answers (its
    watchdog gives up meanwhile, as on a venue's network): the procedure's questions get their verdict."""
    page = cold_page
    watch.allow(r"no download progress")
    t = words(lang)
    page.clock.install(time=START)
    held = hold_engine(page)
    page.goto(f"{site_url}/{ROOT_OF[lang]}clock/")
    page.clock.pause_at(START + dt.timedelta(seconds=10))
    clock = page.get_by_role("region", name=t("clock.title"), exact=True)
    expect(clock).to_have_attribute("data-ready", "true")
    page.get_by_label(t(f"clock.game.{game}"), exact=True).check()
    page.get_by_label(t("clock.minutes.label")).fill(str(minutes))
    clock.get_by_role("button", name=t("clock.start"), exact=True).click()
    expect(clock).to_have_attribute("data-clock-state", "running")
    page.clock.fast_forward(minutes * 60_000 + 1000)
    expect(clock).to_have_attribute("data-clock-state", "time")
    clock.get_by_role("link", name=t("clock.procedure")).click()
    calc = page.locator(f"#{uid}")
    expect(calc).to_be_in_viewport()
    answer(calc, lang, choices, numbers)
    expect(calc).to_have_attribute("data-state", "error")  # the engine gave up: the answer is the tables'
    assert held, "the engine was not held back: the test proves nothing"


#: A number of players one past the build's table (sitebuild/answers.py).
BEYOND_THE_TABLE = str(max(TABLES["naruto-rounds"].integers["players"]) + 1)


def test_a_value_the_tables_do_not_hold_waits_for_the_engine(seeded_page, site_url):
    """Values the tables do not hold (one past the table, a space, a decimal point) each wait for the engine,
    in one page while its download is held; then the engine answers the last."""
    page = seeded_page
    held = hold_engine(page)
    page.goto(f"{site_url}/fr/naruto/")
    calc = page.locator("#calc-naruto-rounds")
    players = calc.locator('input[name="players"]')
    for value in (BEYOND_THE_TABLE, " 24", "24.0"):
        players.fill("24")  # a keystroke before the engine: answered from the table
        expect_verdict(calc, "naruto-rounds", "fr")
        players.fill(value)  # not in the table: no verdict (not the one for 24), until the engine answers
        expect(summary(calc)).to_have_text("")
        expect(calc).not_to_have_attribute("data-result", re.compile(""))
        expect(engine_status(calc)).not_to_have_text(Translator("fr")("ui.early"))
    release(held)
    expect_ready(calc)
    expect_verdict(calc, "naruto-rounds", "fr")


def _damaged(real: bytes, how: str) -> bytes:
    """A host that answers 200 wrongly: the table rewritten (valid JSON and well-formed verdicts, but not
    the build's bytes), cut short, or garbage."""
    if how == "rewritten":
        table = json.loads(real)
        for verdict in table["verdicts"]:
            verdict["summary"] = "DAMAGED"
        return json.dumps(table, ensure_ascii=False).encode()
    return real[: len(real) // 2] if how == "truncated" else os.urandom(len(real))


def _answer_with(body: bytes, route) -> None:
    route.fulfill(body=body, content_type="application/json")


def test_a_damaged_table_is_never_used(seeded_page, site_url, watch):
    """A table rewritten, cut short or garbage: each refused (said in the console) and no verdict shown from
    it while the engine is held; then, the last, the engine's verdict only."""
    page = seeded_page
    watch.allow(r"does not match the build")
    name = next((SITE / "calc" / "answers").glob("naruto-rounds.fr.*.json")).name
    real = (SITE / "calc" / "answers" / name).read_bytes()
    page.add_init_script("addEventListener('calc:verdict', (e) => (window.__summaries ||= []).push(e.detail.summary), true)")
    held = hold_engine(page)
    for how in ("rewritten", "truncated", "garbage"):
        damaged = _damaged(real, how)
        page.unroute(f"**/calc/answers/{name}")
        page.route(f"**/calc/answers/{name}", functools.partial(_answer_with, damaged))
        with page.expect_event("console", lambda message: "does not match the build" in message.text):
            if how == "rewritten":
                page.goto(f"{site_url}/fr/naruto/?naruto-rounds.players=24#calc-naruto-rounds")
            else:
                page.reload()  # (the same address again would only scroll to its fragment)
        assert page.evaluate("window.__summaries ?? []") == [], how
    calc = page.locator("#calc-naruto-rounds")
    release(held)
    expect_ready(calc)
    verdict = expect_verdict(calc, "naruto-rounds", "fr")
    assert page.evaluate("window.__summaries") == [verdict["summary"]]  # the engine's only, never the table's


def test_a_repeat_visit_fetches_no_table_from_the_network(page, site_url):
    """The service worker in control (the warm context: engine snapshot and offline copy stored): the table a
    shared link asks for comes from its precache, nothing from the network; then the engine's verdict."""
    tables = []
    page.on("response", lambda response: "/calc/answers/" in response.url and tables.append(response))
    page.goto(f"{site_url}/fr/naruto/?naruto-rounds.players=24#calc-naruto-rounds")
    calc = page.locator("#calc-naruto-rounds")
    expect_ready(calc)
    expect_verdict(calc, "naruto-rounds", "fr")
    assert tables and all(response.from_service_worker for response in tables), [r.url for r in tables]


@pytest.mark.parametrize("lang", ["en"])  # one language (conftest, "Languages")
def test_a_field_the_choices_hide_is_not_sent(cold_page, site_url, lang):
    """Issue 62 item 12: a hidden field kept its earlier value and was sent, so a state the tables hold got
    no verdict before the engine: on the clock, "game in progress" from yes to no (Prize cards hidden)."""
    page = cold_page
    held = hold_engine(page)
    page.goto(f"{site_url}/{ROOT_OF[lang]}clock/")
    calc = page.locator("#calc-pokemon-time-limit-bo3")
    answer(calc, lang, {"late_a": "no", "late_b": "no", "in_progress": "yes"},
           {"games_a": "1", "games_b": "1", "prizes_a": "2", "prizes_b": "4"})
    calc.locator('input[name="in_progress"][value="no"]').check()
    expect(calc.locator('input[name="prizes_a"]')).to_be_hidden()  # at once, before any verdict
    verdict = expect_verdict(calc, "pokemon-time-limit", lang)
    assert verdict["ok"] and verdict["result"]["sudden_death"], verdict
    expect_early(calc, lang)
    expect(calc.locator('input[name="prizes_a"]')).to_have_value("2")  # kept, for "yes" again
    assert held


def test_games_won_are_not_sent_once_the_format_is_a_single_game(cold_page, site_url):
    """Issue 62 item 12 on a rule page: best of three switched back to a single game."""
    page = cold_page
    held = hold_engine(page)
    page.goto(f"{site_url}/it/pokemon/")
    calc = page.locator("#calc-pokemon-time-limit")
    answer(calc, "it", {"format": "bo3", "late_a": "no", "late_b": "no"}, {"games_a": "1", "games_b": "0"})
    answer(calc, "it", {"format": "bo1"}, {"prizes_a": "3", "prizes_b": "5"})
    expect_early(calc, "it")
    assert held


@pytest.mark.parametrize("value", ["__proto__", "toString", "constructor", "hasOwnProperty"])
def test_a_prototype_name_as_a_value_asks_for_no_table(page, site_url, value):
    """Issue 62 item 13: `format=__proto__` made the page request /calc/answers/[object Object]; the table's
    file is chosen among the build's own names only, and the engine names the bad value."""
    asked = []
    page.on("request", lambda request: "/calc/answers/" in request.url and asked.append(request.url))
    page.goto(f"{site_url}/pokemon/?pokemon-time-limit.format={value}#calc-pokemon-time-limit")
    calc = page.locator("#calc-pokemon-time-limit")
    expect_ready(calc)
    expect(field_error(calc, "format")).to_contain_text(value)
    names = {name for entry in written_answers(SITE).values() for parts in entry["files"].values() for name in parts.values()}
    assert all(url.rsplit("/", 1)[-1] in names for url in asked), asked


def test_a_typed_name_keeps_the_tables_verdict(seeded_page, site_url):
    """Issue 62 item 4: an optional name typed while the engine downloads wiped the table's verdict. It stays (the
    default names, said so), and the engine's verdict, with the name, replaces it once ready."""
    page = seeded_page
    held = hold_engine(page)
    page.goto(f"{site_url}/fr/pokemon/")
    calc = page.locator("#calc-pokemon-time-limit")
    calc.locator('input[name="late_a"][value="no"]').check()  # late_b unanswered: the table's note, no verdict
    expect(field_error(calc, "late_b")).to_be_visible()  # rendered with its status line
    expect(engine_status(calc)).not_to_have_text(Translator("fr")("ui.early"))  # item 6: not beside a note
    answer(calc, "fr", {"late_b": "no"}, {"prizes_a": "3", "prizes_b": "5"})
    said = summary(calc).text_content()
    calc.locator('input[name="name_a"]').fill("Ben")
    expect(engine_status(calc)).to_have_text(Translator("fr")("ui.early_names"))
    expect(summary(calc)).to_have_text(said)  # must not: wiped, or a wrong name
    release(held)
    expect_ready(calc)
    verdict = expect_verdict(calc, "pokemon-time-limit", "fr")
    assert "Ben" in verdict["summary"]


def test_a_failed_start_says_the_tables_answer_is_complete(cold_page, site_url, watch):
    """Issue 62 item 6: offline and not saved, a table's verdict sat above "the calculator could not start". Said now:
    this answer is complete, other values need the network; and the early note only beside a verdict."""
    page = cold_page
    watch.allow(r"Failed to load|Failed to fetch|calculator engine failed|ERR_|starting once more")
    page.context.route(ENGINE, lambda route: route.abort())
    page.goto(f"{site_url}/it/pokemon/")
    calc = page.locator("#calc-pokemon-time-limit")
    t = Translator("it")
    expect(calc).to_have_attribute("data-state", "error")
    expect(engine_status(calc)).to_have_text(t("ui.failed"))
    answer(calc, "it", {"late_a": "no", "late_b": "no"}, {"prizes_a": "2", "prizes_b": "2"})
    expect(engine_status(calc)).to_have_text(t("ui.failed_early"))
    calc.locator('input[name="prizes_a"]').fill("2 ")  # a value no table holds: no answer, the plain failure
    expect(summary(calc)).to_have_text("")
    expect(engine_status(calc)).to_have_text(t("ui.failed"))


def test_the_chosen_games_procedure_comes_first_on_the_clock(cold_page, site_url):
    """Issue 62 item 7: on the clock at time, scrolling down from a Pokémon clock reached the Naruto procedure
    first. The chosen game's comes right under the clock; the others stay below it."""
    page = cold_page
    held = hold_engine(page)
    page.goto(f"{site_url}/clock/?clock.game=pokemon-bo3")
    procedures = page.locator(".clock-procedure[data-clock-game]")
    expect(procedures.first).to_have_attribute("data-clock-game", "pokemon-bo3")
    expect(procedures).to_have_count(4)
    answer(page.locator("#calc-pokemon-time-limit-bo3"), "en", {"late_a": "no", "late_b": "yes"}, {})  # still usable
    assert held
