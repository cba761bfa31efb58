"""Every failure heals itself or says so (issue #17): links that set only choices or carry invalid
or oversized values, engine files that fail or never answer, a second tab of the shame tracker,
right-to-left names, and offline answers with a host's status. (A damaged engine snapshot:
test_offline, with the snapshots that are refused.)

Cold contexts (``fresh``, ``cold_page``) where the start itself is tested; the warm ``page``
elsewhere. Time is Playwright's fake clock, never real waiting.
"""

from __future__ import annotations

import functools
import re
import threading
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from calculators import CALCULATORS, evaluate, field_label
from calculators.i18n import Translator
from calculators.players import END_ISOLATE, ISOLATE
from sitebuild.answers import TABLES
from sitebuild.engine import engine_paths
from tests.browser.conftest import SITE, expect_ready, seed_snapshot
from tests.browser.pages import (calculator, checklist, engine_status, expect_failed_then_retry, expect_verdict, field_error,
                                 field_errors, shame_rows, summary)
from tools.serve import Handler, Server

# --- links that set choices only, or values no control can show ------------------------------------------

# (A link setting Judge Tower's level: test_a_chosen_level_survives_a_reload, its address read again after
# the reload; and before the engine, test_answers.)
CHOICE_LINKS = [
    ("fr/naruto/", "naruto-end-of-time", {"starter": "a", "active": "b"}),
    ("it/pokemon/", "pokemon-time-limit", {"format": "bo3", "in_progress": "yes"}),
]


def link(path: str, calc_id: str, values: dict[str, str]) -> str:
    query = "&".join(f"{calc_id}.{name}={quote(value)}" for name, value in values.items())
    return f"{path}?{query}#calc-{calc_id}"


@pytest.mark.parametrize(("path", "calc_id", "values"), CHOICE_LINKS)
def test_a_link_setting_only_choices_shows_its_verdict(page, site_url, path, calc_id, values):
    page.goto(f"{site_url}/{link(path, calc_id, values)}")
    calc = page.locator(f"#calc-{calc_id}")
    expect_ready(calc)
    lang = calc.get_attribute("data-lang")
    # What the CLI says for these values: a verdict, or the fields still needed (a game in progress
    # needs its Prize cards). Never a blank calculator.
    shown = expect_verdict(calc, calc_id, lang)
    assert shown == evaluate(calc_id, values, lang)
    if shown["ok"]:
        expect(summary(calc)).not_to_have_text("")
    else:
        expect(field_errors(calc).filter(visible=True)).not_to_have_count(0)


def test_a_chosen_level_survives_a_reload(page, site_url):
    page.goto(f"{site_url}/fr/judge-tower/")
    calc = page.locator("#calc-judge-tower-hand")
    expect_ready(calc)
    expect(summary(calc)).to_have_text("")  # nothing chosen: no verdict yet
    calc.get_by_label(Translator("fr")("judge-tower-hand.level.2"), exact=True).check()
    expect(page).to_have_url(re.compile(r"judge-tower-hand\.level=2"))
    page.reload()
    expect_ready(calc)
    expect(summary(calc)).to_have_text(evaluate("judge-tower-hand", {"level": "2"}, "fr")["summary"])


INVALID_LINKS = [  # a choice none of the radios is (a capital, here: any other word takes the same branch)
    ("fr/pokemon/", "pokemon-time-limit", {"format": "BO3"}, "format"),
    ("it/judge-tower/", "judge-tower-hand", {"level": "9"}, "level"),
    ("naruto/", "naruto-rounds", {"players": "9" * (CALCULATORS["naruto-rounds"].field("players").max_length + 1)}, "players"),
]


