"""Offline use: one visit stores the whole site (service worker), every calculator then works
with no network, pages without a calculator load no engine byte, and a new release takes over
only through the "new version — reload" prompt, never as a mix of old and new files."""

from __future__ import annotations

import json
import re
import shutil

import pytest
from playwright.sync_api import expect

from calculators import CALCULATORS, evaluate
from sitebuild.offline import write_service_worker
from sitebuild.words import words
from tests.browser.conftest import SITE, expect_ready, seed_snapshot
from sitebuild.precompress import precompress
from tools.serve import serve_in_thread

ENGINE_FILE = re.compile(r"/calc/(pyodide-[0-9a-f]+/|wheel-[0-9a-f]+/|worker\.js)")
ITALIAN_PAGES = ("it/naruto/", "it/judge-tower/", "it/pokemon/")


@pytest.fixture
def own_server():
    """A server of our own, so a test can take the network away by shutting it down."""
    servers = []

    def start(root=SITE):
        server = serve_in_thread(root)
        servers.append(server)
        return server, f"http://127.0.0.1:{server.server_address[1]}"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def use_calculator(page, calc, lang: str) -> None:
    """Fill the example inputs and check the verdict is the one CPython's evaluate() gives."""
    expect_ready(calc)
    calc_id = calc.get_attribute("data-calc")
    kinds = {field.name: field.kind for field in CALCULATORS[calc_id].fields}
    for field, value in CALCULATORS[calc_id].example.items():
        if kinds[field] == "choice":
            calc.locator(f'input[type=radio][name="{field}"][value="{value}"]').check()
        elif (control := calc.locator(f'[name="{field}"]')).is_visible():
            control.fill(value)
        else:  # a widget drives this field: set it the way widgets do
            control.evaluate("(el, v) => { el.value = v; el.form.dispatchEvent(new Event('input', {bubbles: true})); }", value)
    values = calc.locator("form").evaluate("f => Object.fromEntries(new FormData(f))")
    expected = evaluate(calc_id, values, lang)
    assert expected["ok"], expected["errors"]
    expect(calc.locator(".calc-summary")).to_have_text(expected["summary"])
    assert json.loads(calc.get_attribute("data-result")) == expected["result"]


def test_every_calculator_offline_after_one_visit(fresh, own_server):
    server, origin = own_server()
    context, page, watch = fresh(origin)
    page.goto(f"{origin}/")  # one visit, to the English home page (no calculator)
    expect(page.locator("html")).to_have_attribute("data-offline", "ready")

    context.set_offline(True)
    server.shutdown()  # and no server either: nothing can come from the network
    for path in ITALIAN_PAGES:  # another language, every calculator
        page.goto(f"{origin}/{path}")
        calculators = page.locator(".calc[data-calc]")
        assert calculators.count() >= 1
        for i in range(calculators.count()):
            use_calculator(page, calculators.nth(i), "it")
    expect(page.locator(".offline-update")).to_have_count(0)  # no release happened: no prompt
    page.goto(f"{origin}/it/glossary/?q=1#top")  # pages are found whatever their query
    expect(page.locator("h1#glossary")).to_be_visible()
    watch.allow(r"status of 404")  # an unknown page answers 404, offline as online
    page.goto(f"{origin}/fr/pas-une-page/")  # an unknown page: the stored 404 page, in every language
    expect(page.locator("h1#not-found")).to_be_visible()
    page.get_by_role("link", name=words("fr")("ui.not_found.home")).click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page).to_have_url(f"{origin}/fr/")


def test_page_without_calculator_loads_no_engine_byte(fresh, site_url):
    context, page, watch = fresh(site_url)
    events: list[str] = []
    page.on("request", lambda request: events.append(f"page {request.url}"))
    context.on("request", lambda request: events.append(f"context {request.url}"))
    page.on("load", lambda: events.append("load"))
    page.goto(f"{site_url}/fr/glossary/")
    expect(page.locator("html")).to_have_attribute("data-offline", "ready")
    page_requests = [e for e in events if e.startswith("page ")]
    assert page_requests and not [e for e in page_requests if ENGINE_FILE.search(e)]
    # The service worker stores the engine for offline use, but only once the page has loaded.
    before_load, after_load = events[: events.index("load")], events[events.index("load"):]
    assert not [e for e in before_load if ENGINE_FILE.search(e)]
    assert [e for e in after_load if e.startswith("context ") and "/calc/pyodide-" in e]


