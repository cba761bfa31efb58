"""What Material's start-up finds on every built page, so that it restyles nothing (DESIGN.md:
"Material's start-up restyles nothing"; the browser side is in test_each_page); and French
spacing in the site's own French, never in a source text reproduced as published."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from sitebuild.rulebook import book

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Tables(HTMLParser):
    """Each <table>'s parent element (tag, class)."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[tuple[str, str]] = []
        self.parents: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.parents.append(self.open[-1])
        if tag not in VOID:
            self.open.append((tag, attrs.get("class") or ""))

    def handle_startendtag(self, tag, attrs):  # <path ... />: opens nothing
        pass

    def handle_endtag(self, tag):
        while self.open and self.open.pop()[0] != tag:
            pass


def parsed(path: Path) -> Tables:
    page = Tables()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def test_every_table_has_a_box_of_its_own(site):
    """Material wraps each table once the page has loaded: inside a box it restyles the box alone."""
    parents = [parent for path in sorted(site.rglob("*.html")) for parent in parsed(path).parents]
    assert parents, "no table on any page: nothing checked"
    assert set(parents) == {("div", "table-box")}


# --- French spacing ---------------------------------------------------------------------------

#: A plain space (or line break) where French puts a non-breaking one: before « : ; ? ! » and
#: inside « ». On a phone, the sign after such a space can start a line on its own.
PLAIN_SPACE = re.compile(r"[ \t\n][:;?!»]|«[ \t\n]")
FRENCH_SPACE = re.compile(r"[\u00a0\u202f][:;?!»]|«[\u00a0\u202f]")
RAW = {"code", "pre", "kbd", "samp", "script", "style", "textarea"}
DOCS = Path(__file__).resolve().parents[2] / "docs" / "fr"


class Elements(HTMLParser):
    """A page read with its open elements at hand: ``stack`` of (tag, class, has a ``lang``)."""

    def __init__(self, verbatim: bool) -> None:
        super().__init__(convert_charrefs=True)
        self.verbatim = verbatim
        self.stack: list[tuple[str, str, bool]] = []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            attrs = dict(attrs)
            self.stack.append((tag, attrs.get("class") or "", "lang" in attrs))
            self.opened(tag)

    def opened(self, tag: str) -> None:
        pass

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        while self.stack and self.stack.pop()[0] != tag:
            pass

    def tags(self) -> list[str]:
        return [t for t, _, _ in self.stack]

    def classes(self) -> list[str]:
        return " ".join(c for _, c, _ in self.stack).split()


class Prose(Elements):
    """The article's text, in two parts: the source text as published (outside notes and
    calculators, on a page whose front matter says ``verbatim``) and the site's own words."""

    def __init__(self, verbatim: bool) -> None:
        super().__init__(verbatim)
        self.own: list[str] = []
        self.source: list[str] = []

    def handle_data(self, data):
        tags, classes = self.tags(), self.classes()
        if "article" not in tags or RAW & set(tags) or "headerlink" in classes:
            return
        mine = not self.verbatim or "admonition" in classes or any(c.startswith(("calc", "clock", "blitz")) for c in classes)
        (self.own if mine else self.source).append(data)


def french_pages(site: Path) -> list[tuple[Path, bool]]:
    pages = []
    for path in sorted((site / "fr").rglob("index.html")):
        name = path.parent.relative_to(site / "fr").as_posix() or "index"
        pages.append((path, ("fr", name) in book().pages and book().page("fr", name).declared))
    return pages


def prose(path: Path, verbatim: bool) -> Prose:
    parser = Prose(verbatim)
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def test_the_sites_own_french_keeps_its_signs_on_their_line(site):
    """Notes, calculators, the clock, the glossary, translated pages: no plain space before « : ; ? ! »
    nor inside « » (sitebuild.typeset; catalogs typeset as they are compiled)."""
    problems, spaced = [], 0
    for path, verbatim in french_pages(site):
        text = "".join(prose(path, verbatim).own)
        spaced += len(FRENCH_SPACE.findall(text))
        problems += [f"{path.relative_to(site)}: …{text[max(0, m.start() - 30):m.end() + 10]!r}…"
                     for m in PLAIN_SPACE.finditer(text)]
    assert not problems, "\n".join(problems)
    assert spaced > 100, "hardly any French spacing found: nothing checked"


