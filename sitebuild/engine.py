"""The engine the browser runs: our scripts (``web/``), the Pyodide runtime and our wheel, into ``site/calc/``.

Pyodide keeps its fixed file names inside ``calc/pyodide-<hash>/``; the wheel goes to
``calc/wheel-<hash>/<name>.whl``. Both paths, each file's digest and the self-test a restored
snapshot must pass are build facts (sitebuild/contract.py writes them into ``calc/build.js``, which
``engine/start.js`` imports), so the page needs no fetch before starting the engine.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import shutil
import tempfile
from pathlib import Path

from calculators.bridge import evaluate_json
from calculators.i18n import LANGUAGES
from calculators.registry import CALCULATORS
from sitebuild.bytecode import bytecode_wheel
from sitebuild.contract import SCRIPTS, WEB, build_facts
from sitebuild.precompress import stored_zip
from sitebuild.stdlib import StdlibError, package_free_lock, trimmed_stdlib

ROOT = Path(__file__).resolve().parents[1]
PYODIDE_SRC = ROOT / "node_modules" / "pyodide"
#: The files a Pyodide boot needs (nothing else is requested for our pure wheel).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
WHEEL_GLOB = "rules_calculators-*-py3-none-any.whl"
#: The QR encoder web/shared/qr.js uses, copied from npm like Pyodide: never a CDN.
QR_LIBRARY = ROOT / "node_modules" / "qrcode-generator" / "dist" / "qrcode.mjs"


class BuildError(RuntimeError):
    """The build cannot go on: a file it needs is missing or stale."""


def digest(data: bytes, length: int = 12) -> str:
    return hashlib.sha256(data).hexdigest()[:length]


def find_wheel() -> Path:
    """Our pure wheel, built by ``make wheel``; refuse a missing or stale one."""
    given = os.environ.get("RULES_WHEEL_DIR")  # an explicitly given wheel is trusted as is
    dist = Path(given or ROOT / "dist")
    wheels = sorted(dist.glob(WHEEL_GLOB), key=lambda p: p.stat().st_mtime)
    if not wheels:
        raise BuildError(f"no wheel matching {WHEEL_GLOB} in {dist}: run `make wheel` first")
    wheel = wheels[-1]
    if given:
        return wheel
    newer = newer_than_wheel(wheel)
    if newer is not None:
        raise BuildError(f"{wheel.name} is older than {newer.relative_to(ROOT)}: run `make wheel` again"
                         " (`make dev` does it on its own)")
    return wheel


def newer_than_wheel(wheel: Path, root: Path = ROOT) -> Path | None:
    """The newest of the wheel's sources (``.py`` and compiled catalogs) if it is newer than ``wheel``."""
    sources = [p for pkg in ("calculators", "rules_core") for p in (root / pkg).rglob("*") if p.suffix in {".py", ".mo"}]
    newest = max(sources, key=lambda p: p.stat().st_mtime)
    return newest if newest.stat().st_mtime > wheel.stat().st_mtime else None


def self_test() -> list[list[object]]:
    """Each calculator's example as CPython answers it, in a rotating language: what a restored
    snapshot must answer identically (web/engine/worker.js)."""
    return [[spec.id, dict(spec.example), lang, evaluate_json(spec.id, json.dumps(dict(spec.example)), lang)]
            for spec, lang in zip(sorted(CALCULATORS.values(), key=lambda s: s.id), itertools.cycle(LANGUAGES))]


