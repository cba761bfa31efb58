"""The rules, known once: every element with an ``{ #id }`` of ``docs/<lang>/*.md``, read from the
Markdown source by Python-Markdown (the same extensions as mkdocs.yml), as :class:`Rule` records.

Everything about rules derives from here: the link controls and their captions, the originals under
translated rules and their stale marks (``sitebuild.rule_markup``, a Markdown extension), rules.json,
the glossary's names in the search index, the tests' lists of pages and rules. Nothing reads a rule
id from built HTML.

A page's authoritative language is declared once, by front matter ``verbatim: true`` on the one
page that reproduces a source text; a page without one is the site's own words, written first in
the reference language. Each translated rule records the fingerprint of the original it translates
in ``texts/translations/<lang>.json`` (outside ``docs/``, so that MkDocs does not publish it);
``python -m sitebuild.rulebook`` says which translations lag behind and confirms them.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import re
import sys
from dataclasses import dataclass, field
from html import unescape
from pathlib import Path
from xml.etree import ElementTree as etree

import markdown
from markdown.preprocessors import Preprocessor

from calculators.i18n import LANGUAGES, REFERENCE_LANGUAGE, language_folder
from sitebuild.typeset import typeset_page

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
#: The editors' records beside the texts (never published): what each translation was made from.
TEXTS = ROOT / "texts"
#: The Markdown extensions the pages are written for (mkdocs.yml's, less ours; a unit test compares).
EXTENSIONS = ("attr_list", "md_in_html", "tables", "admonition", "toc")
#: Pages that hold no rules: the home page, the round clock (a tool) and the list of changes. Their
#: headings are sections all the same (a link control, a caption), but rules.json leaves them out.
NOT_RULE_PAGES = ("index", "clock", "changes")
#: The page whose paragraphs are glossary entries rather than rules.
GLOSSARY = "glossary"

_FRONT_MATTER = re.compile(r"\A-{3}[ \t]*\n(.*?\n)(?:\.{3}|-{3})[ \t]*\n", re.S)
_HEADING = re.compile(r"h[1-6]")
#: A number the text prints at its start ("**1.**", "1/", "2 /"): what a reader calls the rule by.
_PRINTED_NUMBER = re.compile(r"^\W*?(\d+)\s*[./)]")
_NUMBERED_ID = re.compile(r"-\d+$")
_TAG = re.compile(r"<[^>]+>")
_LINK_TAG = re.compile(r"</?a\b[^>]*>")
_BR = re.compile(r"<br\s*/?>")


def fingerprint(text: str) -> str:
    """A short hash of a rule's words (spacing and typesetting aside): what a translation records.

    >>> fingerprint("La manche dure 30 minutes.") == fingerprint(" La  manche dure\\u00a030 minutes. ")
    True
    """
    words = " ".join(text.replace("\u00a0", " ").replace("\u202f", " ").split())
    return hashlib.sha256(words.encode()).hexdigest()[:12]


@dataclass(frozen=True)
class Rule:
    """One element with an id: a heading (``section``), a numbered paragraph (``rule``), another
    paragraph of a rule page (``note``), a paragraph of the glossary (``glossary``)."""

    id: str
    page: str
    lang: str
    kind: str
    section: str  # id of the enclosing h2 ("" above the first one)
    html: str  # inner HTML as the reader sees it, its links made plain text (they lead into its language)
    text: str  # plain text, spaces collapsed
    lines: tuple[str, ...]  # the text's lines (at each <br>)
    links: tuple[str, ...] = ()  # ids of the other pages' sections it links to
    number: str = ""  # the number it prints at its start, if any

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.text)

    @property
    def heading(self) -> bool:
        return self.kind == "section"


@dataclass(frozen=True)
class Page:
    name: str
    lang: str
    source: str  # the page's authoritative language
    key: str  # identifies the Markdown body, as MkDocs or Zensical hands it to the extension
    rules: tuple[Rule, ...] = field(repr=False)
    declared: bool = False  # its front matter says it reproduces a source text (``verbatim: true``)

    @property
    def url(self) -> str:
        """The page's address from the site's root ("fr/naruto/", "" for the home page)."""
        return language_folder(self.lang) + ("" if self.name == "index" else f"{self.name}/")

    @property
    def translated(self) -> bool:
        return self.lang != self.source

    @property
    def has_rules(self) -> bool:
        return self.name not in NOT_RULE_PAGES

    def rule(self, rule_id: str) -> Rule | None:
        return next((r for r in self.rules if r.id == rule_id), None)


def split_front_matter(text: str) -> tuple[dict[str, str], str]:
    """(front matter's ``key: value`` pairs, the body), as MkDocs splits a page."""
    found = _FRONT_MATTER.match(text)
    if not found:
        return {}, text
    meta = dict(line.split(":", 1) for line in found.group(1).splitlines() if ":" in line)
    return {k.strip(): v.strip() for k, v in meta.items()}, text[found.end():]


def body_key(lines: list[str]) -> str:
    """What identifies a page's body among all pages (the extension sees no file name)."""
    return hashlib.sha256("\n".join(lines).strip().encode()).hexdigest()


class KeyPreprocessor(Preprocessor):
    """Notes the body's key on the Markdown instance, after Python-Markdown's own clean-up."""

    def run(self, lines):
        self.md.rulebook_key = body_key(lines)
        return lines


def element_html(md: markdown.Markdown, element: etree.Element) -> str:
    """An element's inner HTML as the finished page will have it (raw HTML and escapes put back)."""
    html = md.serializer(element)
    for processor in md.postprocessors:
        html = processor.run(html)
    return html[html.index(">") + 1:html.rindex("</")]


def records(md: markdown.Markdown, root: etree.Element, page: str, lang: str, verbatim: bool) -> list[Rule]:
    """The rules of a rendered page's tree, in order. Link controls the build adds are left out."""
    found, section = [], ""
    for element in root.iter():
        rule_id = element.get("id")
        if not rule_id or not (element.tag == "p" or _HEADING.fullmatch(element.tag)):
            continue
        if element.tag == "h2":
            section = rule_id
        copy = etree.Element(element.tag)
        copy.text, copy.tail = element.text, None
        copy.extend(child for child in element if child.get("class") not in ("headerlink", "rule-link"))
        inner = typeset_page(element_html(md, copy), lang, verbatim=verbatim).strip()
        plain = [" ".join(unescape(_TAG.sub("", line)).split()) for line in _BR.split(inner)]
        text = " ".join(" ".join(plain).split())
        links = tuple(a.get("href").rsplit("#", 1)[1] for a in element.iter("a")
                      if "#" in (a.get("href") or "")[1:] and a.get("class") not in ("headerlink", "rule-link"))
        if _HEADING.fullmatch(element.tag):
            kind = "section"
        elif page == GLOSSARY:
            kind = "glossary"
        else:
            kind = "rule" if _NUMBERED_ID.search(rule_id) else "note"
        number = _PRINTED_NUMBER.match(text)
        found.append(Rule(rule_id, page, lang, kind, section, _LINK_TAG.sub("", inner), text,
                          tuple(line for line in plain if line), links, number.group(1) if number else ""))
    return found


def read_markdown(text: str, page: str, lang: str, source: str | None = None) -> Page:
    """One page from its Markdown (front matter included); ``source`` defaults to what it declares."""
    meta, body = split_front_matter(text)
    verbatim = meta.get("verbatim") == "true"
    md = markdown.Markdown(extensions=[ext for ext in EXTENSIONS if ext != "toc"])
    md.preprocessors.register(KeyPreprocessor(md), "rulebook_key", 25)
    root = md.parser.parseDocument(_preprocess(md, body)).getroot()
    for processor in md.treeprocessors:
        root = processor.run(root) or root
    if source is None:
        source = lang if verbatim else REFERENCE_LANGUAGE
    return Page(page, lang, source, md.rulebook_key, tuple(records(md, root, page, lang, verbatim)), verbatim)


def _preprocess(md: markdown.Markdown, body: str) -> list[str]:
    lines = body.split("\n")
    for processor in md.preprocessors:
        lines = processor.run(lines)
    return lines


class Book:
    """Every page in every language, and what the translations record."""

    def __init__(self, docs: Path = DOCS, texts: Path = TEXTS) -> None:
        self.docs, self.texts = docs, texts
        raw = {(md.parent.name, md.stem): md.read_text(encoding="utf-8")
               for lang in LANGUAGES for md in sorted((docs / lang).glob("*.md"))}
        sources: dict[str, str] = {}
        for (lang, name), text in raw.items():
            if split_front_matter(text)[0].get("verbatim") == "true":
                if name in sources:
                    raise ValueError(f"{name}: 'verbatim: true' in both {sources[name]} and {lang}: one original a page")
                sources[name] = lang
        self.pages = {(lang, name): read_markdown(text, name, lang, sources.get(name, REFERENCE_LANGUAGE))
                      for (lang, name), text in raw.items()}
        self._by_key: dict[str, Page] = {}
        for page in self.pages.values():
            if page.key in self._by_key:  # the extension could not tell them apart
                twin = self._by_key[page.key]
                raise ValueError(f"{twin.lang}/{twin.name}.md and {page.lang}/{page.name}.md have the same text")
            self._by_key[page.key] = page
        self.recorded = {lang: _read_json(texts / "translations" / f"{lang}.json") for lang in LANGUAGES}
        self.moved: dict[str, str | None] = _read_json(texts / "moved.json")
        self.releases = [(path.stem, _read_json(path)["rules"]) for path in sorted((texts / "releases").glob("*.json"))]

    def names(self) -> list[str]:
        """Page names, in the reference language's order of files."""
        return sorted({name for _, name in self.pages})

    def page(self, lang: str, name: str) -> Page:
        return self.pages[lang, name]

    def by_key(self, key: str) -> Page | None:
        return self._by_key.get(key)

    def source(self, name: str) -> str:
        return self.pages[REFERENCE_LANGUAGE, name].source

    def original_page(self, page: Page) -> Page:
        return self.pages[page.source, page.name]

    def recorded_for(self, lang: str, page: str, rule_id: str) -> str | None:
        """The fingerprint the translation of ``rule_id`` records (under its old id if it was renamed)."""
        record = self.recorded[lang].get(page, {})
        if rule_id in record:
            return record[rule_id]
        old = [old for old, new in self.moved.items() if new == rule_id]
        return next((record[o] for o in old if o in record), None)

    def stale(self, page: Page) -> dict[str, str]:
        """Rules of a translated page whose original changed since (id -> "changed"), and rules of
        the original not translated yet (id -> "untranslated")."""
        if not page.translated:
            return {}
        own = {r.id for r in page.rules}
        out = {}
        for original in self.original_page(page).rules:
            if original.id not in own:
                out[original.id] = "untranslated"
            elif self.recorded_for(page.lang, page.name, original.id) != original.fingerprint:
                out[original.id] = "changed"
        return out

    def status(self) -> list[tuple[str, str, str, str]]:
        """(language, page, id, "changed" or "untranslated") for every translation behind its original."""
        return [(lang, name, rule_id, why) for (lang, name), page in sorted(self.pages.items())
                for rule_id, why in self.stale(page).items()]

    def confirm(self, lang: str, ids: set[str] | None = None) -> list[str]:
        """Record that the translations of ``ids`` (all of ``lang``'s when None) match their originals
        as they are now; return the ids recorded. Writes texts/translations/<lang>.json."""
        done, record = [], {}
        for (page_lang, name), page in sorted(self.pages.items()):
            if page_lang != lang or not page.translated:
                continue
            original = {r.id: r.fingerprint for r in self.original_page(page).rules}
            kept = {}
            for rule in page.rules:
                if rule.id not in original:
                    continue
                if ids is None or rule.id in ids:
                    kept[rule.id] = original[rule.id]
                    done.append(rule.id)
                elif (old := self.recorded_for(lang, name, rule.id)) is not None:
                    kept[rule.id] = old
            record[name] = kept
        path = self.texts / "translations" / f"{lang}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(record, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        self.recorded[lang] = record
        return done


    def snapshot(self) -> dict[str, dict[str, dict[str, str]]]:
        """Every rule's text now, by language and page (what a release publishes)."""
        return {lang: {name: {r.id: r.text for r in self.pages[lang, name].rules}
                       for name in self.names() if self.pages[lang, name].has_rules} for lang in LANGUAGES}

    def release(self, name: str) -> Path:
        """Record the texts as they are now as release ``name`` (texts/releases/<name>.json)."""
        path = self.texts / "releases" / f"{name}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"release": name, "rules": self.snapshot()}, ensure_ascii=False, indent=1) + "\n",
                        encoding="utf-8")
        self.releases = [*[r for r in self.releases if r[0] != name], (name, self.snapshot())]
        return path

    def changes(self) -> list[tuple[str, str, list[Change]]]:
        """(release, the one before it, what it changed) for each recorded release after the first, newest
        first; the texts now count as a release named "" when they differ from the last recorded one.
        What changed on a page is what changed in its authoritative text (a translation follows it)."""
        states = [*self.releases]
        now = self.snapshot()
        if states and now != states[-1][1]:
            states.append(("", now))
        found = []
        for (before, old), (name, new) in reversed(list(zip(states, states[1:]))):
            changed = []
            for page in self.names():
                if self.pages[REFERENCE_LANGUAGE, page].has_rules:
                    source = self.source(page)
                    changed += diff({page: old.get(source, {}).get(page, {})}, {page: new.get(source, {}).get(page, {})},
                                    self.moved, source)
            if changed or name:  # the texts now: listed when an original changed (a translation's edit is not a change)
                found.append((name, before, changed))
        return found


