"""Browser tests: the built site served on 127.0.0.1, headless Chromium.

Every test's page is watched: a request to any host other than the local
server, an uncaught page error, a console error or a CSP violation fails the
test at teardown (tests that provoke an error on purpose declare it with
``watch.allow(...)``).

Pages come from one of two kinds of browser context:

- ``page``, ``new_page``: a page in a context shared by the whole session and warmed once (engine
  snapshot and offline copy stored), as a judge's phone is after one visit. Every later page
  restores the snapshot (~0.4 s) instead of starting Python (~3 s). For tests that read, type and
  click; a test leaves no stored state behind (local and session storage are cleared), and must
  not route, go offline, change permissions or install a fake clock. ``phone``: the same in a
  shared Pixel 7 context (touch), given the snapshot, without a service worker.
- A test marked ``engine_held`` (its subject is the page around its calculators: a rule's original, a
  link, the clock's own controls) gets pages whose engine never starts (``HELD_ENGINE``).
- ``cold_page``, ``fresh``: a new, empty context for the tests whose subject is the start itself
  (first visit, engine failure, a refused snapshot, offline after one visit) or that change the
  context (routes, offline, ``page.clock``).

Languages: a behaviour whose code path is the same in every language (a script reading its words
from the page, a link's grammar) is proven in one language per test, the languages taking turns
across a file's tests (``parametrize("lang", ["it"])``); that each language has its words is the
catalogs' tests' (tests/unit/test_catalogs.py: every key in every language, tests/unit/test_venue.py)
and the built pages' (tests/site). Three languages where the language changes the path (layout of
longer words, a plural rule, a number's form).
"""

from __future__ import annotations

import os
import re
import threading
import weakref
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tools.chromium import ARGS, find
from tools.serve import serve_in_thread

ROOT = Path(__file__).resolve().parents[2]
SITE = Path(os.environ.get("SITE_DIR", ROOT / "site"))
#: Boot of Pyodide in a worker takes ~3 s here; allow for a slow, loaded CI machine.
ENGINE_TIMEOUT_MS = 60_000
# Set once for every expect(): the longest wait a test has is an engine start.
expect.set_options(timeout=ENGINE_TIMEOUT_MS)


@pytest.fixture(scope="session")
def site_url() -> str:
    if not (SITE / "index.html").is_file():
        pytest.fail(f"no built site in {SITE}: run `make build` (or `make test`)")
    server = serve_in_thread(SITE)
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture
def own_server():
    """A server of our own, so a test can take the network away by shutting it down:
    `server, origin = own_server()`; every server started is stopped after the test."""
    servers = []

    def start(root=SITE):
        server = serve_in_thread(root)
        servers.append(server)
        return server, f"http://127.0.0.1:{server.server_address[1]}"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


#: One renderer process for the pages of a context, as a tab navigating the site keeps one: a page
#: then finds the engine's wasm already compiled in that process (V8 keeps a compiled module per
#: process, by its bytes) instead of validating and compiling 9.6 MB again (DESIGN.md, "Tests").
TEST_ARGS = [*ARGS, "--renderer-process-limit=1"]

#: Found at import, before any test starts Playwright's event loop (finding Playwright's own browser
#: starts Playwright, which cannot run inside that loop). Chromium's headless shell: tools/chromium.py.
CHROMIUM = find(shell=True)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if CHROMIUM is None:
        pytest.fail("no Chromium found: run `python -m tools.chromium --ensure --shell`")
    path = {"executable_path": CHROMIUM} if CHROMIUM else {}  # "": Playwright's own headless shell
    return {**browser_type_launch_args, **path, "args": TEST_ARGS}


class Watch:
    """Collects what a page must not do; checked when the test ends."""

    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.foreign: list[str] = []
        self.errors: list[str] = []
        self.allowed: list[re.Pattern[str]] = []

    def allow(self, pattern: str) -> None:
        """Accept console/page errors matching ``pattern`` (for tests that break things on purpose)."""
        self.allowed.append(re.compile(pattern))

    def attach(self, page) -> None:
        page.on("request", self._request)
        page.on("pageerror", lambda exc: self.errors.append(f"page error: {exc}"))
        page.on("console", lambda msg: msg.type == "error" and self.errors.append(f"console error: {msg.text}"))
        page.add_init_script(
            "document.addEventListener('securitypolicyviolation', e => "
            "console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));"
        )

    def attach_context(self, context) -> None:
        """Also watch every request of ``context`` from now on: its service worker's, which no page
        reports (after ``seed_snapshot``, whose own requests go to the test's shelf)."""
        context.on("request", self._request)

    def _request(self, request) -> None:
        url = urlsplit(request.url)
        if url.scheme in ("data", "blob", "about"):
            return
        if f"{url.scheme}://{url.netloc}" != self.origin:
            self.foreign.append(request.url)

    def check(self) -> None:
        errors = [e for e in self.errors if not any(p.search(e) for p in self.allowed)]
        assert not self.foreign, f"requests to other hosts: {self.foreign}"
        assert not errors, "\n".join(errors)


