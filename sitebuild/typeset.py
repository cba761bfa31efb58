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


#: French spacing (Imprimerie nationale): a non-breaking space before « : » and inside « », a narrow
#: one before « ; ? ! », so that no sign starts a line on a phone. Only a space the text already
#: writes is replaced: "10:30", "table:minutes", a URL or an id has none, so it is never touched.
_FRENCH_SPACE = {":": "\u00a0", ";": "\u202f", "?": "\u202f", "!": "\u202f", "»": "\u00a0"}
_SPACE_BEFORE = re.compile(r"[ \t\n]+([:;?!»])")
_SPACE_AFTER = re.compile(r"«[ \t\n]+")
#: A unit after a number (« 15 s », « +3 min », « 40 % ») stays on the number's line: a non-breaking
#: space, so that the blitz display never shows « s » alone on a line. The number may be a placeholder.
_SPACE_BEFORE_UNIT = re.compile(r"(?<=[\d}])[ \t\n]+(?=(?:s|min|h|ms|%)(?![\w'’]))")


def french_spaces(text: str) -> str:
    """Text with French spacing before ``: ; ? !``, inside guillemets and before a unit.

    >>> french_spaces("Conforme : {deck} cartes ; « Alice : 3 » ? Oui ! à 10:30, voir https://x.fr/?a=1")
    'Conforme\\xa0: {deck} cartes\\u202f; «\\xa0Alice\\xa0: 3\\xa0»\\u202f? Oui\\u202f! à 10:30, voir https://x.fr/?a=1'
    >>> french_spaces("{seconds} s, +{minutes} min, 40 %, 3 s'il")
    "{seconds}\\xa0s, +{minutes}\\xa0min, 40\\xa0%, 3 s'il"
    """
    text = _SPACE_BEFORE.sub(lambda m: _FRENCH_SPACE[m.group(1)] + m.group(1), text)
    text = _SPACE_BEFORE_UNIT.sub("\u00a0", text)
    return _SPACE_AFTER.sub("«\u00a0", text)


_TAG = re.compile(r"(<!--.*?-->|<[^>]*>)", re.S)
#: Elements whose text is code or data, never prose.
_RAW = {"code", "pre", "kbd", "samp", "script", "style", "textarea"}
_NOTE = re.compile(r'<div class="admonition\b.*?</div>', re.S)
#: Text in another language inside a French page (an original under its translation, a rule not
#: translated yet: sitebuild/rule_markup.py): typeset as its own language, not as French.
_OTHER_LANGUAGE = re.compile(r'(<p\b[^>]*\slang="(?!fr")[a-z]+"[^>]*>.*?</p>)', re.S)


def map_text(html: str, change) -> str:
    """``change`` applied to each run of text of ``html``: never inside a tag (attributes, URLs), a
    comment, nor in code or a script (the pseudo-locale test walks pages with it too).

    >>> map_text('<p>a<code>b</code><!-- c --></p>', str.upper)
    '<p>A<code>b</code><!-- c --></p>'
    """
    out, raw = [], 0
    for part in _TAG.split(html):
        if part.startswith("<"):
            name = re.match(r"</?([A-Za-z][A-Za-z0-9]*)", part)
            if name and name.group(1).lower() in _RAW and not part.endswith("/>"):
                raw = max(0, raw + (-1 if part.startswith("</") else 1))
            out.append(part)
        else:
            out.append(part if raw else change(part))
    return "".join(out)


def french_html(html: str) -> str:
    """:func:`french_spaces` on the text of ``html``: never inside a tag (attributes, URLs) nor in
    code.

    >>> french_html('<p>Voir : <a href="/a?b=c">ici</a> <code>x :y</code></p>')
    '<p>Voir\\xa0: <a href="/a?b=c">ici</a> <code>x :y</code></p>'
    """
    return map_text(html, french_spaces)


def typeset_page(html: str, lang: str, verbatim: bool = False) -> str:
    """A page's own French text with French spacing. A page reproducing a source text (front
    matter ``verbatim: true``) keeps that text as published: only its notes (admonitions) are the
    site's own words there. Calculator forms are not here yet: their words come typeset from the
    catalogs (tools/compile_catalogs.py). A paragraph in another language (an original) is left as it is.

    >>> typeset_page('<p>Voir : x</p><details><p lang="it">Vedi : x</p></details>', "fr")
    '<p>Voir\xa0: x</p><details><p lang="it">Vedi : x</p></details>'
    """
    if lang != "fr":
        return html
    if verbatim:
        return _NOTE.sub(lambda m: french_html(m.group(0)), html)
    return "".join(part if i % 2 else french_html(part) for i, part in enumerate(_OTHER_LANGUAGE.split(html)))


#: Per language, what the catalogs' compiler does to each message (the site's own words).
CATALOG_TYPESETTING = {"fr": french_spaces}
