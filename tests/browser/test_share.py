"""Shareable calculators: a filled-in calculator round-trips through its link, in any language;
an invalid link opens showing the localized error. The round planner's chart."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from calculators import evaluate
from tests.browser.conftest import ENGINE_TIMEOUT_MS

PREFIX = {"en": "", "fr": "fr/", "it": "it/"}
LABEL_PLAYERS = {"en": "Number of participants", "fr": "Nombre de participants", "it": "Numero di partecipanti"}


def open_link(browser, watch, url):
    context = browser.new_context()
    page = context.new_page()
    watch.attach(page)
    page.goto(url)
    return context, page


@pytest.mark.parametrize(("lang", "other"), [("fr", "it"), ("it", "en"), ("en", "fr")])
def test_copied_link_reopens_the_same_calculator(context, page, open_calc, browser, watch, site_url, lang, other):
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    calc = open_calc(f"{PREFIX[lang]}naruto/", "naruto-rounds")
    page.get_by_label(LABEL_PLAYERS[lang], exact=True).fill("40")
    page.locator("#calc-naruto-rounds-rounds").fill("6")
    expect(calc.locator(".calc-summary")).to_contain_text("Top 8")
    result = calc.get_attribute("data-result")
    calc.locator(".calc-share").click()
    expect(page.locator(".link-toast")).to_be_visible()
    link = page.evaluate("navigator.clipboard.readText()")
    assert link == f"{site_url}/{PREFIX[lang]}naruto/?naruto-rounds.players=40&naruto-rounds.rounds=6#calc-naruto-rounds"

    for target in (link, link.replace(f"/{PREFIX[lang]}naruto/", f"/{PREFIX[other]}naruto/")):
        fresh, opened = open_link(browser, watch, target)
        again = opened.locator("#calc-naruto-rounds")
        expect(again).to_have_attribute("data-state", "ready", timeout=ENGINE_TIMEOUT_MS)
        expect(opened.locator("#calc-naruto-rounds-players")).to_have_value("40")
        expect(opened.locator("#calc-naruto-rounds-rounds")).to_have_value("6")
        expect(again).to_have_attribute("data-result", result)
        expect(again).to_be_in_viewport()
        fresh.close()
    watch.check()


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_invalid_link_shows_the_localized_error(browser, watch, site_url, lang):
    context, page = open_link(browser, watch, f"{site_url}/{PREFIX[lang]}naruto/?naruto-rounds.players=2#calc-naruto-rounds")
    calc = page.locator("#calc-naruto-rounds")
    expect(calc).to_have_attribute("data-state", "ready", timeout=ENGINE_TIMEOUT_MS)
    expect(page.locator("#calc-naruto-rounds-players")).to_have_value("2")
    message = evaluate("naruto-rounds", {"players": "2"}, lang)["errors"][0]["message"]
    expect(calc.locator(".calc-error").first).to_have_text(message)
    expect(calc).to_have_attribute("data-result", "null")
    expect(calc.locator(".calc-summary")).to_have_text("")
    context.close()
    watch.check()


def test_language_switcher_keeps_the_fields(open_calc, page, site_url):
    calc = open_calc("it/naruto/", "naruto-rounds")
    page.get_by_label(LABEL_PLAYERS["it"], exact=True).fill("12")
    expect(calc.locator(".calc-summary")).to_contain_text("Top 4")
    expect(page).to_have_url(f"{site_url}/it/naruto/?naruto-rounds.players=12")
    page.locator(".md-select").first.hover()
    page.locator('.md-select__link[hreflang="fr"]').click()
    expect(page).to_have_url(f"{site_url}/fr/naruto/?naruto-rounds.players=12")
    french = page.locator("#calc-naruto-rounds")
    expect(french).to_have_attribute("data-state", "ready", timeout=ENGINE_TIMEOUT_MS)
    expect(french.locator(".calc-summary")).to_contain_text("au moins 3 rondes suisses, puis un Top 4")


def test_planner_chart_and_rounds_below_minimum(open_calc, page):
    calc = open_calc("fr/naruto/", "naruto-rounds")
    page.get_by_label(LABEL_PLAYERS["fr"], exact=True).fill("24")
    page.locator("#calc-naruto-rounds-rounds").fill("5")
    figure = calc.locator(".records-figure")
    expect(figure).to_be_visible()
    expect(figure.locator("figcaption")).to_contain_text("Estimation")
    rows = figure.locator("tbody tr")
    expect(rows).to_have_count(6)
    expect(rows.first).to_contain_text("5–0")
    expected = evaluate("naruto-rounds", {"players": "24", "rounds": "5"}, "fr")["result"]
    assert json.loads(calc.get_attribute("data-result")) == expected
    expect(figure.locator("svg[role=img] rect")).to_have_count(6)
    # fewer than the minimum: the rule's error, no chart, no verdict
    page.locator("#calc-naruto-rounds-rounds").fill("3")
    expect(calc.locator("[data-field=rounds] .calc-error")).to_contain_text("minimum de 4 rondes suisses")
    expect(figure).to_be_hidden()
    expect(calc).to_have_attribute("data-result", "null")


def test_tracker_link_opens_the_shared_counters(browser, watch, site_url):
    """A shared Judge Tower link wins over the tracker's stored state; plain visits leave the URL alone."""
    context, page = open_link(browser, watch, f"{site_url}/fr/judge-tower/?judge-tower-shame.shame=Ann%3A%202%0ABob%3A%207%0ACy%3A%20-1#calc-judge-tower-shame")
    calc = page.locator("#calc-judge-tower-shame")
    expect(calc).to_have_attribute("data-state", "ready", timeout=ENGINE_TIMEOUT_MS)
    expect(calc.locator(".shame-row")).to_have_count(3)
    expect(calc.locator(".shame-value")).to_have_text(["2", "7", "−1"])
    expect(calc.locator(".shame-row").nth(1)).to_have_attribute("data-out", "true")  # 7 > 2 × 3
    expected = evaluate("judge-tower-shame", {"shame": "Ann: 2\nBob: 7\nCy: -1"}, "fr")["result"]
    assert json.loads(calc.get_attribute("data-result")) == expected
    context.close()

    context, page = open_link(browser, watch, f"{site_url}/it/judge-tower/")
    calc = page.locator("#calc-judge-tower-shame")
    expect(calc).to_have_attribute("data-state", "ready", timeout=ENGINE_TIMEOUT_MS)
    expect(calc.locator(".shame-bar")).not_to_have_text("")
    assert "?" not in page.url  # the tracker's start-up values are not put in the address bar
    context.close()

    context, page = open_link(browser, watch, f"{site_url}/en/judge-tower/".replace("/en/", "/") + "?judge-tower-shame.shame=abc")
    calc = page.locator("#calc-judge-tower-shame")
    expect(calc).to_have_attribute("data-state", "ready", timeout=ENGINE_TIMEOUT_MS)
    message = evaluate("judge-tower-shame", {"shame": "abc"}, "en")["errors"][0]["message"]
    expect(calc.locator(".calc-error").first).to_have_text(message)
    expect(calc).to_have_attribute("data-result", "null")
    context.close()
    watch.check()
