"""Offline use: one web app manifest per language, the app icons, and the service worker's precache
list (every final file with its content hash, so it runs last; sitebuild/contract.py writes ``sw.js``).

:func:`write_service_worker` can be called again on a built site (the browser test that simulates
a new release does so after changing a file).
"""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

from calculators.i18n import LANGUAGES, language_folder
from sitebuild import contract
from sitebuild.engine import digest
from sitebuild.hosting import is_hashed
from sitebuild.words import words

THEME_COLOR = "#4051b5"  # Material's "indigo" primary, as set in mkdocs.yml
BACKGROUND_COLOR = "#ffffff"
ICON_SIZES = (192, 512)
#: Never precached: source maps, sitemaps, and Material's search stemmers for languages we do not publish.
_SKIPPED_SUFFIXES = (".map", ".xml", ".xml.gz", ".br", ".gz")


# --- icons -------------------------------------------------------------------------------------------


def _png(width: int, height: int, rows: list[bytes]) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + row for row in rows)  # filter type 0 on every row
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def icon(size: int) -> bytes:
    """A plain, maskable icon: the theme colour with a white card in the safe zone (centre 60%)."""
    theme = bytes.fromhex(THEME_COLOR[1:])
    white = b"\xff\xff\xff"
    left, right = round(size * 0.34), round(size * 0.66)
    top, bottom = round(size * 0.27), round(size * 0.73)
    plain = theme * size
    card = theme * left + white * (right - left) + theme * (size - right)
    return _png(size, size, [card if top <= y < bottom else plain for y in range(size)])


# --- precache list and service worker ----------------------------------------------------------------


def _is_engine(rel: str) -> bool:
    return is_hashed(f"/{rel}")


def _wanted(rel: str) -> bool:
    if rel in (contract.SERVICE_WORKER, "_headers") or rel.endswith(_SKIPPED_SUFFIXES):
        return False
    if rel.startswith("assets/javascripts/lunr/"):
        # Search loads only its language's stemmer (each language has an index of its own, so no
        # lunr.multi); tinyseg.js and wordcut.js segment Japanese, Hindi and Thai words.
        name = rel.rsplit("/", 1)[1]
        return name in {"lunr.stemmer.support.min.js"} | {f"lunr.{lang}.min.js" for lang in LANGUAGES}
    return True


def _url(rel: str) -> str:
    """The URL a browser asks for: directory URLs for pages (``fr/naruto/``, ``""`` for the home page)."""
    if rel == "index.html":
        return ""
    return rel[: -len("index.html")] if rel.endswith("/index.html") else rel


def precache_list(site: Path) -> dict[str, object]:
    """Every file worth keeping offline, split into the shell (fetched when the service worker
    installs) and the engine (fetched in the background once a page has loaded), each with its
    content hash as revision, and each file's size (``sizes``: a stored copy's cheap check, web/offline/sw.js).
    ``version`` changes whenever any file does."""
    shell: dict[str, str] = {}
    engine: dict[str, str] = {}
    sizes: dict[str, int] = {}
    for path in sorted(p for p in site.rglob("*") if p.is_file()):
        rel = path.relative_to(site).as_posix()
        if not _wanted(rel):
            continue
        data = path.read_bytes()
        (engine if _is_engine(rel) else shell)[_url(rel)] = digest(data)
        sizes[_url(rel)] = len(data)
    version = digest(json.dumps([shell, engine], sort_keys=True).encode())
    return {"version": version, "shell": shell, "engine": engine, "sizes": sizes}


def write_service_worker(site: Path) -> dict[str, object]:
    """Write ``site/sw.js`` with the precache list. Any change of any file changes sw.js, which is
    how browsers learn about a new release."""
    manifest = precache_list(site)
    contract.write_service_worker(site, manifest)
    return manifest


def write_manifests(site: Path) -> None:
    """One web app manifest per language: the app opens on the home page of the language it was added from."""
    for lang in LANGUAGES:
        t = words(lang)
        folder = site / language_folder(lang)
        root = "../" * language_folder(lang).count("/") or "./"
        data = {
            "name": t("ui.offline.app_name"),
            "short_name": t("ui.offline.app_short_name"),
            "lang": lang,
            "start_url": "./",
            "scope": root,
            "display": "standalone",
            "theme_color": THEME_COLOR,
            "background_color": BACKGROUND_COLOR,
            "icons": [
                {"src": f"{root}calc/icons/icon-{size}.png", "sizes": f"{size}x{size}", "type": "image/png",
                 "purpose": "any maskable"}
                for size in ICON_SIZES
            ],
        }
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "manifest.webmanifest").write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")


def write_icons(site: Path) -> None:
    calc = site / "calc"
    (calc / "icons").mkdir(exist_ok=True)
    for size in ICON_SIZES:
        (calc / "icons" / f"icon-{size}.png").write_bytes(icon(size))
