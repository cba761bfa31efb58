"""The authoritative original of a translated rule, in place (sitebuild/rule_markup.py, web/site/originals.js):
one tap or key shows it under the rule in its own language and hides it again; one button shows them
all (side by side on a wide screen, below each rule on a phone); a link with ?original=1 opens them
all, and the language menu keeps it. The original page itself offers none of this."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from calculators.i18n import Translator
from sitebuild.words import BUILD_LOCALE
from tests.browser.conftest import expect_ready
from tests.browser.pages import COLOUR_RULES, assert_axe_clean, calculators_on, pick_language, toast


#: A rule's original and its controls: the page around the calculators, whose engine is not started
#: (conftest: HELD_ENGINE), except where axe reads the page with them ready.
held = pytest.mark.engine_held


def words(lang: str) -> Translator:
    return Translator(lang, (BUILD_LOCALE,))


def plain(locator) -> str:
    return " ".join(locator.text_content().split())


# One page each (conftest: "Languages": originals.js's path is the same in every language), in turn
# with the copied rule's test below: a French original here, an Italian one there; English pages: the
# phone's tap and the link opening every original.
@held
@pytest.mark.parametrize(("path", "lang", "rule", "source"), [("it/naruto/", "it", "naruto-reserve-limits-2", "fr")])
def test_one_tap_shows_the_original_and_one_hides_it(page, new_page, site_url, path, lang, rule, source):
    folder = path.split("/")[-2]
    original_page = new_page()
    original_page.goto(f"{site_url}/{source}/{folder}/")
    want = plain(original_page.locator(f"#{rule}"))
    original_page.close()
    t = words(lang)
    page.goto(f"{site_url}/{path}")
    control = page.locator(f"#{rule} + details.og > summary")
    original = page.locator(f"#{rule} + details.og > p")
    expect(control).to_have_accessible_name(t(f"ui.original.show.{source}"))
    expect(original).to_be_hidden()
    control.click()
    expect(original).to_be_visible()
    expect(original).to_have_attribute("lang", source)
    assert plain(original) == want
    expect(control).to_have_accessible_name(t(f"ui.original.hide.{source}"))
    control.click()
    expect(original).to_be_hidden()
    # The keyboard: the control comes right after the rule's copy-link control, which is unchanged.
    link = page.locator(f"#{rule} .rule-link")
    expect(link).to_have_accessible_name(t("ui.rule.copy.rule"))
    link.focus()
    page.keyboard.press("Tab")
    expect(control).to_be_focused()
    assert control.evaluate("el => getComputedStyle(el).outlineStyle") != "none"
    page.keyboard.press("Enter")
    expect(original).to_be_visible()
    # Not one other original opened with it.
    expect(page.locator("details.og[open]")).to_have_count(1)


#: Rules whose copy-link target and original control overlap (a tap there could hit either).
_OVERLAPS = """() => [...document.querySelectorAll('.og-pair')].filter((pair) =>
  pair.querySelector('.rule-link, .headerlink').getBoundingClientRect().bottom > pair.querySelector('summary').getBoundingClientRect().top
).map((pair) => pair.firstElementChild.id)"""


@held
def test_a_phone_tap_shows_the_original(phone, site_url):
    phone.goto(f"{site_url}/naruto/")
    assert phone.evaluate(_OVERLAPS) == []
    phone.locator("#naruto-reserve-limits-2 + details.og > summary").tap()
    original = phone.locator("#naruto-reserve-limits-2 + details.og > p")
    expect(original).to_be_visible()
    expect(original).to_have_attribute("lang", "fr")


@held
@pytest.mark.parametrize("path", ["it/pokemon/"])  # one (every original page's HTML: tests/site/test_originals.py)
def test_the_original_page_offers_no_original(page, site_url, path):
    page.goto(f"{site_url}/{path}")
    expect(page.locator("article p[id]").first).to_be_visible()
    expect(page.locator("details.og")).to_have_count(0)
    expect(page.locator(".og-all")).to_have_count(0)


@held
def test_show_all_side_by_side_then_below_each_rule_on_a_phone(page, site_url):
    t = words("it")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{site_url}/it/naruto/#naruto-reserve-limits-2")
    every = page.get_by_role("button", name=t("ui.original.show_all.fr"))
    every.click()
    expect(page.locator("details.og:not([open])")).to_have_count(0)
    expect(page).to_have_url(f"{site_url}/it/naruto/?original=1#naruto-reserve-limits-2")
    expect(page.locator('.md-select__link[hreflang="en"]')).to_have_attribute(
        "href", f"{site_url}/naruto/?original=1#naruto-reserve-limits-2")
    rule, original = page.locator("#naruto-reserve-limits-2"), page.locator("#naruto-reserve-limits-2 + details.og > p")
    beside = rule.bounding_box(), original.bounding_box()
    assert beside[1]["x"] >= beside[0]["x"] + beside[0]["width"], beside  # side by side
    assert abs(beside[1]["y"] - beside[0]["y"]) < beside[0]["height"], beside
    page.set_viewport_size({"width": 412, "height": 839})
    below = rule.bounding_box(), original.bounding_box()
    assert below[1]["y"] >= below[0]["y"] + below[0]["height"], below  # below the rule on a phone
    hide_all = page.get_by_role("button", name=t("ui.original.hide_all.fr"))  # the same button, now saying so
    for target in (hide_all, page.locator("#naruto-reserve-limits-2 + details.og > summary")):
        box = target.bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44, box
    hide_all.click()
    expect(page.locator("details.og[open]")).to_have_count(0)
    expect(page).to_have_url(f"{site_url}/it/naruto/#naruto-reserve-limits-2")


@held
def test_a_link_opens_every_original_and_the_language_menu_keeps_it(page, site_url):
    page.goto(f"{site_url}/naruto/?original=1#naruto-reserve-limits-2")
    expect(page.locator("details.og:not([open])")).to_have_count(0)
    expect(page.locator("#naruto-reserve-limits-2 + details.og > p")).to_be_in_viewport()
    expect(page.get_by_role("button", name=words("en")("ui.original.hide_all.fr"))).to_be_visible()
    pick_language(page, "it")
    expect(page).to_have_url(f"{site_url}/it/naruto/?original=1#naruto-reserve-limits-2")
    expect(page.locator("details.og:not([open])")).to_have_count(0)
    expect(page.locator("#naruto-reserve-limits-2 + details.og > p")).to_be_in_viewport()


@held
@pytest.mark.parametrize("fragment", ["%E0%A4%A"])  # a cut UTF-8 sequence: "%" and "%zz" fail the same decodeURIComponent
def test_a_fragment_that_cannot_be_decoded_opens_the_originals_and_scrolls_nowhere(page, site_url, fragment):
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{site_url}/it/naruto/?original=1#{fragment}")
    expect(page.locator("details.og:not([open])")).to_have_count(0)
    expect(page.get_by_role("button", name=words("it")("ui.original.hide_all.fr"))).to_be_visible()
    assert page.evaluate("scrollY") == 0
    assert not errors, errors


@pytest.mark.parametrize("path", ["naruto/", "fr/pokemon/"])
def test_axe_with_every_original_shown_in_both_schemes(page, site_url, path):
    page.goto(f"{site_url}/{path}?original=1")
    for uid, _, _ in calculators_on(path):
        expect_ready(page.locator(f"#{uid}"))
    expect(page.locator("details.og:not([open])")).to_have_count(0)
    assert_axe_clean(page)
    page.emulate_media(color_scheme="dark")
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "slate")
    assert_axe_clean(page, only=COLOUR_RULES)


@held
def test_print_keeps_the_originals_shown_without_their_controls(page, site_url):
    page.goto(f"{site_url}/fr/pokemon/?original=1")
    expect(page.locator("details.og:not([open])")).to_have_count(0)
    page.emulate_media(media="print")
    expect(page.locator("#pokemon-single-2 + details.og > p")).to_be_visible()
    expect(page.locator("#pokemon-single-2 + details.og > summary")).to_be_hidden()
    expect(page.locator(".og-all")).to_be_hidden()


@held
@pytest.mark.parametrize(("path", "rule"), [("fr/pokemon/", "pokemon-single-2")])  # one (see the one tap's test)
def test_a_rule_copied_with_its_original_open_is_shared_open(page, new_page, site_url, path, rule):
    """Issue 51, item 6: the rule's copy control keeps the original the judge opened; the link opens
    that one original, no other. A rule copied with its original closed stays a bare anchor."""
    page.goto(f"{site_url}/{path}")
    page.locator(f"#{rule} + details.og > summary").click()
    page.locator(f"#{rule} .rule-link").click()
    shared = f"{site_url}/{path}?original={rule}#{rule}"
    expect(toast(page)).to_contain_text(shared)
    assert page.evaluate("navigator.clipboard.readText()") == shared
    other = new_page()
    other.goto(shared)
    expect(other.locator(f"#{rule} + details.og > p")).to_be_visible()
    expect(other.locator(f"#{rule} + details.og > p")).to_be_in_viewport()
    expect(other.locator("details.og[open]")).to_have_count(1)
    page.locator(f"#{rule} + details.og > summary").click()  # closed again: the bare anchor
    page.locator(f"#{rule} .rule-link").click()
    expect(toast(page)).not_to_contain_text("original=")
    assert page.evaluate("navigator.clipboard.readText()") == f"{site_url}/{path}#{rule}"
