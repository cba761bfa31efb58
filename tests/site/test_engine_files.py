"""The engine as built for a phone's first visit: a standard library cut to what is imported (and
the build refusing one that lacks a module), a lock file without packages, and Brotli/gzip copies
beside every file a host should send compressed."""

from __future__ import annotations

import gzip
import json
import re
import zipfile
from pathlib import Path

import brotli
import pytest

from sitebuild.engine import engine_paths, find_wheel
from sitebuild.precompress import MIN_BYTES, SUFFIXES
from sitebuild.stdlib import COMMAND_LINE, ROOT, StdlibError, cache_key, our_imports, trace

PYODIDE = ROOT / "node_modules" / "pyodide"


@pytest.fixture(scope="module")
def engine(site) -> Path:
    return site / "calc" / engine_paths(site)["pyodide"]


def wheel(site) -> Path:
    """The wheel as served: its modules as bytecode (sitebuild/bytecode.py)."""
    return next(site.glob("calc/wheel-*/*.whl"))


def source_wheel() -> Path:
    """The wheel as built (``make wheel``), its modules as sources: what the served one is compiled from."""
    return find_wheel()


def module_files(names) -> set[str]:
    return {f for n in names for f in (n.replace(".", "/") + ".py", n.replace(".", "/") + "/__init__.py")}


def as_sources(names) -> set[str]:
    """A zip's file names, each module (shipped as bytecode) as its source's name."""
    return {name[:-1] if name.endswith(".pyc") else name for name in names}


def test_the_standard_library_holds_what_the_calculators_import(site, engine):
    shipped = set(zipfile.ZipFile(PYODIDE / "python_stdlib.zip").namelist())
    trimmed = zipfile.ZipFile(engine / "python_stdlib.zip")
    names = as_sources(trimmed.namelist())
    assert len(names) < len(shipped) / 2  # cut down...
    needed = module_files(our_imports(source_wheel())) & shipped  # (modules built into the wasm are in no zip)
    assert needed and needed <= names  # ...but never below what our code names
    assert all(info.compress_type == zipfile.ZIP_STORED for info in trimmed.infolist())  # the host compresses


def test_the_standard_library_is_bytecode_pyodide_loads_as_it_is(engine):
    """Every module as an unchecked hash-based .pyc (PEP 552), none as source: compiling sources was
    most of a first start (DESIGN.md); the build's trace ran the calculators on this very zip."""
    with zipfile.ZipFile(engine / "python_stdlib.zip") as trimmed:
        names = trimmed.namelist()
        compiled = [name for name in names if name.endswith(".pyc")]
        headers = {trimmed.read(name)[4:8] for name in compiled}
        docstring = trimmed.read("inspect.pyc")
    assert "inspect.pyc" in compiled and not [name for name in names if name.endswith(".py")]
    assert headers == {(1).to_bytes(4, "little")}  # hash-based, never checked against a source
    assert b"Get useful information from live Python objects" not in docstring  # docstrings dropped


def test_the_served_wheel_is_bytecode_of_the_built_one(site):
    """Each module of the built wheel served as an unchecked hash-based .pyc of Pyodide's Python (its
    magic number: the served standard library's), none as source; every other member the same bytes.
    The build ran every traced case on it against CPython's answers (sitebuild/bytecode.py)."""
    engine = site / "calc" / engine_paths(site)["pyodide"]
    with zipfile.ZipFile(engine / "python_stdlib.zip") as stdlib:
        magic = stdlib.read("inspect.pyc")[:4]
    with zipfile.ZipFile(source_wheel()) as built, zipfile.ZipFile(wheel(site)) as served:
        names = served.namelist()
        modules = [name for name in built.namelist() if name.endswith(".py")]
        assert sorted(names) == sorted(name + "c" if name in modules else name for name in built.namelist())
        for name in names:
            data = served.read(name)
            if name.endswith(".pyc"):
                assert data[:4] == magic and data[4:8] == (1).to_bytes(4, "little"), name
            else:
                assert data == built.read(name), name
        assert all(info.compress_type == zipfile.ZIP_STORED for info in served.infolist())


