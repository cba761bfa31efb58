"""The built site's pages and calculators, found by crawling its HTML files (new pages and
calculators are covered without editing the tests), and helpers shared by the hardening tests."""

from __future__ import annotations

import functools
import json
import re

from playwright.sync_api import expect

from calculators import evaluate
from calculators.i18n import Translator
from tests.browser.conftest import SITE, expect_ready

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


def page_html(path: str) -> str:
    """The built HTML of the page at URL path ``path``."""
    file = SITE / (path + "index.html" if path == "" or path.endswith("/") else path)
    return file.read_text(encoding="utf-8")


def calculators_on(path: str) -> list[tuple[str, str, str]]:
    """(DOM id, calculator id, language) of each calculator on the page at ``path``."""
    return _CALC.findall(page_html(path))


_FIELD = re.compile(r'^" data-field="([a-z0-9_]+)"[^>]*>')


def typeable_fields(path: str, uid: str) -> list[str]:
    """The text fields of calculator ``uid`` on the page at ``path`` that show when the page opens
    (not presets, nor fields its preset choices hide), as the build wrote them."""
    html = page_html(path)
    start = html.index(f'id="{uid}"')
    end = html.find('<div class="calc" id=', start)
    fields = []
    for chunk in html[start:end if end > 0 else None].split('<div class="calc-field')[1:]:
        tag = _FIELD.match(chunk)
        if tag and not re.search(r"\shidden\b", tag.group(0)) and re.search(r'<input type="text"|<textarea', chunk):
            fields.append(tag.group(1))
    return fields


def calculator_pages() -> list[str]:
    return [path for path in all_pages() if calculators_on(path)]


@functools.cache
def forms_to_type_into() -> dict[str, list[tuple[str, str, str]]]:
    """The calculators to type into, by page: each calculator's every text field (or its choices,
    when it has no text field) in each language, on the first page that shows it. The round clock
    embeds the rule pages' calculators with presets; an instance whose fields were all typed into
    elsewhere is the same form and checks nothing more. (Read once: the built site does not change
    during a run.)"""
    instances = [(path, *calc) for path in calculator_pages() for calc in calculators_on(path)]
    instances.sort(key=lambda i: i[1] != f"calc-{i[2]}")  # each rule page's own instance first
    seen, pages = set(), {}
    for path, uid, calc_id, lang in instances:
        fields = {(calc_id, lang, name) for name in typeable_fields(path, uid) or [""]}  # "": choices only
        if fields - seen:
            seen |= fields
            pages.setdefault(path, []).append((uid, calc_id, lang))
    return pages


def open_ready(page, site_url: str, path: str) -> list[tuple[str, str, str]]:
    """Open the page at ``path``, wait until each of its calculators is ready, and return them
    as :func:`calculators_on` lists them."""
    page.goto(f"{site_url}/{path}")
    calculators = calculators_on(path)
    for uid, _, _ in calculators:
        expect_ready(page.locator(f"#{uid}"))
    return calculators


_VALUES = "Object.fromEntries([...new FormData(el.querySelector('form'))].map(([k, v]) => [k, String(v)]))"


def form_values(calc) -> dict[str, str]:
    """What calc.js sends to the engine: the form's FormData."""
    return calc.evaluate(f"el => {_VALUES}")


#: The form's values and, in page order, the field of each error box.
_BEFORE = f"el => ({{values: {_VALUES}, boxes: [...el.querySelectorAll('[data-field] .calc-error')].map((b) => b.closest('[data-field]').dataset.field)}})"
#: Everything else a verdict sets (calc.js writes a verdict in one go, so once its texts are in, so is this).
_RENDERED = r"""el => ({
  live: el.querySelector('.calc-verdict').getAttribute('aria-live'),
  result: el.dataset.result,
  invalid: el.querySelectorAll('[aria-invalid]').length,
  boxes: Object.fromEntries([...el.querySelectorAll('[data-field] .calc-error')]
    .map((b) => [b.closest('[data-field]').dataset.field, {role: b.getAttribute('role'), id: b.id}])),
  controls: [...el.querySelectorAll('[data-field] input, [data-field] textarea')].map((c) => ({
    field: c.closest('[data-field]').dataset.field, invalid: c.getAttribute('aria-invalid'),
    describedby: (c.getAttribute('aria-describedby') || '').split(/\s+/)})),
})"""


def expect_verdict(calc, calc_id: str, lang: str) -> dict:
    """The page shows exactly what ``evaluate()`` says for the form's current values, announced
    the accessible way; an invalid form shows no verdict. Returns the verdict."""
    before = calc.evaluate(_BEFORE)
    verdict = evaluate(calc_id, before["values"], lang)
    last: dict[str, str] = {}
    unplaced = []
    for error in verdict.get("errors", []):
        if error["field"] in before["boxes"]:
            last[error["field"]] = error["message"]
        else:
            unplaced.append(error["message"])
    # The texts wait for the engine's answer; the rest is then read at once.
    expect(calc.locator(".calc-summary")).to_have_text(verdict["summary"] if verdict["ok"] else " ".join(unplaced))
    expect(calc.locator(".calc-details > li")).to_have_text(verdict["details"] if verdict["ok"] else [])
    expect(calc.locator("[data-field] .calc-error")).to_have_text([last.get(field, "") for field in before["boxes"]])
    shown = calc.evaluate(_RENDERED)
    assert shown["live"] == "polite"
    if verdict["ok"]:
        assert json.loads(shown["result"]) == verdict["result"]
        assert shown["invalid"] == 0
        return verdict
    assert shown["result"] == "null"
    for field in last:
        box = shown["boxes"][field]
        assert box["role"] == "alert", (field, box)
        controls = [c for c in shown["controls"] if c["field"] == field]
        assert controls, field
        for control in controls:
            assert control["invalid"] == "true" and box["id"] in control["describedby"], (field, control, box)
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
    expect_ready(calc)
    expect(retry).to_be_hidden()
    page.get_by_label(t("naruto-rounds.players.label"), exact=True).fill("17")
    expect(calc.locator(".calc-summary")).to_have_text(evaluate("naruto-rounds", {"players": "17"}, "fr")["summary"])
