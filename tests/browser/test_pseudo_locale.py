"""The pseudo-locale (tests/pseudo.py): the site built once more with English replaced by accented,
~40 % longer, bracketed messages and pages, then walked in Chromium at 360 and 1280 px. Every
English page, every calculator at its SPEC example's verdict and at a link's error, the round clock
idle (and its QR code dialog), running with a table's extension, at time and on the room display,
the blitz timer over time and at the losing warning:

- every visible text lies inside ⟦…⟧: a word outside brackets was written in JavaScript, a
  template or Python instead of a catalog (numbers, punctuation, what the user typed, other
  languages' text marked ``lang``, code and addresses, and Material's own chrome, MATERIAL_CHROME,
  excepted);
- nothing overflows its box or is cut where it is not meant to scroll, and the page never scrolls
  sideways.

One build (`make test` makes it, kept in build/pseudo/ with the digest of its inputs), one context whose later pages
restore the engine's snapshot; each state is checked at both widths (the page resized).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from calculators import CALCULATORS, evaluate
from tests import pseudo
from tests.browser.conftest import ENGINE_TIMEOUT_MS, Watch, expect_ready
from tools.serve import serve_in_thread

WIDTHS = (360, 1280)
#: Material's own words (their language is mkdocs.yml's theme.language, their text Material's, not
#: ours to translate), by the element that holds them.
MATERIAL_CHROME = {
    ".md-skip": "Skip to content",
    ".md-search": "the search box: Search, Initializing search, its results' counts",
    ".md-header__option": "the palette toggle and the language menu (each language's own name)",
    ".md-nav--secondary > .md-nav__title": "Table of contents",
    ".md-footer__direction": "Previous, Next",
    ".md-copyright": "Made with Material for MkDocs",
    ".md-top": "Back to top",
    ".md-dialog": "Copied to clipboard",
}
CHROME = ", ".join(MATERIAL_CHROME)
#: Material's frame, whose boxes cut long words on purpose (the header's title and the navigation's
#: entries end in an ellipsis; the phone's navigation drawer slides its panels sideways).
MATERIAL_FRAME = ".md-header, .md-sidebar, .md-footer"
#: Text that is not in one language, so no locale's: code (identifiers, addresses), the address under
#: a QR code, and the glossary's line of each term's names in every language (GLOSSARY_NAMES).
NOT_ONE_LANGUAGE = "code, kbd, pre, .qr-url"
#: A time far past any round's end (a day), for the fake clock to reach "time has been called".
PAST_ANY_ROUND = 24 * 3600 * 1000
START = dt.datetime(2026, 11, 28, 14, 0, tzinfo=dt.timezone.utc)


@pytest.fixture(scope="module")
def pseudo_site():
    site = pseudo.ensure()  # made by make test before the run, unless the checkout changed since
    server = serve_in_thread(site)
    yield f"http://127.0.0.1:{server.server_address[1]}", site
    server.shutdown()
    server.server_close()


#: Each visible text node (a rendered box, not ``visibility: hidden``, not in a closed <details>),
#: in document order, with what of it lies outside every ⟦…⟧; a message split by an element
#: (a name in <strong>) stays one message, so the depth of brackets runs on within a block.
_UNBRACKETED = r"""(chrome) => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const blockOf = (el) => { while (el.parentElement && getComputedStyle(el).display.startsWith("inline")) el = el.parentElement; return el; };
  const where = (el) => { const parts = []; for (; el && el !== document.body; el = el.parentElement)
    parts.unshift(el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.classList[0] ? "." + el.classList[0] : "")); return parts.slice(-4).join(" > "); };
  let depth = 0, block = null;
  for (let node; (node = walker.nextNode());) {
    const el = node.parentElement;
    if (!node.data.trim() || el.closest("script, style, noscript, template") || el.closest(chrome)) continue;
    if (el.closest("[lang]").lang.split("-")[0] !== "en") continue;  // another language's text (an original)
    const range = document.createRange();
    range.selectNodeContents(node);
    if (![...range.getClientRects()].some((r) => r.width > 0 && r.height > 0) || !el.checkVisibility({ visibilityProperty: true })) continue;
    const here = blockOf(el);
    if (here !== block) { if (depth) found.push({ where: where(block), text: "(a message not closed in its block)", outside: "⟦" }); depth = 0; block = here; }
    let outside = "";
    for (const ch of node.data) {
      if (ch === "\u27e6") depth++;
      else if (ch === "\u27e7") depth = Math.max(0, depth - 1);
      else if (!depth) outside += ch;
    }
    if (/\p{L}/u.test(outside)) found.push({ where: where(el), text: node.data.trim().slice(0, 300), outside: outside.trim() });
  }
  return found;
}"""

#: A page wider than the window; a box whose own text is wider than the box (a word sticking out of
#: a button), or whose content its ``overflow`` cuts, where it is not meant to scroll; a chart's
#: label outside its chart. (A container's own width is not judged: Material's tables bleed into
#: the article's padding on purpose.) Boxes shown to screen readers only are left out.
_OVERFLOWING = r"""(frame) => {
  const found = [];
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + [...el.classList].map((c) => "." + c).join("");
  const say = (el, why) => found.push({ where: name(el), why, scroll: [el.scrollWidth, el.scrollHeight], client: [el.clientWidth, el.clientHeight], text: el.textContent.trim().slice(0, 80) });
  const root = document.scrollingElement;
  if (root.scrollWidth > root.clientWidth + 1) found.push({ where: "the page", why: "scrolls sideways", scroll: root.scrollWidth, client: root.clientWidth });
  const screenReaderOnly = (el) => { for (; el; el = el.parentElement) { const s = getComputedStyle(el); if (s.clip !== "auto" || s.clipPath !== "none") return true; } return false; };
  for (const el of document.body.querySelectorAll("*")) {
    if (el.closest(frame) || !el.checkVisibility({ visibilityProperty: true }) || screenReaderOnly(el)) continue;
    if (el instanceof SVGElement) {
      const svg = el.ownerSVGElement?.getBoundingClientRect(), box = el.getBoundingClientRect();
      if (el.tagName === "text" && svg && (box.left < svg.left - 1 || box.right > svg.right + 1)) say(el, "outside its chart");
      continue;
    }
    if (!el.clientWidth) continue;  // inline: its block is judged
    const style = getComputedStyle(el);
    const ownText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.data.trim());
    if (ownText && !/auto|scroll/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1) say(el, "its text is wider than it");
    if (/hidden|clip/.test(style.overflowY) && el.scrollHeight > el.clientHeight + 1) say(el, "cuts its content's height");
    if (/hidden|clip/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1) say(el, "cuts its content's width");
  }
  return found;
}"""


class Walk:
    """What the walk found, state by state, each state laid out at every width in turn (the page
    resized, not loaded again: one engine start and one visit a state for both widths)."""

    def __init__(self, page) -> None:
        self.page = page
        # the viewport's size set through the DevTools protocol: also in the room display's full screen
        self.cdp = page.context.new_cdp_session(page)
        self.typed: set[str] = set()
        self.problems: list[str] = []
        self.states = 0

    def type(self, values) -> None:
        self.typed |= {w for value in values for w in re.findall(r"[^\W\d_]+", str(value))}

    def check(self, state: str) -> None:
        self.states += 1
        for width in WIDTHS:  # the last is the width the walk goes on at
            self.cdp.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False})
            self.page.evaluate(_LAID_OUT)
            for item in self.page.evaluate(_UNBRACKETED, f"{CHROME}, {NOT_ONE_LANGUAGE}"):
                words = set(re.findall(r"[^\W\d_]+", item["outside"])) - self.typed
                if words and not pseudo.GLOSSARY_NAMES.match(item["text"]):
                    self.problems.append(f"{width} px, {state}: not from a catalog {sorted(words)} in {item['where']}: {item['text']!r}")
            for item in self.page.evaluate(_OVERFLOWING, MATERIAL_FRAME):
                self.problems.append(f"{width} px, {state}: overflows {item}")


#: Resolves once the page has drawn twice at its new size (what resize handlers and observers change).
_LAID_OUT = "new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))"
HEIGHT = 800


def english_pages(site: Path) -> list[str]:
    paths = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    paths = [p.removesuffix("index.html") for p in paths if p.split("/", 1)[0] not in ("fr", "it", "calc", "assets")]
    return [p for p in paths if p != "clock/"] + ["clock/"]  # the clock last: it fakes the context's time


def calculators(page) -> list[tuple[object, str, dict]]:
    found = []
    for calc in page.locator(".calc[data-calc]").all():
        expect_ready(calc)
        found.append((calc, calc.get_attribute("data-calc"), json.loads(calc.get_attribute("data-presets") or "{}")))
    return found


#: Sets each control of a form as a user would (a radio checked, a text typed at once), then waits
#: for the verdict calc.js renders for these values.
_SET = """async (el, [values, timeout]) => {
  const rendered = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no verdict after ${timeout} ms`)), timeout);
    el.addEventListener("calc:verdict", () => { clearTimeout(timer); resolve(); }, { once: true });
  });
  for (const [name, value] of Object.entries(values)) {
    for (const control of el.querySelectorAll(`form [name="${CSS.escape(name)}"]:not([type=hidden])`)) {
      if (control.type === "radio") { if (control.value !== value) continue; control.checked = true; }
      else control.value = value;
      control.dispatchEvent(new Event("input", { bubbles: true }));
      control.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }
  await rendered;
}"""


def bad_value(calc_id: str, presets: dict) -> tuple[str, str]:
    """A field and a value that the calculator refuses (an error verdict), found by asking it."""
    spec = CALCULATORS[calc_id]
    for field in spec.fields:
        if field.name not in presets and evaluate(calc_id, {**spec.example, **presets, field.name: "x"}, "en")["errors"]:
            return field.name, "x"
    raise AssertionError(f"{calc_id}: no field refuses 'x'")


def walk_calculators(walk: Walk, site_url: str, path: str) -> None:
    page = walk.page
    found = calculators(page)
    for calc, calc_id, presets in found:
        example = {k: v for k, v in CALCULATORS[calc_id].example.items() if k not in presets}
        walk.type(example.values())
        calc.evaluate(_SET, [example, ENGINE_TIMEOUT_MS])
        expect(calc).not_to_have_attribute("data-result", "null")
    if found:
        walk.check(f"/{path}, every calculator at its example's verdict")
        query = []
        for calc, calc_id, presets in found:
            name, value = bad_value(calc_id, presets)
            query.append((f"{calc.get_attribute('id').removeprefix('calc-')}.{name}", value))
        page.goto(f"{site_url}/{path}?{urlencode(query)}")
        for calc, _, _ in calculators(page):
            expect(calc).to_have_attribute("data-result", "null")  # the link's verdict: an error
        walk.check(f"/{path}, every calculator at a link's error")


def walk_clock(walk: Walk, site_url: str) -> None:
    page = walk.page
    page.clock.install(time=START)
    page.goto(f"{site_url}/clock/")
    clock = page.locator(".clock")
    expect(clock).to_have_attribute("data-ready", "true")
    calculators(page)
    walk.check("/clock/, idle")
    clock.locator('.clock-share [data-action="qr"]').click()  # the QR code dialog (qr.js), as every page has it
    dialog = page.locator("dialog.qr-dialog")
    expect(dialog).to_have_attribute("data-qr", "shown")
    walk.check("/clock/, the QR code dialog")
    dialog.locator("button").last.click()
    expect(dialog).to_be_hidden()
    for name in ("minutes", "round", "rounds"):
        clock.locator(f'input[name="{name}"]').fill("1")
    clock.locator('[data-action="start"]').click()
    expect(clock).to_have_attribute("data-clock-state", "running")
    clock.locator('input[name="table"]').fill("1")
    clock.locator('input[name="extra"]').fill("1")
    clock.locator('.clock-ext-form button[type="submit"]').click()
    walk.check("/clock/, running, a table's extension")
    page.clock.fast_forward(PAST_ANY_ROUND)
    expect(clock).to_have_attribute("data-clock-state", "time")
    walk.check("/clock/, time has been called")
    clock.locator('[data-action="room"]').click()
    expect(clock).to_have_attribute("data-view", "room")
    walk.check("/clock/, the room display")

    page.goto(f"{site_url}/clock/?clock.game=naruto-blitz")
    timer = page.locator(".blitz-timer")
    expect(timer).to_have_attribute("data-ready", "true")
    calculators(page)
    timer.locator('[data-action="tap"]').click()
    expect(timer).to_have_attribute("data-blitz-state", "running")
    walk.check("/clock/ blitz, an action running")
    page.clock.fast_forward(PAST_ANY_ROUND)
    expect(timer).to_have_attribute("data-blitz-state", "over")
    warn = timer.locator('.blitz-player[data-player="b"] [data-action="warn"]')
    while warn.is_enabled():  # up to the rules' losing warning
        warn.click()
    expect(timer.locator(".blitz-lost")).to_be_visible()
    walk.check("/clock/ blitz, over time, a player lost")


def test_every_visible_string_comes_from_a_catalog_and_fits(browser, pseudo_site):
    site_url, site = pseudo_site
    context = browser.new_context(viewport={"width": WIDTHS[-1], "height": HEIGHT}, service_workers="block")
    page = context.new_page()
    watch = Watch(site_url)
    watch.attach(page)
    walk = Walk(page)
    for path in english_pages(site):
        if path == "clock/":
            walk_clock(walk, site_url)
            continue
        page.goto(f"{site_url}/{path}")
        calculators(page)
        walk.check(f"/{path}")
        walk_calculators(walk, site_url, path)
    context.close()
    watch.check()
    assert walk.states > 10, "hardly any state walked: nothing checked"
    assert not walk.problems, f"{len(walk.problems)} problems:\n" + "\n".join(walk.problems)
