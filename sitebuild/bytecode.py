"""Our wheel as a phone receives it: each module as bytecode compiled by the engine's own Python.

Importing ``calculators.bridge`` was most of what the worker does between Python's start and the
first verdict (~0.8 s of a phone's 4x slower CPU), and compiling our sources was about half of
it. ``wheel_bytecode.mjs`` compiles each module with Pyodide's Python under Node (the only Python
3.14 here), without line tables and without docstrings but a class's, as the standard library is
(``stdlib.py``): +4 KB of Brotli (42 -> 46 KB), against +18 KB with line tables. The price: a traceback through our code shows no line
numbers (CPython runs the same sources in the tests, with them). The compiled wheel must answer
every traced case as CPython does, or the build fails; the checked result is cached in
``.cache/wheel/``, keyed by what it depends on, like the standard library. Its ``RECORD`` still
names the sources: nothing reads it (the worker unpacks the archive with ``zipfile``, no installer).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
import zipfile
from pathlib import Path

from calculators.bridge import evaluate_json
from sitebuild.cache import write_whole
from sitebuild.stdlib import PYC, ROOT, StdlibError, cases, node, trace

SCRIPT = Path(__file__).with_name("wheel_bytecode.mjs")
CACHE = ROOT / ".cache" / "wheel"


def cache_key(pyodide_dir: Path, wheel: Path, stdlib: Path) -> str:
    digest = hashlib.sha256()
    for path in (pyodide_dir / "pyodide.asm.wasm", pyodide_dir / "python_stdlib.zip", stdlib, SCRIPT, PYC, Path(__file__)):
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    digest.update(hashlib.sha256(wheel.read_bytes()).digest())  # its bytes: the member dates are served too
    return digest.hexdigest()


def bytecode_wheel(pyodide_dir: Path, wheel: Path, stdlib: Path, out: Path) -> Path:
    """Write ``out``: ``wheel`` with its modules as bytecode, checked with the served ``stdlib``
    (or the copy a build with the same inputs checked before)."""
    cached = CACHE / f"{cache_key(pyodide_dir, wheel, stdlib)}.whl"
    if not cached.is_file():
        with tempfile.TemporaryDirectory() as tmp:
            made = Path(tmp) / wheel.name
            node(SCRIPT, f"{pyodide_dir}/", wheel, made, what="our wheel could not be compiled")
            with zipfile.ZipFile(made) as archive:
                if any(name.endswith(".py") for name in archive.namelist()):
                    raise StdlibError(f"{made.name}: a module left as source")
            answers = trace(pyodide_dir, stdlib, made, Path(tmp))["answers"]
            traced = cases()
            expected = [evaluate_json(calc, json.dumps(inputs), lang) for calc, inputs, lang in traced]
            wrong = [case for case, got, want in zip(traced, answers, expected) if got != want]
            if wrong:
                raise StdlibError(f"the compiled wheel: {len(wrong)} answers differ from CPython's, e.g. {wrong[0]}")
            CACHE.mkdir(parents=True, exist_ok=True)
            write_whole(cached, made.read_bytes())
    shutil.copyfile(cached, out)
    return out