@pytest.fixture
def watch(site_url):
    return Watch(site_url)


#: Resolves once the calculator's start has ended (ready or error), in the page itself: expect()
#: polls every 500 ms after its first 0.3 s, so waiting for a 0.5 s engine start with it alone costs
#: up to half a second more, on every page of the suite. (A page timer bounds it: not for page.clock.)
_STARTED = """(el, timeout) => new Promise((resolve, reject) => {
  if (el.dataset.state !== "loading") return resolve();
  const timer = setTimeout(() => { observer.disconnect(); reject(new Error(`still starting after ${timeout} ms`)); }, timeout);
  const observer = new MutationObserver(() => {
    if (el.dataset.state !== "loading") { observer.disconnect(); clearTimeout(timer); resolve(); }
  });
  observer.observe(el, { attributes: true, attributeFilter: ["data-state"] });
})"""


def expect_ready(calc) -> None:
    """The calculator ``calc`` (a locator) has started and is ready."""
    assert not engine_held(calc.page), "this test holds the engine (engine_held): it never starts"
    calc.evaluate(_STARTED, ENGINE_TIMEOUT_MS)
    # A start that ended in the error stays there (only a click retries): fail now, not after a timeout.
    state = calc.get_attribute("data-state")
    assert state == "ready", f"the calculator's start ended {state!r}: {calc.locator('.calc-status').text_content()}"


def warmed(browser, site_url: str, snapshot: dict | None = None, **context_args):
    """A context that has visited a calculator page once: engine snapshot and offline copy stored
    (the snapshot made by this visit, or ``snapshot`` made by another context's: seed_snapshot)."""
    context = browser.new_context(**context_args)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    if snapshot:
        seed_snapshot(context, site_url, snapshot)
    page = context.new_page()
    page.goto(f"{site_url}/naruto/")
    html = page.locator("html")
    if snapshot:
        expect(html).to_have_attribute("data-engine-start", "snapshot")
    else:
        expect(html).to_have_attribute("data-engine-snapshot", "stored")
    expect(html).to_have_attribute("data-offline", "ready")
    page.close()
    return context


def forget(page, site_url: str) -> None:
    """Clear what a page stored (a tracker's counters), so the next test starts as a new visitor."""
    if not page.is_closed() and page.url.startswith(site_url):
        page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")


@pytest.fixture(scope="session")
def warm_context(browser, site_url):
    context = warmed(browser, site_url)
    yield context
    context.close()


@pytest.fixture(scope="session")
def warm_phone_context(playwright, browser, site_url, engine_snapshot):
    """A Pixel 7 that has the engine's snapshot. Its service worker is blocked: the few tests that
    need real touch (tap) or a phone's own layout (the clock's states under axe) read and type, and
    offline use has tests of its own; storing the whole site again for them cost ~14 s per worker.
    (The pages' layout on a phone: test_each_page's emulation.)"""
    context = browser.new_context(service_workers="block", **playwright.devices["Pixel 7"])
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    seed_snapshot(context, site_url, engine_snapshot)
    yield context
    context.close()


#: The engine's worker replaced by one that never starts Python: it says at once that its files have
#: arrived (so the start's watchdog rests) and then nothing, as on a phone still starting Python. For
#: the tests marked ``engine_held``: their subject is the page around its calculators (a rule's
#: original, a link, the clock's address), and an engine restored for nothing costs ~0.6 s of CPU a
#: page here (notes/test-speed.md).
HELD_ENGINE = """(() => {
  const Worker = window.Worker;
  window.Worker = new Proxy(Worker, { construct(target, args) {
    if (!new URL(args[0], location.href).pathname.endsWith("/engine/worker.js")) return Reflect.construct(target, args);
    const held = new EventTarget();
    Object.assign(held, { postMessage() {}, terminate() {}, onmessage: null, onerror: null });
    setTimeout(() => held.onmessage?.({ data: { type: "downloaded" } }));
    return held;
  } });
})();"""


def pytest_configure(config):
    config.addinivalue_line("markers", "engine_held: the pages of this test never start the engine (HELD_ENGINE)")


_held = weakref.WeakSet()


def holding(request, page):
    """``page``, with the engine held if the test is marked ``engine_held`` (every page fixture's pages)."""
    if request.node.get_closest_marker("engine_held"):
        page.add_init_script(HELD_ENGINE)
        _held.add(page)
    return page


def engine_held(page) -> bool:
    return page in _held


@pytest.fixture
def new_page(warm_context, site_url, watch, request):
    """Open more watched pages in the warm context (a second tab, or a link opened elsewhere)."""
    pages = []

    def _new():
        page = holding(request, warm_context.new_page())
        watch.attach(page)
        pages.append(page)
        return page

    yield _new
    for page in pages:
        if not page.is_closed():
            forget(page, site_url)
            page.close()
    watch.check()


@pytest.fixture
def page(new_page):
    """A watched page in the warm context."""
    return new_page()