@pytest.mark.parametrize(("path", "calc_id", "values", "field"), INVALID_LINKS)
def test_a_link_with_an_invalid_value_shows_the_fields_error(page, site_url, path, calc_id, values, field):
    page.goto(f"{site_url}/{link(path, calc_id, values)}")
    calc = page.locator(f"#calc-{calc_id}")
    expect_ready(calc)
    lang = calc.get_attribute("data-lang")
    verdict = evaluate(calc_id, values, lang)
    message = next(e["message"] for e in verdict["errors"] if e["field"] == field)
    expect(field_error(calc, field)).to_have_text(message)
    expect(calc).to_have_attribute("data-result", "null")
    # Must not happen: a default silently used in its place.
    expect(summary(calc)).to_have_text("")
    # The user's own choice replaces the link's value.
    spec = CALCULATORS[calc_id]
    if spec.field(field).kind == "choice":
        choice = spec.field(field).choices[-1]
        t = Translator(lang)
        question = calc.get_by_role("group", name=field_label(t, calc_id, field), exact=True)
        question.get_by_label(t(f"{calc_id}.{field}.{choice}"), exact=True).check()
        expect(field_error(calc, field)).to_be_hidden()
        expect_verdict(calc, calc_id, lang)


#: Counts what the page does with the query string: the link is read in one pass.
COUNT_QUERY_WORK = """(() => {
  window.__queryWork = { deletes: 0, parses: 0 };
  const Original = URLSearchParams;
  const remove = Original.prototype.delete;
  Original.prototype.delete = function (...args) { window.__queryWork.deletes += 1; return remove.apply(this, args); };
  window.URLSearchParams = class extends Original {
    constructor(...args) { super(...args); window.__queryWork.parses += 1; }
  };
})();"""


def test_a_link_with_fifty_thousand_unknown_keys_stays_responsive(page, site_url):
    page.add_init_script(COUNT_QUERY_WORK)
    junk = "&".join(f"k{i}=v" for i in range(50_000))
    page.goto(f"{site_url}/naruto/?{junk}&naruto-rounds.players=12")
    calc = page.locator("#calc-naruto-rounds")
    expect_ready(calc)
    expect(summary(calc)).to_have_text(evaluate("naruto-rounds", {"players": "12"}, "en")["summary"])
    before = page.evaluate("({...window.__queryWork})")
    calc.get_by_label(Translator("en")("naruto-rounds.players.label"), exact=True).fill("24")
    expect(summary(calc)).to_have_text(evaluate("naruto-rounds", {"players": "24"}, "en")["summary"])
    after = page.evaluate("({...window.__queryWork})")
    # One keystroke: the query is parsed a bounded number of times, and no key is deleted one by
    # one (each delete rescans the whole query: 50,000 keys made that quadratic).
    assert after["deletes"] == before["deletes"] == 0, after
    assert after["parses"] - before["parses"] <= 4, (before, after)
    expect(page).to_have_url(re.compile(r"k49999=v.*naruto-rounds\.players=24|naruto-rounds\.players=24.*k49999=v"))  # the unknown keys are kept


# --- the engine's files fail or never answer ----------------------------------------------------------------


def stall_ms(page) -> int:
    return page.evaluate("import(location.origin + '/calc/shared/share.js').then((m) => m.STALL_MS)")


@pytest.mark.parametrize("script", ["calculators/calc.js", "engine/start.js"])
def test_a_script_that_cannot_load_ends_in_the_error_and_a_retry(cold_page, watch, site_url, engine_snapshot, script):
    page = cold_page
    seed_snapshot(page.context, site_url, engine_snapshot)  # a phone that visited once: the retry restores it
    watch.allow(r"Failed to load|Failed to fetch|calculator engine failed|engine/start|ERR_")
    page.route("**/*", lambda route: route.abort() if route.request.url.endswith(f"/calc/{script}") else route.continue_())
    page.goto(f"{site_url}/fr/naruto/")
    expect_failed_then_retry(page, reloads=True)


#: Every value each calculator's data-state takes, in order, from the page's first line on.
RECORD_STATES = """window.calcStates = [];
new MutationObserver((records) => records.forEach((r) => calcStates.push(r.target.dataset.state)))
  .observe(document, { subtree: true, attributes: true, attributeFilter: ["data-state"] });"""


