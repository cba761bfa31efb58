"""What a phone stores is the build's bytes, and a damaged answer heals in one retry (issue #42).

A host that answers 200 with other bytes than the build's (a half-finished deploy, a proxy fault, a
venue's captive portal), under the same cache headers as the real files (engine files immutable):
the calculators say so honestly, nothing that fails its build hash is ever in Cache Storage,
"offline ready" is said only of a complete, matching copy, and once the host answers right, one
retry or one reload heals. Contexts with a service worker (``fresh``), a snapshot seeded where the
start's speed is not the subject.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import os
import threading
from pathlib import Path

import pytest
from playwright.sync_api import expect

from calculators import evaluate
from calculators.i18n import Translator
from sitebuild.offline import precache_list
from sitebuild.words import words
from tests.browser.conftest import SITE, expect_ready, seed_snapshot
from tests.browser.pages import engine_status, offline_line, summary
from tools.serve import Handler, Server


class DamagingHandler(Handler):
    """Answers the files named in ``server.damage`` (a name suffix -> how) with 200 and a body of
    consistent length that is not the file: its first half, random bytes, or nothing."""

    def send_head(self):  # type: ignore[override]
        path = self.path.split("?", 1)[0]
        how = next((how for name, how in self.server.damage.items() if path.endswith(name)), None)
        if how is None:
            return super().send_head()
        real = Path(self.translate_path(path)).read_bytes()
        body = {"truncated": real[: len(real) // 2], "garbage": os.urandom(len(real)), "empty": b""}[how]
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


@pytest.fixture
def damaging_server():
    """``server, origin``: the built site, with ``server.damage`` to break files and clear to fix them."""
    server = Server(("127.0.0.1", 0), functools.partial(DamagingHandler, directory=str(SITE)))
    server.verbose = False
    server.damage = {}
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    yield server, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def precache() -> dict[str, str]:
    """Every file the service worker may store -> the revision the build wrote for it (site/sw.js)."""
    manifest = precache_list(SITE)
    return {**manifest["shell"], **manifest["engine"]}


#: Every stored response of the site's caches (the snapshot's has a checksum of its own; the offline
#: check's record is no file) -> its SHA-256.
STORED = """async () => {
  const found = {};
  for (const name of await caches.keys()) {
    if (name === "engine-snapshot") continue;
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      if (request.url.endsWith("/offline-copy-checked")) continue; // the check's record, no file (sw.js)
      const bytes = await (await cache.match(request)).arrayBuffer();
      const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
      found[request.url] = Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
    }
  }
  return found;
}"""


def stored(page, origin: str) -> dict[str, str]:
    """Cache Storage as a phone holds it, checked: every entry is a file of the build with its bytes."""
    revisions = precache()
    found = {url[len(origin) + 1:]: digest for url, digest in page.evaluate(STORED).items()}
    wrong = {key: digest for key, digest in found.items() if key not in revisions or not digest.startswith(revisions[key])}
    assert not wrong, f"stored files that are not the build's: {sorted(wrong)}"
    return found


def engine_key(name: str) -> str:
    return next(key for key in precache() if key.startswith("calc/") and key.endswith(name) and ("pyodide-" in key or "wheel-" in key))


#: One file of each way the engine's files arrive (engine-download.js): the wasm compiled as it
#: downloads, a prefetched file (the standard library; the lock file takes the same path), the wheel
#: asked for after the wasm, and the two scripts imported (the loader, the runtime); each damage kind
#: and each way to heal (the retry button, a reload) at least once.
DAMAGES = [
    ("pyodide.asm.wasm", "truncated", "retry"),
    (".whl", "truncated", "retry"),
    ("python_stdlib.zip", "garbage", "reload"),
    ("pyodide.asm.mjs", "truncated", "reload"),
    ("pyodide.mjs", "empty", "retry"),
]


@pytest.mark.parametrize(("name", "how", "heal"), DAMAGES)
def test_a_damaged_engine_file_is_never_kept_and_heals_once_the_host_is_fixed(
        fresh, damaging_server, engine_snapshot, name, how, heal):
    server, origin = damaging_server
    context, page, watch = fresh(origin)
    seed_snapshot(context, origin, engine_snapshot)  # a phone that visited an earlier release
    watch.allow(r"calculator engine failed|does not match the build|Failed to load|SyntaxError|status of 502|offline copy")
    asked = []
    context.on("request", lambda request: asked.append(request.url))
    t = Translator("fr")
    server.damage[name] = how
    page.goto(f"{origin}/fr/naruto/")
    calc = page.locator("#calc-naruto-rounds")
    html = page.locator("html")
    # Said honestly: the server's files, not the phone or its network.
    expect(calc).to_have_attribute("data-state", "error")
    expect(engine_status(calc)).to_have_text(t("ui.damaged"))
    # The one unseen retry asked past the HTTP cache, which keeps the damaged immutable answer.
    assert any(name in url and "fresh=" in url for url in asked), [u for u in asked if name in u]
    # The copy for offline use is incomplete, and says so; the damaged file is not in it.
    expect(html).to_have_attribute("data-offline", "incomplete")
    top_line = offline_line(page)
    expect(top_line).to_have_text(words("fr")("ui.offline.not_saved_host"))  # not ready, and the host is why
    assert engine_key(name) not in stored(page, origin)

    server.damage.clear()  # the deploy finishes, the portal lets the phone through
    if heal == "retry":
        calc.get_by_role("button", name=t("ui.retry")).click()
    else:
        page.reload()
    expect_ready(calc)
    page.get_by_label(t("naruto-rounds.players.label"), exact=True).fill("17")
    expect(summary(calc)).to_have_text(evaluate("naruto-rounds", {"players": "17"}, "fr")["summary"])
    expect(html).to_have_attribute("data-offline", "ready")
    expect(top_line).to_have_text(words("fr")("ui.offline.saved"))  # said, in the page's language
    assert set(precache()) <= set(stored(page, origin))  # complete, and every byte the build's


#: Replace a stored file's bytes: storage damaged under a phone that was ready for offline use.
DAMAGE_STORED = """async ({ url, cut }) => {
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    const response = await cache.match(url);
    if (!response) continue;
    const bytes = await response.arrayBuffer();
    await cache.put(url, new Response(bytes.slice(0, cut ? bytes.byteLength >> 1 : 0), { headers: response.headers }));
    return name;
  }
  return null;
}"""


def test_a_stored_file_damaged_later_is_dropped_and_fetched_again(fresh, own_server, engine_snapshot):
    """The shell's calc.js emptied, the engine's wheel cut in half in Cache Storage: the next load
    works, without a retry, and the copy is complete and the build's again."""
    server, origin = own_server()
    context, page, watch = fresh(origin)
    seed_snapshot(context, origin, engine_snapshot)
    watch.allow(r"calculator engine failed|does not match the build")
    html = page.locator("html")
    page.goto(f"{origin}/naruto/")
    expect_ready(page.locator("#calc-naruto-rounds"))
    expect(html).to_have_attribute("data-offline", "ready")
    for key, cut in (("calc/calculators/calc.js", False), (engine_key(".whl"), True)):
        assert page.evaluate(DAMAGE_STORED, {"url": f"{origin}/{key}", "cut": cut}), key
    page.reload()
    calc = page.locator("#calc-naruto-rounds")
    expect_ready(calc)
    expect(calc.get_by_role("button", name=Translator("en")("ui.retry"), exact=True)).to_be_hidden()
    calc.get_by_label(Translator("en")("naruto-rounds.players.label"), exact=True).fill("24")
    expect(summary(calc)).to_have_text(evaluate("naruto-rounds", {"players": "24"}, "en")["summary"])
    expect(html).to_have_attribute("data-offline", "ready")
    assert set(precache()) <= set(stored(page, origin))