def test_the_command_line_s_imports_are_left_out(site, engine):
    """``python -m calculators`` never runs in the browser: what only it imports is not shipped."""
    with zipfile.ZipFile(source_wheel()) as archive:
        assert "import argparse" in archive.read(COMMAND_LINE).decode()
    assert "argparse" not in our_imports(source_wheel())
    assert "argparse.py" not in as_sources(zipfile.ZipFile(engine / "python_stdlib.zip").namelist())


def test_the_trace_unpacks_the_wheel_as_the_worker_does():
    """The trace finds what the worker imports only if it runs the worker's own lines."""
    def unpack(path: str) -> str:
        return re.search(r"`\n(import [^`]*extractall[^`]*)`", (ROOT / path).read_text(encoding="utf-8")).group(1)
    worker = unpack("web/engine/worker.js")
    assert worker == unpack("sitebuild/stdlib_trace.mjs")
    assert "sysconfig" not in worker  # sysconfig and its data: 12 KB of a first visit, imported for nothing else


def test_a_standard_library_lacking_a_module_fails_the_build(site, engine, tmp_path):
    broken = tmp_path / "python_stdlib.zip"
    with zipfile.ZipFile(engine / "python_stdlib.zip") as source, zipfile.ZipFile(broken, "w") as target:
        for name in source.namelist():
            if name not in ("gettext.py", "gettext.pyc"):  # the calculators' catalogs need it; Pyodide's start-up does not
                target.writestr(name, source.read(name))
    with pytest.raises(StdlibError, match=r"ModuleNotFoundError: No module named 'gettext'"):
        trace(PYODIDE, broken, wheel(site), tmp_path)


def test_the_trimmed_library_is_reused_only_while_the_wheel_is_the_same(site, tmp_path):
    """Cached by the wheel's files, not by its zip: a rebuild that only changes the members' dates
    reuses it; any change to a file builds it anew."""
    built = source_wheel()
    redated = tmp_path / "redated.whl"
    with zipfile.ZipFile(built) as source, zipfile.ZipFile(redated, "w") as target:
        for info in source.infolist():
            target.writestr(zipfile.ZipInfo(info.filename, date_time=(2030, 6, 1, 12, 0, 0)), source.read(info))
    assert redated.read_bytes() != built.read_bytes()
    assert cache_key(PYODIDE, redated) == cache_key(PYODIDE, built)
    changed = tmp_path / "changed.whl"
    with zipfile.ZipFile(built) as source, zipfile.ZipFile(changed, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            target.writestr(info, data + b"\n# changed\n" if info.filename == "calculators/bridge.py" else data)
    assert cache_key(PYODIDE, changed) != cache_key(PYODIDE, built)


def test_the_lock_file_lists_no_package(engine):
    lock = json.loads((engine / "pyodide-lock.json").read_text(encoding="utf-8"))
    shipped = json.loads((PYODIDE / "pyodide-lock.json").read_text(encoding="utf-8"))
    assert lock == {"info": shipped["info"], "packages": {}}


def test_every_compressible_engine_and_page_file_has_its_copies(site, engine):
    files = [p for p in engine.iterdir() if p.suffix in SUFFIXES and p.stat().st_size >= MIN_BYTES]
    files += [site / "naruto" / "index.html", site / "sw.js"]
    assert len(files) >= 6
    for path in files:
        data = path.read_bytes()
        assert brotli.decompress(path.with_name(path.name + ".br").read_bytes()) == data, path
        assert gzip.decompress(path.with_name(path.name + ".gz").read_bytes()) == data, path
    wasm = engine / "pyodide.asm.wasm"
    assert (wasm.with_name(wasm.name + ".br")).stat().st_size < 0.3 * wasm.stat().st_size
