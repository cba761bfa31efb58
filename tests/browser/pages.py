"""The built site's pages (the rule model's: sitebuild/rulebook.py) and calculators, found in their HTML
(new pages and calculators are covered without editing the tests), and helpers shared by the hardening tests."""

from __future__ import annotations

import functools
import json
import re

from axe_playwright_python.sync_playwright import Axe, AxeResults
from playwright.sync_api import expect

from calculators import CALCULATORS, evaluate, field_label
from calculators.i18n import LANGUAGES, Translator, language_folder
from sitebuild.rulebook import book
from tests.browser.conftest import ENGINE_TIMEOUT_MS, SITE, expect_ready

_CALC = re.compile(r'<div class="calc" id="(calc-[a-z0-9-]+)"[^>]*\sdata-calc="([a-z0-9-]+)"[^>]*\sdata-lang="([a-z]+)"')


#: axe-core's rules that read colours: all that differs between the light and the dark scheme (a dark
#: run checks these; the light run, every rule).
COLOUR_RULES = ["color-contrast", "link-in-text-block"]
_AXE = Axe().axe_script


def assert_axe_clean(page, only: list[str] | None = None) -> None:
    """axe-core finds no violation on the page as it is now (of its rules ``only``, if given). Only
    violations are detailed (what is asserted): not listing every passing node halves axe's run (~2 s
    to ~1 s a page here)."""
    options = {"resultTypes": ["violations"], **({"runOnly": {"type": "rule", "values": only}} if only else {})}
    if not page.evaluate("typeof axe === 'object'"):  # its 0.6 MB once per page, not once per run
        page.evaluate(_AXE)
    results = AxeResults(page.evaluate("(options) => axe.run(options)", options))
    assert results.violations_count == 0, results.generate_report()


# Finding things as a user does (issue 61): by role, label or text wherever the markup gives one
# (sitebuild/render.py: each calculator a region named by its title, its buttons named by the catalogs,
# its fields labelled). The parts below have no role or name of their own, or share theirs with others
# in the same calculator; each is named here once, so that a change of markup is one edit.


def calculator(page, lang: str, calc_id: str):
    """The calculator ``calc_id`` on ``page`` in ``lang``: the region named by its title."""
    return page.get_by_role("region", name=Translator(lang)(f"{calc_id}.title"), exact=True)


def field(calc, lang: str, calc_id: str, name: str, inputs: dict[str, str] | None = None):
    """The text field or question ``name`` of the calculator, by its label as the form shows it for
    ``inputs`` (a variant label's choice), "(optional)" included."""
    t = Translator(lang)
    label = field_label(t, calc_id, name, inputs)
    if CALCULATORS[calc_id].field(name).marked_optional:
        label += f" {t('field.optional')}"
    return calc.get_by_label(label, exact=True)


def pick_language(page, lang: str) -> None:
    """Open Material's language menu and pick ``lang`` (the menu's words are Material's, not the
    catalogs': the link is the one in that language)."""
    page.locator(".md-select").first.hover()
    page.locator(f'.md-select__link[hreflang="{lang}"]').click()


def summary(calc):
    """The verdict's first line: a paragraph in the verdict's live region (no role, no name)."""
    return calc.locator(".calc-summary")


def verdict_region(calc):
    """The verdict: a live region (aria-live, no role) holding the summary and the details."""
    return calc.locator(".calc-verdict")


def details(calc):
    """The verdict's details, one item each (listitem is also the role of a widget's rows)."""
    return calc.locator(".calc-details > li")


def checklist(calc):
    """naruto-end-of-time's checklist of the turns left: the verdict's list whose items are checkboxes
    (the plain details list hides under it)."""
    return calc.get_by_role("list").filter(has=calc.page.get_by_role("checkbox"))


def engine_status(calc):
    """The line that says whether the calculator's engine is starting, ready or failed: role status,
    as are a question's "still to answer" note and the shame tracker's counters."""
    return calc.locator(".calc-status")


