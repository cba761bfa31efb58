"""What the phone stores never costs a judge the calculators or a game (issue #52): a phone with
little storage left, a stored page damaged or removed, a colleague's shame-tracker link, a release
switched under an open tab. Contexts with a service worker (``fresh``) where storage is the subject.
"""

from __future__ import annotations

import shutil

import pytest
from playwright.sync_api import expect

from calculators import evaluate
from calculators.i18n import Translator
from sitebuild.offline import write_service_worker
from sitebuild.words import words
from tests.browser.conftest import SITE, expect_ready, seed_snapshot
from tests.browser.test_integrity import DAMAGE_STORED, precache, stored
from tests.browser.pages import calculator, engine_status, offline_line, shame_rows, summary

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
    for visit in range(2):  # the first without a service worker, the next through it (as every later one)
        if visit:
            page.reload()
        else:
            page.goto(f"{origin}/fr/naruto/")
        expect_ready(calc)
        page.get_by_label(words("fr")("naruto-rounds.players.label"), exact=True).fill("17")
        expect(summary(calc)).to_have_text(evaluate("naruto-rounds", {"players": "17"}, "fr")["summary"])
        expect(html).to_have_attribute("data-offline-storage", "full")
        expect(offline_line(page)).to_have_text(t("ui.offline.full"))
        assert html.get_attribute("data-offline") != "ready", visit
    assert page.evaluate("() => !!navigator.serviceWorker.controller")  # the visits went through it


#: Remove a stored file, as storage pressure or a half-cleared site data would.
REMOVE_STORED = """async (url) => {
  for (const name of await caches.keys()) if (await (await caches.open(name)).delete(url)) return name;
  return null;
}"""


def test_a_damaged_or_missing_stored_page_is_never_called_ready_and_offline_gets_the_sites_answer(fresh, own_server):
    server, origin = own_server()
    context, page, watch = fresh(origin)
    watch.allow(r"status of 503")  # the site's answer for a page it cannot give offline
    html = page.locator("html")
    top_line = offline_line(page)
    saved = words("fr")("ui.offline.saved")
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
    expect(top_line).not_to_have_text(saved)
    # The site's own page, never the browser's error, and not "not found": the page exists, a network is needed.
    for path, lang in (("fr/judge-tower/", "fr"), ("it/pokemon/", "it")):
        page.goto(f"{origin}/{path}")
        expect(page.locator("h1#not-offline")).to_be_visible()
        expect(page.locator("h1#not-found")).to_be_hidden()
        expect(page.locator(f'p[lang="{lang}"].nf-offline')).to_contain_text(words(lang)("ui.not_found.offline"))
        expect(page.get_by_text(words(lang)("ui.not_found.title"))).to_be_hidden()
        expect(page.get_by_role("link", name=words(lang)("ui.not_found.home"))).to_be_visible()
    page.goto(f"{origin}/fr/naruto/")  # the others still open
    expect(page.locator("h1")).to_have_attribute("id", "naruto")
    expect(html).to_have_attribute("data-offline", "incomplete")


