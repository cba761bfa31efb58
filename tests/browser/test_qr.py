"""QR codes for links: every link control (rule and heading links, a calculator's "copy the link",
the round clock) offers a QR code of exactly the link it copies. The code is decoded here from a
screenshot (zxing-cpp), not trusted from its attribute; printing the dialog gives a table card.
A page without a calculator makes its QR codes without the Python engine."""

from __future__ import annotations

import io
import re

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import expect

from sitebuild.words import words
from tests.browser.conftest import expect_ready
from tests.browser.pages import field, summary, toast

ENGINE_FILE = re.compile(r"/calc/(pyodide-[0-9a-f]+/|wheel-[0-9a-f]+/|engine/worker\.js|engine/start\.js)")


def decoded(svg) -> str:
    """The text a phone's camera reads from the QR code on screen."""
    image = Image.open(io.BytesIO(svg.screenshot()))
    codes = zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)
    assert len(codes) == 1, f"{len(codes)} QR codes read"
    return codes[0].text


def qr_dialog(page, lang):
    dialog = page.get_by_role("dialog", name=words(lang)("ui.qr.title"))
    expect(dialog).to_be_visible()
    return dialog


def copy_toast_link_and_open_qr(page, control, lang):
    """Click a rule or heading link ``control``: the address it copied, and the QR dialog its toast opens."""
    control.click()
    link = page.evaluate("navigator.clipboard.readText()")
    toast(page).get_by_role("button", name=words(lang)("ui.qr.button"), exact=True).click()
    return link, qr_dialog(page, lang)


def test_rule_link_qr_without_the_engine(page, site_url):
    """A page with no calculator: the rule link's QR code, and not one engine file requested."""
    t = words("fr")
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(f"{site_url}/fr/glossary/")
    link, dialog = copy_toast_link_and_open_qr(page, page.locator("#glossary-swiss-rounds a.rule-link"), "fr")
    assert link == f"{site_url}/fr/glossary/#glossary-swiss-rounds"
    svg = dialog.locator("svg.qr-code")
    expect(svg).to_have_attribute("data-qr-text", link)
    assert decoded(svg) == link
    # the glossary noun and the entry's own name, as printed (never its id)
    term = page.locator("#glossary-swiss-rounds > strong").text_content()
    expect(dialog.get_by_text(t("ui.rule.caption.glossary", term=term), exact=True)).to_be_visible()
    expect(dialog.get_by_text(link, exact=True)).to_be_visible()  # the address, written out
    dialog.get_by_role("button", name=t("ui.qr.close"), exact=True).click()
    expect(dialog).to_be_hidden()
    assert not [url for url in requested if ENGINE_FILE.search(url)]


@pytest.mark.engine_held  # the page around its calculators (conftest: HELD_ENGINE)
def test_heading_link_qr_names_the_section(page, site_url):
    t = words("it")
    page.goto(f"{site_url}/it/naruto/")
    link, dialog = copy_toast_link_and_open_qr(page, page.locator("#naruto-blitz a.headerlink"), "it")
    assert link == f"{site_url}/it/naruto/#naruto-blitz"
    title = page.locator("#naruto-blitz").evaluate("h => h.firstChild.textContent")
    expect(dialog.get_by_text(t("ui.rule.caption.section", title=title), exact=True)).to_be_visible()
    assert decoded(dialog.locator("svg.qr-code")) == link


def test_filled_calculator_qr_is_its_link(page, site_url, open_calc):
    t = words("en")
    calc = open_calc("naruto/", "naruto-rounds")
    field(calc, "en", "naruto-rounds", "players").fill("24")
    field(calc, "en", "naruto-rounds", "rounds").fill("5")
    expect(summary(calc)).not_to_have_text("")
    calc.get_by_role("button", name=t("ui.copy_calc_link"), exact=True).click()
    link = page.evaluate("navigator.clipboard.readText()")
    assert "naruto-rounds.players=24" in link and link.endswith("#calc-naruto-rounds")
    calc.get_by_role("button", name=t("ui.qr.button"), exact=True).click()
    dialog = qr_dialog(page, "en")
    expect(dialog.get_by_text(t("naruto-rounds.title"), exact=True)).to_be_visible()  # what it opens
    assert decoded(dialog.locator("svg.qr-code")) == link
    # the engine stays the calculators' business: the dialog did not restart or stop it
    expect_ready(calc)


@pytest.mark.engine_held  # the page around its calculators (conftest: HELD_ENGINE)
def test_clock_qr_is_its_link_and_prints_as_a_table_card(page, site_url):
    t = words("fr")
    page.goto(f"{site_url}/fr/clock/")
    clock = page.get_by_role("region", name=t("clock.title"), exact=True)
    expect(clock).to_have_attribute("data-ready", "true")
    page.get_by_label(t("clock.game.naruto-blitz"), exact=True).check()
    clock.get_by_role("button", name=t("clock.start"), exact=True).click()
    clock.get_by_role("button", name=t("clock.copy"), exact=True).click()
    link = page.evaluate("navigator.clipboard.readText()")
    assert f"clock.end={clock.get_attribute('data-clock-end')}" in link
    clock.get_by_role("button", name=t("ui.qr.button"), exact=True).click()
    dialog = qr_dialog(page, "fr")
    what = dialog.get_by_text(t("ui.qr.clock", game=t("clock.game.naruto-blitz")), exact=True)
    expect(what).to_be_visible()
    svg = dialog.locator("svg.qr-code")
    assert decoded(svg) == link

    on_screen = svg.bounding_box()["width"]
    page.emulate_media(media="print")
    for part in (svg, what, dialog.get_by_text(link, exact=True)):
        expect(part).to_be_visible()
    # nothing else: no heading, no buttons, no page behind
    for other in (dialog.locator("h2"), dialog.get_by_role("button", name=t("ui.qr.close"), exact=True),
                  page.get_by_role("banner"), page.locator("article h1"), clock):
        expect(other).to_be_hidden()
    assert svg.bounding_box()["width"] > on_screen  # large on paper