def served_files(pyodide_src: Path, wheel: Path, work: Path) -> tuple[list[Path], Path]:
    """The engine as a phone downloads it: Pyodide's files with the standard library cut to what is
    imported and the lock file without packages (sitebuild/stdlib.py), and our wheel with its modules
    as bytecode (sitebuild/bytecode.py), stored uncompressed so the host's Brotli compresses it whole
    (sitebuild/precompress.py)."""
    try:
        trimmed = trimmed_stdlib(pyodide_src, wheel, work / "python_stdlib.zip")
    except StdlibError as err:
        raise BuildError(f"trimmed standard library: {err}") from err
    made = {"python_stdlib.zip": trimmed, "pyodide-lock.json": package_free_lock(pyodide_src, work / "pyodide-lock.json")}
    (work / "wheel").mkdir()
    stored = stored_zip(wheel, work / wheel.name)
    try:
        served = bytecode_wheel(pyodide_src, stored, trimmed, work / "wheel" / wheel.name)
    except StdlibError as err:
        raise BuildError(f"compiled wheel: {err}") from err
    return [made.get(name, pyodide_src / name) for name in PYODIDE_FILES], served


def install_engine(site: Path, wheel: Path | None = None, pyodide_src: Path = PYODIDE_SRC) -> dict[str, object]:
    """Copy ``web/`` to ``site/calc/``, then Pyodide and the wheel under content-hashed folders
    (those of earlier builds removed); return the engine's build facts (:func:`_install`)."""
    missing = [name for name in PYODIDE_FILES if not (pyodide_src / name).is_file()]
    if missing:
        raise BuildError(f"Pyodide files missing in {pyodide_src}: {', '.join(missing)}; run `npm ci`")
    with tempfile.TemporaryDirectory() as tmp:
        served, served_wheel = served_files(pyodide_src, wheel or find_wheel(), Path(tmp))
        return _install(site, served, served_wheel)


def _install(site: Path, pyodide_files: list[Path], wheel: Path) -> dict[str, object]:
    """The engine's paths (``pyodide``: its folder, ``wheel``), each file's digest (``sha256``) and
    size (``sizes``), and the self-test (``checks``): what web/engine/start.js and worker.js read."""
    calc = site / SCRIPTS
    shutil.copytree(WEB, calc, dirs_exist_ok=True)
    if not QR_LIBRARY.is_file():
        raise BuildError(f"{QR_LIBRARY} missing: run `npm ci`")
    (calc / "vendor").mkdir(exist_ok=True)
    shutil.copy2(QR_LIBRARY, calc / "vendor" / "qrcode.mjs")  # web/shared/qr.js imports it; precached with calc/
    files = sorted(pyodide_files, key=lambda p: p.name)
    pyodide_hash = digest(b"".join(p.name.encode() + b"\0" + p.read_bytes() for p in files))
    pyodide_dir = calc / f"pyodide-{pyodide_hash}"
    wheel_dir = calc / f"wheel-{digest(wheel.read_bytes())}"
    for stale in [*calc.glob("pyodide-*"), *calc.glob("wheel-*")]:  # left by an earlier build into the same site
        if stale not in (pyodide_dir, wheel_dir) and stale.is_dir():
            shutil.rmtree(stale)
    pyodide_dir.mkdir(parents=True, exist_ok=True)
    wheel_dir.mkdir(exist_ok=True)
    for path in files:
        shutil.copy2(path, pyodide_dir / path.name)
    shutil.copy2(wheel, wheel_dir / wheel.name)
    paths = {"pyodide": f"{pyodide_dir.name}/", "wheel": f"{wheel_dir.name}/{wheel.name}"}
    # Each file's digest (the service worker's precache revision too): the worker checks every
    # download against it before use (web/engine/worker.js).
    sha256 = {f"{pyodide_dir.name}/{p.name}": digest(p.read_bytes()) for p in files}
    sha256[paths["wheel"]] = digest(wheel.read_bytes())
    # Each file's size, for the download's progress bar (the worker counts the bytes it reads).
    sizes = {f"{pyodide_dir.name}/{p.name}": p.stat().st_size for p in files}
    sizes[paths["wheel"]] = wheel.stat().st_size
    return {**paths, "sha256": sha256, "sizes": sizes, "checks": self_test()}


def engine_paths(site: Path) -> dict[str, object]:
    """The engine's build facts in a built site (:func:`_install`, as written into ``calc/build.js``)."""
    return build_facts(site)["ENGINE"]
