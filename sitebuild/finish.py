"""The steps that work on the built files, in their one order. No MkDocs here: any generator
that writes the pages (HTML with Material's layout, its search index; the rules' marks come from the
Markdown extension sitebuild.rule_markup) can be followed by::

    python -m sitebuild.finish site/ --site-url https://rules.example.org/

Run it once on a fresh build: it splits the search index and adds each page's policy.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from sitebuild import answers, contract, csp, dev, engine, offline, rulebook, rules_json, search
from sitebuild.engine import ROOT
from sitebuild.hosting import write_hosting
from sitebuild.precompress import precompress


def finish(site: Path, site_url: str, serving: bool = False, docs: Path = rulebook.DOCS) -> dict[str, object]:
    """Finish ``site`` in place; return the service worker's precache list. ``site_url``: the public
    address, or "/" for a build that has none (its sitemaps, which need one, are left out).
    ``serving``: for ``mkdocs serve`` (``make dev``), whose live-reload script is inline and new on
    every response: pages allow inline scripts; no offline copy, host files or ``.br``/``.gz``.
    ``docs``: the pages' Markdown, which the rule model reads (rules.json, the glossary's names)."""
    found = rulebook.book(docs, docs.parent / "texts")
    if not site_url.startswith(("http://", "https://")):
        for sitemap in site.rglob("sitemap.xml*"):  # Material wrote "None/…" addresses
            sitemap.unlink()
    search.split_search_index(site, found)   # before sw.js lists every index
    rules_json.write_rules(site, site_url, found)
    facts = engine.install_engine(site)      # web/ + Pyodide + wheel into calc/
    tables = answers.write_answers(site)     # into calc/ (after web/ is copied), before sw.js lists every file
    contract.write_build_module(site, facts, tables)
    offline.write_icons(site)
    offline.write_manifests(site)
    for page in sorted(site.rglob("*.html")):  # final: hash their inline scripts
        page.write_text(csp.add_policy(page.read_text(encoding="utf-8"), live_reload=serving), encoding="utf-8")
    if serving:
        (site / "sw.js").write_text(dev.DEV_SERVICE_WORKER, encoding="utf-8")
        return {}
    write_hosting(site, ROOT / "build" / "hosting")  # _headers, nginx.conf: the pages' policy as a header
    precache = offline.write_service_worker(site)  # it lists every final file with its hash
    precompress(site)  # last: .br/.gz copies of the final files
    return precache


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m sitebuild.finish", description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--site-url", default="/", help="absolute URL of the site root (the rules' links)")
    parser.add_argument("--docs", type=Path, default=rulebook.DOCS, help="the pages' Markdown (docs/)")
    args = parser.parse_args(argv)
    finish(args.site, args.site_url, docs=args.docs)


if __name__ == "__main__":
    main()
