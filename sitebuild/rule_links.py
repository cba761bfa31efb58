"""Links on a page's content: a copy-link control on every rule, and site-absolute links made relative."""

from __future__ import annotations

import posixpath
import re
from html import escape

from sitebuild.words import words

_RULE_PARAGRAPH = re.compile(r'(<p id="([a-z0-9-]+)">)(.*?)(</p>)', re.S)
_HEADERLINK = re.compile(r'<a class="headerlink" href="#([a-z0-9-]+)" title="[^"]*">')
_SITE_ABSOLUTE = re.compile(r'href="/(?!/)([^"]*)"')
_HEADING_WITH_ID = re.compile(r'<h[1-6] id="')


def add_rule_links(html: str, lang: str) -> str:
    """Give every rule paragraph and heading with an id a visible, localized copy-link control:
    "this rule" on a rule, "this section" on a heading (a page title, "Glossary"), as the QR dialog."""
    t = words(lang)
    label = escape(t("ui.copy_link"), quote=True)
    section = escape(t("ui.copy_section_link"), quote=True)
    html = _RULE_PARAGRAPH.sub(
        lambda m: f'{m.group(1)}{m.group(3)} <a class="rule-link" href="#{m.group(2)}" title="{label}" '
        f'aria-label="{label}"></a>{m.group(4)}',
        html,
    )
    html, found = _HEADERLINK.subn(
        lambda m: f'<a class="headerlink" href="#{m.group(1)}" title="{section}" aria-label="{section}">',
        html,
    )
    if not found and _HEADING_WITH_ID.search(html):  # the toc extension's permalink markup changed
        raise ValueError("headings with an id but no headerlink in the form rule_links.py expects")
    return html


def relative_links(html: str, page_url: str) -> str:
    """``href="/fr/naruto/"`` (how pages link to another language) -> relative to this page,
    so the site works under any path prefix."""
    here = posixpath.dirname("/" + page_url) if not page_url.endswith("/") else "/" + page_url

    def relative(match: re.Match[str]) -> str:
        path, sep, fragment = match.group(1).partition("#")
        target = posixpath.relpath("/" + path, here) + ("/" if path.endswith("/") or not path else "")
        return f'href="{target}{sep}{fragment}"'

    return _SITE_ABSOLUTE.sub(relative, html)
