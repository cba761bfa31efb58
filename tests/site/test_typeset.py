"""What Material's start-up finds on every built page, so that it restyles nothing (DESIGN.md:
"Material's start-up restyles nothing"; the browser side is in test_each_page)."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

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
