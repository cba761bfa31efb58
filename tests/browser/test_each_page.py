"""One visit per page, for what needs nothing but that page: axe-core, touch targets on a phone and
text at 200 % zoom on every page of every language; then, where a page has forms to type into,
hostile input in every form and every calculator with the keyboard alone.

A calculator page's load is most of what a check of it costs (1.3–1.7 s of CPU, DESIGN.md "Tests"), so
these checks share it. Every test's page is watched (conftest): a page error, a console error or a
CSP violation fails it.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from calculators import CALCULATORS
from tests.browser.large_text import assert_reflows_with_large_text
from tests.browser.pages import (COLOUR_RULES, all_pages, assert_axe_clean, expect_verdict, forms_to_type_into, in_its_language,
                                 in_its_turn, open_ready, paste_and_expect_verdict)
from tests.browser.test_questions import unasked_as_opened, unasked_in_every_choice

HOSTILE_NAME = '<b class="hostile">Kakashi</b>'
#: Valid input per calculator, typed with the keyboard (radios: the value to choose with the arrows).
#: A calculator missing here is still walked through with Tab.
SAMPLES = {
    "naruto-rounds": {"players": "24"},
    "naruto-reserve": {"deck": f"3 {HOSTILE_NAME} [ninja]"},
    "naruto-end-of-time": {"name_a": HOSTILE_NAME, "starter": "a", "active": "b"},
    "naruto-tiebreak": {"name_a": HOSTILE_NAME, "rewards_a": "3", "rewards_b": "2"},
    "judge-tower-hand": {"level": "2"},
    "judge-tower-shame": {"shame": f"{HOSTILE_NAME}: 3, Bob: 0"},
    "pokemon-time-limit": {"name_a": HOSTILE_NAME, "late_a": "no", "late_b": "no", "prizes_a": "3", "prizes_b": "4",
                           "games_a": "1", "games_b": "1", "in_progress": "yes"},
}


#: Pixel 7, as Playwright's device list has it: 412 x 839 CSS px, 2.625 device pixels per CSS px.
PHONE = {"width": 412, "height": 839, "deviceScaleFactor": 2.625, "mobile": True, "screenWidth": 412, "screenHeight": 915}


def lay_out(cdp, page, width: int | None) -> None:
    """Lay the open page out as a Pixel 7 (a mobile viewport, touch) ``width`` CSS px wide, what a
    new phone context would show without starting another context (and its engine); or, with None,
    as the desktop it was opened on."""
    if width is None:
        cdp.send("Emulation.clearDeviceMetricsOverride")
        cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": False})
        assert page.evaluate("matchMedia('(pointer: coarse)').matches") is False
        return
    cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    cdp.send("Emulation.setDeviceMetricsOverride", {**PHONE, "width": width})
    # the screen's width (a mobile innerWidth grows with what overflows: the zoom check's subject)
    assert page.evaluate("[document.documentElement.clientWidth, matchMedia('(pointer: coarse)').matches]") == [width, True]


#: What would restyle the whole page once it is laid out (DESIGN.md: "Material's start-up restyles
#: nothing"): a class change on <html> once the body exists, a colour attribute of <body> set once the
#: article exists (Material's palette component did, four times a load: "Dark scheme"), an insertion at
#: the article's top level once the page is parsed (observed from DOMContentLoaded on, before Material's
#: listener runs).
WHOLE_PAGE_RESTYLES = """
window.__restyles = [];
new MutationObserver((records) => {
  for (const r of records) {
    if (r.target === document.documentElement && r.attributeName === "class" && document.body && r.oldValue !== r.target.getAttribute("class"))
      window.__restyles.push(`<html class="${r.oldValue}"> became "${r.target.getAttribute("class")}"`);
    if (r.target === document.body && r.attributeName !== "class" && document.querySelector("article"))
      window.__restyles.push(`<body ${r.attributeName}="${r.oldValue}"> became "${r.target.getAttribute(r.attributeName)}"`);
  }
}).observe(document, { subtree: true, attributes: true, attributeOldValue: true, attributeFilter: ["class",
  "data-md-color-scheme", "data-md-color-primary", "data-md-color-accent", "data-md-color-media", "data-md-color-switching"] });
