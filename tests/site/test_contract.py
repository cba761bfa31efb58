"""The contract between the build and the browser (sitebuild/contract.py): every key a script reads
from a page's data block is one the build writes, and every key written is read by some script.

A script reads a key as ``word("clock.round.show_of")`` or ``limit("clock.max_minutes")`` (web/shared/page-data.js);
a key put together at run time is a template literal (``word(`error.${code}`)``), which stands for
every key of that shape. A key a script names as a string elsewhere (a table of counters) counts as read.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sitebuild.contract import BUILD_MODULE, PAGE_DATA_ID, build_facts

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"
_BLOCK = re.compile(rf'<script id="{PAGE_DATA_ID}" type="application/json">(.*?)</script>', re.S)
_CALL = re.compile(r"\b(word|limit)\(")
# Strings and comments in the order they come, so that a quote inside one is not taken for another's end.
_TOKEN = re.compile(r"""//[^\n]*|/\*.*?\*/|"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`(?:[^`\\]|\\.)*`""", re.S)
_TEMPLATE = re.compile(r"`([^`]*)`")
_KEY = re.compile(r"[a-z][a-z0-9-]*(?:\.[a-z0-9_-]+)+")


def written(site: Path) -> dict[str, set[str]]:
    """``{"words": keys, "limits": keys}`` over every page's data block."""
    found: dict[str, set[str]] = {"words": set(), "limits": set()}
    for page in site.rglob("*.html"):
        blocks = _BLOCK.findall(page.read_text(encoding="utf-8"))
        assert len(blocks) == 1, f"{page}: {len(blocks)} data blocks"
        data = json.loads(blocks[0])
        for part in found:
            found[part] |= set(data[part])
    return found


def _argument(text: str, start: int) -> str:
    """The text of a call's arguments, from just after its opening parenthesis."""
    depth, i = 1, start
    while depth:
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
    return text[start:i - 1]


def strings(text: str) -> list[str]:
    """The quoted strings of a script (not its comments, not its template literals)."""
    return [m.group(1) if m.group(1) is not None else m.group(2) for m in _TOKEN.finditer(text)
            if m.group(1) is not None or m.group(2) is not None]


def reads(scripts: dict[str, str]) -> dict[str, dict[str, list[str]]]:
    """``{"words"|"limits": {"exact": [keys], "shapes": [regexes]}}`` the scripts ask for, and
    ``"named"``: every key-like string they hold."""
    asked = {"words": {"exact": [], "shapes": []}, "limits": {"exact": [], "shapes": []}, "named": set()}
    for text in scripts.values():
        asked["named"] |= {s for s in strings(text) if _KEY.fullmatch(s)}
        for call in _CALL.finditer(text):
            part = "words" if call.group(1) == "word" else "limits"
            argument = _argument(text, call.end())
            asked[part]["exact"] += [s for s in strings(argument) if _KEY.fullmatch(s)]
            for literal in _TEMPLATE.findall(argument):
                shape = "".join(re.escape(piece) if not piece.startswith("${") else "[a-z0-9_.-]+"
                                for piece in re.split(r"(\$\{[^}]*\})", literal))
                asked[part]["shapes"].append(shape)
    return asked


def web_scripts() -> dict[str, str]:
    return {p.relative_to(WEB).as_posix(): p.read_text(encoding="utf-8") for p in WEB.rglob("*.js")}


def mismatches(scripts: dict[str, str], keys: dict[str, set[str]]) -> list[str]:
    asked = reads(scripts)
    problems = []
    for part in ("words", "limits"):
        problems += [f"{part} {key!r}: read by a script, written by no page" for key in asked[part]["exact"]
                     if key not in keys[part]]
        problems += [f"{part} `{shape}`: no page writes a key of that shape" for shape in asked[part]["shapes"]
                     if not any(re.fullmatch(shape, key) for key in keys[part])]
        problems += [f"{part} {key!r}: written, read by no script" for key in sorted(keys[part])
                     if key not in asked["named"] and not any(re.fullmatch(s, key) for s in asked[part]["shapes"])]
    return problems


def test_every_key_read_is_written_and_every_key_written_is_read(site):
    assert mismatches(web_scripts(), written(site)) == []


def test_the_check_fails_on_a_key_no_page_writes(site):
    scripts = web_scripts()
    scripts["venue/clock.js"] += '\nword("clock.round.shown");\nlimit(`clock.${name}_seconds`);\n'
    assert mismatches(scripts, written(site)) == [
        "words 'clock.round.shown': read by a script, written by no page",
        "limits `clock\\.[a-z0-9_.-]+_seconds`: no page writes a key of that shape"]


def test_the_check_fails_on_a_key_no_script_reads(site):
    keys = written(site)
    keys["words"].add("ui.offline.unused")
    assert mismatches(web_scripts(), keys) == ["words 'ui.offline.unused': written, read by no script"]


@pytest.mark.parametrize("name", ["ENGINE", "ANSWERS"])
def test_build_facts_are_one_generated_module(site, name):
    """No fact is spliced into a hand-written script: the scripts import calc/build.js."""
    assert name in build_facts(site)
    importers = [p for p, text in web_scripts().items() if re.search(rf"import \{{ {name} \}} from \"\.\./build\.js\"", text)]
    assert importers, name
    for path, text in web_scripts().items():
        assert not re.search(rf"\bconst {name} = ", text), path
    assert not (WEB / Path(BUILD_MODULE).name).exists()  # generated, never in web/


def test_no_placeholder_in_a_page(site):
    for page in site.rglob("*.html"):
        assert not re.search(r"@[a-z-]+@", page.read_text(encoding="utf-8")), page


@pytest.mark.parametrize("page", ["index.html", "fr/index.html", "it/index.html"])
def test_each_language_says_why_its_copy_was_not_saved(site, page):
    """The offline line's reasons (issue 62) are in every language's data block, each in its own words."""
    from calculators.i18n import LANGUAGES
    from sitebuild.words import words

    data = json.loads(_BLOCK.search((site / page).read_text(encoding="utf-8")).group(1))
    lang = next(lang for lang in LANGUAGES if page.startswith(f"{lang}/")) if "/" in page else "en"
    for key in ("ui.offline.not_saved_host", "ui.offline.not_saved_network", "ui.offline.saved", "ui.offline.saving",
                "ui.offline.not_saved"):  # the top line's every state (its browser test: one language)
        assert data["words"][key] == words(lang)(key)
    others = [words(other)("ui.offline.not_saved_host") for other in LANGUAGES if other != lang]
    assert data["words"]["ui.offline.not_saved_host"] not in others
