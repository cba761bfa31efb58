"""A Python-Markdown extension (``markdown_extensions`` in mkdocs.yml: MkDocs and Zensical both run it)
that writes, while a page renders, what the rule model (``sitebuild.rulebook``) says about its rules:

- every rule and heading gets its copy-link control, named with the right noun (rule, section,
  glossary entry) and carrying in ``data-caption`` the words its QR code and table card show
  (the section's title and the rule's printed number, or its first words; never an id);
- on a translated page of a source text, each rule's original in a ``<details>`` below it (no script
  needed to read it; ``web/site/originals.js`` opens them all) and a "show all" button below the title;
- a translated rule whose original changed since it was translated carries ``data-stale-translation``
  and says so in the reader's language; a rule of the original not translated yet is shown in the
  original's words, with a note.

Material's search reads the rendered page: what is not the page's own text (originals, notes,
buttons) carries ``data-search-exclude``. The page is found in the model by its Markdown body (the
extension sees no file name).
"""

from __future__ import annotations

import json
import re
from html import escape
from pathlib import Path
from xml.etree import ElementTree as etree

from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor

from calculators.i18n import language_folder
from sitebuild.rulebook import Book, KeyPreprocessor, Page, Rule, book
from sitebuild.typeset import french_spaces
from sitebuild.words import words

_HEADING = re.compile(r"h[1-6]")
#: Where the changes page lists the changes (docs/<lang>/changes.md).
CHANGES_MARKER = "<!-- rules:changes -->"
CHANGES_PAGE = "changes"
#: How many words of a rule without a printed number its caption quotes.
FIRST_WORDS = 6


def first_words(text: str, count: int = FIRST_WORDS, weak: frozenset[str] = frozenset()) -> str:
    """The start of a rule as a reader recognises it, without its leading dash. A cut drops the
    punctuation before its "…" and goes on past a ``weak`` word (an article, a preposition: « de la… »
    says nothing).

    >>> first_words("– Ces cartes sont destinées à pouvoir être échangées librement.")
    'Ces cartes sont destinées à pouvoir…'
    >>> first_words("La manche dure 30 minutes.")
    'La manche dure 30 minutes.'
    >>> first_words("Les parties en « blitz » se déroulent en 1 manche.")
    'Les parties en « blitz » se déroulent…'
    >>> first_words("Si le temps est écoulé, continuer la partie", 5)
    'Si le temps est écoulé…'
    >>> first_words("Il ne peut pas y avoir de la place ici", 7, frozenset({"de", "la"}))
    'Il ne peut pas y avoir de la place…'
    """
    found = text.lstrip("–—-•· \u00a0").split()
    words_seen, kept = 0, []
    for token in found:  # a quotation mark alone is no word: « blitz » counts one
        counted = bool(re.search(r"\w", token))
        if words_seen >= count and counted and not _weak_end(kept, weak):
            return " ".join(kept).rstrip(",;:.!?\u00a0\u202f ") + "…"
        words_seen += counted
        kept.append(token)
    return " ".join(kept)


def _weak_end(kept: list[str], weak: frozenset[str]) -> bool:
    return bool(kept) and re.sub(r"\W+$", "", kept[-1]).lower() in weak


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def heading_of(rule: Rule, page: Page) -> Rule:
    """The nearest heading above a rule (its h3 if it has one, not only its h2): a caption naming
    the h2 would call the 3rd tiebreak criterion "rule 3 of" the whole section."""
    found = page.rules[0]
    for other in page.rules:
        if other.id == rule.id:
            return found
        if other.heading:
            found = other
    return found


#: A pair of straight quotation marks around words (never an apostrophe: "l'issue" has no pair).
_STRAIGHT = re.compile(r"(?<!\w)([\"'])(\S[^\"']*?\S|\S)\1(?!\w)")


def _quoted(text: str, lang: str) -> str:
    """Text put inside a caption's quotation marks: its own quotation marks become the inner ones
    (« Règle “blitz” … »)."""
    inner = words(lang)("ui.rule.caption.inner_quotes")
    text = _STRAIGHT.sub(lambda m: f"“{m.group(2)}”", text)  # a source text's "blitz", 'Réserve'
    text = re.sub(r"«[\s\u00a0\u202f]*", inner[0], text)
    text = re.sub(r"[\s\u00a0\u202f]*»", inner[1], text)
    return text.replace("“", inner[0]).replace("”", inner[1]) if inner != "“”" else text


def _count(rule: Rule, page: Page, weak: frozenset[str]) -> int:
    """How many words the caption of a rule quotes: enough to tell it from the other rules quoted by
    their first words under the same heading."""
    heading = heading_of(rule, page)
    others = [r.text for r in page.rules if r.id != rule.id and r.kind in ("rule", "note") and not r.number
              and heading_of(r, page) == heading]
    count = FIRST_WORDS
    while count < len(rule.text.split()) and first_words(rule.text, count, weak) in {
            first_words(other, count, weak) for other in others}:
        count += 1
    return count


def caption(rule: Rule, page: Page, lang: str) -> str:
    """What a rule's QR code and table card say it is, in ``lang``: the noun of its kind and the words
    a reader finds on the page, typeset like the page (French spaces)."""
    t = words(lang)
    weak = frozenset(t("ui.rule.caption.weak_words").split())
    if rule.kind == "section":
        said = t("ui.rule.caption.section", title=_quoted(_capital(rule.text), lang))
    elif rule.kind == "glossary":
        said = t("ui.rule.caption.glossary", term=_quoted(rule.lines[0] if rule.lines else first_words(rule.text), lang))
    else:
        section = _quoted(_capital(heading_of(rule, page).text), lang)
        if rule.number:
            said = t("ui.rule.caption.numbered", number=rule.number, section=section)
        else:
            cut = first_words(rule.text, _count(rule, page, weak), weak)
            said = t("ui.rule.caption.words", words=_quoted(cut, lang), section=section)
    return french_spaces(said) if lang == "fr" else said  # as typeset_page does for a page's own words


