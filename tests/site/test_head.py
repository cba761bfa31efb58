"""The order of each built page's head: every stylesheet is asked for at once (DESIGN.md:
"Stylesheets before Material's inline script")."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path


class Head(HTMLParser):
    """The head's stylesheets that the parser meets only after a script which waits for earlier
    stylesheets: a classic script (neither module nor async nor defer) following a stylesheet."""

    def __init__(self) -> None:
        super().__init__()
        self.in_head = True
        self.stylesheets: list[str] = []
        self.blocker: str | None = None
        self.late: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "body":
            self.in_head = False
        if not self.in_head:
            return
        if tag == "link" and attrs.get("rel") == "stylesheet":
            self.stylesheets.append(attrs["href"])
            if self.blocker:
                self.late.append(attrs["href"])
        classic = attrs.get("type") in (None, "", "text/javascript")
        if tag == "script" and classic and "async" not in attrs and "defer" not in attrs and self.stylesheets:
            self.blocker = self.blocker or (attrs.get("src") or "an inline script")


def head(path: Path) -> Head:
    parsed = Head()
    parsed.feed(path.read_text(encoding="utf-8"))
    return parsed


def test_no_stylesheet_waits_behind_a_parser_blocking_script(site):
    pages = {path.relative_to(site).as_posix(): head(path) for path in sorted(site.rglob("*.html"))}
    late = {name: (page.blocker, page.late) for name, page in pages.items() if page.late}
    assert not late, f"stylesheets asked for only once the script before them has run: {late}"
    # What the check is about is there: our own stylesheets, and a page's widget stylesheets.
    assert all(any(href.endswith("calc/calc.css") for href in page.stylesheets) for page in pages.values())
    assert any("calc/widgets/" in href for page in pages.values() for href in page.stylesheets)


def test_no_title_names_the_site_twice(site):
    """Each language's home page is titled like the site: its <title> says the name once, not
    "Regolamenti … - Regolamenti …" (the i18n plugin marks only the default language's home)."""
    titles = {path.relative_to(site).as_posix(): re.search(r"<title>(.*?)</title>", path.read_text(encoding="utf-8")).group(1)
              for path in sorted(site.rglob("*.html"))}
    doubled = {name: title for name, title in titles.items()
               if " - " in title and title.split(" - ", 1)[0] == title.split(" - ", 1)[1]}
    assert not doubled, doubled
    # What the check is about is there: a home page per language, and other pages keep "page - site".
    assert {"index.html", "fr/index.html", "it/index.html"} <= titles.keys()
    assert all(titles[f"{lang}naruto/index.html"].endswith(f" - {titles[f'{lang}index.html']}") for lang in ("", "fr/", "it/"))
