"""MkDocs hook: expands calculator markers and ships the browser engine.

Listed under ``hooks:`` in mkdocs.yml. ``on_page_content`` turns each
``<!-- calc:ID -->`` into the form in the page's language (an unknown marker
fails the build). ``on_post_build`` copies our scripts, the Pyodide runtime
(from ``node_modules/pyodide``, never a CDN) and our wheel into ``site/calc/``.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import shutil
from html import escape
from pathlib import Path
from urllib.parse import urlsplit

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

from calculators import a11y, csp, offline
from calculators.i18n import LANGUAGES, REFERENCE_LANGUAGE, Translator
from calculators.render import MarkerError, expand_markers
from calculators.rules_data import rules_in
from calculators.venue import expand_venue_markers

ROOT = Path(__file__).resolve().parents[1]
STATIC = Path(__file__).with_name("static")
#: The files a Pyodide boot needs (measured: nothing else is requested for our pure wheel).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
WHEEL_GLOB = "rules_calculators-*-py3-none-any.whl"
#: The QR encoder the pages use (``static/qr.js``), copied from npm like Pyodide: never a CDN.
QR_LIBRARY = ROOT / "node_modules" / "qrcode-generator" / "dist" / "qrcode.mjs"
#: Pages that are tools, not rules: left out of rules.json.
TOOL_PAGES = ("index.md", "clock.md")


def page_language(src_uri: str) -> str:
    """``fr/naruto.md`` -> ``fr``; files outside a language folder are in the reference language."""
    first = src_uri.split("/", 1)[0]
    return first if first in LANGUAGES else REFERENCE_LANGUAGE


_RULE_PARAGRAPH = re.compile(r'(<p id="([a-z0-9-]+)">)(.*?)(</p>)', re.S)
_HEADERLINK = re.compile(r'<a class="headerlink" href="#([a-z0-9-]+)" title="[^"]*">')


def add_rule_links(html: str, lang: str) -> str:
    """Give every rule paragraph and heading with an id a visible, localized copy-link control."""
    t = Translator(lang)
    label = escape(t("ui.copy_link"), quote=True)
    copied = escape(t("ui.link_copied", url="{url}"), quote=True)  # filled in by site.js
    html = _RULE_PARAGRAPH.sub(
        lambda m: f'{m.group(1)}{m.group(3)} <a class="rule-link" href="#{m.group(2)}" title="{label}" '
        f'aria-label="{label}" data-copied="{copied}"></a>{m.group(4)}',
        html,
    )
    return _HEADERLINK.sub(
        lambda m: f'<a class="headerlink" href="#{m.group(1)}" title="{label}" aria-label="{label}" data-copied="{copied}">',
        html,
    )


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


#: lang -> page url -> its rules, filled while pages render, written once at the end.
RULES: dict[str, dict[str, list[dict[str, str]]]] = {}


def on_page_content(html, page, config, files):
    lang = page_language(page.file.src_uri)
    if not page.file.src_uri.endswith(TOOL_PAGES):  # the home pages and the clock hold no rule
        site_url = config["site_url"] or "/"
        RULES.setdefault(lang, {})[page.url] = [
            {**rule, "page": page.url, "url": f"{site_url}{page.url}#{rule['id']}"} for rule in rules_in(html)
        ]
    try:
        html = expand_markers(expand_venue_markers(html, lang), lang)
    except MarkerError as err:
        raise PluginError(f"{page.file.src_uri}: {err}") from err
    return relative_links(add_rule_links(html, lang), page.url)


def write_rules(site: Path) -> None:
    """One ``rules.json`` per language, at the root of that language."""
    for lang, pages in RULES.items():
        folder = site if lang == REFERENCE_LANGUAGE else site / lang
        rules = [rule for url in sorted(pages) for rule in pages[url]]
        data = {"lang": lang, "rules": rules}
        (folder / "rules.json").write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")


#: Material's script fetches ``sitemap.xml`` next to every ``<link rel="alternate" hreflang>``
#: (one 404 per language per page, each a console error). The language menu carries the
#: same links, so the head copies are dropped.
_ALTERNATE_LINK = re.compile(r'\s*<link rel="alternate" href="[^"]*" hreflang="[^"]*">')


_CONFIG = re.compile(r'(<script id="__config" type="application/json">)(.*?)(</script>)', re.S)


def finish_head(output: str) -> str:
    """What every HTML file leaves the build with: no head alternates, Material's template
    repaired for accessibility, and its Content-Security-Policy (hashes of its inline scripts)."""
    return csp.add_policy(a11y.repair(_ALTERNATE_LINK.sub("", output)))


def language_base(output: str, lang: str) -> str:
    """Material loads search/search_index.json from its "base": point it at this language's own
    index (written by on_post_build), so search stays in one language."""

    def rebase(match: re.Match[str]) -> str:
        settings = json.loads(match.group(2))
        settings["base"] = f"{settings['base']}/{lang}/"
        return match.group(1) + json.dumps(settings) + match.group(3)

    return _CONFIG.sub(rebase, output, count=1)


def site_words(output: str, lang: str) -> str:
    """The words site.js and qr.js need on every page (the QR code dialog), in the page's language,
    as data attributes of one hidden element: scripts hold no words of their own."""
    t = Translator(lang)
    words = "".join(f' data-qr-{name}="{escape(text, quote=True)}"' for name, text in sorted(t.templates("ui.qr.").items()))
    return output.replace("</body>", f'<div id="site-words" hidden{words}></div></body>', 1)


def on_post_page(output, page, config):
    lang = page_language(page.file.src_uri)
    root = offline.root_prefix(page.url)
    output = site_words(offline.page_head(output, lang, root), lang)
    if 'data-calc="' in output:  # a calculator (calculators/render.py), as calc.js finds them
        # Fetched first thing, run by calc.js once the page is parsed (why: calc/engine-start.js).
        output = csp.head_start(output, f'<link rel="modulepreload" href="{root}calc/engine-start.js">')
    if lang != REFERENCE_LANGUAGE:
        output = language_base(output, lang)
    return finish_head(output)


_NOT_FOUND_TITLE = re.compile(r"<h1>404 - Not found</h1>")
#: 404.html as the reference language's build made it (see on_post_template).
_not_found: list[str] = []


def not_found_page(output: str, root: str) -> str:
    """Material's 404 page, which hosts serve at any path, for a reader of any of our languages:
    "not found" and a link to each language's home page, each in its own language; the manifest
    and offline script with root-absolute addresses."""
    parts = []
    for lang in LANGUAGES:
        t = Translator(lang)
        home = root + ("" if lang == REFERENCE_LANGUAGE else f"{lang}/")
        said = "" if lang == REFERENCE_LANGUAGE else f'{escape(t("ui.not_found.title"))}. '  # (the heading says it)
        parts.append(f'<p lang="{lang}">{said}<a href="{home}">{escape(t("ui.not_found.home"))}</a></p>')
    title = escape(Translator(REFERENCE_LANGUAGE)("ui.not_found.title"))
    output, found = _NOT_FOUND_TITLE.subn(f'<h1 id="not-found">{title}</h1>' + "".join(parts), output, count=1)
    if not found:
        raise PluginError("404.html: Material's heading was not found; update not_found_page()")
    return finish_head(offline.page_head(output, REFERENCE_LANGUAGE, root))


def on_post_template(output, template_name, config):
    """404.html (a static template, not a page). Every language's nested build writes it at the
    site root, the last one winning: the reference language's is kept and written back at the end."""
    if template_name != "404.html":
        return output
    if config["theme"]["language"] == REFERENCE_LANGUAGE:
        _not_found[:] = [not_found_page(output, urlsplit(config["site_url"] or "/").path or "/")]
    return _not_found[0] if _not_found else output


