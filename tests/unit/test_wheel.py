"""The wheel every phone downloads carries the rules and the runtime calculators, nothing of the build."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from calculators.i18n import LANGUAGES, LOCALE_DIR
from calculators.registry import CALCULATORS
from sitebuild.engine import BuildError, find_wheel

ROOT = Path(__file__).resolve().parents[2]
#: calculators' runtime modules besides one module per calculator.
RUNTIME_MODULES = {"__init__", "__main__", "bridge", "i18n", "registry", "spec", "players"}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """``dist/``'s wheel when it is current (``make wheel``), else one built here."""
    try:
        return find_wheel()
    except BuildError:
        out = tmp_path_factory.mktemp("wheel")
        subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(ROOT)],
                       check=True, capture_output=True)
        return next(out.glob("*.whl"))


def allowed() -> set[str]:
    modules = RUNTIME_MODULES | {spec.run.__module__.rsplit(".", 1)[1] for spec in CALCULATORS.values()}
    runtime = {f"calculators/{name}.py" for name in modules}
    rules = {f"rules_core/{p.name}" for p in (ROOT / "rules_core").glob("*.py")}
    domains = {p.stem for p in (LOCALE_DIR / "en" / "LC_MESSAGES").glob("*.po")}
    catalogs = {f"calculators/locale/{lang}/LC_MESSAGES/{d}.mo" for lang in LANGUAGES for d in domains}
    return runtime | rules | catalogs


def test_wheel_holds_only_rules_and_runtime(wheel):
    names = [n for n in zipfile.ZipFile(wheel).namelist() if ".dist-info/" not in n]
    unexpected = sorted(set(names) - allowed())
    assert not unexpected, f"{wheel.name} carries files the browser does not need: {unexpected}"
    assert "calculators/__init__.py" in names and "rules_core/__init__.py" in names
    assert not [n for n in names if n.endswith(".mo") and "/offline." in n]  # the build's own words stay out


def test_wheel_metadata_carries_no_readme(wheel):
    """The served wheel's hash keys the phones' engine snapshot: a README edit must not change it."""
    with zipfile.ZipFile(wheel) as z:
        metadata = z.read(next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))).decode()
    headers, _, body = metadata.partition("\n\n")
    assert not body.strip() and "Description-Content-Type" not in headers, metadata[:300]


def test_served_wheel_depends_on_its_files_not_their_dates(tmp_path):
    """Two builds of the same Python differ only in file dates; the served wheel (whose hash names it
    and keys the phones' engine snapshot) must be the same bytes, and differ when a file does."""
    from sitebuild.precompress import stored_zip

    def served(n: int, date: tuple, body: bytes) -> bytes:
        source, out = tmp_path / f"in{n}.whl", tmp_path / str(n) / "out.whl"
        with zipfile.ZipFile(source, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr(zipfile.ZipInfo("calculators/bridge.py", date_time=date), body)
        out.parent.mkdir()
        return stored_zip(source, out).read_bytes()

    first = served(0, (2026, 1, 2, 3, 4, 6), b"a = 1\n")
    assert served(1, (2026, 12, 1, 7, 0, 0), b"a = 1\n") == first
    assert served(2, (2026, 1, 2, 3, 4, 6), b"a = 2\n") != first
