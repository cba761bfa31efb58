"""Compile every gettext catalog (``.po``) under calculators/locale (runtime, in the wheel) and
sitebuild/locale (the build's own words) into ``.mo`` with Babel; French messages get French
spacing on the way (sitebuild.typeset.french_spaces), so a translator types plain spaces.

Run by ``make`` before the wheel and the site are built, and by the test
session when a catalog is newer than its compiled file.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script (make catalogs): the checkout's sitebuild
    sys.path.insert(0, str(ROOT))

from sitebuild.cache import write_whole  # noqa: E402
from sitebuild.typeset import CATALOG_TYPESETTING  # noqa: E402

LOCALES = (ROOT / "calculators" / "locale", ROOT / "sitebuild" / "locale")


def stale_catalogs(locales: tuple[Path, ...] = LOCALES) -> list[Path]:
    """The ``.po`` files whose ``.mo`` is missing or older."""
    return [po for po in sorted(po for locale in locales for po in locale.glob("*/LC_MESSAGES/*.po"))
            if not po.with_suffix(".mo").exists() or po.with_suffix(".mo").stat().st_mtime < po.stat().st_mtime]


def compile_all(locales: tuple[Path, ...] = LOCALES) -> list[Path]:
    written = []
    for po in stale_catalogs(locales):
        mo = po.with_suffix(".mo")
        with po.open("rb") as fh:
            catalog = read_po(fh, locale=po.parts[-3], domain=po.stem)
        typeset = CATALOG_TYPESETTING.get(po.parts[-3])
        for message in catalog if typeset else ():
            if message.id and isinstance(message.string, str):
                message.string = typeset(message.string)  # French spacing: the sources stay plain
        compiled = io.BytesIO()
        write_mo(compiled, catalog)
        write_whole(mo, compiled.getvalue())  # parallel test workers never read half a catalog
        written.append(mo)
    return written


if __name__ == "__main__":
    for path in compile_all():
        print(f"compiled {path.relative_to(ROOT)}", file=sys.stderr)