def field_errors(calc):
    """Each field's error box, in page order (hidden while empty; role alert, or status for an
    answer still to give): read by the field it belongs to, which has no name of its own."""
    return calc.locator("[data-field] .calc-error")


def field_error(calc, field: str):
    """The error box of the field named ``field`` in the form (see :func:`field_errors`)."""
    return calc.locator(f'[data-field="{field}"] .calc-error')


def shame_tracker(calc, lang: str):
    """Judge Tower's table-side tracker: a region named by the catalog."""
    return calc.get_by_role("region", name=Translator(lang)("judge-tower-shame.ui.tracker"), exact=True)


def shame_rows(calc, lang: str):
    """The tracker's players: the list items with a name field (a shared copy's list of differences
    has items too). In a row, the counter is its one status (an <output>), the name its one textbox."""
    return shame_tracker(calc, lang).get_by_role("listitem").filter(has=calc.page.get_by_role("textbox"))


def shame_bar(calc):
    """The tracker's bar (a button named by the verdict it shows, whatever it says)."""
    return calc.locator(".shame-bar")


def offline_line(page):
    """The line at the top of every page that says whether this phone is ready for a hall with no
    signal: the one status in Material's announcement bar (overrides/main.html)."""
    return page.get_by_role("complementary").get_by_role("status")


def toast(page):
    """The note that says a link was copied (role status, as each calculator's engine line is)."""
    return page.locator(".link-toast")


def all_pages() -> list[str]:
    """Every page's URL path ("", "naruto/", "fr/naruto/", "404.html"): the rule model's pages."""
    if not SITE.is_dir():
        return []  # the site fixture says how to build it
    return sorted([page.url for page in book().pages.values()] + ["404.html"])


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


def language_free(path: str) -> str:
    """The page at ``path`` whatever its language ("fr/naruto/" and "naruto/": "naruto/")."""
    folder = next((f for f in map(language_folder, LANGUAGES) if f and path.startswith(f)), "")
    return path[len(folder):]


@functools.cache
def _turns() -> dict[tuple[str, str], str]:
    """(page whatever its language, calculator's DOM id) -> the one language its instance is walked in
    by the checks whose path is the same in every language (conftest: "Languages"), in turn."""
    keys = sorted({(language_free(path), uid) for path in calculator_pages() for uid, _, _ in calculators_on(path)})
    return {key: LANGUAGES[i % len(LANGUAGES)] for i, key in enumerate(keys)}


@functools.cache
def _page_turns() -> frozenset[str]:
    """Of each page's languages, the one whose turn it is (in turn across the pages, as ``_turns``)."""
    pages = all_pages()
    kinds = sorted({language_free(p) for p in pages})
    versions = [sorted(p for p in pages if language_free(p) == kind) for kind in kinds]
    return frozenset(paths[i % len(paths)] for i, paths in enumerate(versions))


def in_its_turn(path: str) -> bool:
    """Whether the page at ``path`` is the one of its languages (in turn across the pages) that runs a
    check whose path is the same in every language (conftest: "Languages"): the dark scheme's colours."""
    return path in _page_turns()


def in_its_language(path: str) -> list[tuple[str, str, str]]:
    """The calculators of the page at ``path`` whose turn is this page's language: across the three
    languages, each instance (a rule page's, a blitz copy, the clock's presets) once."""
    return [calc for calc in calculators_on(path) if _turns()[(language_free(path), calc[0])] == calc[2]]


