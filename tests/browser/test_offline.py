"""Offline use: one visit stores the whole site (service worker), every calculator then works
with no network, pages without a calculator load no engine byte, and a new release takes over
only through the "new version — reload" prompt, never as a mix of old and new files."""

from __future__ import annotations

import json
import re
import shutil
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from calculators import CALCULATORS, evaluate
from calculators.i18n import Translator
from sitebuild.offline import write_service_worker
from sitebuild.words import words
from tests.browser.conftest import SITE, expect_ready, seed_snapshot
from tests.browser.pages import engine_status, summary
from sitebuild.precompress import precompress

ENGINE_FILE = re.compile(r"/calc/(pyodide-[0-9a-f]+/|wheel-[0-9a-f]+/|engine/worker\.js)")
ITALIAN_PAGES = ("it/naruto/", "it/judge-tower/", "it/pokemon/")


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
    expect(summary(calc)).to_have_text(expected["summary"])
    assert json.loads(calc.get_attribute("data-result")) == expected["result"]


def test_every_calculator_offline_after_one_visit_then_from_the_snapshot(fresh, own_server):
    """One visit to a page without a calculator stores the site; offline, with no server, the first
    calculator page starts the engine in full and stores its snapshot, the next ones restore it, in a
    language whose messages the snapshot never loaded; every calculator answers as CPython does."""
    server, origin = own_server()
    context, page, watch = fresh(origin)
    html = page.locator("html")
    page.goto(f"{origin}/")  # one visit, to the English home page (no calculator)
    expect(html).to_have_attribute("data-offline", "ready")

    context.set_offline(True)
    server.shutdown()  # and no server either: nothing can come from the network
    for i, path in enumerate(ITALIAN_PAGES):  # another language, every calculator
        page.goto(f"{origin}/{path}")
        expect(html).to_have_attribute("data-engine-start", "snapshot" if i else "full")
        if not i:
            expect(html).to_have_attribute("data-engine-snapshot", "stored")
        calculators = page.locator(".calc[data-calc]")
        assert calculators.count() >= 1
        for n in range(calculators.count()):
            use_calculator(page, calculators.nth(n), "it")
        if i:
            assert html.get_attribute("data-engine-snapshot") is None  # a restored engine stores nothing
    expect(page.get_by_role("button", name=words("it")("ui.offline.reload"))).to_have_count(0)  # no release happened: no prompt
    page.goto(f"{origin}/it/glossary/?q=1#top")  # pages are found whatever their query
    expect(page.locator("h1#glossary")).to_be_visible()
    watch.allow(r"status of 404")  # an unknown page answers 404, offline as online
    page.goto(f"{origin}/fr/pas-une-page/")  # an unknown page: the stored 404 page, in every language
    expect(page.locator("h1#not-found")).to_be_visible()
    expect(page.locator(".nf-offline").first).to_be_hidden()  # not found, not "not available offline"
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


def test_a_first_visit_downloads_each_engine_file_once(fresh, own_server, engine_snapshot):
    """The page prefetches the wasm once it has painted (the network is idle until the worker asks);
    the worker and then the service worker read it, and the other engine files, from the HTTP cache
    (hashed files are immutable): nothing of the engine comes twice. Later visits prefetch nothing.
    The service worker, which stores the whole site, asks only the site (the watch sees the
    context's requests; test_hardening's every-page check runs without a service worker)."""
    server, origin = own_server()
    context, page, watch = fresh(origin)
    seed_snapshot(context, origin, engine_snapshot)  # the downloads are the subject, not Python's start
    watch.attach_context(context)
    server.sent.clear()
    page.goto(f"{origin}/naruto/")
    expect_ready(page.locator("#calc-naruto-rounds"))
    expect(page.locator("html")).to_have_attribute("data-offline", "ready")  # the engine is stored too
    expect(page.locator('head link[rel="prefetch"]')).to_have_count(1)
    # asked for once the page has painted: what the page shows first does not share the network with it
    painted, asked = page.evaluate("""() => [performance.getEntriesByName("first-paint")[0]?.startTime,
        performance.getEntriesByType("resource").find((e) => e.initiatorType === "link" && e.name.endsWith("/pyodide.asm.wasm"))?.startTime]""")
    assert painted is not None and asked is not None and asked >= painted, (painted, asked)
    engine = [path for _, path in server.sent if ENGINE_FILE.search(path) and "/worker.js" not in path]
    assert any(path.endswith("/pyodide.asm.wasm") for path in engine), engine
    assert sorted(engine) == sorted(set(engine)), engine  # each once: prefetch, worker and service worker
    page.reload()  # the service worker in control: a later visit
    expect_ready(page.locator("#calc-naruto-rounds"))
    expect(page.locator('head link[rel="prefetch"]')).to_have_count(0)


