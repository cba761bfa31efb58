"""What the originals (sitebuild/rule_markup.py) add to each translated page, compressed as the build's
copies are (Brotli q11, gzip -9): the built page against the same page with the originals' markup
taken out again. Budget (issue 45): at most 10 % more on the largest page.

    .venv/bin/python -m tools.originals_bytes site
"""

from __future__ import annotations

import argparse
import gzip
import re
from pathlib import Path

import brotli

from calculators.i18n import LANGUAGES, language_folder
from sitebuild.rulebook import book

#: Pages that reproduce a source text -> the language of their original (the rule model's).
SOURCE_LANGUAGE = {name: book().source(name) for name in book().names() if book().page(book().source(name), name).declared}
#: Exactly what sitebuild.rule_markup adds: the pair's wrapper, each <details>, the button, the script.
_ADDED = re.compile(r'<div class="og-pair">|<details class="og"[^>]*>.*?</details>(?:</div>)?|<button [^>]*class="md-button og-all"[^>]*>[^<]*</button>'
                    r'|<script src="[./]*calc/originals\.js" type="module"></script>', re.S)


def without_originals(html: str) -> str:
    return _ADDED.sub("", html)


def sizes(data: bytes) -> tuple[int, int]:
    return len(brotli.compress(data, quality=11)), len(gzip.compress(data, compresslevel=9, mtime=0))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.originals_bytes", description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path)
    site = parser.parse_args(argv).site
    print("page | HTML before → after, Brotli | gzip | raw")
    for page, source in SOURCE_LANGUAGE.items():
        for lang in LANGUAGES:
            if lang == source:
                continue
            html = (site / language_folder(lang) / page / "index.html").read_text(encoding="utf-8")
            before, after = without_originals(html).encode(), html.encode()
            (bb, bg), (ab, ag) = sizes(before), sizes(after)
            print(f"/{language_folder(lang)}{page}/ | {bb} → {ab} B (+{100 * (ab - bb) / bb:.1f} %) | "
                  f"{bg} → {ag} B (+{100 * (ag - bg) / bg:.1f} %) | {len(before)} → {len(after)} B")


if __name__ == "__main__":
    main()
