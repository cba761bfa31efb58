"""Rules as data: every rule (heading or paragraph with an id) of the rule pages, from the rule model
(``sitebuild.rulebook``), written as one ``rules.json`` per language at the root of that language
(``/rules.json``, ``/fr/rules.json``, ``/it/rules.json``). Each entry: ``id``, ``kind`` (``heading``
or ``rule``), ``section`` (id of the enclosing ``h2``), ``text``, ``page``, ``url`` (absolute) and, on
a translated page of a source text, ``original`` (``lang`` and ``text`` of the authoritative page's rule of the same id).
"""

from __future__ import annotations

import json
from pathlib import Path

from calculators.i18n import LANGUAGES, language_folder
from sitebuild.rulebook import Book


def entries(found: Book, lang: str, site_url: str) -> list[dict]:
    """``lang``'s rules, page by page in file order, as rules.json lists them."""
    rules = []
    for name in found.names():
        page = found.page(lang, name)
        if not page.has_rules:
            continue
        original = found.original_page(page)
        for rule in page.rules:
            entry = {"id": rule.id, "kind": "heading" if rule.heading else "rule", "section": rule.section,
                     "text": rule.text, "page": page.url, "url": f"{site_url}{page.url}#{rule.id}"}
            if page.translated and original.declared and (source := original.rule(rule.id)) is not None:
                entry["original"] = {"lang": source.lang, "text": source.text}
            rules.append(entry)
    return rules


def write_rules(site: Path, site_url: str, found: Book) -> None:
    for lang in LANGUAGES:
        data = {"lang": lang, "rules": entries(found, lang, site_url)}
        (site / language_folder(lang) / "rules.json").write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
