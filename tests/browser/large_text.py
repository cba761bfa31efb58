"""Large text on a small phone (WCAG 2.2 1.4.4 "Resize text", 1.4.10 "Reflow"; issue 51), checked on
every page of every language in test_each_page's one visit: a 320 CSS px phone whose text is set to
200 % (32 px instead of 16, as a phone's accessibility setting does; CDP's Page.setFontSizes). Unlike zoom (test_each_page's 206 px), the
viewport keeps its 320 px while every rem and em doubles: Material's header, the boxes' padding and
the buttons' sides grow with the text.

Measured before this test's CSS: every page 392 px wide, the search button off screen, the blitz
timer's buttons broken inside words ("A/ve/rti/r", "Temp/s", "New action" 646 px tall), headings too
("Regolam/enti"), a 174 px column inside the calculators, the Réserve counters sticky over 71 % of
the screen.
"""

from __future__ import annotations

#: A 320 × 568 CSS px phone (the narrowest still sold), touch.
SMALL_PHONE = {"width": 320, "height": 568, "deviceScaleFactor": 2, "mobile": True, "screenWidth": 320, "screenHeight": 568}
#: 200 % of the browsers' default sizes (16 px, 13 px monospace).
LARGE_TEXT = {"standard": 32, "fixed": 26}
#: A box's content (calculator, clock, blitz timer) keeps at least this share of the screen's width.
COLUMN_SHARE = 0.75
#: A panel that stays on screen while the page scrolls covers at most this share of its height.
STICKY_SHARE = 0.2

#: What the page shows at this size, measured in one call.
_MEASURE = r"""() => {
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden";
  const rect = (e) => e.getBoundingClientRect();
  const label = (e) => `${e.tagName.toLowerCase()}.${[...e.classList].join(".")} "${e.textContent.trim().slice(0, 40)}"`;
  // A word broken inside: its letters on more than one line (each line box has its own top).
  const range = document.createRange();
  const broken = [];
  for (const button of document.querySelectorAll("button, .md-button, .calc-choice, article :is(h1, h2, h3)")) {
    if (!shown(button)) continue;
    const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
    for (let node; (node = walker.nextNode());) {
      for (const word of node.data.matchAll(/\S+/g)) {
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) broken.push(`${word[0]} in ${label(button)}`);
      }
    }
  }
  const header = document.querySelector(".md-header");
  const width = document.documentElement.clientWidth;  // the screen's (a mobile innerWidth grows with what overflows)
  const room = innerHeight - rect(header).height;
  return {
    fontSize: parseFloat(getComputedStyle(document.querySelector("article.md-typeset")).fontSize),
    overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    headerControls: [...header.querySelectorAll(".md-header__button, .md-select")].filter(shown)
      .filter((e) => rect(e).left < 0 || rect(e).right > width).map(label),
    search: header.querySelector("label[for=__search]") && shown(header.querySelector("label[for=__search]")),
    broken,
    taller: [...document.querySelectorAll("button, .md-button")].filter(shown).filter((e) => rect(e).height > room)
      .map((e) => `${label(e)}: ${Math.round(rect(e).height)} px`),
    narrow: [...document.querySelectorAll(".calc, .clock, .blitz-timer")].filter(shown).map((e) => {
      const style = getComputedStyle(e);
      return [e.id, e.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)];
    }).filter(([, column]) => column < width * %(column)s),
    sticky: [...document.querySelectorAll(".md-content *")].filter(shown)
      .filter((e) => ["sticky", "fixed"].includes(getComputedStyle(e).position))
      .map((e) => [label(e), rect(e).height / innerHeight]).filter(([, share]) => share > %(sticky)s),
  };
}""" % {"column": COLUMN_SHARE, "sticky": STICKY_SHARE}


def assert_reflows_with_large_text(page, cdp) -> None:
    """The open page on a 320 px phone with text at 200 %: no sideways scrolling (wide tables scroll
    inside their own box, as Material does); every header control on screen, search included; no word
    of a button, a choice or a heading broken across lines, no button taller than the screen below the
    header; a calculator's, clock's or blitz timer's column at least 3/4 of the screen's width; no panel
    that stays on screen (sticky, fixed) over a fifth of it. The caller lays the page out again after."""
    cdp.send("Page.setFontSizes", {"fontSizes": LARGE_TEXT})
    cdp.send("Emulation.setDeviceMetricsOverride", SMALL_PHONE)
    cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    try:
        shown = page.evaluate(_MEASURE)
    finally:  # the text size belongs to the tab: set back before the shared context reuses anything
        cdp.send("Page.setFontSizes", {"fontSizes": {"standard": 16, "fixed": 13}})
    assert shown["fontSize"] >= 32, shown["fontSize"]  # the text really is at 200 % (Material's 0.8rem of 125 %)
    assert shown["overflow"] <= 0, f"{shown['overflow']} px of horizontal scrolling"
    assert shown["headerControls"] == [], "header controls off screen"
    assert shown["search"] is True, "no search button in the header"
    assert shown["broken"] == [], "words broken inside"
    assert shown["taller"] == [], "buttons taller than the screen below the header"
    assert shown["narrow"] == [], f"columns narrower than {COLUMN_SHARE:.0%} of 320 px"
    assert shown["sticky"] == [], f"panels covering more than {STICKY_SHARE:.0%} of the screen"