@functools.cache
def forms_to_type_into() -> dict[str, list[tuple[str, str, str]]]:
    """The calculators to type into, by page: each calculator's every text field (or its choices,
    when it has no text field) once, in one language (the script path is the same in every language;
    each language's words and errors: the catalogs' and evaluate()'s tests), on the first page that
    shows it. The round clock embeds the rule pages' calculators with presets; an instance whose
    fields were all typed into elsewhere is the same form and checks nothing more. (Read once: the
    built site does not change during a run.)"""
    instances = [(path, *calc) for path in calculator_pages() for calc in in_its_language(path)]
    instances.sort(key=lambda i: i[1] != f"calc-{i[2]}")  # each rule page's own instance first
    seen, pages = set(), {}
    for path, uid, calc_id, lang in instances:
        fields = {(calc_id, name) for name in typeable_fields(path, uid) or [""]}  # "": choices only
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
#: Everything a verdict sets (calc.js writes a verdict in one go, so once its texts are in, so is this).
_SHOWN = r"""(el) => ({
  values: %s,
  summary: el.querySelector('.calc-summary').textContent,
  details: [...el.querySelectorAll('.calc-details > li')].map((li) => li.textContent),
  live: el.querySelector('.calc-verdict').getAttribute('aria-live'),
  result: el.dataset.result,
  invalid: el.querySelectorAll('[aria-invalid]').length,
  boxes: [...el.querySelectorAll('[data-field] .calc-error')].map((b) => ({
    field: b.closest('[data-field]').dataset.field, text: b.textContent, role: b.getAttribute('role'), id: b.id,
    needed: b.classList.contains('calc-needed')})),
  controls: [...el.querySelectorAll('[data-field] input, [data-field] textarea')].map((c) => ({
    field: c.closest('[data-field]').dataset.field, invalid: c.getAttribute('aria-invalid'),
    describedby: (c.getAttribute('aria-describedby') || '').split(/\s+/)})),
})""" % _VALUES
#: Pastes ``values`` into the calculator's fields (each as a paste: the whole value, one input
#: event), waits for the verdict calc.js renders for them, and returns what it shows. calc.js
#: renders only the answer to the latest input, so the first verdict after the last paste is theirs.
_PASTE = """async (el, [values, timeout]) => {
  const shown = %s;
  const rendered = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no verdict after ${timeout} ms`)), timeout);
    el.addEventListener("calc:verdict", () => { clearTimeout(timer); resolve(); }, { once: true });
  });
  for (const [name, value] of Object.entries(values)) {
    const control = el.querySelector(`form [name="${CSS.escape(name)}"]:not([type=hidden])`);
    control.value = value;
    control.dispatchEvent(new Event("input", { bubbles: true }));
  }
  await rendered;
  return shown(el);
}""" % _SHOWN


def _expected(verdict: dict, boxes: list[str]) -> tuple[str, list[str], dict[str, str]]:
    """What the page must show for ``verdict``: the summary, the details, and each error box's text
    by field (an error with no box of its own goes to the summary)."""
    if verdict["ok"]:
        return verdict["summary"], verdict["details"], {}
    placed, unplaced = {}, []
    for error in verdict["errors"]:
        if error["field"] in boxes:
            placed[error["field"]] = error["message"]
        else:
            unplaced.append(error["message"])
    return " ".join(unplaced), [], placed


def check_shown(shown: dict, calc_id: str, lang: str) -> dict:
    """The calculator shows exactly what ``evaluate()`` says for its form's values (``shown``: what
    _SHOWN read), announced the accessible way; an invalid form shows no verdict. Returns the verdict."""
    verdict = evaluate(calc_id, shown["values"], lang)
    summary, details, placed = _expected(verdict, [box["field"] for box in shown["boxes"]])
    assert " ".join(shown["summary"].split()) == " ".join(summary.split()), (shown["summary"], summary)
    assert shown["details"] == details
    assert [box["text"] for box in shown["boxes"]] == [placed.get(box["field"], "") for box in shown["boxes"]]
    assert shown["live"] == "polite"
    if verdict["ok"]:
        assert json.loads(shown["result"]) == verdict["result"]
        assert shown["invalid"] == 0
        return verdict
    assert shown["result"] == "null"
    codes = {error["field"]: error["code"] for error in verdict["errors"]}
    for field in placed:
        box = next(box for box in shown["boxes"] if box["field"] == field)
        controls = [c for c in shown["controls"] if c["field"] == field]
        assert controls, field
        if box["needed"]:  # an answer not given yet, on a field not touched: a polite note, nothing invalid
            assert codes[field] in ("required", "needed") and box["role"] == "status", (field, box)
            assert all(control["invalid"] is None for control in controls), (field, controls)
            continue
        assert box["role"] == "alert", (field, box)
        for control in controls:
            assert control["invalid"] == "true" and box["id"] in control["describedby"], (field, control, box)
    return verdict