def copy_label(rule: Rule, lang: str) -> str:
    return words(lang)(f"ui.rule.copy.{'rule' if rule.kind == 'note' else rule.kind}")


def _control(element: etree.Element, rule: Rule, page: Page, lang: str) -> None:
    """The copy-link control: the heading's permalink (toc's ``¶``), or a link added at a rule's end."""
    attrs = {"title": copy_label(rule, lang), "aria-label": copy_label(rule, lang),
             "data-caption": caption(rule, page, lang)}  # "Link copied": the page's words (sitebuild/contract.py)
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


def _book(md) -> tuple[Book, Page]:
    docs = Path(md.rulebook_docs).resolve()
    found = book(docs, docs.parent / "texts")
    page = found.by_key(getattr(md, "rulebook_key", ""))
    if page is None:
        raise ValueError(f"a page that is not one of {md.rulebook_docs}/<lang>/*.md as they are on disk")
    return found, page


def changes_html(found: Book, lang: str) -> str:
    """The changes page's list: each release's added, changed, moved and removed rules, newest first,
    each with its link (into the reader's language), its original's text before and after."""
    t = words(lang)
    if not found.releases:
        raise ValueError("no release recorded in texts/releases/: `python -m sitebuild.rulebook release <name>`")
    parts = []
    for release, previous, changes in found.changes():
        title = t("ui.changes.release", release=release, previous=previous) if release else \
            t("ui.changes.unreleased", previous=previous)
        items = []
        for change in changes:
            page = found.page(lang, change.page)
            wanted = change.successor or change.id
            if page.rule(wanted) is None:  # not translated yet: the page shows the original's (rule_markup)
                page = found.original_page(page)
            target = page.rule(wanted)
            what = escape(found.page(lang, change.page).rules[0].text)
            if target is not None:
                what = f'<a href="../{change.page}/#{target.id}">{what} · {escape(caption(target, page, lang))}</a>'
            texts = [(t("ui.changes.before"), "del", change.old)] if change.old and change.old != change.text else []
            texts += [(t("ui.changes.after"), "ins", change.text)] if change.text else []
            said = "".join(f'<p><span>{escape(label)}</span> <{tag} lang="{change.lang}">{escape(text)}</{tag}></p>'
                           for label, tag, text in texts)
            items.append(f'<li data-change="{change.kind}"><strong>{escape(t(f"ui.changes.{change.kind}"))}</strong> '
                         f"{what}{said}</li>")
        parts.append(f"<h2>{escape(title)}</h2><ul>{''.join(items)}</ul>")
    if not parts:
        parts.append(f"<p>{escape(t('ui.changes.first', release=found.releases[0][0]))}</p>")
    return f'<div class="rule-changes">{"".join(parts)}</div>'


class ChangesPreprocessor(Preprocessor):
    """The changes page's marker -> the list of changes (raw HTML, stashed by Python-Markdown next)."""

    def run(self, lines):
        if not any(line.strip() == CHANGES_MARKER for line in lines):
            return lines
        found, page = _book(self.md)
        return [changes_html(found, page.lang) if line.strip() == CHANGES_MARKER else line for line in lines]


class RuleMarkup(Treeprocessor):
    """Runs after attr_list (8) and toc (5), before MkDocs' relative links (0)."""

    def run(self, root: etree.Element) -> None:
        found, page = _book(self.md)
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
                    # both labels in the page, CSS shows the one that fits (no script holds a word)
                    button = etree.Element("button", {"type": "button", "class": "md-button og-all", "data-search-exclude": ""})
                    for shown in ("show_all", "hide_all"):
                        label = etree.SubElement(button, "span", {"class": f"og-{shown.replace('_', '-')}"})
                        label.text = t(f"ui.original.{shown}.{page.source}")
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
        root_path = "../" * (page.url.count("/"))
        if originals:
            etree.SubElement(root, "script", {"type": "module", "src": f"{root_path}calc/site/originals.js"})
        self._moves(root, found, page, root_path)

    @staticmethod
    def _moves(root: etree.Element, found: Book, page: Page, root_path: str) -> None:
        """The old ids that lead to this page (texts/moved.json): their successor here, or none (a removed
        rule of this page, as the releases recorded it); read by web/site/moved.js when a link names one."""
        own = {r.id for r in page.rules}
        was_here = {i for _, rules in found.releases for i in rules.get(page.lang, {}).get(page.name, {})}
        moves = {old: new for old, new in found.moved.items()
                 if old not in own and (new in own or (new is None and old in was_here))}
        if not moves:
            return
        etree.SubElement(root, "div", {
            "class": "rule-moves", "hidden": "", "data-moves": json.dumps(moves, sort_keys=True),
            "data-changes": f"{root_path}{language_folder(page.lang)}{CHANGES_PAGE}/"})  # its words: the page's (contract.py)
        etree.SubElement(root, "script", {"type": "module", "src": f"{root_path}calc/site/moved.js"})

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
        md.rulebook_docs = self.getConfig("docs_dir")
        md.preprocessors.register(KeyPreprocessor(md), "rulebook_key", 25)
        md.preprocessors.register(ChangesPreprocessor(md), "rulebook_changes", 24)  # before raw HTML is stashed (20)
        md.treeprocessors.register(RuleMarkup(md), "rulebook", 4)


def makeExtension(**kwargs) -> RuleMarkupExtension:
    return RuleMarkupExtension(**kwargs)
