"""The dark scheme (DESIGN.md: "Dark scheme"), for dim halls and projectors: Material's slate palette
while the device asks for it, or once the header's toggle chooses it; the choice is remembered.
axe-core in the dark scheme on every page: test_each_page's one visit. Here: the toggle, the states
a page does not show as it opens (a calculator's error, counters over their limit, a player out, time
called, the room display, the QR dialog), QR codes that stay dark on light, and print: dark on white
whatever the scheme."""

from __future__ import annotations

import datetime as dt
import io
import re
from urllib.parse import urlencode

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import expect

from calculators import evaluate
from calculators.i18n import Translator
from sitebuild.words import words
from tests.browser.conftest import expect_ready
from tests.browser.pages import assert_axe_clean, calculator, shame_rows
from tests.browser.test_each_page import WHOLE_PAGE_RESTYLES
from tests.browser.test_qr import copy_toast_link_and_open_qr, qr_dialog
from tests.browser.venue.conftest import open_live

TOGGLE = "form[data-palette] label"


def scheme(page):
    return page.locator("body")


def no_fading(page) -> None:
    """Just after a switch, no colour is on its way from one scheme's to the other's: a text fading
    for ~0.25 s passes through colours too faint to read (axe-core caught one mid-way)."""
    assert page.evaluate("document.getAnimations().filter((a) => a instanceof CSSTransition).length") == 0


# --- Colours and QR codes as a reader sees them ---------------------------------------------------------


def on_white(css: str) -> tuple[float, float, float]:
    """A computed CSS colour as it shows on white paper (its alpha composited over white)."""
    r, g, b, *alpha = (float(x) for x in re.findall(r"[\d.]+", css))
    a = alpha[0] if alpha else 1.0
    return tuple(c * a + 255 * (1 - a) for c in (r, g, b))


def contrast_on_white(css: str) -> float:
    """WCAG contrast ratio of a text colour on white."""
    linear = [(c / 255 / 12.92) if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in on_white(css)]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return 1.05 / (luminance + 0.05)


def printed_dark_on_white(page, selectors: list[str]) -> None:
    """Printed, the page is white and the text of each of ``selectors`` (those shown) dark on it
    (4.5:1 or more), whatever the screen's scheme; the screen is then given back."""
    page.emulate_media(media="print")
    assert on_white(page.locator("body").evaluate("b => getComputedStyle(b).backgroundColor")) == (255, 255, 255)
    for selector in selectors:
        for element in page.locator(selector).all():
            if element.is_visible():
                colour = element.evaluate("e => getComputedStyle(e).color")
                assert contrast_on_white(colour) >= 4.5, (selector, colour)
    page.emulate_media(media="screen")


def read_dark_on_light(dialog) -> str:
    """What a phone's camera reads from the dialog's QR code as the screen shows it (with the dialog
    around it): read only as dark modules on light (zxing-cpp would also read an inverted code), in a
    white quiet zone of 4 modules, the modules black."""
    figure = Image.open(io.BytesIO(dialog.locator(".qr-figure").screenshot()))
    codes = zxingcpp.read_barcodes(figure, formats=zxingcpp.BarcodeFormat.QRCode, try_invert=False)
    assert len(codes) == 1, f"{len(codes)} QR codes read as dark on light"
    svg = dialog.locator("svg.qr-code")
    modules = int(svg.get_attribute("viewBox").split()[2])
    code = Image.open(io.BytesIO(svg.screenshot())).convert("L")
    width, height = code.size
    quiet, edge = int(width * 4 / modules) - 1, 2  # 4 modules; the screenshot's edge rows may be the dialog's
    for box in ((edge, edge, width - edge, quiet), (edge, height - quiet, width - edge, height - edge),
                (edge, edge, quiet, height - edge), (width - quiet, edge, width - edge, height - edge)):
        assert code.crop(box).getextrema()[0] >= 250, f"quiet zone not white: {box}"
    assert code.getextrema()[0] <= 5  # black modules
    return codes[0].text


# --- Tests ------------------------------------------------------------------------------------------------


