"""The built site's pages and calculators, found by crawling its HTML files (new pages and
calculators are covered without editing the tests), and helpers shared by the hardening tests."""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from calculators import evaluate
from calculators.i18n import Translator
from tests.browser.conftest import SITE

_CALC = re.compile(r'<div class="calc" id="(calc-[a-z0-9-]+)"[^>]*\sdata-calc="([a-z0-9-]+)"[^>]*\sdata-lang="([a-z]+)"')


def all_pages() -> list[str]:
    """Every page's URL path ("", "naruto/", "fr/naruto/", "404.html")."""
    if not SITE.is_dir():
        return []  # the site fixture says how to build it
    paths = []
    for html in sorted(SITE.rglob("*.html")):
        rel = html.relative_to(SITE).as_posix()
        paths.append(rel.removesuffix("index.html") if rel.endswith("index.html") else rel)
    return paths


def calculators_on(path: str) -> list[tuple[str, str, str]]:
    """(DOM id, calculator id, language) of each calculator on the page at ``path``."""
    file = SITE / (path + "index.html" if path == "" or path.endswith("/") else path)
    return _CALC.findall(file.read_text(encoding="utf-8"))


def calculator_pages() -> list[str]:
    return [path for path in all_pages() if calculators_on(path)]


def open_ready(page, site_url: str, path: str) -> list[tuple[str, str, str]]:
    """Open the page at ``path``, wait until each of its calculators is ready, and return them
    as :func:`calculators_on` lists them."""
    page.goto(f"{site_url}/{path}")
    calculators = calculators_on(path)
    for uid, _, _ in calculators:
        expect(page.locator(f"#{uid}")).to_have_attribute("data-state", "ready")
    return calculators


def form_values(calc) -> dict[str, str]:
    """What calc.js sends to the engine: the form's FormData."""
    return calc.evaluate("el => Object.fromEntries([...new FormData(el.querySelector('form'))].map(([k, v]) => [k, String(v)]))")


def expect_verdict(calc, calc_id: str, lang: str) -> dict:
    """The page shows exactly what ``evaluate()`` says for the form's current values, announced
    the accessible way; an invalid form shows no verdict. Returns the verdict."""
    verdict = evaluate(calc_id, form_values(calc), lang)
    summary = calc.locator(".calc-summary")
    expect(calc.locator(".calc-verdict")).to_have_attribute("aria-live", "polite")
    if verdict["ok"]:
        expect(summary).to_have_text(verdict["summary"])
        expect(calc.locator(".calc-details > li")).to_have_text(verdict["details"])
        assert json.loads(calc.get_attribute("data-result")) == verdict["result"]
        expect(calc.locator("[aria-invalid]")).to_have_count(0)
        return verdict
    last: dict[str, str] = {}
    unplaced = []
    for error in verdict["errors"]:
        if calc.locator(f'[data-field="{error["field"]}"] .calc-error').count():
            last[error["field"]] = error["message"]
        else:
            unplaced.append(error["message"])
    for field, message in last.items():
        box = calc.locator(f'[data-field="{field}"] .calc-error')
        expect(box).to_have_text(message)
        expect(box).to_have_attribute("role", "alert")
        box_id = box.get_attribute("id")
        for control in calc.locator(f'[data-field="{field}"] input, [data-field="{field}"] textarea').all():
            expect(control).to_have_attribute("aria-invalid", "true")
            expect(control).to_have_attribute("aria-describedby", re.compile(rf"(^|\s){re.escape(box_id)}($|\s)"))
    expect(summary).to_have_text(" ".join(unplaced))
    expect(calc).to_have_attribute("data-result", "null")
    expect(calc.locator(".calc-details > li")).to_have_count(0)
    return verdict


def expect_failed_then_retry(page, unroute: str = "**/*") -> None:
    """French naruto-rounds could not start: the localized error and a retry, the rules still readable;
    once ``unroute`` lets the engine's files through, retry starts it and it answers."""
    t = Translator("fr")
    calc = page.locator("#calc-naruto-rounds")
    expect(calc).to_have_attribute("data-state", "error")
    expect(calc.locator(".calc-status")).to_have_text(t("ui.failed"))
    retry = calc.get_by_role("button", name=t("ui.retry"))
    expect(retry).to_be_visible()
    expect(retry).to_be_enabled()
    expect(page.locator("#naruto-rounds")).to_be_visible()  # the rules stay readable
    page.unroute(unroute)
    retry.click()
    expect(calc).to_have_attribute("data-state", "ready")
    expect(retry).to_be_hidden()
    page.get_by_label(t("naruto-rounds.players.label"), exact=True).fill("17")
    expect(calc.locator(".calc-summary")).to_have_text(evaluate("naruto-rounds", {"players": "17"}, "fr")["summary"])