def test_source_text_is_left_as_published(site):
    """A page reproducing a source (front matter ``verbatim``) keeps its text's spaces as published:
    as many non-breaking spaces as its Markdown outside notes, and its plain ones."""
    checked = 0
    for path, verbatim in french_pages(site):
        if not verbatim:
            continue
        md = (DOCS / f"{path.parent.name}.md").read_text(encoding="utf-8")
        outside_notes = re.sub(r"^!!!.*\n(?:(?: {4}.*)?\n)*", "", md, flags=re.M)
        source = "".join(prose(path, verbatim).source)
        assert source.count("\u00a0") == outside_notes.count("\u00a0"), path
        assert "\u202f" not in source
        assert PLAIN_SPACE.search(source), f"{path}: the source's own plain spaces are gone"
        checked += 1
    assert checked == 2, "the French Naruto and Judge Tower pages are the sources"


class Outline(HTMLParser):
    """A page's <title> and its table of contents (Material's secondary navigation), as text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append("md-nav--secondary" if "md-nav--secondary" in (dict(attrs).get("class") or "") else tag)

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        while self.stack and self.stack.pop() not in (tag, "md-nav--secondary"):
            pass

    def handle_data(self, data):
        if "title" in self.stack or "md-nav--secondary" in self.stack:
            self.text.append(data)


def test_titles_and_tables_of_contents_keep_french_spacing_too(site):
    """The tab's title and the table of contents repeat the site's own headings: typeset as they
    are (a source's headings, on a verbatim page, stay as published)."""
    problems, spaced = [], 0
    for path, verbatim in french_pages(site):
        if verbatim:
            continue
        outline = Outline()
        outline.feed(path.read_text(encoding="utf-8"))
        text = " | ".join(outline.text)
        spaced += len(FRENCH_SPACE.findall(text))
        problems += [f"{path.relative_to(site)}: …{text[max(0, m.start() - 30):m.end() + 10]!r}…"
                     for m in PLAIN_SPACE.finditer(text)]
    assert not problems, "\n".join(problems)
    assert spaced >= 5, "the clock's procedure headings and the Pokémon page's title: nothing checked"


# --- Lists are lists ----------------------------------------------------------------------------

DASH = re.compile(r"\s*[-‐‑–—]\s")


class Paragraphs(Elements):
    """The text of each paragraph of the article that is the site's own: not a source reproduced as
    published (outside its notes, on a ``verbatim`` page), not an original shown under a translated rule."""

    def __init__(self, verbatim: bool) -> None:
        super().__init__(verbatim)
        self.texts: list[str] = []

    def opened(self, tag):
        if tag == "p":
            self.texts.append("")

    def handle_data(self, data):
        tags, classes = self.tags(), self.classes()
        if "p" not in tags or "article" not in tags or "og" in classes:
            return
        if any(lang for _, _, lang in self.stack[tags.index("article"):]):  # another language's text
            return
        if self.verbatim and "admonition" not in classes:
            return
        self.texts[-1] += data


def test_no_paragraph_of_our_own_starts_with_a_dash(site):
    """A dash at the start of a paragraph is a list marker typed as text (the French source's
    typography, copied): the site's own pages write a Markdown list, which a screen reader
    announces as one."""
    checked, found = 0, []
    for lang in ("en", "fr", "it"):
        folder = site / ("" if lang == "en" else lang)
        for md in sorted((DOCS.parent / lang).glob("*.md")):
            page = folder / ("" if md.stem == "index" else md.stem) / "index.html"
            parser = Paragraphs(book().page(lang, md.stem).declared)  # a source text keeps its dashes
            parser.feed(page.read_text(encoding="utf-8"))
            checked += len(parser.texts)
            found += [f"{page.relative_to(site)}: {text.strip()[:80]!r}" for text in parser.texts if DASH.match(text)]
    assert not found, "\n".join(found)
    assert checked > 300, "hardly any paragraph found: nothing checked"
