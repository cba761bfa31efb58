"""A revision of the rules in a copy of docs/ and texts/, built once and kept in build/revision/ (tests/kept.py)
for tests/site/test_revision.py, tests/browser/test_moved.py and tests/site/test_reproducible.py: one French
Naruto rule's text changed, one added (French only), one removed and one renamed (in every language, declared
in texts/moved.json)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from calculators.i18n import LANGUAGES
from sitebuild.engine import ROOT
from tests.kept import build_site, kept

CHANGED, ADDED, REMOVED, OLD, NEW = "naruto-blitz-1", "naruto-blitz-10", "naruto-reserve-5", "naruto-blitz-9", "naruto-blitz-judge"
ADDED_TEXT = "Une règle ajoutée par la révision."


def _build(work: Path) -> None:
    """docs/, texts/ and the built site/ in ``work``, and what the build said in said.txt."""
    shutil.copytree(ROOT / "docs", work / "docs")
    shutil.copytree(ROOT / "texts", work / "texts")
    for lang in LANGUAGES:
        path = work / "docs" / lang / "naruto.md"
        text = path.read_text(encoding="utf-8")
        text = re.sub(rf"\n\n[^\n]*\n\{{ #{REMOVED} \}}\n", "\n", text)  # the rule and its id line
        text = text.replace(f"{{ #{OLD} }}", f"{{ #{NEW} }}")
        if lang == "fr":
            text = text.replace("se déroulent en 1 manche gagnante.", "se déroulent en 1 seule manche gagnante.")
            text = text.replace(f"{{ #{NEW} }}\n", f"{{ #{NEW} }}\n\n{ADDED_TEXT}\n{{ #{ADDED} }}\n")
        path.write_text(text, encoding="utf-8")
    (work / "texts" / "moved.json").write_text(json.dumps({OLD: NEW, REMOVED: None}), encoding="utf-8")
    done = build_site(work / "site", work / "docs")
    (work / "said.txt").write_text(done.stdout + done.stderr, encoding="utf-8")


#: This variant's own inputs, beside what the site is built from.
_OWN = ("tests/revision.py", "tests/kept.py")


def build_revision() -> tuple[Path, str]:
    """(the folder holding docs/, texts/ and the built site/, what the build said): made by ``make test``
    before the run, unless the checkout changed since."""
    work = kept("revision", _build, _OWN)
    return work, (work / "said.txt").read_text(encoding="utf-8")


if __name__ == "__main__":  # make test: python -m tests.revision
    print(build_revision()[0])
