"""The authoritative original beside each translated rule, one tap away (issue 45).

On a translated rule page, every numbered rule and every heading below the title gets the
source-language text of the same id in a native ``<details>`` (no script needed to read it),
marked with its ``lang``; the title gets a "show all" button (``web/originals.js``, which also
opens them all for a link with ``?original=1``).

This runs on the built pages (``sitebuild.finish``): a page's original is another language's
built page, and only there are all of them written. It also runs after Material has written its
search index, so an original's words are indexed once, in its own language's page, never in a
translation's entries.
"""

from __future__ import annotations

import re
from html import escape
from pathlib import Path

from calculators.i18n import LANGUAGES, language_folder
from sitebuild.words import words

#: Page folder -> the language of its authoritative text (the seeds'); the other languages translate it.
SOURCE_LANGUAGE = {"naruto": "fr", "judge-tower": "fr", "pokemon": "it"}

_ARTICLE = re.compile(r'(<article class="md-content__inner md-typeset">)(.*)(</article>)', re.S)
#: A rule paragraph or a heading with an id, as sitebuild.rule_links leaves it (calculators' ids come after a class).
_RULE = re.compile(r'<(p|h[1-6]) id="([a-z0-9-]+)">(.*?)</\1>', re.S)
_OWN_LINK = re.compile(r'\s*<a class="(?:rule-link|headerlink)"[^>]*>.*?</a>', re.S)
_ANCHOR = re.compile(r"</?a\b[^>]*>")


def _article(html: str, where: object) -> re.Match[str]:
    found = _ARTICLE.search(html)
    if found is None:
        raise ValueError(f'{where}: no <article class="md-content__inner md-typeset"> to read rules from')
    return found


def originals_in(article: str) -> dict[str, str]:
    """id -> the rule's HTML as its reader sees it: without its copy-link control, and its links made
    plain text (they lead into the original's language; the translation has its own).

    >>> originals_in('<p id="a-1">– Il ne peut <a href="../g/#x">pas</a>. <a class="rule-link" href="#a-1"></a></p>')
    {'a-1': '– Il ne peut pas.'}
    """
    originals = {m[2]: _ANCHOR.sub("", _OWN_LINK.sub("", m[3])).strip() for m in _RULE.finditer(article)}
    if any(" id=" in text for text in originals.values()):  # it would be a second element of that id
        raise ValueError("an original's text holds an element with an id")
    return originals


def with_originals(html: str, originals: dict[str, str], source: str, lang: str, root: str) -> str:
    """A translated page (``lang``) with the original (``source``) of each rule below it, each rule and
    its original in a ``div.og-pair`` (side by side once all are shown on a wide screen); ``root`` is
    the relative path to the site's root, for the page's script."""
    t = words(lang)
    show, hide = (escape(t(f"ui.original.{word}.{source}")) for word in ("show", "hide"))
    show_all, hide_all = (escape(t(f"ui.original.{word}.{source}"), quote=True) for word in ("show_all", "hide_all"))

    def pair(m: re.Match[str]) -> str:
        tag, rule_id = m[1], m[2]
        if tag == "h1":  # the page's title (ours, not the source's); "show all" goes below it
            return (f'{m[0]}<button type="button" class="md-button og-all"><span class="og-show-all">{show_all}</span>'
                    f'<span class="og-hide-all">{hide_all}</span></button>')
        if rule_id not in originals:
            raise ValueError(f"#{rule_id} has no original: the {source} page has no element of that id")
        return (f'<div class="og-pair">{m[0]}<details class="og"><summary><span>{show}</span><span>{hide}</span>'
                f'</summary><p lang="{source}">{originals[rule_id]}</p></details></div>')

    article = _article(html, lang)
    body = _RULE.sub(pair, article[2])
    script = f'<script type="module" src="{root}calc/originals.js"></script>'
    return f"{html[:article.start(2)]}{body}{html[article.end(2):]}".replace("</body>", f"{script}</body>", 1)


def add_originals(site: Path) -> None:
    """Every translated rule page of ``site`` with its originals; fails on a rule that has none."""
    for page, source in SOURCE_LANGUAGE.items():
        original = site / language_folder(source) / page / "index.html"
        originals = originals_in(_article(original.read_text(encoding="utf-8"), original)[2])
        for lang in LANGUAGES:
            if lang == source:
                continue
            path = site / language_folder(lang) / page / "index.html"
            root = "../" * (len(path.relative_to(site).parts) - 1)
            try:
                html = with_originals(path.read_text(encoding="utf-8"), originals, source, lang, root)
            except ValueError as err:
                raise ValueError(f"{path}: {err}") from err
            path.write_text(html, encoding="utf-8")
