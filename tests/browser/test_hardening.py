"""Size limits, the Content-Security-Policy, no third-party request, and what the page does when the
engine cannot load or breaks. (Hostile input in every form: test_each_page, on each page's one visit.)

Pages and calculators are found by crawling the built site (tests/browser/pages.py). Every test's
page is watched (conftest): a page error, a console error or a CSP violation fails it.
"""

from __future__ import annotations

import contextlib
import io
import re
import zipfile
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from calculators import CALCULATORS, error_message, evaluate
from calculators.i18n import LANGUAGES, Translator, language_folder
from rules_core.errors import RuleError
from sitebuild.engine import digest
from sitebuild.templates import widget_names
from tests.browser.conftest import ROOT, SITE, expect_ready, seed_snapshot
from tests.browser.pages import all_pages, calculator, calculators_on, details, engine_status, open_ready, page_html, summary


def too_long(calc_id: str, field: str, length: int, lang: str) -> str:
    limit = CALCULATORS[calc_id].field(field).max_length
    return error_message(Translator(lang), calc_id, RuleError(field, "too_long", None, limit=limit, length=length))


def paste(page, control, text: str) -> None:
    """A real paste (clipboard, Ctrl+V): Playwright's fill() of a megabyte is far slower than a user's paste."""
    page.evaluate("text => navigator.clipboard.writeText(text)", text)
    control.fill("")
    control.focus()
    page.keyboard.press("ControlOrMeta+V")


@pytest.mark.parametrize("lang", ["fr"])  # one language: the messages are evaluate()'s (conftest: "Languages")
def test_a_megabyte_paste_is_refused_and_the_page_stays_responsive(page, site_url, lang):
    prefix = language_folder(lang)
    open_ready(page, site_url, f"{prefix}naruto/")
    deck = page.locator("#calc-naruto-reserve-deck")
    huge = "3 Kakashi Hatake [ninja]\n" * 42_000  # 1,050,000 characters
    paste(page, deck, huge)
    # While the engine receives the megabyte, the page answers: another calculator can be used.
    players = page.locator("#calc-naruto-rounds-players")
    players.fill("24")
    expect(page.locator("#calc-naruto-rounds .calc-summary")).to_have_text(
        evaluate("naruto-rounds", {"players": "24"}, lang)["summary"])
    error = page.locator("#calc-naruto-reserve-deck-error")
    expect(error).to_have_text(too_long("naruto-reserve", "deck", len(huge), lang))
    expect(page.locator("#calc-naruto-reserve")).to_have_attribute("data-result", "null")
    expect(deck).to_have_attribute("aria-invalid", "true")
    assert len(page.url) < 1000  # the paste is not copied into the address bar
    # 10,000 lines within the character limit: refused by their number, before reading them.
    lines = "\n".join(f"1 Card {n}" for n in range(10_000))
    paste(page, deck, lines)
    message = evaluate("naruto-reserve", {"deck": lines}, lang)["errors"][0]["message"]
    expect(error).to_have_text(message)
    expect(page.locator("#calc-naruto-reserve")).to_have_attribute("data-result", "null")
    players.fill("8")  # still responsive
    expect(page.locator("#calc-naruto-rounds .calc-summary")).to_have_text(
        evaluate("naruto-rounds", {"players": "8"}, lang)["summary"])


# --- The Content-Security-Policy ----------------------------------------------------------------------


@pytest.mark.engine_held  # the page's policy (the engine's, under a header: its own test)
def test_the_policy_is_enforced_and_violations_fail_tests(page, watch, site_url):
    """Negative test: injected inline script and style are blocked, and the watch sees the violations."""
    page.goto(f"{site_url}/fr/naruto/")
    page.evaluate("""() => {
        const s = document.createElement('script');
        s.textContent = 'window.__pwned = 1';
        document.head.append(s);
        document.body.setAttribute('style', 'background: red');
    }""")
    assert page.evaluate("window.__pwned") is None
    expect(page.locator("body")).not_to_have_css("background-color", "rgb(255, 0, 0)")
    violations = [e for e in watch.errors if e.startswith("console error: CSP violation")]
    assert any("script-src" in v for v in violations), watch.errors
    assert any("style-src" in v for v in violations), watch.errors
    watch.errors.clear()  # provoked on purpose


def with_header(route, policy: str) -> None:
    response = route.fetch()
    route.fulfill(response=response, headers={**response.headers, "content-security-policy": policy})


def page_policy() -> str:
    html = (SITE / "naruto" / "index.html").read_text(encoding="utf-8")
    return re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', html).group(1)


