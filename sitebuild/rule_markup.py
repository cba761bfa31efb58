"""A Python-Markdown extension (``markdown_extensions`` in mkdocs.yml: MkDocs and Zensical both run it)
that writes, while a page renders, what the rule model (``sitebuild.rulebook``) says about its rules:

- every rule and heading gets its copy-link control, named with the right noun (rule, section,
  glossary entry) and carrying in ``data-caption`` the words its QR code and table card show
  (the section's title and the rule's printed number, or its first words; never an id);
- on a translated page of a source text, each rule's original in a ``<details>`` below it (no script
  needed to read it; ``web/originals.js`` opens them all) and a "show all" button below the title;
- a translated rule whose original changed since it was translated carries ``data-stale-translation``
  and says so in the reader's language; a rule of the original not translated yet is shown in the
  original's words, with a note.

Material's search reads the rendered page: what is not the page's own text (originals, notes,
buttons) carries ``data-search-exclude``. The page is found in the model by its Markdown body (the
extension sees no file name).
"""

from __future__ import annotations

import re
from pathlib import Path
from xml.etree import ElementTree as etree

from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

from sitebuild.rulebook import KeyPreprocessor, Page, Rule, book
from sitebuild.words import words

_HEADING = re.compile(r"h[1-6]")
#: How many words of a rule without a printed number its caption quotes.
FIRST_WORDS = 6


def first_words(text: str, count: int = FIRST_WORDS) -> str:
    """The start of a rule as a reader recognises it, without its leading dash.

    >>> first_words("– Ces cartes sont destinées à pouvoir être échangées librement.")
    'Ces cartes sont destinées à pouvoir…'
    >>> first_words("La manche dure 30 minutes.")
    'La manche dure 30 minutes.'
    """
    found = text.lstrip("–—-•· \u00a0").split()
    return " ".join(found[:count]) + ("…" if len(found) > count else "")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def caption(rule: Rule, page: Page, lang: str) -> str:
    """What a rule's QR code and table card say it is, in ``lang``: the noun of its kind and the words
    a reader finds on the page."""
    t = words(lang)
    if rule.kind == "section":
        return t("ui.rule.caption.section", title=_capital(rule.text))
    if rule.kind == "glossary":
        return t("ui.rule.caption.glossary", term=rule.lines[0] if rule.lines else first_words(rule.text))
    heading = page.rule(rule.section) or page.rules[0]
    section = _capital(heading.text)
    if rule.number:
        return t("ui.rule.caption.numbered", number=rule.number, section=section)
    return t("ui.rule.caption.words", words=first_words(rule.text), section=section)


def copy_label(rule: Rule, lang: str) -> str:
    return words(lang)(f"ui.rule.copy.{'rule' if rule.kind == 'note' else rule.kind}")


def _control(element: etree.Element, rule: Rule, page: Page, lang: str) -> None:
    """The copy-link control: the heading's permalink (toc's ``¶``), or a link added at a rule's end."""
    attrs = {"title": copy_label(rule, lang), "aria-label": copy_label(rule, lang),
             "data-copied": words(lang)("ui.link_copied", url="{url}"), "data-caption": caption(rule, page, lang)}
    if _HEADING.fullmatch(element.tag):
        link = next((a for a in element if a.get("class") == "headerlink"), None)
        if link is None:  # the toc extension's permalink is the heading's control
            raise ValueError(f"#{rule.id}: a heading without the toc extension's permalink (toc: permalink: true)")
        for name, value in attrs.items():
            link.set(name, value)
        return
    if len(element):
        element[-1].tail = (element[-1].tail or "") + " "
    else:
        element.text = (element.text or "") + " "
    etree.SubElement(element, "a", {"class": "rule-link", "href": f"#{rule.id}", **attrs})


