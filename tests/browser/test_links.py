"""Links organisers paste: deep links to one rule, the language switcher keeping the anchor,
search in the page's language only, and the copy-link control."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from calculators.i18n import LANGUAGES, language_folder
from sitebuild.words import words
from tests.browser.pages import pick_language, toast

#: Links and the page around the calculators: their engine is not started (conftest: HELD_ENGINE).
pytestmark = pytest.mark.engine_held

PREFIX = {lang: language_folder(lang) for lang in LANGUAGES}


def in_viewport(page, selector: str) -> bool:
    return page.evaluate(
        """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
                     return r.top >= 0 && r.top < innerHeight; }""",
        selector,
    )


# One page (conftest: "Languages"): the browser's :target and the site's outline, the same on every page.
@pytest.mark.parametrize(("lang", "link"), [("fr", "naruto/#naruto-reserve-limits-2")])
def test_deep_link_scrolls_to_the_rule_and_highlights_it(page, site_url, lang, link):
    page.goto(f"{site_url}/{PREFIX[lang]}{link}")
    anchor = link.split("#")[1]
    rule = page.locator(f"#{anchor}")
    expect(rule).to_be_in_viewport()
    assert in_viewport(page, f"#{anchor}")
    assert page.evaluate(f"document.querySelector('#{anchor}').matches(':target')")
    outline = rule.evaluate("el => getComputedStyle(el).outlineStyle")
    assert outline == "solid"
    # a rule that is not the target is not highlighted
    other = page.locator("p[id]:not(:target)").first
    assert other.evaluate("el => getComputedStyle(el).outlineStyle") == "none"


@pytest.mark.parametrize(("start", "target", "expected"), [  # to the root's language and from it
    ("it/judge-tower/#jt-shame-2", "en", "/judge-tower/#jt-shame-2"),
    ("pokemon/#pokemon-single-2", "fr", "/fr/pokemon/#pokemon-single-2"),
])
def test_language_switcher_keeps_page_and_anchor(page, site_url, start, target, expected):
    page.goto(f"{site_url}/{start}")
    pick_language(page, target)
    expect(page).to_have_url(f"{site_url}{expected}")
    anchor = expected.split("#")[1]
    expect(page.locator(f"#{anchor}")).to_be_in_viewport()


def test_switcher_follows_a_new_anchor(page, site_url):
    page.goto(f"{site_url}/fr/naruto/")
    page.locator("#naruto-tiebreak-4").get_by_role("link", name=words("fr")("ui.rule.copy.rule"), exact=True).click()
    expect(page.locator('.md-select__link[hreflang="it"]')).to_have_attribute(
        "href", f"{site_url}/it/naruto/#naruto-tiebreak-4")


@pytest.mark.parametrize(("lang", "term", "language_word"), [
    ("fr", "départager", "fr"), ("it", "Riserva", "it"), ("en", "Sideboard", "en"),
])
def test_search_stays_in_the_page_language(page, site_url, lang, term, language_word):
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{site_url}/{PREFIX[lang]}")
    meta = page.locator(".md-search-result__meta")
    # "Initializing search", in the page's language, as served (the live text may already have changed)
    served = page.request.get(page.url).text()
    initializing = re.search(r'md-search-result__meta">\s*([^<]+?)\s*<', served).group(1)
    page.locator(".md-search__input").click()
    expect(meta).not_to_have_text(initializing)  # the index is loaded: typing now is searched
    page.locator(".md-search__input").press_sequentially(term)  # Material searches on key events
    results = page.locator(".md-search-result__link")
    expect(results.first).to_be_visible()
    # read in one go: Material re-renders the list as each key's search completes
    hrefs = results.evaluate_all("links => links.map((link) => link.getAttribute('href'))")
    assert hrefs
    others = [p for code, p in PREFIX.items() if code != lang and p]
    for href in hrefs:
        path = href.removeprefix(site_url)
        assert path.startswith(f"/{PREFIX[lang]}"), href
        assert not any(path.startswith(f"/{p}") for p in others), href


@pytest.mark.parametrize("lang", ["it"])  # one language (conftest: "Languages")
def test_copy_link_puts_the_absolute_url_on_the_clipboard(page, site_url, lang):
    page.goto(f"{site_url}/{PREFIX[lang]}judge-tower/")
    control = page.locator("#jt-end-1").get_by_role("link", name=words(lang)("ui.rule.copy.rule"), exact=True)
    expect(control).to_be_visible()
    control.click()
    expected = f"{site_url}/{PREFIX[lang]}judge-tower/#jt-end-1"
    expect(toast(page)).to_contain_text(expected)
    assert page.evaluate("navigator.clipboard.readText()") == expected
    # headings too, with the same control
    page.locator("#jt-shame").get_by_role("link", name=words(lang)("ui.rule.copy.section"), exact=True).click()
    expect(toast(page)).to_contain_text(f"{PREFIX[lang]}judge-tower/#jt-shame")
    assert page.evaluate("navigator.clipboard.readText()") == f"{site_url}/{PREFIX[lang]}judge-tower/#jt-shame"


def test_copy_link_by_touch(phone, site_url):
    page = phone
    page.goto(f"{site_url}/it/pokemon/")
    control = page.locator("#pokemon-bo3-2").get_by_role("link", name=words("it")("ui.rule.copy.rule"), exact=True)
    box = control.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    control.tap()
    expect(toast(page)).to_contain_text(f"{site_url}/it/pokemon/#pokemon-bo3-2")
