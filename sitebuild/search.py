"""One search index per language: ``search/`` for the reference language, ``fr/search/``, ``it/search/``.

Material's plugin writes one index mixing every language; each entry's location starts with its
language folder (none for the reference language). overrides/main.html points each language's
pages at their own index.
"""

from __future__ import annotations

import json
from pathlib import Path

from calculators.i18n import LANGUAGES, REFERENCE_LANGUAGE, language_folder


def split_search_index(site: Path) -> None:
    index_path = site / "search" / "search_index.json"
    index = json.loads(index_path.read_text(encoding="utf-8"))
    others = [lang for lang in LANGUAGES if lang != REFERENCE_LANGUAGE]
    for lang in LANGUAGES:
        prefix = language_folder(lang)
        if lang == REFERENCE_LANGUAGE:
            docs = [d for d in index["docs"] if d["location"].split("/", 1)[0] not in others]
        else:
            docs = [{**d, "location": d["location"][len(prefix):]} for d in index["docs"] if d["location"].startswith(prefix)]
        target = site / prefix / "search" / "search_index.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps({**index, "config": {**index["config"], "lang": [lang]}, "docs": docs}), encoding="utf-8")