@dataclass(frozen=True)
class Change:
    """One rule's change between two releases: ``added``, ``changed``, ``removed`` or ``moved`` (to
    ``successor``, with ``text`` its text now)."""

    kind: str
    page: str
    id: str
    lang: str  # the language of the texts: the page's original's
    old: str = ""
    text: str = ""
    successor: str = ""


def diff(old: dict[str, dict[str, str]], new: dict[str, dict[str, str]], moved: dict[str, str | None],
         lang: str) -> list[Change]:
    """What changed from ``old`` to ``new`` (page -> id -> text), page by page in the new order."""
    found = []
    for page in dict.fromkeys([*new, *old]):
        before, after = old.get(page, {}), new.get(page, {})
        successors = {moved.get(i) for i in before if i not in after}
        for rule_id, text in after.items():
            if rule_id not in before and rule_id not in successors:
                found.append(Change("added", page, rule_id, lang, text=text))
            elif rule_id in before and before[rule_id] != text:
                found.append(Change("changed", page, rule_id, lang, before[rule_id], text))
        for rule_id, text in before.items():
            if rule_id in after:
                continue
            successor = moved.get(rule_id)
            if successor and successor in after:
                found.append(Change("moved", page, rule_id, lang, text, after[successor], successor))
            else:
                found.append(Change("removed", page, rule_id, lang, text))
    return found