def test_the_engine_runs_under_the_same_policy_as_a_header(cold_page, site_url):
    """A worker is governed by its own response's policy, not the page's meta tag: serve
    worker.js with the page's policy as a header, as a host sending headers would."""
    page = cold_page
    page.route(re.compile(r".*/calc/engine/worker\.js(\?.*)?$"), lambda route: with_header(route, page_policy()))
    page.goto(f"{site_url}/it/naruto/")
    calc = page.locator("#calc-naruto-rounds")
    expect_ready(calc)
    page.locator("#calc-naruto-rounds-players").fill("24")
    expect(summary(calc)).to_have_text(evaluate("naruto-rounds", {"players": "24"}, "it")["summary"])


def without_wasm(route) -> None:
    """The page, its meta policy stripped of 'wasm-unsafe-eval'."""
    response = route.fetch()
    body = response.text()
    assert "'wasm-unsafe-eval'" in body
    route.fulfill(response=response, body=body.replace(" 'wasm-unsafe-eval'", ""))


def test_pyodide_needs_wasm_unsafe_eval(cold_page, watch, site_url):
    """The one exception in the policy is needed: without it (on the page, which compiles the
    wasm, and on the worker, which would compile it otherwise) the engine cannot start."""
    page = cold_page
    watch.allow(r"calculator engine failed|WebAssembly|wasm|Content Security Policy|CSP violation")
    strict = page_policy().replace(" 'wasm-unsafe-eval'", "")
    page.route(re.compile(r".*/calc/engine/worker\.js(\?.*)?$"), lambda route: with_header(route, strict))
    page.route(f"{site_url}/naruto/", without_wasm)
    page.goto(f"{site_url}/naruto/")
    calc = page.locator("#calc-naruto-rounds")
    expect(calc).to_have_attribute("data-state", "error")
    expect(engine_status(calc)).to_have_text(Translator("en")("ui.failed"))
    assert any("wasm-unsafe-eval" in e or "WebAssembly" in e for e in watch.errors), watch.errors


# --- No third party -----------------------------------------------------------------------------------


def test_every_page_contacts_only_the_site(context, site_url, watch, engine_snapshot):
    """Intercepting every request of a browser context (pages and workers; the service worker's:
    test_offline's first visit): only the site's own origin is asked for anything, by a calculator
    page of each language (its engine's start, its widgets' scripts) and its search (the search
    worker and its language's index). (Given the engine's snapshot, which saves a full start: a
    start from it requests every file a full one does.) Every other page's requests: the watch of
    test_each_page's one visit to every page of every language, which fails on any other host."""
    seed_snapshot(context, site_url, engine_snapshot)
    origin = urlsplit(site_url)
    hosts: set[str] = set()
    foreign: list[str] = []

    def intercept(route):
        url = urlsplit(route.request.url)
        hosts.add(url.hostname or url.scheme)
        if (url.scheme, url.netloc) == (origin.scheme, origin.netloc):
            route.continue_()
        else:
            foreign.append(route.request.url)
            route.abort()

    context.route("**/*", intercept)
    page = context.new_page()
    watch.attach(page)
    for turn, lang in enumerate(LANGUAGES):
        # a different calculator page in each language (the clock's scripts, each widget's)
        pages = sorted(p for p in all_pages() if calculators_on(p) and f'<html lang="{lang}"' in page_html(p))
        path = pages[turn % len(pages)]
        with contextlib.ExitStack() as arrived:
            for widget in widget_names(page_html(path)):
                arrived.enter_context(page.expect_response(re.compile(rf".*/calc/widgets/{widget}\.js$")))
            open_ready(page, site_url, path)
        assert page.locator("html").get_attribute("lang") == lang
        page.locator(".md-search__input").first.focus()
        page.keyboard.type("r")
        expect(page.locator(".md-search-result__meta")).not_to_have_text(re.compile(r"^\s*$"))
        page.keyboard.press("Escape")
    assert not foreign, foreign
    assert hosts == {"127.0.0.1"}, hosts
    watch.check()


# --- When the engine cannot load, or breaks -------------------------------------------------------------

#: One missing file of each way the engine's files arrive (web/engine/worker.js): the wasm compiled as it
#: downloads, a file fetched and checked (the wheel; the standard library and the lock file take the same
#: path), a module imported (Pyodide's runtime; the engine's own module takes the same path), and the
#: worker's own script.
BROKEN = {
    "wasm": r".*/pyodide\.asm\.wasm$",
    "runtime": r".*/pyodide\.asm\.mjs$",
    "wheel": r".*\.whl$",
    "worker": r".*/calc/engine/worker\.js(\?.*)?$",
}


