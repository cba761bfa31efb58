"""Page content as Material's start-up should find it: nothing for its script to insert at the
article's top level, where one insertion restyles the whole page (DESIGN.md: "Material's start-up
restyles nothing")."""

from __future__ import annotations

import re

_TABLE = re.compile(r"(<table\b[^>]*>.*?</table>)", re.S)


def box_tables(html: str) -> str:
    """Each table in a ``div.table-box`` of its own: Material wraps every table in a scrolling box
    (``md-typeset__scrollwrap``) once the page has loaded, and inside the box that insertion
    restyles the box alone. The box has no style, so the page is laid out as before."""
    return _TABLE.sub(r'<div class="table-box">\1</div>', html)
