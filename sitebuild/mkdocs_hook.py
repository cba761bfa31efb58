"""The MkDocs adapter (``hooks:`` in mkdocs.yml): the only file of the build that knows MkDocs.

Per page, once Material's search has read it, calculator markers become forms (rules get their
controls while Markdown renders: ``sitebuild.rule_markup``); the templates in
``overrides/`` get the Jinja global ``sitebuild``; once every language is built,
:func:`sitebuild.finish.finish` runs. Nothing is kept between events but what MkDocs passes in,
and whether the command is ``serve`` (``make dev``: sitebuild/dev.py rebuilds catalogs and wheel first).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # the `mkdocs` console script does not put the checkout on the path
    sys.path.insert(0, str(ROOT))

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

from calculators.i18n import LANGUAGES, REFERENCE_LANGUAGE
from sitebuild import dev
from sitebuild.engine import BuildError
from sitebuild.finish import finish
from sitebuild.render import expand_markers
from sitebuild import rulebook
from sitebuild.links import relative_links
from sitebuild.templates import TemplateData
from sitebuild.typeset import box_tables, typeset_page
from sitebuild.venue import expand_venue_markers


def page_language(src_uri: str) -> str:
    """``fr/naruto.md`` -> ``fr``; files outside a language folder are in the reference language."""
    first = src_uri.split("/", 1)[0]
    return first if first in LANGUAGES else REFERENCE_LANGUAGE


def on_startup(command, dirty):
    dev.SERVING = command == "serve"


def on_config(config):
    """The rule model reads the pages being built (a test builds a copy of docs/ elsewhere)."""
    config.mdx_configs.setdefault("sitebuild.rule_markup", {})["docs_dir"] = config["docs_dir"]
    return config


def on_serve(server, config, builder):
    """``make dev``: catalogs, the calculators, the build, ``web/`` and ``overrides/`` are watched too."""
    for folder in dev.WATCHED:
        server.watch(str(dev.ROOT / folder))
    return server


def on_pre_build(config):
    if dev.SERVING:
        try:
            dev.refresh(site_dir=Path(config["site_dir"]))
        except subprocess.CalledProcessError as err:
            raise PluginError(f"make dev: {err}") from err


def on_env(env, config, files):
    env.globals["sitebuild"] = TemplateData(config["theme"].dirs)
    return env


def _typeset_toc(items, lang: str) -> None:
    """Each table-of-contents entry (HTML text, nested) typeset like the heading it repeats."""
    for item in items:
        item.title = typeset_page(item.title, lang)
        _typeset_toc(item.children, lang)


def on_page_content(html, page, config, files):
    lang = page_language(page.file.src_uri)
    try:
        verbatim = bool(page.meta.get("verbatim"))
        html = typeset_page(html, lang, verbatim=verbatim)
        if not verbatim and page.title:  # the tab's title and the navigation's, as the page's heading
            page.title = typeset_page(page.title, lang)
        if not verbatim:  # the table of contents repeats the headings: typeset as they are
            _typeset_toc(page.toc, lang)
        return html
    except ValueError as err:
        raise PluginError(f"{page.file.src_uri}: {err}") from err


@event_priority(-50)  # after Material's search (0) has read the page
def on_page_context(context, page, config, nav):
    """Calculators, clock and blitz timer are put in once the search index has the page's rules:
    their questions and buttons ("Try again", "QR code", the timer's "Warn Player A") are not rules,
    and came before the rules in results (Material's data-search-exclude ends at the first inner
    closing tag of the same name)."""
    lang = page_language(page.file.src_uri)
    try:
        html = expand_markers(expand_venue_markers(page.content, lang), lang)
        page.content = relative_links(box_tables(html), page.url)
    except ValueError as err:  # MarkerError included
        raise PluginError(f"{page.file.src_uri}: {err}") from err
    return context


def on_post_template(output, template_name, config):
    """Each language's build writes 404.html at the site root: only the reference language's is
    kept (an empty output is not written)."""
    if template_name == "404.html" and config["theme"]["language"] != REFERENCE_LANGUAGE:
        return ""
    return output


@event_priority(-110)  # after mkdocs-static-i18n (-100), which builds the other languages and the search index
def on_post_build(config):
    i18n = config.plugins.get("i18n")
    if i18n is not None and getattr(i18n, "building", False):
        return  # a nested per-language build: the outer build finishes once, at the end
    docs = Path(config["docs_dir"])
    rulebook.report(rulebook.book(docs, docs.parent / "texts"))  # make build and make dev: what lags behind
    try:
        finish(Path(config["site_dir"]), config["site_url"] or "/", serving=dev.SERVING, docs=docs)
    except (BuildError, ValueError) as err:
        raise PluginError(str(err)) from err
