"""The answer before the engine: every verdict of a calculator whose inputs that matter take a small,
finite set of values, computed at build time by the same :func:`calculators.evaluate` the engine runs,
written as static JSON under ``site/calc/answers/`` (one file per calculator, language and, where
:data:`TABLES` says so, value of one choice). The page answers from them by the exact field values
until the engine is ready (web/calculators/verdict.js); every other value waits for the engine.

A table's key is the inputs the page sends, without its empty values (``evaluate`` reads an empty
value and a missing one alike), as ``[name, value]`` pairs sorted by name. A file stores each distinct
verdict once and the keys as a tree of those pairs (:func:`compact`): the best of three's 3,200 keys
share 173 verdicts, and the phone stores and parses the raw JSON (10× smaller than ``{key: verdict}``).
Free-text fields (the players' names) are empty in every key: a name typed waits for the engine, never
a verdict with a wrong or missing name. File names carry their content's digest, which the page checks
before using a table (and which is the service worker's precache revision, like every file's).

Which calculators and ranges: chosen by bytes (DESIGN.md, "The answer before the engine";
``python -m sitebuild.answers`` prints each file's size).
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Mapping

from calculators import evaluate
from calculators.i18n import LANGUAGES
from calculators.players import NAME_FIELDS
from calculators.registry import CALCULATORS
from calculators.spec import Calculator
from rules_core.pokemon import GAMES_TO_WIN, MAX_PRIZES, MIN_PRIZES
from sitebuild.contract import build_facts
from sitebuild.engine import digest

FOLDER = "answers"


@dataclass(frozen=True)
class Table:
    """The values a calculator's table covers: each integer field's (the others: empty only);
    every choice is covered, and a text field only empty. ``by``: the choice field whose value
    picks the file (a single game's page does not fetch the best of three's verdicts)."""

    integers: Mapping[str, range] = field(default_factory=dict)
    by: str = ""


#: Measured (``python -m sitebuild.answers``): Swiss rounds for 1–512 players ≈ 10 KB of Brotli a
#: language (575 kB raw; 1–256: 6 KB, 282 kB; 1–1024: 17 KB, 1.16 MB: a shared link for 300 players
#: had waited for the engine, issue 62); every Pokémon state of a best of three ≈ 3 KB, of a single game < 2 KB. The Naruto
#: tiebreak (rewards up to 9999), the Réserve and the shame list (free text) wait for the engine.
TABLES: dict[str, Table] = {
    "naruto-rounds": Table({"players": range(CALCULATORS["naruto-rounds"].field("players").minimum, 513)}),
    "pokemon-time-limit": Table({name: range(MIN_PRIZES, MAX_PRIZES + 1) for name in ("prizes_a", "prizes_b")}
                                | {name: range(0, GAMES_TO_WIN + 1) for name in ("games_a", "games_b")}, by="format"),
    "naruto-end-of-time": Table(),
    "judge-tower-hand": Table(),
}


def pairs(inputs: Mapping[str, str]) -> list[tuple[str, str]]:
    """A table's key for the inputs a page sends (web/calculators/verdict.js builds the same).

    >>> pairs({"prizes_b": "2", "format": "bo1", "name_a": ""})
    [('format', 'bo1'), ('prizes_b', '2')]
    """
    return sorted((k, v) for k, v in inputs.items() if v != "")


def compact(answers: list[tuple[dict[str, str], object]]) -> dict[str, object]:
    """``{"verdicts": [each distinct verdict once], "keys": tree}`` for (inputs, verdict) pairs; the tree
    follows a key's pairs, one level a name and one a value: ``node[name][value]`` is the next node, and
    ``node[""]`` the index of the verdict of the key ending there (no field is named "")."""
    index: dict[str, int] = {}
    tree: dict[str, object] = {}
    for inputs, verdict in answers:
        node = tree
        for name, value in pairs(inputs):
            node = node.setdefault(name, {}).setdefault(value, {})
        node[""] = index.setdefault(json.dumps(verdict, sort_keys=True, ensure_ascii=False), len(index))
    return {"verdicts": [json.loads(verdict) for verdict in index], "keys": tree}


def entries(table: Mapping[str, object]) -> Iterator[tuple[dict[str, str], object]]:
    """Every (inputs, verdict) a :func:`compact` table holds."""
    def walk(node, inputs):
        for name, values in node.items():
            if name == "":
                yield dict(inputs), table["verdicts"][values]
            else:
                for value, child in values.items():
                    yield from walk(child, [*inputs, (name, value)])
    yield from walk(table["keys"], [])


def covered(spec: Calculator, table: Table) -> Iterator[dict[str, str]]:
    """Every input the table answers: each field over its values, a field the inputs hide left out
    (the page sends only the fields it shows: web/calculators/calc-link.js inputs())."""
    def values(f):
        if f.kind == "choice":
            return [*f.choices, *([] if f.default else [""])]  # no default: nothing checked yet
        return ["", *(str(n) for n in table.integers.get(f.name, ()))] if f.kind == "integer" else [""]
    names = [f.name for f in spec.fields]
    for combo in itertools.product(*(values(f) for f in spec.fields)):
        raw = dict(zip(names, combo))
        hidden = spec.hidden(raw) if spec.hidden else set()
        if all(raw[name] == "" for name in hidden):
            yield {k: v for k, v in raw.items() if v != ""}


def tables() -> Iterator[tuple[str, str, str, list[tuple[dict[str, str], object]]]]:
    """(calculator, language, file part, [(inputs, verdict)]) for every file."""
    for calc_id, table in TABLES.items():
        spec = CALCULATORS[calc_id]
        for lang in LANGUAGES:
            parts: dict[str, list[tuple[dict[str, str], object]]] = {}
            for inputs in covered(spec, table):
                parts.setdefault(inputs.get(table.by, "") if table.by else "", []).append((inputs, evaluate(calc_id, inputs, lang)))
            for part, answers in parts.items():
                yield calc_id, lang, part, answers


def encoded(answers: list[tuple[dict[str, str], object]]) -> bytes:
    return json.dumps(compact(answers), separators=(",", ":"), ensure_ascii=False, sort_keys=True).encode()


def write_answers(site: Path) -> dict[str, object]:
    """Write every table into ``site/calc/answers/``; return their names, a build fact
    (sitebuild/contract.py writes it into ``calc/build.js`` for web/calculators/verdict.js): ``{calculator: {"by": field, "files": {lang: {part: name}}}}``."""
    folder = site / "calc" / FOLDER
    for stale in folder.glob("*.json"):  # an earlier build's tables
        stale.unlink()
    folder.mkdir(parents=True, exist_ok=True)
    written: dict[str, dict[str, object]] = {}
    for calc_id, lang, part, answers in tables():
        data = encoded(answers)
        name = ".".join([calc_id, lang, *([part] if part else []), digest(data), "json"])
        (folder / name).write_bytes(data)
        spec = CALCULATORS[calc_id]
        # Name fields (their longest accepted value): a typed name changes a verdict's wording only, so the
        # page shows the verdict without it, said so, until the engine words it (web/calculators/verdict.js).
        names = {f.name: f.max_length for f in NAME_FIELDS if f in spec.fields}
        entry = written.setdefault(calc_id, {"by": TABLES[calc_id].by, "files": {}, "names": names})
        entry["files"].setdefault(lang, {})[part] = name
    return written


def written_answers(site: Path) -> dict[str, object]:
    """What :func:`write_answers` returned, as the build wrote it into a built site's ``calc/build.js``."""
    return build_facts(site)["ANSWERS"]


def main() -> None:
    """Each table's size as JSON and as Brotli (what a phone downloads), to re-measure the choice."""
    import gzip

    import brotli

    for calc_id, lang, part, answers in tables():
        data = encoded(answers)
        print(f"{calc_id} {lang} {part or '-'}: {len(answers)} keys, {len(compact(answers)['verdicts'])} verdicts, "
              f"{len(data) / 1000:.0f} kB JSON, {len(brotli.compress(data, quality=11)) / 1000:.1f} kB Brotli, "
              f"{len(gzip.compress(data, 9, mtime=0)) / 1000:.1f} kB gzip")


if __name__ == "__main__":
    main()
