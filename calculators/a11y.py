"""Build-time accessibility repairs of Material's page template (found by axe-core in the browser tests).

- The search dialog (``<div class="md-search" role="dialog">``) has no accessible name: it
  gets the localized label Material already gives the search field ("Rechercher", "Cerca").
"""

from __future__ import annotations

import re

_DIALOG = re.compile(r'<div class="md-search" data-md-component="search" role="dialog">')
_SEARCH_LABEL = re.compile(r'<input type="text" class="md-search__input" name="query" aria-label="([^"]*)"')


def repair(html: str) -> str:
    """``html`` with the repairs above.

    >>> 'role="dialog" aria-label="Cerca">' in repair('<div class="md-search" data-md-component="search" role="dialog">'
    ...        '<input type="text" class="md-search__input" name="query" aria-label="Cerca">')
    True
    """
    label = _SEARCH_LABEL.search(html)
    if label:
        html = _DIALOG.sub(lambda m: m.group(0)[:-1] + f' aria-label="{label.group(1)}">', html, count=1)
    return html

