"""What the build leaves for offline use: the service worker's precache list, the content-hashed
engine, one manifest per language and its icons."""

from __future__ import annotations

import json
import re
import struct
from html import escape

import pytest

from calculators import CALCULATORS, evaluate
from calculators.i18n import LANGUAGES, language_folder
from sitebuild.engine import digest, engine_paths
from sitebuild.offline import precache_list
from sitebuild.words import words


def precache(site):
    return precache_list(site)


def file_of(site, url):
    path = site / url
    return path / "index.html" if url == "" or url.endswith("/") else path


def test_every_page_of_every_language_is_precached_with_its_content_hash(site):
    listed = precache(site)
    pages = [p.relative_to(site).as_posix() for p in site.rglob("index.html")]
    for rel in pages:
        url = rel[: -len("index.html")]
        assert url in listed["shell"], f"{url or '/'} is not stored for offline use"
    for url, revision in {**listed["shell"], **listed["engine"]}.items():
        assert digest(file_of(site, url).read_bytes()) == revision, f"{url}: stale revision"
    for lang in LANGUAGES:
        prefix = language_folder(lang)
        assert f"{prefix}search/search_index.json" in listed["shell"]
        assert f"{prefix}rules.json" in listed["shell"]
    assert listed["version"] == digest(json.dumps([listed["shell"], listed["engine"]], sort_keys=True).encode())