def test_new_release_prompt_then_new_files(fresh, own_server, tmp_path, engine_snapshot):
    site = tmp_path / "site"
    shutil.copytree(SITE, site)
    server, origin = own_server(site)
    context, page, watch = fresh(origin)
    seed_snapshot(context, origin, engine_snapshot)  # the release is the subject, not the engine's start
    page.goto(f"{origin}/fr/naruto/")
    expect_ready(page.locator("#calc-naruto-rounds"))
    # the service worker registers once the engine has started; it tells controlled pages only
    expect(page.locator("html")).to_have_attribute("data-offline", "ready")

    # Release 2: a page and a script change; the build regenerates the precache list.
    html = site / "fr" / "naruto" / "index.html"
    html.write_text(html.read_text().replace("</h1>", '</h1><p id="release-two">Version 2</p>', 1))
    calc_js = site / "calc" / "calculators" / "calc.js"
    calc_js.write_text(calc_js.read_text() + '\ndocument.documentElement.dataset.release = "2";\n')
    write_service_worker(site)
    precompress(site)  # a host's compressed copies of the changed files, as the build writes them

    page.reload()  # the browser checks sw.js on navigation and installs release 2 next to release 1
    t = words("fr")
    prompt = page.get_by_role("status").filter(has_text=t("ui.offline.update"))  # the new release's note
    expect(prompt).to_be_visible()
    expect(page.locator("#release-two")).to_have_count(0)  # until the user says so, release 1 only
    expect(page.locator("html")).not_to_have_attribute("data-release", "2")

    prompt.get_by_role("button", name=t("ui.offline.reload")).click()
    expect(page.locator("#release-two")).to_be_visible()  # the reloaded page: release 2's HTML…
    expect(page.locator("html")).to_have_attribute("data-release", "2")  # …and release 2's script
    expect(prompt).to_have_count(0)
    calc = page.locator("#calc-naruto-rounds")
    expect_ready(calc)
    page.locator("#calc-naruto-rounds-players").fill("24")
    expect(summary(calc)).to_have_text(evaluate("naruto-rounds", {"players": "24"}, "fr")["summary"])


# --- the engine's memory snapshot (web/engine/worker.js) ----------------------

#: Overwrites 4 KB of the stored snapshot at a fraction of its length, keeping what was stored
#: with it (its checksum header): damage as a failing disk or a browser bug would leave it.
DAMAGE_AT = """async (fraction) => {
  const cache = await caches.open("engine-snapshot");
  const [key] = await cache.keys();
  const stored = await cache.match(key);
  const bytes = new Uint8Array(await stored.arrayBuffer());
  const at = Math.floor(bytes.length * fraction);
  bytes.fill(0xa5, at, at + 4096);
  await cache.put(key, new Response(bytes, { headers: stored.headers }));
}"""
#: The hex SHA-256 of some bytes, as the worker stores it beside a snapshot (a line of JS).
SHA256_HEX = """const sha256Hex = async (bytes) => Array.from(
    new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)), (b) => b.toString(16).padStart(2, "0")).join("");"""
#: Replaces the stored snapshot with one that is intact as stored (beside it, as the worker stores
#: it, its one header: the SHA-256 of its bytes) but that must be refused; returns that header.
REFUSED = """async (kind) => {
  """ + SHA256_HEX + """
  const cache = await caches.open("engine-snapshot");
  const [key] = await cache.keys();
  const stored = await cache.match(key);
  const names = [...stored.headers.keys()];
  if (names.length !== 1) throw new Error(`expected one header beside the snapshot, got ${names}`);
  const bytes = new Uint8Array(await stored.arrayBuffer());
  if (kind === "other build") bytes[16] ^= 0xff; // Pyodide's header: its build id from byte 16
  const body = kind === "other build" ? bytes : new TextEncoder().encode("not a snapshot");
  const hex = await sha256Hex(body);
  await cache.put(key, new Response(body, { headers: { [names[0]]: hex } }));
  return hex;
}"""
#: The stored snapshots: [the one header beside each, its size, the SHA-256 of its bytes].
STORED = """async () => {
  """ + SHA256_HEX + """
  const cache = await caches.open("engine-snapshot");
  const entries = await Promise.all((await cache.keys()).map((key) => cache.match(key)));
  return Promise.all(entries.map(async (r) => {
    const bytes = await r.arrayBuffer();
    return [[...r.headers.values()].join(), bytes.byteLength, await sha256Hex(bytes)];
  }));
}"""
#: Each way a stored snapshot must not be trusted: 4 KB damaged near the end of the memory, where
#: neither Pyodide's checks nor the self-test would notice (only the checksum does; damage anywhere
#: else is the same mismatch); and bytes whose checksum matches but that are refused: another
#: build's (by Pyodide's own check), or no snapshot at all (by its layout).
UNTRUSTED = ["damaged", "other build", "not a snapshot"]