document.addEventListener("DOMContentLoaded", () => {
  new MutationObserver((records) => {
    for (const r of records) window.__restyles.push(`the article's top level: ${r.addedNodes.length} in, ${r.removedNodes.length} out`);
  }).observe(document.querySelector("article"), { childList: true });
}, { capture: true });  // at the document, before its other listeners (Material's)
"""


@pytest.mark.parametrize("path", all_pages())
def test_each_page_in_one_visit(page, site_url, path, subtests):
    """Three layouts (each follows the viewport): axe-core on the page as a desktop shows it, in the
    light scheme, then (one language of each page, in turn: the colours are the same in every
    language) in the dark one as a device's setting turns it on (Material's slate palette; the rest
    of the visit stays in it); the page as a Pixel 7 shows it (412 CSS px, touch): every
    target at least 44 px; and at 200 % zoom (206 CSS px): nothing may need horizontal scrolling
    (wide tables scroll inside their own box, as Material does); on a 320 px phone with text at 200 %
    (tests/browser/large_text.py). Then, as a desktop again, on a page with forms to type into: hostile strings in
    each form, then each calculator with the keyboard alone (last: it leaves correct verdicts).
    First of all: every visible control shows its question (test_questions.py), Material's start-up
    restyled nothing, and still put each table in its scrolling box; last, every combination of each
    calculator's choices shows every control's question.

    One visit, one named result per concern (a subtest each: a failure names the concern, and the
    concerns after it still run)."""
    page.add_init_script(WHOLE_PAGE_RESTYLES)
    calculators = open_ready(page, site_url, path)
    with subtests.test("every control asks its question, as opened"):
        assert unasked_as_opened(page) == []
    with subtests.test("restyles"):
        assert page.evaluate("window.__restyles") == []
    with subtests.test("table boxes"):
        boxes, wrapped, unboxed = page.evaluate("""['article > .table-box', 'article > .table-box > .md-typeset__scrollwrap > .md-typeset__table > table',
            'article > .md-typeset__scrollwrap'].map((selector) => document.querySelectorAll(selector).length)""")
        assert (wrapped, unboxed) == (boxes, 0), (boxes, wrapped, unboxed)
    with subtests.test("axe, light scheme"):
        assert_axe_clean(page)
    if in_its_turn(path):  # the same colours in every language: one language of each page, in turn
        page.emulate_media(color_scheme="dark")  # as a device's setting turns it on; the rest runs in it
        expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "slate")
        with subtests.test("axe, dark scheme"):  # what the scheme changes: colours (the rest: the light run)
            assert_axe_clean(page, only=COLOUR_RULES)
    cdp = page.context.new_cdp_session(page)
    lay_out(cdp, page, PHONE["width"])
    with subtests.test("touch targets"):
        assert too_small(page, TARGETS) == []
    lay_out(cdp, page, PHONE["width"] // 2)
    with subtests.test("200 % zoom"):
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{overflow} px of horizontal scrolling"
        for uid, _, _ in calculators:
            box = page.locator(f"#{uid}").bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] // 2, (uid, box)
        assert page.evaluate("parseFloat(getComputedStyle(document.querySelector('.md-typeset')).fontSize)") >= 12
    with subtests.test("large text on a 320 px phone"):
        assert_reflows_with_large_text(page, cdp)
    lay_out(cdp, page, None)
    forms = forms_to_type_into().get(path, [])
    for uid, calc_id, lang in forms:
        with subtests.test("hostile input", calculator=uid):
            hostile_strings(page, uid, calc_id, lang)
    for uid, calc_id, lang in forms:
        with subtests.test("keyboard alone", calculator=uid):
            keyboard_alone(page, uid, calc_id, lang)
    walked = [uid for uid, _, _ in in_its_language(path)]
    with subtests.test("every control asks its question, in every choice"):  # last: it leaves other choices
        assert unasked_in_every_choice(page, walked) == []


# --- Hostile input ---------------------------------------------------------------------------------------

PWN = "window.__pwned=1"
#: Pasted into every text field: markup, script, format placeholders, huge and odd numbers.
PASTED = [
    f'<img class="hostile" src=x onerror="{PWN}">',
    f'"><script class="hostile">{PWN}</script>',
    '<b class="hostile">bold</b> {label} {0} %s',
    "9" * 400,
    "-1e309",
    "\u202e\u00a0NaN\u2212",
]
PASTED_LIST = f'3 <b class="hostile">Kakashi</b> [ninja]\n2 <img class="hostile" src=x onerror="{PWN}">\n#</textarea>'
TYPED = '<i class="hostile">x</i>{value}'


def no_markup_ran(page) -> None:
    """User text was displayed as text: no element was made from it, no script of it ran."""
    made, ran = page.evaluate("[document.querySelectorAll('.hostile').length, window.__pwned ?? null]")
    assert made == 0 and ran is None, (made, ran)


#: The calculator's text fields that show (not presets, nor fields its current values hide).
_TYPEABLE = """(el, names) => names.filter((name) => {
  const control = el.querySelector(`form [name="${CSS.escape(name)}"]:not([type=hidden])`);
  return control && control.getClientRects().length > 0;
})"""


def hostile_strings(page, uid: str, calc_id: str, lang: str) -> None:
    """Each hostile value is pasted into every typeable field of the form at once (one verdict then
    shows every field's error, each checked against ``evaluate()``), then one field is typed into key
    by key (the form's input handler and the order of answers; the handler is the form's, not the
    field's). A hostile name inside a correct verdict: :func:`keyboard_alone`."""
    calc = page.locator(f"#{uid}")
    names = calc.evaluate(_TYPEABLE, [f.name for f in CALCULATORS[calc_id].fields if f.kind != "choice"])
    if not names:
        return  # choices only (judge-tower-hand)
    for value in PASTED + [PASTED_LIST]:
        # A paste: the whole value at once (a single-line field drops the list's line breaks).
        paste_and_expect_verdict(calc, calc_id, lang, dict.fromkeys(names, value))
        no_markup_ran(page)
    paste_and_expect_verdict(calc, calc_id, lang, dict.fromkeys(names, ""))
    first = calc.locator(f'form [name="{names[0]}"]')
    first.press_sequentially(TYPED)  # typed, one key at a time
    expect_verdict(calc, calc_id, lang)
    first.fill("")
    expect_verdict(calc, calc_id, lang)
    no_markup_ran(page)


# --- The keyboard alone ----------------------------------------------------------------------------------


def focused(page) -> dict:
    return page.evaluate("""() => { const e = document.activeElement;
        return {inCalc: !!e.closest('.calc'), calc: e.closest('.calc')?.id, tag: e.tagName, name: e.name || '',
                type: e.type || '', value: e.value ?? '', checked: !!e.checked,
                outline: getComputedStyle(e).outlineStyle !== 'none' || getComputedStyle(e).boxShadow !== 'none'}; }""")


def keyboard_alone(page, uid: str, calc_id: str, lang: str) -> None:
    """From just before the form, Tab reaches every field (each with a visible focus) and its
    buttons; radios are chosen with the arrows; the sample typed in gives a correct verdict, a
    hostile name in it shown as text."""
    calc = page.locator(f"#{uid}")
    sample = SAMPLES.get(calc_id, {})
    # Start where a user tabbing down the page arrives: just before the form.
    calc.locator(".calc-title").evaluate("el => { el.tabIndex = -1; el.focus(); }")
    visited: list[str] = []
    for _ in range(80):
        page.keyboard.press("Tab")
        now = focused(page)
        if now["calc"] != uid:
            break
        assert now["outline"], f"{uid}: no visible focus on {now}"
        key = now["name"] or now["tag"]
        if key in visited and now["type"] == "radio":
            continue
        visited.append(key)
        want = sample.get(now["name"])
        if want is None or now["type"] == "hidden":
            continue
        if now["type"] == "radio":
            if not now["checked"]:
                page.keyboard.press("Space")
            for _ in range(len(CALCULATORS[calc_id].field(now["name"]).choices)):
                if focused(page)["value"] == want:
                    break
                page.keyboard.press("ArrowRight")
            assert focused(page)["value"] == want and focused(page)["checked"]
        else:
            page.keyboard.press("ControlOrMeta+A")
            page.keyboard.type(want)
    else:
        pytest.fail(f"{uid}: focus never left the calculator")
    visible = calc.evaluate("""el => [...new Set([...el.querySelectorAll('form [name]')]
        .filter((c) => c.type !== 'hidden' && c.getClientRects().length).map((c) => c.name))]""")
    assert [k for k in visited if k in visible] == visible, f"{uid}: Tab reached {visited}, fields {visible}"
    assert "BUTTON" in visited  # the share button (and retry when shown) are reachable too
    if sample:
        verdict = expect_verdict(calc, calc_id, lang)
        assert verdict["ok"], verdict["errors"]
        if HOSTILE_NAME in "".join(sample.values()) and HOSTILE_NAME in " ".join([verdict["summary"], *verdict["details"]]):
            expect(calc.locator(".calc-verdict")).to_contain_text(HOSTILE_NAME)  # as text
    expect(page.locator(".hostile")).to_have_count(0)


def too_small(page, selector: str) -> list[str]:
    return page.evaluate("""(sel) => [...document.querySelectorAll(sel)]
        .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
        .map((e) => [e, e.getBoundingClientRect()])
        .filter(([, r]) => r.width < 43.5 || r.height < 43.5)
        .map(([e, r]) => `${e.outerHTML.slice(0, 80)} ${r.width.toFixed(1)}x${r.height.toFixed(1)}`)""", selector)


TARGETS = ", ".join([
    ".calc input[type=text]", ".calc textarea", ".calc .calc-choice", ".calc button",
    ".md-typeset a.rule-link", ".md-typeset a.headerlink", ".md-typeset details.og > summary", ".og-all",
])


def test_each_page_with_forms_is_one_of_the_pages_visited():
    """The forms are typed into on the pages of the one-visit test, by the same path (a path of
    another form would leave them untyped, and that test passing)."""
    forms = forms_to_type_into()
    assert forms and set(forms) <= set(all_pages()), sorted(set(forms) - set(all_pages()))
