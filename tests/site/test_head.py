"""The order of each built page's head: every stylesheet is asked for at once (DESIGN.md:
"Stylesheets before Material's inline script")."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from sitebuild.contract import TAGGED


class Head(HTMLParser):
    """The head's stylesheets that the parser meets only after a script which waits for earlier
    stylesheets: a classic script (neither module nor async nor defer) following a stylesheet."""

    def __init__(self) -> None:
        super().__init__()
        self.in_head = True
        self.stylesheets: list[str] = []
        self.blocker: str | None = None
        self.late: list[str] = []
        self.classes: set[str] = set()  # of the body's elements
        self.widgets: set[str] = set()  # data-widget
        self.preloads: list[str] = []  # <link rel="modulepreload">
        self.module_scripts: list[str] = []  # <script type="module" src>

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script" and attrs.get("type") == "module" and attrs.get("src"):
            self.module_scripts.append(attrs["src"])
        if tag == "body":
            self.in_head = False
        if not self.in_head:
            self.classes.update((attrs.get("class") or "").split())
            self.widgets.update([attrs["data-widget"]] if attrs.get("data-widget") else [])
            return
        if tag == "link" and attrs.get("rel") == "modulepreload":
            self.preloads.append(attrs["href"])
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
    assert all(any(href.endswith("calc/site/site.css") for href in page.stylesheets) for page in pages.values())
    assert any("calc/widgets/" in href for page in pages.values() for href in page.stylesheets)


#: A feature's stylesheet and the elements it styles (web/calculators/calc.css: the calculators' forms, whose fields
#: the clock and the blitz timer use too; web/venue/venue.css: the clock and the blitz timer).
FEATURES = {"calc/calculators/calc.css": {"calc", "clock", "blitz-timer"}, "calc/venue/venue.css": {"clock", "blitz-timer"}}


def test_each_feature_stylesheet_only_on_the_pages_that_use_it(site):
    """A page links a feature's (or a widget's) stylesheet exactly when it has an element of that feature."""
    wrong, seen = {}, set()
    for path in sorted(site.rglob("*.html")):
        page = head(path)
        linked = {found[1] for href in page.stylesheets if (found := re.search(r"(?:^|/)calc/(.+)$", href))}
        wanted = {"site/site.css"} | {css.removeprefix("calc/") for css, roots in FEATURES.items() if roots & page.classes}
        wanted |= {f"widgets/{name}.css" for name in page.widgets if (site / "calc" / "widgets" / f"{name}.css").is_file()}
        if linked != wanted:
            wrong[path.relative_to(site).as_posix()] = (sorted(linked), sorted(wanted))
        seen |= linked
    assert not wrong, f"linked, wanted: {wrong}"
    assert {"site/site.css", "calculators/calc.css", "venue/venue.css"} <= seen  # the test is about something


def test_no_page_title_says_its_name_twice(site):
    """A language's home page is titled by the site's name alone: MkDocs calls only the reference
    language's the home page, and Material titled the others "Name - Name" (overrides/main.html)."""
    titles = {path.relative_to(site).as_posix(): re.search(r"<title>(.*?)</title>", path.read_text(encoding="utf-8")).group(1)
              for path in sorted(site.rglob("index.html"))}
    twice = {name: title for name, title in titles.items() if len(set(title.split(" - "))) < len(title.split(" - "))}
    assert not twice, twice
    assert all(" - " not in titles[home] for home in ("index.html", "fr/index.html", "it/index.html"))
    assert " - " in titles["fr/glossary/index.html"], "other pages: their name, then the site's"


def test_the_generator_line_names_the_material_that_built_the_page(site: Path):
    """Our copy of Material's site_meta block once kept a stale literal version after an upgrade."""
    from importlib.metadata import version

    expected = f"mkdocs-material-{version('mkdocs-material')}"
    pages = sorted(site.rglob("index.html"))
    assert pages
    for page in pages:
        generator = re.search(r'<meta name="generator" content="([^"]+)"', page.read_text(encoding="utf-8"))
        assert generator and generator.group(1).endswith(expected), (page, generator and generator.group(1))


#: A feature's modules (by their file names in the built site) and the elements that use them.
MODULES = {"venue/clock*.js": {"clock"}, "calculators/calc-*.js": {"calc"}, "venue/blitz.js": {"blitz-timer"}}


def test_a_feature_s_modules_are_preloaded_where_it_is_used(site):
    """The clock's modules (venue/clock-*.js) are asked for with the page, as the calculators' are, not in
    an import waterfall after clock.js; no page preloads a feature it does not have, nor a missing file."""
    wrong, seen = {}, set()
    for path in sorted(site.rglob("*.html")):
        page = head(path)
        preloaded = {(site / href[1:] if href.startswith("/") else path.parent / href).resolve() for href in page.preloads}
        missing = sorted(str(p) for p in preloaded if not p.is_file())
        assert not missing, (path, missing)
        tagged = {re.sub(r"^(?:\.\./|/)*calc/", "", src) for src in page.module_scripts}
        assert tagged <= set(TAGGED), (path, tagged - set(TAGGED))  # whose imports the build preloads
        for pattern, roots in MODULES.items():
            modules = set((site / "calc").glob(pattern))
            assert modules, pattern
            if (modules <= preloaded) != bool(roots & page.classes) or (not roots & page.classes and modules & preloaded):
                wrong.setdefault(path.relative_to(site).as_posix(), []).append(pattern)
            seen |= {pattern} if modules <= preloaded else set()
    assert not wrong, f"preloaded without its feature or not with it: {wrong}"
    assert seen == set(MODULES)  # the test is about something