def test_new_release_prompt_then_new_files(fresh, own_server, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(SITE, site)
    server, origin = own_server(site)
    context, page, watch = fresh(origin)
    page.goto(f"{origin}/fr/naruto/")
    expect_ready(page.locator("#calc-naruto-rounds"))
    # the service worker registers once the engine has started; it tells controlled pages only
    expect(page.locator("html")).to_have_attribute("data-offline", "ready")

    # Release 2: a page and a script change; the build regenerates the precache list.
    html = site / "fr" / "naruto" / "index.html"
    html.write_text(html.read_text().replace("</h1>", '</h1><p id="release-two">Version 2</p>', 1))
    calc_js = site / "calc" / "calc.js"
    calc_js.write_text(calc_js.read_text() + '\ndocument.documentElement.dataset.release = "2";\n')
    write_service_worker(site)
    precompress(site)  # a host's compressed copies of the changed files, as the build writes them

    page.reload()  # the browser checks sw.js on navigation and installs release 2 next to release 1
    t = words("fr")
    prompt = page.locator(".offline-update")
    expect(prompt).to_contain_text(t("ui.offline.update"))
    expect(page.locator("#release-two")).to_have_count(0)  # until the user says so, release 1 only
    expect(page.locator("html")).not_to_have_attribute("data-release", "2")

    prompt.get_by_role("button", name=t("ui.offline.reload")).click()
    expect(page.locator("#release-two")).to_be_visible()  # the reloaded page: release 2's HTML…
    expect(page.locator("html")).to_have_attribute("data-release", "2")  # …and release 2's script
    expect(prompt).to_have_count(0)
    calc = page.locator("#calc-naruto-rounds")
    expect_ready(calc)
    page.locator("#calc-naruto-rounds-players").fill("24")
    expect(calc.locator(".calc-summary")).to_have_text(evaluate("naruto-rounds", {"players": "24"}, "fr")["summary"])


# --- the engine's memory snapshot (web/engine-snapshot.js) ----------------------


def test_next_visits_start_from_the_snapshot_even_offline(fresh, own_server):
    server, origin = own_server()
    context, page, watch = fresh(origin)
    html = page.locator("html")
    page.goto(f"{origin}/fr/naruto/")  # first visit: a full start, then the snapshot is stored
    expect(html).to_have_attribute("data-engine-start", "full")
    expect(html).to_have_attribute("data-engine-snapshot", "stored")
    expect(html).to_have_attribute("data-offline", "ready")

    context.set_offline(True)
    server.shutdown()
    for path in ITALIAN_PAGES:  # restored engines, in a language whose messages were never loaded
        page.goto(f"{origin}/{path}")
        expect(html).to_have_attribute("data-engine-start", "snapshot")
        calculators = page.locator(".calc[data-calc]")
        for i in range(calculators.count()):
            use_calculator(page, calculators.nth(i), "it")
        assert html.get_attribute("data-engine-snapshot") is None  # a restored engine stores nothing


#: Replaces the stored snapshot with a damaged copy; returns the new entry's size.
DAMAGE = """async (damage) => {
  const cache = await caches.open("engine-snapshot");
  const [key] = await cache.keys();
  const bytes = new Uint8Array(await (await cache.match(key)).arrayBuffer());
  if (damage === "other build") bytes[16] ^= 0xff; // Pyodide's header: its build id from byte 16
  const body = damage === "other build" ? bytes : new TextEncoder().encode("not a snapshot");
  await cache.put(key, new Response(body));
  return body.byteLength;
}"""
STORED_SIZE = """async () => {
  const cache = await caches.open("engine-snapshot");
  const keys = await cache.keys();
  return keys.length === 1 ? (await (await cache.match(keys[0])).arrayBuffer()).byteLength : -keys.length;
}"""


@pytest.mark.parametrize("damage", ["other build", "not a snapshot"])
def test_a_refused_snapshot_means_a_full_start_and_a_new_snapshot(cold_page, site_url, engine_snapshot, damage):
    page = cold_page
    html = page.locator("html")
    seed_snapshot(page.context, site_url, engine_snapshot)  # a good snapshot, as one visit leaves it
    page.goto(f"{site_url}/pokemon/")
    expect(html).to_have_attribute("data-engine-start", "snapshot")
    good = page.evaluate(STORED_SIZE)
    assert good > 1_000_000

    page.evaluate(DAMAGE, damage)
    page.reload()
    expect(html).to_have_attribute("data-engine-start", "full")
    use_calculator(page, page.locator("#calc-pokemon-time-limit"), "en")
    expect(html).to_have_attribute("data-engine-snapshot", "stored")
    assert page.evaluate(STORED_SIZE) == good  # the damaged entry is replaced, not kept beside

    page.reload()
    expect(html).to_have_attribute("data-engine-start", "snapshot")
