"""Rules as data: every rule (heading or numbered paragraph with an id) of the rule pages.

The MkDocs hook collects them from each page's HTML and writes one ``rules.json``
per language at the root of that language (``/rules.json``, ``/fr/rules.json``,
``/it/rules.json``). Each entry: ``id``, ``page``, ``section`` (id of the enclosing
``h2``), ``kind`` (``heading`` or ``rule``), ``text`` and ``url`` (absolute).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

_HEADING = re.compile(r"h[1-6]")


class _RuleParser(HTMLParser):
    """Collects the text of every heading and paragraph that carries an id."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rules: list[dict[str, str]] = []
        self._open: dict[str, str] | None = None
        self._tag = ""
        self._skip = 0
        self._section = ""

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if self._open is not None:
            if tag == "a" and attrs.get("class") in ("headerlink", "rule-link"):
                self._skip += 1
            return
        if attrs.get("id") and (tag == "p" or _HEADING.fullmatch(tag)):
            if tag == "h2":
                self._section = attrs["id"]
            self._open = {"id": attrs["id"], "kind": "rule" if tag == "p" else "heading", "section": self._section, "text": ""}
            self._tag = tag

    def handle_endtag(self, tag):
        if self._open is None:
            return
        if tag == "a" and self._skip:
            self._skip -= 1
        elif tag == self._tag:
            self._open["text"] = " ".join(self._open["text"].split())
            self.rules.append(self._open)
            self._open = None

    def handle_data(self, data):
        if self._open is not None and not self._skip:
            self._open["text"] += data


def rules_in(html: str) -> list[dict[str, str]]:
    """The rules of one page's HTML, in order.

    >>> rules_in('<h2 id="a">Title<a class="headerlink" href="#a">¶</a></h2><p id="a-1">Rule <b>one</b>.</p><p>x</p>')
    [{'id': 'a', 'kind': 'heading', 'section': 'a', 'text': 'Title'}, {'id': 'a-1', 'kind': 'rule', 'section': 'a', 'text': 'Rule one.'}]
    """
    parser = _RuleParser()
    parser.feed(html)
    parser.close()
    return parser.rules