@pytest.mark.engine_held  # the page around its calculators (conftest: HELD_ENGINE)
def test_the_toggle_goes_automatic_light_dark_and_is_remembered(page, site_url):
    """Automatic (the device's setting, followed while it changes), then light whatever the device,
    then dark, kept through a reload; in dark, a rule link's QR code reads dark on light and prints
    dark on white; Enter on the toggle goes back to automatic. Each entry's label names what a tap
    does, in the page's language (tests/site/test_palette.py)."""
    page.goto(f"{site_url}/fr/glossary/")
    labels = [label.get_attribute("title") for label in page.locator(TOGGLE).all()]
    assert len(labels) == 3 and all(labels), labels
    shown = page.locator(f"{TOGGLE}:not([hidden])")
    expect(shown).to_have_attribute("title", labels[0])  # automatic
    expect(scheme(page)).to_have_attribute("data-md-color-scheme", "default")
    page.emulate_media(color_scheme="dark")
    expect(scheme(page)).to_have_attribute("data-md-color-scheme", "slate")
    no_fading(page)
    page.emulate_media(color_scheme="light")
    expect(scheme(page)).to_have_attribute("data-md-color-scheme", "default")

    shown.click()  # light
    expect(shown).to_have_attribute("title", labels[1])
    page.emulate_media(color_scheme="dark")
    expect(scheme(page)).to_have_attribute("data-md-color-scheme", "default")  # chosen, not the device's
    shown.click()  # dark
    expect(shown).to_have_attribute("title", labels[2])
    expect(scheme(page)).to_have_attribute("data-md-color-scheme", "slate")
    no_fading(page)
    page.emulate_media(color_scheme="light")
    expect(scheme(page)).to_have_attribute("data-md-color-scheme", "slate")
    page.reload()
    expect(scheme(page)).to_have_attribute("data-md-color-scheme", "slate")
    expect(shown).to_have_attribute("title", labels[2])
    expect(page.locator("#__palette_2")).to_be_checked()

    link, dialog = copy_toast_link_and_open_qr(page, page.locator("#glossary-swiss-rounds a.rule-link"), "fr")
    assert read_dark_on_light(dialog) == link
    printed_dark_on_white(page, [".qr-what", ".qr-url"])
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()

    page.locator("#__palette_2").focus()
    page.keyboard.press("Enter")  # automatic again: the device says light
    expect(shown).to_have_attribute("title", labels[0])
    expect(scheme(page)).to_have_attribute("data-md-color-scheme", "default")


def test_errors_and_counters_over_their_limit_read_in_the_dark(page, site_url):
    """A device in dark mode opens a link with a calculator's error and a deck over its limits: the dark
    scheme is there before the content is parsed (no whole-page restyle after), axe passes with the
    error text and the red counters on screen, and printing gives dark text on white."""
    values = {"naruto-rounds.players": "abc", "naruto-reserve.deck": "40 Kakashi [ninja]", "naruto-reserve.reserve": "3 Foo"}
    page.emulate_media(color_scheme="dark")
    page.add_init_script(WHOLE_PAGE_RESTYLES)
    page.goto(f"{site_url}/naruto/?{urlencode(values)}")
    for calc in page.locator(".calc[data-calc]").all():
        expect_ready(calc)
    assert page.evaluate("window.__restyles") == []
    expect(scheme(page)).to_have_attribute("data-md-color-scheme", "slate")
    error = evaluate("naruto-rounds", {"players": "abc"}, "en")["errors"][0]["message"]
    expect(page.locator("#calc-naruto-rounds [data-field=players] .calc-error")).to_have_text(error)
    reserve = evaluate("naruto-reserve", {"deck": values["naruto-reserve.deck"], "reserve": "3 Foo"}, "en")
    over = {v["code"] for v in reserve["result"]["violations"]} & {"deck_size", "reserve_size", "deck_ninja", "total_ninja"}
    assert over
    expect(page.locator('#calc-naruto-reserve .reserve-counter[data-over="true"]')).to_have_count(len(over))
    assert_axe_clean(page)
    printed_dark_on_white(page, ["article h1", "article p", ".calc-title", ".calc-summary", ".reserve-counter dd"])