def test_offline_ready_means_every_page_is_stored_again_after_caches_were_cleared(fresh, own_server):
    """Site data half cleared (the caches deleted, the service worker still registered): the next
    online page stores the whole site again before it says "ready", and offline every page opens."""
    server, origin = own_server()
    context, page, watch = fresh(origin)
    html = page.locator("html")
    page.goto(f"{origin}/it/")
    expect(html).to_have_attribute("data-offline", "ready")
    page.evaluate("async () => { for (const name of await caches.keys()) await caches.delete(name); }")
    page.reload()
    expect(html).to_have_attribute("data-offline", "ready")
    assert set(precache()) <= set(stored(page, origin))
    context.set_offline(True)
    server.shutdown()
    page.goto(f"{origin}/fr/judge-tower/")  # never visited: from the refilled copy
    expect(page.locator("h1")).to_have_attribute("id", "jt")


#: Shell files a host may answer wrongly: the page script, a helper every page imports, another page.
SHELL_DAMAGES = [("calc/calculators/calc.js", "empty"), ("calc/shared/share.js", "truncated"), ("fr/judge-tower/index.html", "garbage")]


@pytest.mark.parametrize(("name", "how"), SHELL_DAMAGES)
def test_a_damaged_shell_file_is_never_stored_and_one_reload_heals(fresh, damaging_server, engine_snapshot, name, how):
    """A first visit while the host answers one shell file wrongly: no offline copy is claimed and
    nothing that is not the build's is stored; once the host is right, one reload stores the whole
    site and the calculators answer."""
    server, origin = damaging_server
    context, page, watch = fresh(origin)
    seed_snapshot(context, origin, engine_snapshot)
    # A file cut in half fails to parse with whatever V8 says where it was cut ("Unexpected end of input",
    # "missing ) after argument list", ...), or, cut between two statements, lacks what importers need.
    watch.allow(r"SyntaxError|Unexpected|missing \S+ after|Invalid or unexpected|does not match the build|offline copy"
                r"|Failed to|service worker|ServiceWorker|import|does not provide an export")
    server.damage[name] = how
    page.goto(f"{origin}/naruto/")
    html = page.locator("html")
    if name == "calc/calculators/calc.js":  # it ran without mounting anything: said at once, honestly
        expect(page.locator("#calc-naruto-rounds")).to_have_attribute("data-state", "error")
        expect(page.locator("#calc-naruto-rounds .calc-status")).to_have_text(Translator("en")("ui.damaged"))
    elif name.startswith("calc/"):  # the helper every page script imports: nothing of ours runs
        expect(page.locator("#calc-naruto-rounds")).to_have_attribute("data-state", "loading")
    else:
        expect_ready(page.locator("#calc-naruto-rounds"))
    expect(html).not_to_have_attribute("data-offline", "ready")
    stored(page, origin)  # only the build's bytes, if anything
    assert name not in {url for url in stored(page, origin)}

    server.damage.clear()
    page.reload()
    calc = page.locator("#calc-naruto-rounds")
    expect_ready(calc)
    page.locator("#calc-naruto-rounds-players").fill("24")
    expect(summary(calc)).to_have_text(evaluate("naruto-rounds", {"players": "24"}, "en")["summary"])
    expect(html).to_have_attribute("data-offline", "ready")
    assert set(precache()) <= set(stored(page, origin))


def test_a_first_install_the_host_breaks_says_not_saved_and_why_then_tries_again(fresh, damaging_server):
    """Issue 62: a shell file damaged at the host made the first install fail, and the top line said
    "saving…" for good. Now it says "not saved" and that the host is why, without a reload; the next
    visit tries again (and says so again while the host is wrong); once it is right, "saved"."""
    server, origin = damaging_server
    context, page, watch = fresh(origin)
    watch.allow(r"does not match the build|offline copy|service worker|ServiceWorker|Failed to")
    server.damage["calc/icons/icon-512.png"] = "garbage"  # a file of the shell this page does not use
    t = words("fr")
    line = offline_line(page)
    page.goto(f"{origin}/fr/glossary/")
    expect(line).to_have_text(t("ui.offline.not_saved_host"))
    expect(page.locator("html")).to_have_attribute("data-offline", "incomplete")
    page.reload()  # the last state first, then a new install's own failure, said again
    expect(line).to_have_text(t("ui.offline.not_saved_host"))
    server.damage.clear()
    page.reload()
    expect(line).to_have_text(t("ui.offline.saved"))
    assert set(precache()) <= set(stored(page, origin))