class RuleMarkup(Treeprocessor):
    """Runs after attr_list (8) and toc (5), before MkDocs' relative links (0)."""

    def __init__(self, md, docs_dir: str) -> None:
        super().__init__(md)
        self.docs_dir = Path(docs_dir)

    def run(self, root: etree.Element) -> None:
        found = book(self.docs_dir.resolve(), self.docs_dir.resolve().parent / "texts")
        page = found.by_key(getattr(self.md, "rulebook_key", ""))
        if page is None:
            raise ValueError(f"a page that is not one of {self.docs_dir}/<lang>/*.md as they are on disk")
        original = found.original_page(page)
        originals = page.translated and original.declared  # a source text's translation shows it
        stale = found.stale(page)
        t = words(page.lang)
        parents = {child: parent for parent in root.iter() for child in parent}
        placed: dict[str, etree.Element] = {}  # id -> the element that ends its rule (its pair, if any)
        for element in list(root.iter()):
            rule = page.rule(element.get("id") or "")
            if rule is None or not (element.tag == "p" or _HEADING.fullmatch(element.tag)):
                continue
            _control(element, rule, page, page.lang)
            placed[rule.id] = element
            if not page.translated:
                continue
            if rule.id in stale:
                element.set("data-stale-translation", stale[rule.id])
            if element.tag == "h1":
                if originals:
                    button = etree.Element("button", {"type": "button", "class": "md-button og-all", "data-search-exclude": "",
                                                      "data-hide": t(f"ui.original.hide_all.{page.source}")})
                    button.text = t(f"ui.original.show_all.{page.source}")
                    _insert_after(parents, element, button)
                continue
            if not originals and rule.id not in stale:
                continue
            after = [self._note(t(f"ui.rule.stale.{page.source}"))] if rule.id in stale else []
            if originals:
                after.append(self._original(original.rule(rule.id), t))
            placed[rule.id] = self._pair(parents, element, after)
        for rule_id, why in stale.items():
            if why == "untranslated":
                self._fallback(root, parents, placed, original, page, rule_id, t)
        if originals:
            root_path = "../" * (page.url.count("/"))
            etree.SubElement(root, "script", {"type": "module", "src": f"{root_path}calc/originals.js"})

    @staticmethod
    def _pair(parents: dict, element: etree.Element, after: list[etree.Element]) -> etree.Element:
        """A rule and what follows it (its note, its original) in a ``div.og-pair``, side by side once all
        are shown on a wide screen. A heading stays where it is, followed by them: Material's search ends
        a section where the element holding its heading ends."""
        if _HEADING.fullmatch(element.tag):
            for new in reversed(after):
                _insert_after(parents, element, new)
            return after[-1] if after else element
        pair = etree.Element("div", {"class": "og-pair"})
        _insert_after(parents, element, pair)
        parents[element].remove(element)
        pair.extend([element, *after])
        for child in pair:
            parents[child] = pair
        return pair

    def _note(self, text: str) -> etree.Element:
        note = etree.Element("p", {"class": "rule-stale", "data-search-exclude": ""})
        note.text = text
        return note

    def _original(self, rule: Rule, t) -> etree.Element:
        details = etree.Element("details", {"class": "og", "data-for": rule.id, "data-search-exclude": ""})
        summary = etree.SubElement(details, "summary")
        for word in ("show", "hide"):
            etree.SubElement(summary, "span").text = t(f"ui.original.{word}.{rule.lang}")
        etree.SubElement(details, "p", {"lang": rule.lang}).text = self.md.htmlStash.store(rule.html)
        return details

    def _fallback(self, root, parents, placed, original: Page, page: Page, rule_id: str, t) -> None:
        """A rule of the original with no translation yet: the original's words, marked as such, after
        the rule that precedes it in the original."""
        rule = original.rule(rule_id)
        order = [r.id for r in original.rules]
        before = next((placed[r] for r in reversed(order[:order.index(rule_id)]) if r in placed), None)
        tag = "h2" if rule.kind == "section" else "p"
        element = etree.Element(tag, {"id": rule.id, "lang": rule.lang, "data-untranslated": ""})
        element.text = self.md.htmlStash.store(rule.html)
        if tag != "p":
            etree.SubElement(element, "a", {"class": "headerlink", "href": f"#{rule.id}"}).text = "¶"
        _control(element, rule, original, page.lang)
        if before is None:
            root.insert(0, element)
            parents[element] = root
        else:
            _insert_after(parents, before, element)
        placed[rule.id] = self._pair(parents, element, [self._note(t(f"ui.rule.untranslated.{original.lang}"))])


def _insert_after(parents: dict, element: etree.Element, new: etree.Element) -> None:
    parent = parents[element]
    parent.insert(list(parent).index(element) + 1, new)
    parents[new] = parent


class RuleMarkupExtension(Extension):
    def __init__(self, **kwargs) -> None:
        self.config = {"docs_dir": ["docs", "the folder of docs/<lang>/*.md (set by the MkDocs hook)"]}
        super().__init__(**kwargs)

    def extendMarkdown(self, md) -> None:
        md.preprocessors.register(KeyPreprocessor(md), "rulebook_key", 25)
        md.treeprocessors.register(RuleMarkup(md, self.getConfig("docs_dir")), "rulebook", 4)


def makeExtension(**kwargs) -> RuleMarkupExtension:
    return RuleMarkupExtension(**kwargs)