def test_a_player_out_and_the_leader_read_in_the_dark(page, site_url):
    page.emulate_media(color_scheme="dark")
    page.goto(f"{site_url}/judge-tower/?judge-tower-shame.shame=Ann%3A%209%0ABob%3A%200")
    calc = calculator(page, "en", "judge-tower-shame")
    expect_ready(calc)
    expect(scheme(page)).to_have_attribute("data-md-color-scheme", "slate")
    ui = Translator("en").templates("judge-tower-shame.ui.")
    rows = shame_rows(calc, "en")
    expect(rows.first).to_have_attribute("data-out", "true")
    expect(rows.first.get_by_text(ui["out"], exact=True)).to_be_visible()
    expect(rows.and_(calc.locator(".is-leader"))).to_have_count(1)  # the class that draws the leader
    expect(rows.last.get_by_role("button", name=ui["minus"], exact=True)).to_be_disabled()  # Bob at 0
    expect(rows.first.get_by_role("button", name=ui["minus"], exact=True)).to_be_enabled()
    assert_axe_clean(page)


@pytest.mark.engine_held  # the clock's face, its QR dialog and room display (conftest: HELD_ENGINE)
def test_time_called_its_qr_code_and_the_room_display_read_in_the_dark(page, site_url):
    """Time called (the red face, a table's time, a lost blitz), the QR dialog over it (its code dark on
    light, printed dark on white) and the room display, in the dark scheme. (Real time: the round's end
    is given in the past; no time passes, so the shared context.)"""
    t = words("it")
    past = int(dt.datetime.now(dt.timezone.utc).timestamp() * 1000) - 10 * 60_000
    page.emulate_media(color_scheme="dark")
    clock = open_live(page, f"{site_url}/it/clock/?clock.game=naruto-blitz&clock.end={past}"
                            "&clock.ext=7:5&clock.ext=3:20&blitz.a=2", ".clock")
    expect(scheme(page)).to_have_attribute("data-md-color-scheme", "slate")
    expect(clock).to_have_attribute("data-clock-state", "time")
    expect(clock.locator('.clock-ext-list li[data-table="7"]')).to_have_attribute("data-state", "time")
    # the blitz timer says a player lost, with the rule
    expect(page.get_by_role("alert").filter(has=page.get_by_role("link", name=t("blitz.rule"), exact=True))).to_be_visible()
    assert_axe_clean(page)

    clock.get_by_role("button", name=t("ui.qr.button"), exact=True).click()
    dialog = qr_dialog(page, "it")
    text = dialog.locator("svg.qr-code").get_attribute("data-qr-text")
    assert text.startswith(f"{site_url}/it/clock/?")
    assert read_dark_on_light(dialog) == text
    assert_axe_clean(page)
    printed_dark_on_white(page, [".qr-what", ".qr-url"])
    page.keyboard.press("Escape")

    clock.get_by_role("button", name=t("clock.room"), exact=True).click()
    expect(page.locator("html")).to_have_attribute("data-clock-view", "room")
    expect(scheme(page)).to_have_attribute("data-md-color-scheme", "slate")
    assert_axe_clean(page)


@pytest.mark.engine_held  # the page around its calculators (conftest: HELD_ENGINE)
def test_a_damaged_scheme_preference_is_dropped_without_a_page_error(page, site_url):
    """Corrupt JSON under Material's palette key (storage damaged, a browser extension): the next
    pages open without a page error (the watch fails the test on one) and the toggle works again."""
    page.goto(f"{site_url}/glossary/")
    page.evaluate("localStorage.setItem(new URL(__md_scope).pathname + '.__palette', '{not json')")
    for path in ("glossary/", "fr/naruto/"):
        page.goto(f"{site_url}/{path}")
        expect(page.locator("body")).to_have_attribute("data-md-color-scheme", re.compile(r"\w"))
    assert page.evaluate("localStorage.getItem(new URL(__md_scope).pathname + '.__palette')") in (None, "null") or \
        page.evaluate("JSON.parse(localStorage.getItem(new URL(__md_scope).pathname + '.__palette'))") is not None
