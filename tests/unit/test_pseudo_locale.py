"""A pseudo-locale, built from the English catalogs at test time and never published: every message
accented, about 40 % longer and bracketed (⟦Çáłçûłáţõr…⟧). Rendering the calculators' forms, the
venue kit and the verdicts with it shows that every word a user sees comes from a catalog: a word
outside brackets is one written in code. Longer words also show a layout that relies on English
lengths. The same locale, applied to a whole build and walked in a browser:
tests/browser/test_pseudo_locale.py.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from calculators import CALCULATORS, evaluate, i18n
from sitebuild.render import render_calculator
from sitebuild.venue import render_blitz_timer, render_clock
from tests.pseudo import CLOSE, OPEN, outside_messages, pseudo

#: Attributes whose words a user reads or hears, and the templates scripts fill in.
SHOWN = re.compile(r"aria-label|title|placeholder|alt|data-(ui|msg|error)-.*")


@pytest.fixture
def pseudo_locale(monkeypatch):
    """Every language's messages, as the pseudo-locale of the English ones."""
    real = i18n.catalog

    def catalog(lang, extra=()):
        return {key: pseudo(text) for key, text in real(i18n.REFERENCE_LANGUAGE, extra).items()}

    monkeypatch.setattr(i18n, "catalog", catalog)


class Shown(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        self.skip += tag in ("script", "style")
        self.texts += [value for name, value in attrs if value and SHOWN.fullmatch(name)]

    def handle_endtag(self, tag):
        self.skip -= tag in ("script", "style")

    def handle_data(self, data):
        if not self.skip:
            self.texts.append(data)


def words_outside_catalogs(html: str) -> list[str]:
    parser = Shown()
    parser.feed(html)
    return [text.strip() for text in parser.texts if re.search(r"[^\W\d_]", outside_messages(text))]


@pytest.mark.parametrize("calc_id", sorted(CALCULATORS))
def test_a_calculators_form_has_no_word_of_its_own(pseudo_locale, calc_id):
    html = render_calculator(CALCULATORS[calc_id], "en")
    assert OPEN in html
    assert words_outside_catalogs(html) == []


@pytest.mark.parametrize("render", [render_clock, render_blitz_timer])
def test_the_venue_kit_has_no_word_of_its_own(pseudo_locale, render):
    html = render("en")
    assert OPEN in html
    assert words_outside_catalogs(html) == []


@pytest.mark.parametrize("calc_id", sorted(CALCULATORS))
def test_a_verdict_has_no_word_of_its_own(pseudo_locale, calc_id):
    """The documented example's verdict, and an error verdict: sentences from catalogs around the
    numbers and the user's own words (the example's names and card names, taken out here)."""
    spec = CALCULATORS[calc_id]
    bad = {spec.fields[0].name: "\u2068x" * 200}
    for inputs in (spec.example, bad):
        verdict = evaluate(calc_id, inputs, "en")
        texts = [verdict["summary"], *verdict["details"], *(e["message"] for e in verdict["errors"])]
        typed = {w for value in inputs.values() for w in re.findall(r"[^\W\d_]+", value)}
        left = [w for text in texts for w in re.findall(r"[^\W\d_]+", outside_messages(text)) if w not in typed]
        assert any(OPEN in text for text in texts), verdict
        assert left == [], (inputs, texts)


def test_a_word_written_in_code_is_found():
    """The check can fail: a word outside every message, in text or in a read attribute."""
    assert words_outside_catalogs(f"<p>{OPEN}Çáł {OPEN}x{CLOSE}{CLOSE} 3 −1 · —</p>") == []
    assert words_outside_catalogs(f"<p>{OPEN}Çáł{CLOSE} cards</p>") == [f"{OPEN}Çáł{CLOSE} cards"]
    assert words_outside_catalogs(f'<button aria-label="Close">×</button>') == ["Close"]
