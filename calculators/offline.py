"""Build-time work for offline use: content-hashed engine paths, the service worker's
precache list, one web app manifest per language, and the app icons.

Called from the MkDocs hook (``calculators/mkdocs_hook.py``): :func:`page_head` for every
page, :func:`install_engine` then :func:`finish_site` once at the end of the build.
:func:`write_service_worker` can be called again on a built site (the browser test that
simulates a new release does so after changing a file).

Layout of ``site/`` after :func:`install_engine` and :func:`finish_site`::

    sw.js                                 service worker (scope: the whole site), precache list inlined
    manifest.webmanifest, fr/…, it/…      one manifest per language (start_url = that language's home)
    calc/icons/icon-{192,512}.png         app icons, drawn here (no image library needed)
    calc/engine.json                      {"pyodide": "pyodide-<hash>/", "wheel": "wheel-<hash>/<name>.whl", …}
    calc/engine-start.js                  its ``const ENGINE`` line set to those two paths (no fetch at start-up)
    calc/pyodide-<hash>/…                 Pyodide keeps its fixed file names inside its indexURL,
    calc/wheel-<hash>/<name>.whl          so the directory carries the content hash.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import shutil
import struct
import zlib
from html import escape
from pathlib import Path

from calculators.bridge import evaluate_json
from calculators.i18n import LANGUAGES, REFERENCE_LANGUAGE, Translator
from calculators.registry import CALCULATORS

SW_TEMPLATE = Path(__file__).with_name("sw.js")
THEME_COLOR = "#4051b5"  # Material's "indigo" primary, as set in mkdocs.yml
BACKGROUND_COLOR = "#ffffff"
ICON_SIZES = (192, 512)
#: Never precached: source maps, sitemaps, the precompressed copies (the service worker stores what the
#: browser decoded), and Material's search stemmers for languages we do not publish.
_SKIPPED_SUFFIXES = (".map", ".xml", ".xml.gz", ".br", ".gz")


def digest(data: bytes, length: int = 12) -> str:
    return hashlib.sha256(data).hexdigest()[:length]


def root_prefix(page_url: str) -> str:
    """Relative path from a page to the site root: ``fr/naruto/`` -> ``../../``; ``""`` -> ``./``."""
    depth = page_url.count("/")
    return "../" * depth or "./"


def page_head(output: str, lang: str, root: str) -> str:
    """Add the manifest link, the theme colour and the offline script (with its localized words).
    ``root`` is the site root as the page links to it: relative (``../../``, see :func:`root_prefix`)
    on pages, absolute (``/``) on 404.html, which hosts serve at any path."""
    t = Translator(lang)
    manifest = root + ("" if lang == REFERENCE_LANGUAGE else f"{lang}/") + "manifest.webmanifest"
    words = "".join(
        f' data-msg-{name}="{escape(t(f"ui.offline.{name}"), quote=True)}"' for name in ("update", "reload")
    )
    tags = (
        f'<link rel="manifest" href="{manifest}">'
        f'<meta name="theme-color" content="{THEME_COLOR}">'
        f'<link rel="apple-touch-icon" href="{root}calc/icons/icon-192.png">'
        f'<script type="module" src="{root}calc/offline.js" id="offline-script"{words}></script>'
    )
    return output.replace("</head>", tags + "</head>", 1)


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


# --- hashed engine paths -----------------------------------------------------------------------------


#: The line of ``calc/engine-start.js`` that :func:`install_engine` fills in.
ENGINE_LINE = "const ENGINE = null;"


def install_engine(calc: Path, pyodide_files: list[Path], wheel: Path) -> dict[str, object]:
    """Copy the Pyodide files and our wheel under content-hashed directories; write and return engine.json.

    Pyodide keeps its fixed file names inside ``calc/pyodide-<hash>/``; the wheel goes to
    ``calc/wheel-<hash>/<name>.whl``. Hashed directories of earlier builds are removed. The two
    paths are also written into ``calc/engine-start.js`` (copied there before), which starts the engine.
    """
    files = sorted(pyodide_files, key=lambda p: p.name)
    pyodide_hash = digest(b"".join(p.name.encode() + b"\0" + p.read_bytes() for p in files))
    pyodide_dir = calc / f"pyodide-{pyodide_hash}"
    wheel_dir = calc / f"wheel-{digest(wheel.read_bytes())}"
    for stale in [*calc.glob("pyodide-*"), *calc.glob("wheel-*")]:  # left by an earlier build into the same site_dir
        if stale not in (pyodide_dir, wheel_dir) and stale.is_dir():
            shutil.rmtree(stale)
    pyodide_dir.mkdir(parents=True, exist_ok=True)
    wheel_dir.mkdir(exist_ok=True)
    for path in files:
        shutil.copy2(path, pyodide_dir / path.name)
    shutil.copy2(wheel, wheel_dir / wheel.name)
    data = {
        "pyodide": f"{pyodide_dir.name}/",
        "wheel": f"{wheel_dir.name}/{wheel.name}",
        "files": [f"{pyodide_dir.name}/{p.name}" for p in files] + [f"{wheel_dir.name}/{wheel.name}"],
    }
    (calc / "engine.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    start = calc / "engine-start.js"
    text = start.read_text(encoding="utf-8")
    if text.count(ENGINE_LINE) != 1:
        raise ValueError(f"{start}: expected the line {ENGINE_LINE!r} once, to write the engine's paths into")
    # The self-test a restored snapshot must pass (worker.js): each calculator's example as CPython answers it.
    checks = [[spec.id, dict(spec.example), lang, evaluate_json(spec.id, json.dumps(dict(spec.example)), lang)]
              for spec, lang in zip(sorted(CALCULATORS.values(), key=lambda s: s.id), itertools.cycle(LANGUAGES))]
    paths = json.dumps({"pyodide": data["pyodide"], "wheel": data["wheel"], "checks": checks}, ensure_ascii=False)
    start.write_text(text.replace(ENGINE_LINE, f"const ENGINE = {paths};"), encoding="utf-8")
    return data


# --- precache list and service worker ----------------------------------------------------------------


def _is_engine(rel: str) -> bool:
    return rel.startswith(("calc/pyodide-", "calc/wheel-"))


def _wanted(rel: str) -> bool:
    if rel in ("sw.js", "_headers") or rel.endswith(_SKIPPED_SUFFIXES):
        return False
    if rel.startswith("assets/javascripts/lunr/min/"):
        name = rel.rsplit("/", 1)[1]
        keep = {"lunr.stemmer.support.min.js", "lunr.multi.min.js"} | {f"lunr.{lang}.min.js" for lang in LANGUAGES}
        return name in keep
    return True


def _url(rel: str) -> str:
    """The URL a browser asks for: directory URLs for pages (``fr/naruto/``, ``""`` for the home page)."""
    if rel == "index.html":
        return ""
    return rel[: -len("index.html")] if rel.endswith("/index.html") else rel


def precache_list(site: Path) -> dict[str, object]:
    """Every file worth keeping offline, split into the shell (fetched when the service worker
    installs) and the engine (fetched in the background once a page has loaded), each with its
    content hash as revision. ``version`` changes whenever any file does."""
    shell: dict[str, str] = {}
    engine: dict[str, str] = {}
    for path in sorted(p for p in site.rglob("*") if p.is_file()):
        rel = path.relative_to(site).as_posix()
        if not _wanted(rel):
            continue
        (engine if _is_engine(rel) else shell)[_url(rel)] = digest(path.read_bytes())
    version = digest(json.dumps([shell, engine], sort_keys=True).encode())
    return {"version": version, "shell": shell, "engine": engine}


def write_service_worker(site: Path) -> dict[str, object]:
    """Write ``site/sw.js``: the precache list, then the template. Any change of any file
    changes sw.js, which is how browsers learn about a new release."""
    manifest = precache_list(site)
    text = f"const PRECACHE = {json.dumps(manifest, indent=1, sort_keys=True)};\n\n" + SW_TEMPLATE.read_text(encoding="utf-8")
    (site / "sw.js").write_text(text, encoding="utf-8")
    return manifest


def write_manifests(site: Path) -> None:
    """One web app manifest per language: the app opens on the home page of the language it was added from."""
    for lang in LANGUAGES:
        t = Translator(lang)
        folder = site if lang == REFERENCE_LANGUAGE else site / lang
        root = "./" if lang == REFERENCE_LANGUAGE else "../"
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


def finish_site(site: Path) -> dict[str, object]:
    """Everything above, in order; the precache list comes last so it sees every final file."""
    calc = site / "calc"
    (calc / "icons").mkdir(exist_ok=True)
    for size in ICON_SIZES:
        (calc / "icons" / f"icon-{size}.png").write_bytes(icon(size))
    write_manifests(site)
    return write_service_worker(site)
