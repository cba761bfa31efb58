"""The language list lives in calculators.i18n.LANGUAGES; everything else that names languages follows it."""

from __future__ import annotations

import re
from pathlib import Path

from calculators.i18n import LANGUAGES, LOCALE_DIR, REFERENCE_LANGUAGE
from sitebuild.words import BUILD_LOCALE

ROOT = Path(__file__).resolve().parents[2]


def test_mkdocs_yml_builds_exactly_our_languages():
    """mkdocs-static-i18n needs its own list in mkdocs.yml (YAML cannot import): it must match."""
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert tuple(re.findall(r"^\s+- locale: (\w+)$", text, re.M)) == LANGUAGES
    assert re.search(rf"- locale: {REFERENCE_LANGUAGE}\n\s+default: true", text)


def test_docs_and_catalogs_have_a_folder_per_language():
    for parent in (ROOT / "docs", LOCALE_DIR, BUILD_LOCALE):
        assert sorted(p.name for p in parent.iterdir() if p.is_dir()) == sorted(LANGUAGES), parent
