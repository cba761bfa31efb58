"""Rules as data: every rule (heading or numbered paragraph with an id) of the rule pages.

Read from the built pages' article (calculators left out) and written as one ``rules.json``
per language at the root of that language (``/rules.json``, ``/fr/rules.json``,
``/it/rules.json``). Each entry: ``id``, ``page``, ``section`` (id of the enclosing
``h2``), ``kind`` (``heading`` or ``rule``), ``text``, ``url`` (absolute) and, on a translated
page, ``original`` (``lang`` and ``text`` of the authoritative page's rule of the same id).
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

from calculators.i18n import LANGUAGES, language_folder
from sitebuild.originals import SOURCE_LANGUAGE

_HEADING = re.compile(r"h[1-6]")
_VOID = {"input", "br", "img", "hr", "meta", "link", "source", "wbr", "area", "col", "embed", "track"}
#: The page's own content in Material's layout: a page without it is a build that changed shape.
_ARTICLE = re.compile(r'<article class="md-content__inner md-typeset">(.*)</article>', re.S)


#: Attributes of the tools embedded in pages (calculators, round clock, blitz timer): their ids are not rules.
_TOOLS = ("data-calc", "data-clock-state", "data-blitz-state")


class _RuleParser(HTMLParser):
    """Collects the text of every heading and paragraph that carries an id."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rules: list[dict[str, str]] = []
        self._open: dict[str, str] | None = None
        self._tag = ""
        self._skip = 0
        self._section = ""
        self._calc: list[str] = []  # open tags inside a calculator, whose ids are not rules

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if self._calc or any(name in attrs for name in _TOOLS):
            if tag not in _VOID:
                self._calc.append(tag)
            return
        if self._open is not None:
            if tag == "a" and attrs.get("class") in ("headerlink", "rule-link"):
                self._skip += 1
            return
        if attrs.get("id") and (tag == "p" or _HEADING.fullmatch(tag)):
            if tag == "h2":
                self._section = attrs["id"]
            self._open = {"id": attrs["id"], "kind": "rule" if tag == "p" else "heading", "section": self._section, "text": ""}
            self._tag = tag

    def handle_endtag(self, tag):
        if self._calc:
            self._calc.pop()
            return
        if self._open is None:
            return
        if tag == "a" and self._skip:
            self._skip -= 1
        elif tag == self._tag:
            self._open["text"] = " ".join(self._open["text"].split())
            self.rules.append(self._open)
            self._open = None

    def handle_data(self, data):
        if self._open is not None and not self._skip:
            self._open["text"] += data


def rules_in(html: str) -> list[dict[str, str]]:
    """The rules of one page's HTML, in order.

    >>> rules_in('<h2 id="a">Title<a class="headerlink" href="#a">¶</a></h2><p id="a-1">Rule <b>one</b>.</p><p>x</p>')
    [{'id': 'a', 'kind': 'heading', 'section': 'a', 'text': 'Title'}, {'id': 'a-1', 'kind': 'rule', 'section': 'a', 'text': 'Rule one.'}]
    """
    parser = _RuleParser()
    parser.feed(html)
    parser.close()
    return parser.rules


#: Page folders that hold no rule: tools (the round clock), search, the site's own files, other languages.
NOT_RULES = {"clock", "search", "calc", "assets", *LANGUAGES}


def rule_pages(site: Path, lang: str) -> list[tuple[str, Path]]:
    """(url, file) of every rule page of ``lang``: each page folder but the home page and :data:`NOT_RULES`."""
    folder = site / language_folder(lang)
    skip = NOT_RULES
    return sorted((f"{language_folder(lang)}{p.parent.name}/", p) for p in folder.glob("*/index.html")
                  if p.parent.name not in skip)


def write_rules(site: Path, site_url: str) -> None:
    """One ``rules.json`` per language, at the root of that language. A translated rule also carries
    its ``original``: the source language's text of the same id, and that language."""
    found: dict[str, list[dict]] = {}
    for lang in LANGUAGES:
        found[lang] = []
        for url, path in rule_pages(site, lang):
            article = _ARTICLE.search(path.read_text(encoding="utf-8"))
            if article is None:
                raise ValueError(f"{path}: no <article class=\"md-content__inner md-typeset\"> to read rules from")
            found[lang] += [{**rule, "page": url, "url": f"{site_url}{url}#{rule['id']}", "folder": path.parent.name}
                            for rule in rules_in(article.group(1))]
    source_text = {(rule["folder"], rule["id"]): rule["text"] for lang in LANGUAGES for rule in found[lang]
                   if SOURCE_LANGUAGE.get(rule["folder"]) == lang}
    for lang in LANGUAGES:
        rules = []
        for rule in found[lang]:
            folder = rule.pop("folder")
            source = SOURCE_LANGUAGE.get(folder, lang)
            if source != lang:  # sitebuild.originals has already failed the build on a rule without one
                rule["original"] = {"lang": source, "text": source_text[folder, rule["id"]]}
            rules.append(rule)
        data = {"lang": lang, "rules": rules}
        (site / language_folder(lang) / "rules.json").write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
