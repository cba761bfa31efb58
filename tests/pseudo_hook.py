"""MkDocs hook of the pseudo-locale build only (tests/pseudo.py copies it next to mkdocs.yml): an
English page's own text in the pseudo-locale, before sitebuild's hook adds forms and controls, so
that whatever that hook, the templates or the scripts write without a catalog stays unbracketed."""

from __future__ import annotations

from mkdocs.plugins import event_priority

from tests.pseudo import pseudo, pseudo_html


def _english(page) -> bool:
    return page.file.src_uri.split("/", 1)[0] == "en"


def _toc(items) -> None:
    for item in items:
        item.title = pseudo(item.title)
        _toc(item.children)


@event_priority(50)  # before sitebuild/mkdocs_hook.py (priority 0)
def on_page_content(html, page, config, files):
    if not _english(page):
        return html
    page.title = pseudo(page.title)  # the tab's title, the navigation, the header
    _toc(page.toc)
    return pseudo_html(html)
