"""A build is reproducible: the same commit gives the same bytes (another build here gives the
built ``site/`` file for file), and a release that changes only the rule texts keeps the engine's
and the wheel's content-hashed paths, so phones keep their stored engine and its snapshot.

The epochs are the Makefile's (read from it, not restated); ``site/`` is what ``make build`` made.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sitebuild.engine import ROOT, engine_paths
from tests import kept
from tests.kept import build_site, makefile_epochs
from tests.revision import build_revision

SITE = ROOT / "site"


def files(tree: Path) -> dict[str, Path]:
    return {p.relative_to(tree).as_posix(): p for p in sorted(tree.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def wheel_again(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(ROOT)],
                   cwd=out, env={**os.environ, "SOURCE_DATE_EPOCH": makefile_epochs()["wheel"]},
                   check=True, capture_output=True)
    # setuptools' scratch folders only, as `make wheel` clears them: build/ also holds the site variants
    # (tests/kept.py), whose loss made the next `make test` build them again (~20-60 s).
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


def test_make_build_builds_again_after_any_change_to_what_the_site_is_made_of(monkeypatch):
    """`make build` skips the build when its stamp says the site was made from the checkout as it is:
    true after it ran, false once a file the site is made of differs, or the commit's date, or a
    setting the build reads from the environment."""
    assert kept.site_is_current()
    real = Path.read_bytes
    with monkeypatch.context() as edited:  # one byte more in one input (the checkout itself untouched)
        edited.setattr(Path, "read_bytes", lambda self: real(self) + (b"!" if self.name == "mkdocs.yml" else b""))
        assert not kept.site_is_current()
    with monkeypatch.context() as committed:
        committed.setattr(kept, "makefile_epochs", lambda: {**makefile_epochs(), "site": "1"})
        assert not kept.site_is_current()
    with monkeypatch.context() as addressed:  # SITE_URL=… make build: the public address in the pages
        addressed.setenv("SITE_URL", "https://rules.example.org/")
        assert not kept.site_is_current()
    assert kept.site_is_current()


def test_a_change_to_the_rules_text_keeps_the_engine_and_the_wheel():
    work, _ = build_revision()  # rule texts changed, added, removed and renamed (tests/revision.py)
    changed = work / "site"
    assert (changed / "fr" / "naruto" / "index.html").read_bytes() != (SITE / "fr" / "naruto" / "index.html").read_bytes()
    assert engine_paths(changed) == engine_paths(SITE)  # the same folders, digests and self-test
    for part in ("pyodide", "wheel"):
        assert (changed / "calc" / engine_paths(SITE)[part]).exists()
