"""The header's light/dark toggle (DESIGN.md: "Dark scheme"): three entries (automatic, light, dark),
each label naming what a tap does in the page's language (mkdocs.yml: the i18n plugin's per-language
``theme.palette``), and run by our snippet, not Material's palette component (a whole-page restyle
on every load)."""

from __future__ import annotations

import re
from pathlib import Path

from calculators.i18n import LANGUAGES

_FORM = re.compile(r'<form class="md-header__option" data-palette>(.*?)</form>', re.S)
_INPUT = re.compile(r'<input class="md-option" data-md-color-media="([^"]*)" data-md-color-scheme="([^"]*)"')
_TITLE = re.compile(r'<label class="md-header__button md-icon" title="([^"]*)" for="__palette_(\d)" hidden>')


def language(site: Path, page: Path) -> str:
    first = page.relative_to(site).parts[0]
    return first if first in LANGUAGES else "en"


def test_each_page_has_the_toggle_in_its_language(site):
    names: dict[str, set[tuple[str, ...]]] = {}
    for page in sorted(site.rglob("*.html")):
        html = page.read_text(encoding="utf-8")
        assert 'data-md-component="palette"' not in html, page  # Material's component stays unmounted
        form = _FORM.search(html)
        assert form, f"{page}: no palette toggle"
        assert _INPUT.findall(form.group(1)) == [
            ("(prefers-color-scheme)", "default"),  # automatic: the device's entry gives the colours
            ("(prefers-color-scheme: light)", "default"),
            ("(prefers-color-scheme: dark)", "slate"),
        ], page
        labels = _TITLE.findall(form.group(1))
        assert [target for _, target in labels] == ["1", "2", "0"], page  # a tap: the next entry
        titles = tuple(title for title, _ in labels)
        assert len(set(titles)) == 3 and all(titles), (page, titles)
        names.setdefault(language(site, page), set()).add(titles)
    assert set(names) == set(LANGUAGES)
    assert all(len(seen) == 1 for seen in names.values()), names  # one wording per language
    wordings = [next(iter(seen)) for seen in names.values()]
    for i, titles in enumerate(wordings):  # no language left with another's words
        assert not any(set(titles) & set(other) for other in wordings[i + 1:]), names