@pytest.fixture
def phone(warm_phone_context, site_url, watch, request):
    """A watched page in a warm Pixel 7 context (touch, 412 CSS px wide)."""
    page = holding(request, warm_phone_context.new_page())
    watch.attach(page)
    yield page
    forget(page, site_url)
    page.close()
    watch.check()


#: A document of the site's origin without a page policy (which would forbid the shelf's port):
#: where the engine snapshot is read from one context and stored into another.
SEED = "/rules.json"
_SHELVE = """async (shelf) => {
  const cache = await caches.open("engine-snapshot");
  const [request] = await cache.keys();
  const response = await cache.match(request);
  await fetch(shelf, { method: "POST", mode: "no-cors", body: await response.arrayBuffer() });
  return { key: request.url, headers: Object.fromEntries(response.headers) };
}"""
_STORE = """async ({ shelf, key, headers }) => {
  const bytes = await (await fetch(shelf)).arrayBuffer();
  await (await caches.open("engine-snapshot")).put(key, new Response(bytes, { headers }));
}"""


class _Shelf(BaseHTTPRequestHandler):
    """Keeps one body (POST) and gives it back (GET) to any origin: 31 MB through Playwright's
    pipe would take seconds, through 127.0.0.1 it takes milliseconds."""

    def do_POST(self):
        self.server.body = self.rfile.read(int(self.headers["Content-Length"]))
        self.send_response(204)
        self.send_header("Access-Control-Allow-Origin", "*")
        self.end_headers()

    def do_GET(self):
        self.send_response(200)
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Content-Length", str(len(self.server.body)))
        self.end_headers()
        self.wfile.write(self.server.body)

    def log_message(self, *args):
        pass


def open_seed_page(context, site_url: str):
    page = context.new_page()
    page.goto(f"{site_url}{SEED}")
    return page


@pytest.fixture(scope="session")
def engine_snapshot(warm_context, site_url):
    """The warm context's engine snapshot (made by a first visit), kept to be given to new
    contexts (seed_snapshot)."""
    shelf = ThreadingHTTPServer(("127.0.0.1", 0), _Shelf)
    threading.Thread(target=shelf.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{shelf.server_address[1]}/snapshot"
    page = open_seed_page(warm_context, site_url)
    stored = page.evaluate(_SHELVE, url)
    page.close()
    yield {"shelf": url, **stored}
    shelf.shutdown()


def seed_snapshot(context, site_url: str, snapshot: dict) -> None:
    """Store ``snapshot`` in ``context`` as a first visit would have: its engine then starts from it
    (~0.5 s) instead of starting Python (~3 s), for tests whose subject is not the start. The
    engine checks it as any stored snapshot (SHA-256, self-test)."""
    page = open_seed_page(context, site_url)
    # Its key is an address of the site that made it: the same path on this site (its own server).
    page.evaluate(_STORE, {**snapshot, "key": site_url + urlsplit(snapshot["key"]).path})
    page.close()


@pytest.fixture
def browser_context_args(browser_context_args):
    """pytest-playwright's ``context`` (and ``cold_page``) has no service worker: what those tests
    check is the engine's own start (worker, files, snapshot), the clock or the policy, and a
    service worker would store the whole site (~15 MB) once the engine has started, seconds of a
    contended CPU per test, or answer from its cache and hide a broken file. Offline use and the
    service worker's own requests: test_offline and the clock's offline test (``fresh``)."""
    return {**browser_context_args, "service_workers": "block"}


@pytest.fixture
def cold_page(context, watch, request):
    """A watched page in a new, empty context (pytest-playwright's ``context``, no service worker):
    the engine starts in full (unless the test holds it: ``engine_held``)."""
    page = holding(request, context.new_page())
    watch.attach(page)
    yield page
    watch.check()


@pytest.fixture
def seeded_page(context, watch, site_url, engine_snapshot):
    """A ``cold_page`` given the engine's snapshot: for the tests that hold the engine back and then
    need its answer, whose subject is not the start (its restore costs ~1 s of CPU, a full start ~3.5 s)."""
    seed_snapshot(context, site_url, engine_snapshot)
    page = context.new_page()
    watch.attach(page)
    yield page
    watch.check()


@pytest.fixture
def fresh(browser, request):
    """Open new, empty contexts: ``fresh(origin, **context_args)`` -> (context, watched page, watch)
    (its engine held in a test marked ``engine_held``)."""
    opened = []

    def open_page(origin: str, **context_args):
        context = browser.new_context(**context_args)
        watch = Watch(origin)
        page = holding(request, context.new_page())
        watch.attach(page)
        opened.append((context, watch))
        return context, page, watch

    yield open_page
    for context, watch in opened:
        context.close()
        watch.check()


@pytest.fixture
def open_calc(page, site_url):
    """Open ``path`` and return the calculator ``calc_id`` once its engine is ready."""

    def _open(path: str, calc_id: str, target=None):
        target = target or page
        target.goto(f"{site_url}/{path.lstrip('/')}")
        calc = target.locator(f"#calc-{calc_id}")
        expect_ready(calc)
        return calc

    return _open
