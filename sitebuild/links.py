"""Site-absolute links of a page's content made relative (the rules' own link controls: sitebuild/rule_markup.py)."""

from __future__ import annotations

import posixpath
import re

_SITE_ABSOLUTE = re.compile(r'href="/(?!/)([^"]*)"')


def relative_links(html: str, page_url: str) -> str:
    """``href="/fr/naruto/"`` (how pages link to another language) -> relative to this page,
    so the site works under any path prefix."""
    here = posixpath.dirname("/" + page_url) if not page_url.endswith("/") else "/" + page_url

    def relative(match: re.Match[str]) -> str:
        path, sep, fragment = match.group(1).partition("#")
        target = posixpath.relpath("/" + path, here) + ("/" if path.endswith("/") or not path else "")
        return f'href="{target}{sep}{fragment}"'

    return _SITE_ABSOLUTE.sub(relative, html)