@pytest.mark.parametrize("lost", ["pyodide.asm.mjs", "worker.js"])
def test_a_file_lost_once_is_fetched_again_unseen(cold_page, site_url, engine_snapshot, lost):
    """A venue's network drops one of the engine's requests: the start is tried once more without
    showing the error, and the calculator answers; the retry button never appears."""
    page = cold_page
    seed_snapshot(page.context, site_url, engine_snapshot)
    page.add_init_script(RECORD_STATES)
    dropped = []

    def drop_once(route):
        if route.request.url.split("?")[0].endswith(f"/{lost}") and not dropped:
            dropped.append(route.request.url)
            return route.abort()
        return route.continue_()

    page.context.route("**/*", drop_once)  # the context's route sees the worker's requests too
    page.goto(f"{site_url}/fr/naruto/")
    calc = page.locator("#calc-naruto-rounds")
    expect_ready(calc)
    assert dropped, f"{lost} was never requested"
    assert "error" not in page.evaluate("calcStates"), page.evaluate("calcStates")
    expect(calc.get_by_role("button", name=Translator("fr")("ui.retry"), exact=True)).to_be_hidden()
    page.get_by_label(Translator("fr")("naruto-rounds.players.label"), exact=True).fill("17")
    expect(summary(calc)).to_have_text(evaluate("naruto-rounds", {"players": "17"}, "fr")["summary"])


def test_a_file_the_server_refuses_is_not_asked_for_again(cold_page, watch, site_url, engine_snapshot):
    """A 404 is an answer: asking again gets the same one, so the error shows after one start."""
    page = cold_page
    seed_snapshot(page.context, site_url, engine_snapshot)
    watch.allow(r"Failed to load resource|calculator engine failed|404")
    page.context.route("**/python_stdlib.zip", lambda route: route.fulfill(status=404, body="gone"))
    requested = []
    page.on("request", lambda request: requested.append(request.url.split("?")[0].rsplit("/", 1)[-1]))
    page.goto(f"{site_url}/fr/naruto/")
    expect(page.locator("#calc-naruto-rounds")).to_have_attribute("data-state", "error")
    assert requested.count("worker.js") == requested.count("python_stdlib.zip") == 1, requested


def run_until_failed(page, calc, limit: int) -> None:
    """Advance the fake clock past the bound; a last progress report may have arrived just after a
    jump and re-armed the watchdog, so a second jump is allowed, no more."""
    for _ in range(2):
        page.clock.run_for(limit + 1000)
        if calc.get_attribute("data-state") == "error":
            return
    pytest.fail(f"still {calc.get_attribute('data-state')!r} after twice the bound of {limit} ms without progress")


ENGINE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json", ".whl")


@pytest.mark.parametrize("stalled", ["python_stdlib.zip", "pyodide.asm.wasm", "every engine file"])
def test_a_download_that_never_answers_ends_in_the_error_and_a_retry(cold_page, watch, site_url, engine_snapshot,
                                                                     stalled):
    page = cold_page
    # A phone that visited once: every file is still downloaded, the retry restores the snapshot.
    seed_snapshot(page.context, site_url, engine_snapshot)
    watch.allow(r"calculator engine failed")
    page.clock.install()
    stuck = ENGINE_FILES if stalled == "every engine file" else (stalled,)
    held, finished = [], set()
    page.route("**/*", lambda route: held.append(route) if route.request.url.endswith(stuck) else route.continue_())
    page.on("requestfinished", lambda request: finished.add(request.url.rsplit("/", 1)[-1]))
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(f"{site_url}/fr/naruto/")
    calc = page.locator("#calc-naruto-rounds")
    limit = stall_ms(page)
    # On a first visit the worker asks for the wheel only once the wasm has arrived (worker.js): a slow
    # network's bandwidth goes to the wasm first.
    after_wasm = (".whl",) if "pyodide.asm.wasm" in stuck else ()
    others = [name for name in ENGINE_FILES if name not in stuck + after_wasm]
    while not all(any(f.endswith(name) for f in finished) for name in others):  # the rest has arrived
        page.wait_for_event("requestfinished")
    expect(calc).to_have_attribute("data-state", "loading")
    if after_wasm:
        assert not [url for url in requested if url.endswith(after_wasm)], requested
    run_until_failed(page, calc, limit)
    expect_failed_then_retry(page)