def test_engine_paths_carry_the_content_hash(site):
    # the page starts the engine from the paths written into calc/engine/start.js (no fetch first)
    engine = engine_paths(site)
    listed = precache(site)
    wheel = site / "calc" / engine["wheel"]
    pyodide = sorted((p for p in (site / "calc" / engine["pyodide"]).iterdir() if p.suffix not in (".br", ".gz")),
                     key=lambda p: p.name)  # (the .br/.gz copies are the host's, not the engine's)
    assert sorted(f"calc/{p.relative_to(site / 'calc').as_posix()}" for p in [*pyodide, wheel]) == sorted(listed["engine"])
    assert wheel.parent.name == f"wheel-{digest(wheel.read_bytes())}"
    expected = digest(b"".join(p.name.encode() + b"\0" + p.read_bytes() for p in pyodide))
    assert engine["pyodide"] == f"pyodide-{expected}/"
    assert {p.name for p in pyodide} >= {"pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                                         "pyodide-lock.json"}
    assert {"pyodide", "wheel", "sha256", "sizes", "checks"} == set(engine)
    assert engine["sizes"] == {f"{p.parent.name}/{p.name}": p.stat().st_size for p in [*pyodide, wheel]}
    # each engine file's digest, as the worker checks it before use, is that of the file shipped
    assert engine["sha256"] == {f"{p.parent.name}/{p.name}": digest(p.read_bytes()) for p in [*pyodide, wheel]}
    # the self-test a restored snapshot must pass (web/engine/worker.js): every calculator's example, as CPython answers it
    assert sorted(calc_id for calc_id, *_ in engine["checks"]) == sorted(CALCULATORS)
    for calc_id, inputs, lang, answer in engine["checks"]:
        assert inputs == dict(CALCULATORS[calc_id].example)
        assert json.loads(answer) == evaluate(calc_id, inputs, lang) and json.loads(answer)["ok"]
    # no plain (unhashed) copy of the engine is left next to the hashed one
    assert not (site / "calc" / "pyodide").exists()
    assert not list((site / "calc").glob("*.whl"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_manifest_per_language_opening_on_its_home_page(site, lang):
    folder = site / language_folder(lang)
    manifest = json.loads((folder / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["lang"] == lang and manifest["start_url"] == "./"
    assert (folder / manifest["start_url"] / "index.html").is_file()
    assert manifest["name"] and manifest["theme_color"].startswith("#")
    for icon in manifest["icons"]:
        data = (folder / icon["src"]).resolve().read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = struct.unpack(">II", data[16:24])
        assert f"{width}x{height}" == icon["sizes"]
    # every page of the language links that language's manifest
    for page in folder.glob("*/index.html"):
        if page.parent.name in LANGUAGES:
            continue
        href = re.search(r'<link rel="manifest" href="([^"]+)">', page.read_text(encoding="utf-8")).group(1)
        assert (page.parent / href).resolve() == (folder / "manifest.webmanifest").resolve(), page


def test_404_page_serves_every_language_from_any_path(site):
    """Hosts serve 404.html at whatever path was asked for: English, as the reference language,
    with a line and a home link in each language, and root-absolute manifest and offline script."""
    from calculators.i18n import REFERENCE_LANGUAGE

    html = (site / "404.html").read_text(encoding="utf-8")
    assert re.search(r'<html lang="en"', html)
    assert f'<h1 id="not-found" class="nf-online">{words(REFERENCE_LANGUAGE)("ui.not_found.title")}</h1>' in html
    # The lines the service worker shows instead, offline, for a page of the site it cannot give (hidden here).
    title = words(REFERENCE_LANGUAGE)("ui.not_found.offline_title")
    assert f'<h1 id="not-offline" class="nf-offline" hidden>{title}</h1>' in html
    for lang in LANGUAGES:
        home = "/" if lang == REFERENCE_LANGUAGE else f"/{lang}/"
        line = re.search(rf'<p lang="{lang}">(.*?)</p>', html).group(1)
        assert f'<a href="{home}">' in line and (site / home.lstrip("/") / "index.html").is_file()
        assert words(lang)("ui.not_found.home").replace("'", "&#x27;") in line
        offline = re.search(rf'<p lang="{lang}" class="nf-offline" hidden>(.*?)</p>', html).group(1)
        assert escape(words(lang)("ui.not_found.offline")) in offline
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert '<script type="module" src="/calc/offline/offline.js">' in html
    assert "404.html" in precache(site)["shell"]


def test_engine_is_preloaded_from_head_on_calculator_pages_only(site):
    for page in site.rglob("index.html"):
        html = page.read_text(encoding="utf-8")
        head = html[: html.index("</head>")]
        starts = re.findall(r'<link rel="modulepreload" href="([^"]*calc/engine/start\.js)">', head)
        # a first visit (no service worker in control) prefetches the engine's wasm, by its hashed path
        # (from the build's facts, preloaded), once the page has painted
        prefetches = re.findall(r'<script>navigator\.serviceWorker\?\.controller \|\|[^<]*?rel: "prefetch"', head)
        if 'data-calc="' in html:
            assert len(starts) == 1 and (page.parent / starts[0]).resolve() == (site / "calc" / "engine" / "start.js")
            # first in <head> after the charset and the security policy, so its download starts early
            assert head.index("engine/start.js") < head.index("<title>")
            assert len(prefetches) == 1, page
            assert head.index("prefetch") < head.index("<title>")
        else:
            assert not starts and not prefetches, page
        assert html.count("engine/start.js") == len(starts), page  # nothing else loads it from the page
        assert html.count("build.js") == 2 * len(starts), page  # preloaded, and read by the prefetch


def test_the_clock_and_its_qr_library_are_stored_for_offline_use(site):
    """The round clock must work in airplane mode after one visit to any page."""
    shell = precache(site)["shell"]
    for url in ("clock/", "fr/clock/", "it/clock/", "calc/venue/clock.js", "calc/venue/blitz.js", "calc/venue/signal.js",
                "calc/shared/qr.js", "calc/vendor/qrcode.mjs"):
        assert url in shell, url


def test_the_search_files_stored_are_those_the_languages_use(site):
    """Each language's index has one language, so search loads the stemmer support and that language's
    stemmer (none for English); a phone does not store other languages' word segmenters (wordcut.js
    alone is 0.13 MB) or lunr.multi."""
    configs = [json.loads((site / language_folder(lang) / "search" / "search_index.json").read_text())["config"]
               for lang in LANGUAGES]
    assert all(len(config["lang"]) == 1 for config in configs)
    stored = {url.rsplit("/", 1)[1] for url in precache(site)["shell"] if url.startswith("assets/javascripts/lunr/")}
    expected = {"lunr.stemmer.support.min.js"} | {f"lunr.{c['lang'][0]}.min.js" for c in configs if c["lang"] != ["en"]}
    assert stored == expected
    for needed in expected:  # what is stored exists
        assert (site / "assets/javascripts/lunr/min" / needed).is_file()
