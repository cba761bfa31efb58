"""Brotli and gzip copies of every compressible file of the built site, written beside it.

A good static host sends these (nginx ``gzip_static``/``brotli_static``, or any host told to):
the engine's wasm is 3.53 MB as gzip but 2.74 MB as Brotli at its highest quality, which no host
spends the time to reach on the fly. ``tools/serve.py`` serves them the same way, so the tests and
the benchmark see what a phone gets. Brotli at quality 11 takes about two minutes for the wasm on
two cores: results are cached by content in ``.cache/precompressed/`` and reused by later builds.
"""

from __future__ import annotations

import gzip
import hashlib
import zipfile
from pathlib import Path

import brotli

from sitebuild.cache import write_whole

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "precompressed"
#: Worth compressing: text, JSON, wasm, and our zips, which are stored uncompressed (:func:`stored_zip`).
#: PNGs are compressed already.
SUFFIXES = {".html", ".css", ".js", ".mjs", ".json", ".wasm", ".svg", ".webmanifest", ".txt", ".xml", ".zip", ".whl"}
#: Smaller files gain nothing worth a second request path.
MIN_BYTES = 1024
ENCODINGS = {
    ".br": lambda data: brotli.compress(data, quality=11),
    ".gz": lambda data: gzip.compress(data, compresslevel=9, mtime=0),
}


def compressed(data: bytes, suffix: str) -> bytes:
    """``data`` encoded by ``suffix`` (``.br``/``.gz``), from the cache when this content was seen before."""
    key = CACHE / f"{hashlib.sha256(data).hexdigest()}{suffix}"
    if key.is_file():
        return key.read_bytes()
    encoded = ENCODINGS[suffix](data)
    CACHE.mkdir(parents=True, exist_ok=True)
    write_whole(key, encoded)
    return encoded


ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # the earliest a zip can hold


def stored_zip(source: Path, out: Path) -> Path:
    """The same archive with its members stored, not deflated: Brotli over the whole then compresses
    across files (our wheel: 96 KB as built, 56 KB this way). Same files, same wheel RECORD.
    Members get one fixed date: the served wheel's name is its content's hash, and it keys the phones'
    engine snapshot, so a build of unchanged Python (new file dates only) must not make phones start
    in full and download it again."""
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as dst:
        for info in src.infolist():
            copy = zipfile.ZipInfo(info.filename, date_time=ZIP_DATE)
            copy.external_attr = info.external_attr
            dst.writestr(copy, src.read(info))
    return out


def wanted(path: Path) -> bool:
    return path.suffix in SUFFIXES and path.is_file() and path.stat().st_size >= MIN_BYTES


def precompress(site: Path) -> list[Path]:
    """Write ``<file>.br`` and ``<file>.gz`` beside each compressible file, when smaller; return them."""
    written = []
    for path in sorted(p for p in site.rglob("*") if wanted(p)):
        data = path.read_bytes()
        for suffix in ENCODINGS:
            encoded = compressed(data, suffix)
            target = path.with_name(path.name + suffix)
            if len(encoded) < len(data):
                target.write_bytes(encoded)
                written.append(target)
            else:
                target.unlink(missing_ok=True)
    return written