def test_an_untrusted_snapshot_means_a_full_start_and_a_new_snapshot(cold_page, site_url, engine_snapshot):
    """Each kind in turn, in one context: each full start stores the snapshot the next kind spoils
    (one start from a snapshot, at the beginning and at the end, instead of one per kind)."""
    page = cold_page
    html = page.locator("html")
    calc = page.locator("#calc-naruto-rounds")
    seed_snapshot(page.context, site_url, engine_snapshot)  # a good snapshot, as one visit leaves it
    page.goto(f"{site_url}/fr/naruto/")
    expect(html).to_have_attribute("data-engine-start", "snapshot")
    refusals = []
    page.on("console", lambda msg: "snapshot refused" in msg.text and refusals.append(msg.text))
    for kind in UNTRUSTED:
        [(header, size, digest)] = page.evaluate(STORED)
        assert header == digest and size > 1_000_000, kind  # an intact snapshot to spoil
        if kind == "damaged":
            page.evaluate(DAMAGE_AT, 0.9)
            spoiled = None  # damage keeps the good bytes' header, which a new snapshot may have too
        else:
            spoiled = page.evaluate(REFUSED, kind)

        page.reload()
        expect(html).to_have_attribute("data-engine-start", "full")
        # refused once, by the checksum for damage, past it for the others
        assert len(refusals) == 1 and ("checksum" in refusals[0]) == (kind == "damaged"), (kind, refusals)
        refusals.clear()
        use_calculator(page, calc, "fr")
        expect(engine_status(calc)).to_have_text(Translator("fr")("ui.ready"))  # nothing alarming
        expect(html).to_have_attribute("data-engine-snapshot", "stored")
        [(header, size, digest)] = page.evaluate(STORED)  # the spoiled entry is replaced, not kept beside
        assert header == digest and size > 1_000_000, kind
        assert header != spoiled, kind

    page.reload()
    expect(html).to_have_attribute("data-engine-start", "snapshot")
    use_calculator(page, calc, "fr")


#: Whether the stored snapshot's bytes hold each of the given ASCII strings, in either of the forms
#: Python keeps a str in (one byte a character, or two when the string has a character past U+00FF,
#: as a verdict's details do: U+2068 around each name).
HOLDS = """async (needles) => {
  const cache = await caches.open("engine-snapshot");
  const [key] = await cache.keys();
  const bytes = new Uint8Array(await (await cache.match(key)).arrayBuffer());
  let text = "";
  for (let i = 0; i < bytes.length; i += 65536) text += String.fromCharCode(...bytes.subarray(i, i + 65536));
  return needles.map((needle) => text.includes(needle) || text.includes([...needle].join("\\0") + "\\0"));
}"""


def test_the_snapshot_holds_nothing_a_user_gave(cold_page, site_url):
    """The first start's snapshot is its memory copied before the worker reads any message, though it
    is packed and stored only after the first verdict (web/engine/worker.js): a decklist from the link,
    answered before the snapshot is stored, and one typed at once are in no stored byte. (Card names:
    parsed into strings that outlive their verdict in the memory, where a short name's memory is soon
    reused: with the copy taken after the first verdict, the linked cards are found.)"""
    page = cold_page
    html = page.locator("html")
    linked = "\n".join(f"1 Zorblax{i} [ninja]" for i in range(40))
    typed = "\n".join(f"1 Quorvex{i} [ninja]" for i in range(40))
    page.goto(f"{site_url}/naruto/?naruto-reserve.deck={quote(linked)}#calc-naruto-reserve")
    calc = page.locator("#calc-naruto-reserve")
    expect_ready(calc)
    expect(calc).to_have_attribute("data-result", re.compile(".+"))  # Python has read it
    calc.locator('[name="deck"]').fill(typed)
    expect(calc.locator('[name="deck"]')).to_have_value(typed)
    expect(html).to_have_attribute("data-engine-start", "full")
    expect(html).to_have_attribute("data-engine-snapshot", "stored")
    found = page.evaluate(HOLDS, ["Zorblax17", "Quorvex17", "naruto-reserve"])
    assert found == [False, False, True]  # (a calculator's id is there: the search works)
