"""Builds kept while what they are made from is unchanged: the site variants the tests build (the
pseudo-locale's, a revision of the rules'), in build/<name>/ beside the digest of their inputs, and the
stamp of ``make build``'s wheel and site (build/site.sha256). ``make test`` prepares them before the run,
so a run on an unchanged checkout builds none of them, and a run after any edit builds them again."""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build"

#: What a build reads (a checkout that is not a git repository is copied from these).
SOURCES = ("calculators", "rules_core", "sitebuild", "docs", "texts", "overrides", "web", "tools", "tests",
           "mkdocs.yml", "pyproject.toml")
#: What the site is built from (notes, the README and the tests are not; a variant names its own files).
BUILT_FROM = ("calculators", "rules_core", "sitebuild", "docs", "texts", "overrides", "web", "tools", "mkdocs.yml",
              "pyproject.toml", "package.json", "package-lock.json", "requirements.txt", "Makefile")


def checkout_files() -> list[str]:
    """The checkout's files as they are now (edits not committed yet included), without what it built."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                                cwd=ROOT, check=True, capture_output=True).stdout.decode().split("\0")
    except (OSError, subprocess.CalledProcessError):
        listed = [p.relative_to(ROOT).as_posix() for name in SOURCES
                  for p in ([ROOT / name] if (ROOT / name).is_file() else (ROOT / name).rglob("*"))]
    return [f for f in listed if f and "__pycache__" not in f and not f.endswith(".mo") and (ROOT / f).is_file()]


def inputs_digest(own: tuple[str, ...]) -> str:
    """What a variant is made from: the files the site is built from and the variant's ``own`` (names and bytes)."""
    digest = hashlib.sha256()
    for name in sorted(f for f in checkout_files() if f.split("/", 1)[0] in BUILT_FROM or f in own):
        digest.update(name.encode() + b"\0" + hashlib.sha256((ROOT / name).read_bytes()).digest())
    return digest.hexdigest()


def kept(name: str, build: Callable[[Path], None], own: tuple[str, ...]) -> Path:
    """build/``name``/, made by ``build`` (into the empty folder it is given) unless what is there was made
    from the checkout as it is now. Two test workers: one builds, the other waits and reuses it."""
    folder = BUILD / name
    stamp, digest = folder / "inputs.sha256", inputs_digest(own)
    BUILD.mkdir(exist_ok=True)
    with open(BUILD / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if stamp.is_file() and stamp.read_text() == digest:
            return folder
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        build(folder)
        stamp.write_text(digest)
    return folder


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


#: The stamp of the wheel and site that ``make build`` made last: what they were made from, the commit's
#: date (the sitemap's) and the settings the build reads from the environment (the public address, a
#: wheel given), so that a run on an unchanged checkout does not build the same bytes again.
SITE_STAMP = BUILD / "site.sha256"
BUILD_SETTINGS = ("SITE_URL", "RULES_WHEEL_DIR")


def site_digest() -> str:
    settings = " ".join(f"{name}={os.environ.get(name)!r}" for name in BUILD_SETTINGS)  # unset is not empty
    return f"{inputs_digest(())} {makefile_epochs()['site']} {settings}\n"


def site_is_current() -> bool:
    """site/, the wheel and the hosting files are there, made from the checkout as it is now."""
    made = [ROOT / "site" / "index.html", ROOT / "build" / "hosting" / "nginx.conf", *(ROOT / "dist").glob("*.whl")]
    return len(made) == 3 and all(p.is_file() for p in made) and SITE_STAMP.is_file() and SITE_STAMP.read_text() == site_digest()


if __name__ == "__main__":  # make build: `current` (exit 1 when the site must be built again), `stamp` (once it was)
    if sys.argv[1:] == ["current"]:
        sys.exit(0 if site_is_current() else 1)
    if sys.argv[1:] == ["stamp"]:
        BUILD.mkdir(exist_ok=True)
        SITE_STAMP.write_text(site_digest())
        sys.exit(0)
    sys.exit(f"usage: python -m tests.kept current|stamp (got {sys.argv[1:]})")
