"""Printing a rules page gives the rules: no navigation, no search, calculators reduced to their text."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.pages import engine_status, summary

from calculators import evaluate
from calculators.i18n import Translator


PAGES = ["naruto/", "fr/judge-tower/", "it/pokemon/"]


@pytest.mark.engine_held  # the print styles; a printed verdict: test_print_keeps_a_verdict
@pytest.mark.parametrize("path", PAGES)
def test_print_shows_the_rules_only(page, site_url, path):
    page.goto(f"{site_url}/{path}")
    # on screen, the chrome is there
    expect(page.locator(".md-header")).to_be_visible()
    page.emulate_media(media="print")
    for chrome in (".md-header", ".md-sidebar--primary", ".md-search", ".md-footer"):
        for element in page.locator(chrome).all():
            expect(element).to_be_hidden()
    calc = page.locator(".calc").first
    expect(calc.locator(".calc-title")).to_be_visible()  # the calculator's text stays
    expect(calc.locator("form")).to_be_hidden()  # its controls go
    expect(engine_status(calc)).to_be_hidden()
    expect(calc.locator(".calc-share")).to_be_hidden()
    expect(calc.locator(".calc-qr")).to_be_hidden()
    expect(page.locator(".rule-link").first).to_be_hidden()
    rule = page.locator("article p[id]").first
    expect(rule).to_be_visible()
    assert len(rule.inner_text()) > 20


def test_print_keeps_a_verdict(open_calc, page):
    calc = open_calc("fr/naruto/", "naruto-rounds")
    page.get_by_label(Translator("fr")("naruto-rounds.players.label"), exact=True).fill("24")
    expect(summary(calc)).to_have_text(evaluate("naruto-rounds", {"players": "24"}, "fr")["summary"])
    page.emulate_media(media="print")
    expect(summary(calc)).to_be_visible()
    expect(calc.locator("form")).to_be_hidden()