def split_search_index(site: Path) -> None:
    """One search index per language: ``search/`` for English, ``fr/search/``, ``it/search/``.

    Material's plugin writes one index mixing every language; each entry's location
    starts with its language folder (none for English).
    """
    index_path = site / "search" / "search_index.json"
    index = json.loads(index_path.read_text(encoding="utf-8"))
    others = [lang for lang in LANGUAGES if lang != REFERENCE_LANGUAGE]
    for lang in LANGUAGES:
        if lang == REFERENCE_LANGUAGE:
            docs = [d for d in index["docs"] if d["location"].split("/", 1)[0] not in others]
            target = index_path
        else:
            prefix = f"{lang}/"
            docs = [{**d, "location": d["location"][len(prefix):]} for d in index["docs"] if d["location"].startswith(prefix)]
            target = site / lang / "search" / "search_index.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps({**index, "config": {**index["config"], "lang": [lang]}, "docs": docs}), encoding="utf-8")


def find_wheel() -> Path:
    """Our pure wheel, built by ``make wheel``; refuse a missing or stale one."""
    given = os.environ.get("RULES_WHEEL_DIR")  # an explicitly given wheel is trusted as is
    dist = Path(given or ROOT / "dist")
    wheels = sorted(dist.glob(WHEEL_GLOB), key=lambda p: p.stat().st_mtime)
    if not wheels:
        raise PluginError(f"no wheel matching {WHEEL_GLOB} in {dist}: run `make wheel` first")
    wheel = wheels[-1]
    if given:
        return wheel
    sources = [p for pkg in ("calculators", "rules_core") for p in (ROOT / pkg).rglob("*") if p.suffix in {".py", ".mo"}]
    newest = max(sources, key=lambda p: p.stat().st_mtime)
    if newest.stat().st_mtime > wheel.stat().st_mtime:
        raise PluginError(f"{wheel.name} is older than {newest.relative_to(ROOT)}: run `make wheel` again")
    return wheel


@event_priority(-110)  # after mkdocs-static-i18n (-100), which builds the other languages and the search index
def on_post_build(config):
    i18n = config.plugins.get("i18n")
    if i18n is not None and getattr(i18n, "building", False):
        return  # a nested per-language build: the outer build does this once, at the end
    if _not_found:
        (Path(config["site_dir"]) / "404.html").write_text(_not_found[0], encoding="utf-8")
    split_search_index(Path(config["site_dir"]))
    write_rules(Path(config["site_dir"]))
    out = Path(config["site_dir"]) / "calc"
    pyodide_src = ROOT / "node_modules" / "pyodide"
    missing = [name for name in PYODIDE_FILES if not (pyodide_src / name).is_file()]
    if missing:
        raise PluginError(f"Pyodide files missing in {pyodide_src}: {', '.join(missing)}; run `npm ci`")
    shutil.copytree(STATIC, out, dirs_exist_ok=True)
    if not QR_LIBRARY.is_file():
        raise PluginError(f"{QR_LIBRARY} missing: run `npm ci`")
    (out / "vendor").mkdir(exist_ok=True)
    shutil.copy2(QR_LIBRARY, out / "vendor" / "qrcode.mjs")  # precached with the rest of calc/
    offline.install_engine(out, [pyodide_src / name for name in PYODIDE_FILES], find_wheel())  # content-hashed paths
    offline.finish_site(Path(config["site_dir"]))  # manifests, icons, sw.js