class BurstHandler(Handler):
    """Sends the wasm's first 80 % at once, as it is (no encoding), then holds the rest until
    ``server.release`` is set: a burst, then a pause, as a venue's network does."""

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if not path.endswith("/pyodide.asm.wasm"):
            return super().do_GET()
        body = Path(self.translate_path(path)).read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", "application/wasm")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body[: len(body) * 4 // 5])
        self.wfile.flush()
        self.server.release.wait(60)
        self.wfile.write(body[len(body) * 4 // 5:])


def test_the_progress_shows_what_has_arrived_when_a_burst_is_followed_by_a_pause(fresh):
    server = Server(("127.0.0.1", 0), functools.partial(BurstHandler, directory=str(SITE)))
    server.verbose = False
    server.release = threading.Event()
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        context, page, watch = fresh(origin, service_workers="block")  # a first visit: the worker downloads
        engine = engine_paths(SITE)
        sizes = engine["sizes"]
        wasm = sizes[f"{engine['pyodide']}pyodide.asm.wasm"]
        total = sum(sizes[f"{engine['pyodide']}{name}"] for name in ("pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"))
        total += sizes[engine["wheel"]]
        arrived = (wasm * 4 // 5) * 100 // total  # at least: the standard library may have come too
        page.goto(f"{origin}/fr/naruto/")
        page.wait_for_function(
            "least => (document.querySelector('#calc-naruto-rounds .calc-progress')?.value ?? -1) >= least",
            arg=arrived, timeout=15_000)
        calc = page.locator("#calc-naruto-rounds")
        expect(calc).to_have_attribute("data-state", "loading")
        # A value the build's tables do not hold, typed while the download is paused after one they
        # hold: the line says how far the download is again (issue 62: "Starting the calculator…" at 85 %).
        t = Translator("fr")
        status = engine_status(calc)
        downloading = re.escape(t("ui.downloading", percent="{percent}")).replace(re.escape("{percent}"), r"\d+")
        expect(status).to_have_text(re.compile(f"^{downloading}$"))
        players = calc.get_by_label(t("naruto-rounds.players.label"), exact=True)
        players.fill("24")  # the build's table answers it: said in the status line
        expect(status).to_have_text(t("ui.early"))
        beyond = str(max(TABLES["naruto-rounds"].integers["players"]) + 1)  # one past the build's table
        players.fill(beyond)
        expect(page).to_have_url(re.compile(rf"naruto-rounds\.players={beyond}"))  # written once the tables said no
        expect(status).to_have_text(re.compile(f"^{downloading}$"))
    finally:
        server.release.set()
    expect_ready(calc)
    server.shutdown()
    server.server_close()


def test_retry_shows_the_restart_and_cannot_be_pressed_twice(cold_page, watch, site_url):
    page = cold_page
    watch.allow(r"Failed to load resource|calculator engine failed|wasm|WebAssembly|404")
    held, hold = [], []  # while `hold` is set, the wasm is held: the restart stays visible until released
    # On the context, not the page: the worker fetches the wasm too (when the page's copy fails), and
    # a page route was seen to miss a worker's request under load.
    page.context.route("**/pyodide.asm.wasm", lambda route: held.append(route) if hold
               else route.fulfill(status=404, body="gone"))
    page.goto(f"{site_url}/fr/naruto/")
    t = Translator("fr")
    calc = page.locator("#calc-naruto-rounds")
    expect(calc).to_have_attribute("data-state", "error")
    retry = calc.get_by_role("button", name=t("ui.retry"))
    hold.append(True)
    retry.click()
    # The restart shows: "Starting…", or its download's progress once the worker reports bytes (a beat
    # that can come before this check reads the line).
    downloading = re.escape(t("ui.downloading", percent="{percent}")).replace(re.escape("{percent}"), r"\d+")
    expect(engine_status(calc)).to_have_text(re.compile(f"^(?:{re.escape(t('ui.loading'))}|{downloading})$"))
    expect(retry).to_be_disabled()  # a second press cannot restart it again
    expect(calc).to_have_attribute("data-state", "loading")
    hold.clear()
    for route in held:
        route.fulfill(status=404, body="gone")  # still broken: the error again, and the button back
    expect(calc).to_have_attribute("data-state", "error")
    expect(retry).to_be_enabled()


# --- names, tabs, offline -----------------------------------------------------------------------------------

RTL = "\u202eboB"


def test_right_to_left_names_stay_isolated(page, site_url):
    page.goto(f"{site_url}/fr/naruto/")
    calc = page.locator("#calc-naruto-end-of-time")
    expect_ready(calc)
    t = Translator("fr")
    calc.get_by_label(t("naruto-end-of-time.name_a.label") + " " + t("field.optional"), exact=True).fill(RTL)
    for question in ("starter", "active"):
        calc.get_by_role("group", name=t(f"naruto-end-of-time.{question}.label")).get_by_label(
            t(f"naruto-end-of-time.{question}.a"), exact=True).check()
    verdict = evaluate("naruto-end-of-time", {"name_a": RTL, "starter": "a", "active": "a"}, "fr")
    first = checklist(calc).get_by_role("listitem").first
    expect(first).to_have_text(verdict["details"][0])
    assert f"{ISOLATE}{RTL}{END_ISOLATE}" in first.text_content()


@pytest.mark.engine_held  # the tracker's own state and storage (shame-tracker.js), no verdict read
def test_the_shame_tracker_in_two_tabs_keeps_both_changes(new_page, site_url):
    tabs = [new_page(), new_page()]
    ui = Translator("en").templates("judge-tower-shame.ui.")
    for tab in tabs:
        tab.goto(f"{site_url}/judge-tower/")
    rows = [shame_rows(calculator(tab, "en", "judge-tower-shame"), "en") for tab in tabs]
    for tab_rows in rows:
        expect(tab_rows.first.get_by_role("button", name=ui["plus"], exact=True)).to_be_visible()  # mounted
    rows[0].nth(0).get_by_role("button", name=ui["plus"], exact=True).click()
    expect(rows[1].nth(0).get_by_role("status")).to_have_text("1")  # the other tab follows (its counter)
    rows[1].nth(1).get_by_role("button", name=ui["plus"], exact=True).click()
    expect(rows[0].nth(1).get_by_role("status")).to_have_text("1")
    tabs[0].reload()
    expect(rows[0].get_by_role("status")).to_have_text(["1", "1"])  # neither change lost


def test_offline_answers_keep_a_hosts_status(fresh, own_server):
    server, origin = own_server()
    context, page, watch = fresh(origin)
    page.goto(f"{origin}/fr/")
    expect(page.locator("html")).to_have_attribute("data-offline", "ready")
    online_missing = page.goto(f"{origin}/fr/pas-une-page/")
    assert online_missing.status == 404
    context.set_offline(True)
    server.shutdown()
    watch.allow(r"Failed to load resource")
    missing = page.goto(f"{origin}/fr/pas-une-page/")
    assert missing.status == 404
    expect(page.locator("h1#not-found")).to_be_visible()
    page.goto(f"{origin}/fr/naruto")  # a folder without its slash: redirected, as online
    expect(page).to_have_url(f"{origin}/fr/naruto/")
    expect(page.locator("h1")).to_have_attribute("id", "naruto")


def test_a_slow_first_download_shows_its_progress_then_goes(cold_page, site_url):
    """Issue 46: a cold start on a slow network shows how much of the engine has arrived (a bar and a
    localized sentence that says the rules already answer), and the bar goes once the calculator is ready."""
    page = cold_page
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": 20,
                                                  "downloadThroughput": 1_500_000, "uploadThroughput": 1_500_000})
    t = Translator("it")
    page.goto(f"{site_url}/it/naruto/")
    calc = page.locator("#calc-naruto-rounds")
    bar = calc.get_by_role("progressbar")
    expect(bar).to_have_attribute("value", re.compile(r"^[1-9][0-9]?$"))
    before, after = t("ui.downloading", percent="{percent}").split("{percent}")
    expect(engine_status(calc)).to_have_text(re.compile(f"^{re.escape(before)}[0-9]+{re.escape(after)}$"))
    expect(bar).to_have_accessible_name(re.compile(re.escape(before.strip())))
    expect_ready(calc)
    expect(bar).to_have_count(0)
    expect(engine_status(calc)).to_have_text(t("ui.ready"))
