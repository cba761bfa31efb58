"""`make dev`'s part that is code (sitebuild/dev.py): what is rebuilt before the site when a file changes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from calculators import i18n
from sitebuild import dev

#: A checkout in miniature: one file of each kind the loop looks at, all built at t=1000.
FILES = (
    "calculators/spec.py",
    "calculators/locale/it/LC_MESSAGES/naruto_rounds.po",
    "calculators/locale/it/LC_MESSAGES/naruto_rounds.mo",
    "sitebuild/render.py",
    "sitebuild/locale/it/LC_MESSAGES/offline.po",
    "sitebuild/locale/it/LC_MESSAGES/offline.mo",
    "rules_core/naruto.py",
    "docs/it/naruto.md",
    "dist/rules_calculators-0.1.0-py3-none-any.whl",
)


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    for name in FILES:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x")
        os.utime(path, (1000, 1000 + name.endswith((".mo", ".whl"))))  # what is built is newer than its source
    return tmp_path


def edit(root: Path, name: str) -> None:
    os.utime(root / name, (2000, 2000))


def test_nothing_is_rebuilt_when_everything_is_up_to_date(checkout):
    assert dev.stale_steps(checkout) == []


def test_a_page_needs_only_the_site(checkout):
    edit(checkout, "docs/it/naruto.md")
    assert dev.stale_steps(checkout) == []


def test_a_calculator_catalog_rebuilds_the_wheel_which_compiles_it(checkout):
    edit(checkout, "calculators/locale/it/LC_MESSAGES/naruto_rounds.po")
    assert dev.stale_steps(checkout) == ["wheel"]


def test_a_compiled_catalog_newer_than_the_wheel_rebuilds_the_wheel(checkout):
    edit(checkout, "calculators/locale/it/LC_MESSAGES/naruto_rounds.mo")
    assert dev.stale_steps(checkout) == ["wheel"]


def test_the_build_s_own_words_need_their_catalog_only(checkout):
    edit(checkout, "sitebuild/locale/it/LC_MESSAGES/offline.po")
    assert dev.stale_steps(checkout) == ["catalogs"]


def test_a_missing_wheel_or_compiled_catalog_is_built(checkout):
    (checkout / "sitebuild/locale/it/LC_MESSAGES/offline.mo").unlink()
    assert dev.stale_steps(checkout) == ["catalogs"]
    (checkout / FILES[-1]).unlink()
    assert dev.stale_steps(checkout) == ["wheel"]


@pytest.mark.parametrize("module", ["calculators/spec.py", "rules_core/naruto.py", "sitebuild/render.py"])
def test_python_code_changed_since_the_server_started_restarts_it(checkout, module):
    assert dev.code_changed(checkout, since=1500) is None
    edit(checkout, module)
    assert dev.code_changed(checkout, since=1500) == checkout / module


def test_refresh_runs_make_and_reads_the_new_catalogs(checkout, monkeypatch):
    monkeypatch.setattr(dev, "STARTED", 3000)
    ran = []
    monkeypatch.setattr(subprocess, "run", lambda args, **kw: ran.append(args[-1]))
    i18n.catalog("it")
    assert i18n.catalog.cache_info().currsize
    assert dev.refresh(checkout) == [] and ran == []
    assert i18n.catalog.cache_info().currsize, "nothing rebuilt: the cached catalogs stay"
    edit(checkout, "calculators/locale/it/LC_MESSAGES/naruto_rounds.po")
    assert dev.refresh(checkout) == ["wheel"] and ran == ["wheel"]
    assert i18n.catalog.cache_info().currsize == 0


def test_refresh_restarts_the_server_on_changed_code(checkout, monkeypatch):
    monkeypatch.setattr(dev, "STARTED", 1500)
    edit(checkout, "sitebuild/render.py")
    execs = []
    monkeypatch.setattr(os, "execv", lambda *args: execs.append(args))
    monkeypatch.setattr(subprocess, "run", lambda args, **kw: None)
    dev.refresh(checkout)
    assert execs == [(sys.executable, sys.orig_argv)]
