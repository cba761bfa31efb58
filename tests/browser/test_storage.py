"""What the phone stores never costs a judge the calculators or a game (issue #52): a phone with
little storage left, a stored page damaged or removed, a colleague's shame-tracker link, a release
switched under an open tab. Contexts with a service worker (``fresh``) where storage is the subject.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from calculators import evaluate
from sitebuild.words import words
from tests.browser.conftest import expect_ready
from tests.browser.test_integrity import DAMAGE_STORED, precache, stored

MB = 1024 * 1024


@pytest.mark.parametrize("quota_mb", [2, 6])
def test_a_full_phone_starts_the_calculators_online_on_every_visit_and_says_it_keeps_no_copy(fresh, own_server, quota_mb):
    """A nearly full phone (the origin's quota overridden: Chromium's QuotaExceededError on every
    write past it): each visit's calculators start from the network and answer; the page says,
    in its language, that the phone cannot keep a copy, and never that it is ready for offline use."""
    server, origin = own_server()
    context, page, watch = fresh(origin)
    context.new_cdp_session(page).send("Storage.overrideQuotaForOrigin", {"origin": origin, "quotaSize": quota_mb * MB})
    t = words("fr")
    html = page.locator("html")
    calc = page.locator("#calc-naruto-rounds")
    for visit in range(3):  # the first without a service worker, the others through it
        if visit:
            page.reload()
        else:
            page.goto(f"{origin}/fr/naruto/")
        expect_ready(calc)
        page.get_by_label(words("fr")("naruto-rounds.players.label"), exact=True).fill("17")
        expect(calc.locator(".calc-summary")).to_have_text(evaluate("naruto-rounds", {"players": "17"}, "fr")["summary"])
        expect(html).to_have_attribute("data-offline-storage", "full")
        expect(page.locator(".offline-full")).to_have_text(t("ui.offline.full"))
        assert html.get_attribute("data-offline") != "ready", visit
        expect(page.locator(".offline-ready")).to_be_hidden()
    assert page.evaluate("() => !!navigator.serviceWorker.controller")  # the visits went through it


#: Remove a stored file, as storage pressure or a half-cleared site data would.
REMOVE_STORED = """async (url) => {
  for (const name of await caches.keys()) if (await (await caches.open(name)).delete(url)) return name;
  return null;
}"""


def test_a_damaged_or_missing_stored_page_is_never_called_ready_and_offline_gets_the_sites_answer(fresh, own_server):
    server, origin = own_server()
    context, page, watch = fresh(origin)
    watch.allow(r"status of 404")  # the site's answer for a page it cannot give offline
    html = page.locator("html")
    ready_line = page.locator(".offline-ready")
    page.goto(f"{origin}/fr/")
    expect(html).to_have_attribute("data-offline", "ready")

    # A page edited to wrong bytes in storage: the next load claims "ready" only once it is the build's again.
    assert page.evaluate(DAMAGE_STORED, {"url": f"{origin}/fr/judge-tower/", "cut": True})
    page.reload()
    expect(html).to_have_attribute("data-offline", "ready")
    assert set(precache()) <= set(stored(page, origin))  # complete, and every stored byte the build's

    # Damaged and removed while this page is open: the claim is withdrawn once the network goes.
    assert page.evaluate(DAMAGE_STORED, {"url": f"{origin}/fr/judge-tower/", "cut": True})
    assert page.evaluate(REMOVE_STORED, f"{origin}/it/pokemon/")
    server.shutdown()  # no host either (the service worker's requests are not the page's)
    server.server_close()  # refused at once, not left unanswered
    context.set_offline(True)
    expect(html).to_have_attribute("data-offline", "incomplete")
    expect(ready_line).to_be_hidden()
    for path in ("fr/judge-tower/", "it/pokemon/"):  # the site's own page, never the browser's error
        page.goto(f"{origin}/{path}")
        expect(page.locator("h1#not-found")).to_be_visible()
        expect(page.get_by_role("link", name=words("fr")("ui.not_found.home"))).to_be_visible()
    page.goto(f"{origin}/fr/naruto/")  # the others still open
    expect(page.locator("h1")).to_have_attribute("id", "naruto")
    expect(html).to_have_attribute("data-offline", "incomplete")