#: Resolves once the calculator's data-result holds ``want`` (compared as JSON values: 6.0 is 6, and the
#: build's tables write an object's keys in another order than the engine).
_RESULT_IS = """(el, [want, timeout]) => new Promise((resolve, reject) => {
  const canon = (v) => Array.isArray(v) ? `[${v.map(canon)}]` : v && typeof v === "object"
    ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canon(v[k])}`)}}` : JSON.stringify(v);
  const same = () => { try { return canon(JSON.parse(el.dataset.result)) === canon(want); } catch { return false; } };
  if (same()) return resolve();
  const timer = setTimeout(() => { observer.disconnect(); reject(new Error(`data-result ${el.dataset.result} after ${timeout} ms`)); }, timeout);
  const observer = new MutationObserver(() => { if (same()) { observer.disconnect(); clearTimeout(timer); resolve(); } });
  observer.observe(el, { attributes: true, attributeFilter: ["data-result"] });
})"""


def expect_verdict(calc, calc_id: str, lang: str) -> dict:
    """The page shows exactly what ``evaluate()`` says for the form's current values (waiting for
    the engine's answer), announced the accessible way. Returns the verdict."""
    before = calc.evaluate(_BEFORE)
    verdict = evaluate(calc_id, before["values"], lang)
    said, listed, placed = _expected(verdict, before["boxes"])
    # The texts and the result wait for the engine's answer (the previous verdict may have had the same
    # texts and another result: different card names); the rest is then read at once.
    expect(summary(calc)).to_have_text(said)
    expect(details(calc)).to_have_text(listed)
    expect(field_errors(calc)).to_have_text([placed.get(field, "") for field in before["boxes"]])
    calc.evaluate(_RESULT_IS, [verdict["result"] if verdict["ok"] else None, ENGINE_TIMEOUT_MS])
    return check_shown(calc.evaluate(_SHOWN), calc_id, lang)


def paste_and_expect_verdict(calc, calc_id: str, lang: str, values: dict[str, str]) -> dict:
    """Paste ``values`` (field -> text) into the calculator at once, then as :func:`expect_verdict`,
    in one call to the page."""
    return check_shown(calc.evaluate(_PASTE, [values, ENGINE_TIMEOUT_MS]), calc_id, lang)


def expect_failed_then_retry(page, unroute: str = "**/*", reloads: bool = False) -> None:
    """French naruto-rounds could not start: the localized error and a retry, the rules still readable;
    once ``unroute`` lets the engine's files through, retry starts it and it answers. ``reloads``: a
    script of the page failed, and retry reloads the page (site.js, calc.js)."""
    t = Translator("fr")
    calc = page.locator("#calc-naruto-rounds")
    expect(calc).to_have_attribute("data-state", "error")
    expect(engine_status(calc)).to_have_text(t("ui.failed"))
    retry = calc.get_by_role("button", name=t("ui.retry"))
    expect(retry).to_be_visible()
    expect(retry).to_be_enabled()
    expect(page.locator("#naruto-rounds")).to_be_visible()  # the rules stay readable
    page.unroute(unroute)
    if reloads:
        with page.expect_navigation():
            retry.click()
    else:
        retry.click()
    expect_ready(calc)
    expect(retry).to_be_hidden()
    page.get_by_label(t("naruto-rounds.players.label"), exact=True).fill("17")
    expect(summary(calc)).to_have_text(evaluate("naruto-rounds", {"players": "17"}, "fr")["summary"])
