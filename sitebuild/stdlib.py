"""A standard library cut down to what the engine uses: Pyodide's own start-up, our calculators.

Pyodide ships its whole standard library (``python_stdlib.zip``: 614 files, 2.5 MB compressed);
the calculators use a small part of it. :func:`trimmed_stdlib` runs the calculators in Pyodide
under Node exactly as the browser's worker does (``stdlib_trace.mjs``: start, unpack the wheel,
import, snapshot, restore, evaluate), keeps the files that were imported, and writes them into a
new zip as bytecode compiled without docstrings or line tables (``stdlib_minify.mjs``, by Pyodide's
own Python), uncompressed, so that the host's Brotli compresses the whole: ~0.55 MB against 2.5 MB
for Pyodide's zip. Bytecode, not sources: compiling the sources was most of a first start, which
costs a phone more than the bytes bytecode adds (DESIGN.md, "The standard library as bytecode").
The price: a traceback through the standard library shows no line numbers. It then runs the same
trace on the new zip and refuses it unless every answer equals CPython's: a module the calculators
need but the trace missed fails the build here, with Python's own message, not on a phone.

What the trace exercises: every calculator's example and hostile values in every language, and
an import of every module named in an ``import`` statement of ``calculators``/``rules_core`` (a
lazy import inside a function counts too), but for the command line's (``COMMAND_LINE``).

The three Pyodide runs take ~15 s on two cores, most of a build: the checked result is cached in
``.cache/stdlib/``, keyed by everything it depends on (Pyodide's zip, our wheel, the cases, this
module and its two scripts), and reused while none of it changes.
"""

from __future__ import annotations

import ast
import hashlib
import json
import shutil
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from calculators import CALCULATORS, LANGUAGES
from calculators.bridge import evaluate_json
from sitebuild.cache import write_whole

ROOT = Path(__file__).resolve().parents[1]
TRACE = Path(__file__).with_name("stdlib_trace.mjs")
MINIFY = Path(__file__).with_name("stdlib_minify.mjs")
PYC = Path(__file__).with_name("pyc.py")  # the bytecode helpers MINIFY runs
CACHE = ROOT / ".cache" / "stdlib"
#: Where the zip is mounted in Pyodide's file system.
MOUNT = "/lib/python314.zip/"
#: Values every text or number field also gets in the trace: markup, signs, digits, direction marks.
ODD_VALUES = ("<b>x</b>", "-1", "1e309", "9" * 200, "\u202eboB", "Ann: 3\nBob: x", "3x Kakashi [ninja]\n1 [Gruppo]")


class StdlibError(RuntimeError):
    """The trimmed standard library would not serve the calculators."""


#: The wheel's command line (``python -m calculators``): never run in the browser, and the only
#: importer of ``argparse`` (11 KB of the first visit's download).
COMMAND_LINE = "calculators/__main__.py"


