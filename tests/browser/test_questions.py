"""Every visible control shows its question, wherever a calculator lives (issue 51, item 1).

A property over the built site, not a list of known forms: every page in the three languages as
opened, every calculator instance (rule pages, blitz copies, the round clock's presets) in every
combination of its choices (the fields a choice shows; each instance in one language, the languages
in turn), and the round clock running and at time for each game. A
visible input, textarea or select must have a visible question: its fieldset's legend for a choice,
else its label (or what aria-labelledby names). A radio's own "No"/"Yes" is an answer, not a question.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ENGINE_TIMEOUT_MS
from tests.browser.pages import page_html

#: The unlabelled visible controls of the page's content, described for the failure message.
_UNASKED = r"""() => {
  const text = (node) => node && node.checkVisibility() ? node.innerText.trim() : "";
  const question = (control) => {
    if (control.type === "radio" || (control.type === "checkbox" && control.closest("fieldset"))) {
      return text(control.closest("fieldset")?.querySelector(":scope > legend"));
    }
    const by = (control.getAttribute("aria-labelledby") || "").split(/\s+/).filter(Boolean);
    return [...control.labels, ...by.map((id) => document.getElementById(id))].map(text).join(" ").trim();
  };
  const where = (control) => control.closest("[id]")?.id + " " + (control.name || control.className);
  return [...document.querySelectorAll(".md-content input, .md-content textarea, .md-content select, .clock input")]
    .filter((c) => !["hidden", "button", "submit", "reset"].includes(c.type) && c.checkVisibility())
    .filter((c) => !question(c)).map(where);
}"""

#: Every combination of the choices of each calculator's form (each choice checked as a user would:
#: an input event), waiting for the verdict that shows or hides fields; the unasked controls of the
#: whole page in each state.
_WALK = r"""async ([ids, timeout]) => {
  const unasked = %s;
  const found = new Set();
  for (const calc of ids.map((id) => document.getElementById(id))) {
    const form = calc.querySelector("form");
    const groups = [...new Set([...form.querySelectorAll("input[type=radio]")].map((r) => r.name))]
      .map((name) => [...form.querySelectorAll(`input[type=radio][name="${name}"]`)]);
    const states = groups.reduce((acc, radios) => acc.flatMap((s) => radios.map((r) => [...s, r])), [[]]);
    for (const state of states) {
      const verdict = new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${calc.id}: no verdict after ${timeout} ms`)), timeout);
        calc.addEventListener("calc:verdict", () => { clearTimeout(timer); resolve(); }, { once: true });
      });
      for (const radio of state) radio.checked = true;
      form.dispatchEvent(new Event("input", { bubbles: true }));
      await verdict;
      for (const what of unasked()) found.add(`${what} (${state.map((r) => `${r.name}=${r.value}`).join(", ") || "as opened"})`);
    }
  }
  return [...found];
}""" % _UNASKED


def unasked_as_opened(page) -> list[str]:
    """The page's visible controls without a visible question, as the page is now."""
    return page.evaluate(_UNASKED)


def unasked_in_every_choice(page, uids: list[str]) -> list[str]:
    """The same in every combination of the choices of each calculator ``uids`` names (it leaves the
    last one checked). Both run in test_each_page's one visit: as opened on every page of every
    language first, every choice last, of each calculator instance in one language (the show/hide
    path is the same in every language; each language's questions: as opened, and the catalogs)."""
    return page.evaluate(_WALK, [uids, ENGINE_TIMEOUT_MS])


def _clock_games(path: str) -> list[str]:
    """The clock's games, as the built page at ``path`` lists them."""
    return re.findall(r'<input type="radio" name="game" value="([^"]+)"', page_html(path))


@pytest.mark.engine_held  # the clock's own controls in each state (conftest: HELD_ENGINE)
@pytest.mark.parametrize("path", ["fr/clock/"])  # one language (conftest: "Languages")
def test_the_clock_running_and_at_time_asks_every_question(page, site_url, path):
    """The clock as a judge has it during the round (its extension form) and when time is called
    (the procedures), for each game: every visible control has its question. What shows depends on
    the state (web/venue/clock.js: the buttons, the extension form, the procedure's link) or on the
    game (its section: the blitz timer), never on both: the round running once, time called for each
    game. (Every language's clock as opened, and every choice of its calculators, engine ready:
    test_each_page. The procedures' calculators are the same in every clock state, so their engine
    is held here.)"""
    clock = page.locator(".clock")
    games = _clock_games(path)
    assert len(games) > 1
    found = []
    runs = [(games[0], int(time.time() * 1000) + 20 * 60_000, "running")] + [(game, 1, "time") for game in games]
    for game, end, state in runs:
        page.goto(f"{site_url}/{path}?clock.game={game}&clock.end={end}")
        expect(clock).to_have_attribute("data-ready", "true")
        assert clock.get_attribute("data-clock-state") == state
        found += [f"{game} {state}: {what}" for what in page.evaluate(_UNASKED)]
    assert found == []
