"""MkDocs hook: expands calculator markers and ships the browser engine.

Listed under ``hooks:`` in mkdocs.yml. ``on_page_content`` turns each
``<!-- calc:ID -->`` into the form in the page's language (an unknown marker
fails the build). ``on_post_build`` copies our scripts, the Pyodide runtime
(from ``node_modules/pyodide``, never a CDN) and our wheel into ``site/calc/``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

from mkdocs.exceptions import PluginError

from calculators.i18n import LANGUAGES, REFERENCE_LANGUAGE
from calculators.render import MarkerError, expand_markers

ROOT = Path(__file__).resolve().parents[1]
STATIC = Path(__file__).with_name("static")
#: The files a Pyodide boot needs (measured: nothing else is requested for our pure wheel).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
WHEEL_GLOB = "rules_calculators-*-py3-none-any.whl"


def page_language(src_uri: str) -> str:
    """``fr/naruto.md`` -> ``fr``; files outside a language folder are in the reference language."""
    first = src_uri.split("/", 1)[0]
    return first if first in LANGUAGES else REFERENCE_LANGUAGE


def on_page_content(html, page, config, files):
    try:
        return expand_markers(html, page_language(page.file.src_uri))
    except MarkerError as err:
        raise PluginError(f"{page.file.src_uri}: {err}") from err


#: Material's script fetches ``sitemap.xml`` next to every ``<link rel="alternate" hreflang>``
#: (one 404 per language per page, each a console error). The language menu carries the
#: same links, so the head copies are dropped.
_ALTERNATE_LINK = re.compile(r'\s*<link rel="alternate" href="[^"]*" hreflang="[^"]*">')


def on_post_page(output, page, config):
    return _ALTERNATE_LINK.sub("", output)


def find_wheel() -> Path:
    """Our pure wheel, built by ``make wheel``; refuse a missing or stale one."""
    dist = Path(os.environ.get("RULES_WHEEL_DIR", ROOT / "dist"))
    wheels = sorted(dist.glob(WHEEL_GLOB), key=lambda p: p.stat().st_mtime)
    if not wheels:
        raise PluginError(f"no wheel matching {WHEEL_GLOB} in {dist}: run `make wheel` first")
    wheel = wheels[-1]
    sources = [p for pkg in ("calculators", "rules_core") for p in (ROOT / pkg).rglob("*") if p.suffix in {".py", ".mo"}]
    newest = max(sources, key=lambda p: p.stat().st_mtime)
    if newest.stat().st_mtime > wheel.stat().st_mtime:
        raise PluginError(f"{wheel.name} is older than {newest.relative_to(ROOT)}: run `make wheel` again")
    return wheel


def on_post_build(config):
    out = Path(config["site_dir"]) / "calc"
    pyodide_src = ROOT / "node_modules" / "pyodide"
    missing = [name for name in PYODIDE_FILES if not (pyodide_src / name).is_file()]
    if missing:
        raise PluginError(f"Pyodide files missing in {pyodide_src}: {', '.join(missing)}; run `npm ci`")
    wheel = find_wheel()
    (out / "pyodide").mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copy2(pyodide_src / name, out / "pyodide" / name)
    shutil.copytree(STATIC, out, dirs_exist_ok=True)
    shutil.copy2(wheel, out / wheel.name)
    (out / "engine.json").write_text(json.dumps({"wheel": wheel.name}), encoding="utf-8")