def our_imports(wheel: Path) -> list[str]:
    """Every standard-library module named by an import statement in the wheel's sources, but for
    its command line."""
    names: set[str] = set()
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            if not name.endswith(".py") or name == COMMAND_LINE:
                continue
            for node in ast.walk(ast.parse(archive.read(name))):
                if isinstance(node, ast.Import):
                    names.update(alias.name for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    names.add(node.module)
    return sorted(n for n in names if n.split(".")[0] in sys.stdlib_module_names and n != "__future__")


def cases() -> list[tuple[str, dict[str, str], str]]:
    found = []
    for spec in sorted(CALCULATORS.values(), key=lambda s: s.id):
        for lang in LANGUAGES:
            found.append((spec.id, dict(spec.example), lang))
            for value in ODD_VALUES:
                found.append((spec.id, {**spec.example, **{f.name: value for f in spec.fields if f.kind != "choice"}}, lang))
            found.append((spec.id, {f.name: "none-of-these" for f in spec.fields}, lang))
    return found


def node(script: Path, *args: object, what: str) -> str:
    """Run a Node script with Pyodide; its output, or a StdlibError with the end of its errors."""
    run = subprocess.run(["node", str(script), *map(str, args)], capture_output=True, text=True)
    if run.returncode != 0:
        lines = [line[:300] for line in run.stderr.strip().splitlines() if len(line) < 2000]  # not minified code
        errors = [line for line in lines if re.match(r"\w*(Error|Exception): ", line)]  # Python's own words first
        raise StdlibError(f"{what}:\n" + "\n".join([*errors, "…", *lines[-8:]]))
    return run.stdout


def trace(pyodide_dir: Path, stdlib: Path, wheel: Path, work: Path) -> dict:
    """Run the calculators in Pyodide under Node with ``stdlib``; the files imported and the answers."""
    todo = work / "cases.json"
    todo.write_text(json.dumps({"modules": our_imports(wheel), "cases": cases()}), encoding="utf-8")
    out = node(TRACE, f"{pyodide_dir}/", stdlib, wheel, todo, what=f"the calculators failed in Pyodide with {stdlib.name}")
    return json.loads(out)


def cache_key(pyodide_dir: Path, wheel: Path) -> str:
    """What the trimmed standard library depends on, hashed: a change to any of it builds it anew."""
    digest = hashlib.sha256()
    for path in (pyodide_dir / "python_stdlib.zip", pyodide_dir / "pyodide.asm.wasm", Path(__file__), TRACE, MINIFY, PYC):
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    with zipfile.ZipFile(wheel) as archive:  # its files, not its zip: the members' dates change with every build
        for name in sorted(archive.namelist()):
            digest.update(name.encode() + hashlib.sha256(archive.read(name)).digest())
    digest.update(json.dumps([our_imports(wheel), cases()]).encode())
    return digest.hexdigest()


def trimmed_stdlib(pyodide_dir: Path, wheel: Path, out: Path) -> Path:
    """Write ``out``: the standard-library files the engine imports, checked as described above
    (or the copy a build with the same inputs checked before)."""
    cached = CACHE / f"{cache_key(pyodide_dir, wheel)}.zip"
    if cached.is_file():
        shutil.copyfile(cached, out)
        return out
    _build_trimmed(pyodide_dir, wheel, out)
    CACHE.mkdir(parents=True, exist_ok=True)
    write_whole(cached, out.read_bytes())
    return out


def _build_trimmed(pyodide_dir: Path, wheel: Path, out: Path) -> Path:
    full = pyodide_dir / "python_stdlib.zip"
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        used = {f[len(MOUNT):] for f in trace(pyodide_dir, full, wheel, work)["files"] if f.startswith(MOUNT)}
        with zipfile.ZipFile(full) as source:
            missing = used - set(source.namelist())
        if missing:
            raise StdlibError(f"imported but not in {full.name}: {sorted(missing)}")
        names = work / "names.json"
        names.write_text(json.dumps(sorted(used)), encoding="utf-8")
        node(MINIFY, f"{pyodide_dir}/", names, out, what="the standard library could not be compiled")
        answers = trace(pyodide_dir, out, wheel, work)["answers"]
    expected = [evaluate_json(calc, json.dumps(inputs), lang) for calc, inputs, lang in cases()]
    wrong = [case for case, got, want in zip(cases(), answers, expected) if got != want]
    if wrong:
        raise StdlibError(f"with the trimmed standard library, {len(wrong)} answers differ from CPython's, e.g. {wrong[0]}")
    return out


def package_free_lock(pyodide_dir: Path, out: Path) -> Path:
    """Pyodide's lock file without its package list (119 KB): the engine loads no package, and
    Pyodide reads only the ``info`` block to start."""
    lock = json.loads((pyodide_dir / "pyodide-lock.json").read_text(encoding="utf-8"))
    out.write_text(json.dumps({"info": lock["info"], "packages": {}}), encoding="utf-8")
    return out


if __name__ == "__main__":
    result = trimmed_stdlib(ROOT / "node_modules" / "pyodide", Path(sys.argv[1]), Path(sys.argv[2]))
    print(f"{result}: {result.stat().st_size} bytes")