def test_a_tab_left_on_the_previous_release_is_told_to_reload(fresh, own_server, tmp_path, engine_snapshot):
    """Release 1's calculators failed to start (its wheel missing on the host); release 2, with
    another wheel, is installed and takes over from another tab: this tab's engine cannot start
    again (its release's files are nowhere), and it says a new version is installed and a reload is
    needed; its retry reloads into release 2, whose calculators answer."""
    site = tmp_path / "site"
    shutil.copytree(SITE, site)
    wheel_dir = next((site / "calc").glob("wheel-*"))
    held = tmp_path / "held-wheel"
    wheel_dir.rename(held)  # release 1, half deployed: its wheel answers 404
    server, origin = own_server(site)
    context, page, watch = fresh(origin)
    seed_snapshot(context, origin, engine_snapshot)
    watch.allow(r"status of 404|calculator engine failed|offline copy")
    t = Translator("fr")
    calc = page.locator("#calc-naruto-rounds")
    page.goto(f"{origin}/fr/naruto/")
    expect(calc).to_have_attribute("data-state", "error")
    expect(engine_status(calc)).to_have_text(t("ui.failed"))
    page.wait_for_function("() => !!navigator.serviceWorker.controller")  # release 1's worker in control

    # Release 2: its engine's wheel under another content-hashed folder; release 1's is gone.
    new_name = "wheel-" + "0" * (len(wheel_dir.name) - len("wheel-"))
    held.rename(site / "calc" / new_name)
    for path in [p for p in site.rglob("*") if p.suffix in (".html", ".js")]:
        text = path.read_text(encoding="utf-8")
        if wheel_dir.name in text:
            path.write_text(text.replace(wheel_dir.name, new_name), encoding="utf-8")
            for suffix in (".br", ".gz"):  # the host serves the new text as it is
                path.with_name(path.name + suffix).unlink(missing_ok=True)
    write_service_worker(site)
    (site / "sw.js.br").unlink(missing_ok=True)
    (site / "sw.js.gz").unlink(missing_ok=True)
    # Installed, then switched on by another tab's "reload" (the waiting worker told to skip waiting).
    page.evaluate("""async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      await registration.update();
      const worker = registration.installing || registration.waiting;
      if (worker.state !== "installed") await new Promise((resolve) => worker.addEventListener("statechange",
        () => worker.state === "installed" && resolve()));
      const changed = new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }));
      worker.postMessage({ type: "skip-waiting" });
      await changed;
    }""")
    # The failed start says so at once (and in the error's place, not as a network problem).
    expect(engine_status(calc)).to_have_text(t("ui.replaced"))
    expect(calc).to_have_attribute("data-state", "error")
    calc.get_by_role("button", name=t("ui.retry")).click()  # reloads the page
    expect_ready(calc)
    page.get_by_label(t("naruto-rounds.players.label"), exact=True).fill("17")
    expect(summary(calc)).to_have_text(evaluate("naruto-rounds", {"players": "17"}, "fr")["summary"])


def expect_game(calc, names: list[str], counters: list[str]) -> None:
    """The tracker ``calc`` shows these players' names and counters, in order."""
    rows = shame_rows(calc, "fr")
    expect(rows.get_by_role("status")).to_have_text(counters)
    for i, name in enumerate(names):
        expect(rows.get_by_role("textbox").nth(i)).to_have_value(name)


def test_a_colleagues_shame_link_never_replaces_the_phones_game_unasked(new_page, site_url):
    """Two judges each track a Judge Tower game; one opens the other's link. The link's game is shown
    and played in that tab; the phone's game stays stored and in its other tab, and comes back with
    one tap; the link's game replaces it only when the judge says so."""
    ui = Translator("fr").templates("judge-tower-shame.ui.")
    mine, other = new_page(), new_page()
    tracker = [calculator(tab, "fr", "judge-tower-shame") for tab in (mine, other)]
    for tab, calc in zip((mine, other), tracker):
        tab.goto(f"{site_url}/fr/judge-tower/")
        expect_ready(calc)
    rows = shame_rows(tracker[0], "fr")
    rows.nth(0).get_by_role("textbox").fill("Ann")
    rows.nth(1).get_by_role("textbox").fill("Bob")
    rows.nth(0).get_by_role("button", name=ui["plus"], exact=True).click()
    expect_game(tracker[1], ["Ann", "Bob"], ["1", "0"])  # the tabs follow each other

    link = f"{site_url}/fr/judge-tower/?judge-tower-shame.shame=Cy%3A%203%0ADee%3A%201#calc-judge-tower-shame"
    mine.goto(link)
    calc = tracker[0]
    expect(rows.get_by_role("status")).to_have_text(["3", "1"])
    choice = calc.get_by_role("status").filter(has_text=ui["shared"])  # the note that this is a shared copy
    expect(choice).to_be_visible()
    rows.nth(0).get_by_role("button", name=ui["plus"], exact=True).click()
    expect(rows.get_by_role("status")).to_have_text(["4", "1"])  # the link's game is played here
    mine.reload()  # and stays this tab's game
    expect_game(calc, ["Cy", "Dee"], ["4", "1"])
    # The phone's game, untouched: in the other tab, and once that tab reloads.
    other.reload()
    expect_game(tracker[1], ["Ann", "Bob"], ["1", "0"])

    choice.get_by_role("button", name=ui["back"]).click()
    expect_game(calc, ["Ann", "Bob"], ["1", "0"])
    expect(choice).to_be_hidden()

    mine.goto(link)  # the judge takes the colleague's game over, and says so
    expect(rows.get_by_role("status")).to_have_text(["3", "1"])
    choice.get_by_role("button", name=ui["keep"]).click()
    expect(choice).to_be_hidden()
    expect_game(tracker[1], ["Cy", "Dee"], ["3", "1"])