def _read_json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def _signature(docs: Path, texts: Path) -> tuple:
    files = [*docs.glob("*/*.md"), *texts.rglob("*.json")]
    return tuple(sorted((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in files))


@functools.lru_cache(maxsize=4)
def _book(docs: Path, texts: Path, signature: tuple) -> Book:
    return Book(docs, texts)


def book(docs: Path = DOCS, texts: Path = TEXTS) -> Book:
    """The book as the files are now (read again after an edit: ``make dev``)."""
    return _book(docs, texts, _signature(docs, texts))


def status_lines(found: Book) -> list[str]:
    """The stale translations, one line each, in English (the editors' report)."""
    why = {"changed": "the original changed after this translation", "untranslated": "not translated yet"}
    return [f"{lang} {name} #{rule_id}: {why[reason]}" for lang, name, rule_id, reason in found.status()]


def report(found: Book, stream=sys.stderr) -> None:
    lines = status_lines(found)
    if lines:
        print(f"Translations behind their original ({len(lines)}; `python -m sitebuild.rulebook confirm` "
              "once they are right):", *(f"  {line}" for line in lines), sep="\n", file=stream)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sitebuild.rulebook", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("status", help="list the translations behind their original (the default)")
    confirm = sub.add_parser("confirm", help="record translations as matching their originals as they are now")
    confirm.add_argument("lang", choices=[lang for lang in LANGUAGES])
    confirm.add_argument("ids", nargs="*", help="rule ids (default: every rule of that language)")
    release = sub.add_parser("release", help="record the texts as they are now as a release (texts/releases/)")
    release.add_argument("name", help="the release's name, e.g. its date: 2026-12-06")
    parser.add_argument("--docs", type=Path, default=DOCS)
    parser.add_argument("--texts", type=Path, default=TEXTS)
    args = parser.parse_args(argv)
    found = Book(args.docs, args.texts)
    if args.command == "confirm":
        done = found.confirm(args.lang, set(args.ids) or None)
        print(f"{args.lang}: {len(done)} translation(s) recorded as matching their original")
        return 0
    if args.command == "release":
        print(f"wrote {found.release(args.name).relative_to(args.texts.parent)}")
        return 0
    report(found, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
