"""Browser tests: the built site served on 127.0.0.1, headless Chromium.

Every test's page is watched: a request to any host other than the local
server, an uncaught page error, a console error or a CSP violation fails the
test at teardown (tests that provoke an error on purpose declare it with
``watch.allow(...)``).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tools.chromium import ARGS, find
from tools.serve import serve_in_thread

ROOT = Path(__file__).resolve().parents[2]
SITE = Path(os.environ.get("SITE_DIR", ROOT / "site"))
#: Boot of Pyodide in a worker takes ~3 s here; allow for a slow, loaded CI machine.
ENGINE_TIMEOUT_MS = 60_000


@pytest.fixture(scope="session")
def site_url() -> str:
    if not (SITE / "index.html").is_file():
        pytest.fail(f"no built site in {SITE}: run `make build` (or `make test`)")
    server = serve_in_thread(SITE)
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    path = find()
    if not path:
        pytest.fail("no Chromium found: run `python -m tools.chromium --ensure`")
    return {**browser_type_launch_args, "executable_path": path, "args": ARGS}


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


@pytest.fixture
def page(context, watch):
    page = context.new_page()
    watch.attach(page)
    yield page
    watch.check()


@pytest.fixture
def phone(playwright, browser, watch):
    """A page in a Pixel 7 context (touch, 412 CSS px wide), watched like ``page``."""
    context = browser.new_context(**playwright.devices["Pixel 7"])
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    watch.attach(page)
    yield page
    context.close()
    watch.check()


@pytest.fixture
def open_calc(page, site_url):
    """Open ``path`` and return the calculator ``calc_id`` once its engine is ready."""
    from playwright.sync_api import expect

    def _open(path: str, calc_id: str, target=None):
        target = target or page
        target.goto(f"{site_url}/{path.lstrip('/')}")
        calc = target.locator(f"#calc-{calc_id}")
        expect(calc).to_have_attribute("data-state", "ready", timeout=ENGINE_TIMEOUT_MS)
        return calc

    return _open