@pytest.mark.parametrize("broken", sorted(BROKEN))
def test_engine_cannot_load_then_retry(cold_page, watch, site_url, engine_snapshot, broken):
    """A phone that visited once loses one of the engine's files mid-start (a venue's network):
    the error and a retry in every calculator, the rules still readable; the retry restores the
    snapshot the phone had (a missing file is no reason to distrust it). A first visit's failure:
    test_naruto_rounds, test_failures."""
    page = cold_page
    seed_snapshot(page.context, site_url, engine_snapshot)
    watch.allow(r"Failed to load resource|calculator engine failed|wasm|WebAssembly|worker|wheel|404")
    page.route(re.compile(BROKEN[broken]), lambda route: route.fulfill(status=404, body="gone"))
    path = "fr/naruto/"
    page.goto(f"{site_url}/{path}")
    calcs = [page.locator(f"#{uid}") for uid, _, _ in calculators_on(path)]
    assert len(calcs) >= 2
    for calc in calcs:
        expect(calc).to_have_attribute("data-state", "error")
        expect(engine_status(calc)).to_have_text(Translator("fr")("ui.failed"))
        expect(calc.get_by_role("button", name=Translator("fr")("ui.retry"))).to_be_visible()
        expect(calc).not_to_have_attribute("data-result", re.compile(r"^(?!null$)"))
    expect(page.locator("#naruto-rounds")).to_be_visible()  # the rules stay readable
    expect(page.locator("#naruto-reserve-limits")).to_be_visible()
    page.unroute(re.compile(BROKEN[broken]))
    calcs[-1].get_by_role("button", name=Translator("fr")("ui.retry")).click()
    for calc in calcs:
        expect_ready(calc)
        expect(calc.get_by_role("button", name=Translator("fr")("ui.retry"))).to_be_hidden()
    expect(page.locator("html")).to_have_attribute("data-engine-start", "snapshot")
    page.get_by_label(Translator("fr")("naruto-rounds.players.label"), exact=True).fill("17")
    expect(summary(calculator(page, "fr", "naruto-rounds"))).to_have_text(
        evaluate("naruto-rounds", {"players": "17"}, "fr")["summary"])


def broken_wheel() -> bytes:
    """Our served wheel (its modules as bytecode) with ``calculators/bridge.pyc`` replaced by a source
    whose ``evaluate_json`` raises, as a bug would."""
    wheel = next(SITE.glob("calc/**/*.whl"))
    bug = "\n\ndef evaluate_json(calc_id, inputs_json, lang):\n    raise RuntimeError('unexpected bug')\n"
    out = io.BytesIO()
    with zipfile.ZipFile(wheel) as src, zipfile.ZipFile(out, "w") as dst:
        assert "calculators/bridge.pyc" in src.namelist()
        for item in src.infolist():
            if item.filename == "calculators/bridge.pyc":
                source = (ROOT / "calculators" / "bridge.py").read_text(encoding="utf-8") + bug
                dst.writestr("calculators/bridge.py", source)
            else:
                dst.writestr(item, src.read(item))
    return out.getvalue()


def test_an_unexpected_error_shows_internal_error_and_no_verdict(cold_page, watch, site_url):
    """A bug in our own code, shipped as the build hashed it: the page's build facts (calc/build.js) name the
    broken wheel's digest, so the integrity check lets it through and the bug itself is what shows."""
    page = cold_page
    body = broken_wheel()
    page.route(re.compile(BROKEN["wheel"]), lambda route: route.fulfill(status=200, body=body,
                                                                     headers={"content-type": "application/zip"}))
    start = (SITE / "calc" / "build.js").read_text(encoding="utf-8")
    wheel = next(SITE.glob("calc/**/*.whl"))
    real, fake = digest(wheel.read_bytes()), digest(body)
    assert start.count(f'"{real}"') == 1
    page.route(re.compile(r".*/calc/build\.js$"), lambda route: route.fulfill(
        status=200, body=start.replace(f'"{real}"', f'"{fake}"'), headers={"content-type": "text/javascript"}))
    watch.allow(r"calculator internal error")
    open_ready(page, site_url, "it/naruto/")
    calc = page.locator("#calc-naruto-rounds")
    internal = Translator("it")("ui.internal")
    for players in ("24", "8", "x"):
        page.locator("#calc-naruto-rounds-players").fill(players)
        expect(summary(calc)).to_have_text(internal)
        expect(calc).to_have_attribute("data-result", "null")
        expect(details(calc)).to_have_count(0)
    other = page.locator("#calc-naruto-reserve")
    page.locator("#calc-naruto-reserve-deck").fill("3 Kakashi")
    expect(summary(other)).to_have_text(internal)
    logged = [e for e in watch.errors if "calculator internal error" in e]
    assert len(logged) == 1 and "unexpected bug" in logged[0], watch.errors
