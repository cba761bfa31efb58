"""A build is reproducible: the same commit gives the same bytes (another build here gives the
built ``site/`` file for file), and a release that changes only the rule texts keeps the engine's
and the wheel's content-hashed paths, so phones keep their stored engine and its snapshot.

The epochs are the Makefile's (read from it, not restated); ``site/`` is what ``make build`` made.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sitebuild.engine import ROOT, engine_paths

SITE = ROOT / "site"


def makefile_epochs() -> dict[str, str]:
    """SOURCE_DATE_EPOCH of the wheel and of the site, as the Makefile sets them."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    wheel = re.search(r"^WHEEL_EPOCH := (\d+)$", text, re.M).group(1)
    assert re.search(r"^SITE_EPOCH = \$\(shell git log -1 --format=%ct ", text, re.M), "the Makefile's site epoch changed"
    done = subprocess.run(["git", "log", "-1", "--format=%ct"], cwd=ROOT, capture_output=True, text=True)
    return {"wheel": wheel, "site": done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else wheel}


def build_site(out: Path, docs: Path | None = None) -> subprocess.CompletedProcess:
    """``mkdocs build`` as ``make site`` runs it, into ``out`` (from ``docs`` instead of docs/); what it said."""
    config = ROOT / "mkdocs.yml"
    if docs is not None:  # a config of its own beside mkdocs.yml (its relative paths stay right)
        config = ROOT / f".mkdocs-test-{os.getpid()}.yml"
        config.write_text(f"INHERIT: mkdocs.yml\ndocs_dir: {docs}\n", encoding="utf-8")
    env = {**os.environ, "SOURCE_DATE_EPOCH": makefile_epochs()["site"], "NO_MKDOCS_2_WARNING": "1"}
    try:
        return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-f", str(config), "-d", str(out)],
                              cwd=ROOT, env=env, check=True, capture_output=True, text=True)
    finally:
        if docs is not None:
            config.unlink()


def files(tree: Path) -> dict[str, Path]:
    return {p.relative_to(tree).as_posix(): p for p in sorted(tree.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def wheel_again(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(ROOT)],
                   cwd=out, env={**os.environ, "SOURCE_DATE_EPOCH": makefile_epochs()["wheel"]},
                   check=True, capture_output=True)
    # setuptools' scratch folders only, as `make wheel` clears them: build/ also holds the pseudo-locale
    # site (tests/pseudo.py), whose loss made the next `make test` build it again (~20-60 s).
    for scratch in [ROOT / "build" / "lib", *(ROOT / "build").glob("bdist.*")]:
        shutil.rmtree(scratch, ignore_errors=True)
    return next(out.glob("*.whl"))


def test_the_wheel_is_the_same_bytes_when_built_again(wheel_again):
    (built,) = (ROOT / "dist").glob("*.whl")
    assert wheel_again.read_bytes() == built.read_bytes()


def test_the_site_is_the_same_bytes_when_built_again(tmp_path):
    build_site(tmp_path / "site")
    again, made = files(tmp_path / "site"), files(SITE)
    assert sorted(again) == sorted(made)
    differ = [name for name in made if made[name].read_bytes() != again[name].read_bytes()]
    assert not differ, f"{len(differ)} files differ, e.g. {differ[:5]}"


def test_a_change_to_the_rules_text_keeps_the_engine_and_the_wheel(tmp_path):
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs)
    shutil.copytree(ROOT / "texts", tmp_path / "texts")  # the rule model's records, beside the pages
    glossary = docs / "en" / "glossary.md"
    text = glossary.read_text(encoding="utf-8")
    glossary.write_text(text.replace("\n\n", "\n\nA sentence a release adds.\n\n", 1), encoding="utf-8")
    build_site(tmp_path / "site", docs)
    changed = tmp_path / "site"
    assert (changed / "glossary" / "index.html").read_bytes() != (SITE / "glossary" / "index.html").read_bytes()
    assert engine_paths(changed) == engine_paths(SITE)  # the same folders, digests and self-test
    for part in ("pyodide", "wheel"):
        assert (changed / "calc" / engine_paths(SITE)[part]).exists()
