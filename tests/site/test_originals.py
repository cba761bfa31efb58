"""The authoritative original under each translated rule (sitebuild/rule_markup.py), read from the built
files: every rule id of every translated page has one, and it is the source page's text of that id;
it stays out of the translation's search index; rules.json carries it. Pages and rules: the model's."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest

from calculators.i18n import LANGUAGES, language_folder
from sitebuild.rulebook import book

#: A rule or heading and its original, as a reader finds them (checked here, not taken from the build's code).
PAIR = re.compile(r'(?:<div class="og-pair">)?<(?:p|h[2-6]) id="([a-z0-9-]+)">.*?<details class="og"[^>]*><summary>.*?</summary>'
                  r'<p lang="([a-z]+)">(.*?)</p></details>', re.S)
#: The pages that reproduce a source text (front matter ``verbatim: true``), by the language of their original.
SOURCE_LANGUAGE = {name: book().source(name) for name in book().names() if book().page(book().source(name), name).declared}
TRANSLATED = [(page, lang) for page, source in SOURCE_LANGUAGE.items() for lang in LANGUAGES if lang != source]


def article(site: Path, lang: str, page: str) -> str:
    return (site / language_folder(lang) / page / "index.html").read_text(encoding="utf-8")


def rules_in(lang: str, page: str) -> list[dict[str, str]]:
    return [{"id": r.id, "text": r.text, "kind": "heading" if r.heading else "rule"} for r in book().page(lang, page).rules]


def text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", "", html)).split())


def test_every_rule_page_is_covered():
    """The source languages are the seeds' (tests/unit/test_docs_structure.py): French Naruto and Judge
    Tower, Italian Pokémon."""
    assert SOURCE_LANGUAGE == {"naruto": "fr", "judge-tower": "fr", "pokemon": "it"}


@pytest.mark.parametrize(("page", "lang"), TRANSLATED)
def test_each_translated_rule_has_its_original(site, page, lang):
    source = SOURCE_LANGUAGE[page]
    original = {r["id"]: r["text"] for r in rules_in(source, page)}
    translated = article(site, lang, page)
    rules = [r["id"] for r in rules_in(lang, page)][1:]  # the title (h1) has "show all" instead
    pairs = {rule_id: (pair_lang, text(html)) for rule_id, pair_lang, html in PAIR.findall(translated)}
    assert rules and list(pairs) == rules
    assert pairs == {rule_id: (source, original[rule_id]) for rule_id in rules}


@pytest.mark.parametrize("page", sorted(SOURCE_LANGUAGE))
def test_the_original_page_and_other_pages_offer_none(site, page):
    source_page = (site / language_folder(SOURCE_LANGUAGE[page]) / page / "index.html").read_text(encoding="utf-8")
    assert 'class="og' not in source_page and "originals.js" not in source_page
    for lang in LANGUAGES:
        for other in ("glossary", "clock"):
            assert "originals.js" not in (site / language_folder(lang) / other / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize(("page", "lang"), TRANSLATED)
def test_originals_stay_out_of_the_translation_search_index(site, page, lang):
    """Searchable once, in their own language's index (as the source page's text)."""
    words = index_words(site, lang)
    source = SOURCE_LANGUAGE[page]
    sentences = [r["text"] for r in rules_in(source, page) if r["kind"] == "rule"]
    assert sentences and [s for s in sentences if s in words] == []
    assert [s for s in sentences if s not in index_words(site, source)] == []


def index_words(site: Path, lang: str) -> str:
    index = json.loads((site / language_folder(lang) / "search" / "search_index.json").read_text(encoding="utf-8"))
    return " ".join(text(doc["title"] + " " + doc["text"]) for doc in index["docs"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_json_carries_the_original(site, lang):
    rules = json.loads((site / language_folder(lang) / "rules.json").read_text(encoding="utf-8"))["rules"]
    by_lang = {other: {r["id"]: r for r in json.loads((site / language_folder(other) / "rules.json").read_text(
        encoding="utf-8"))["rules"]} for other in LANGUAGES}
    for rule in rules:
        folder = rule["page"].rstrip("/").split("/")[-1]
        source = SOURCE_LANGUAGE.get(folder, lang)
        if source == lang:
            assert "original" not in rule, rule["id"]
        else:
            assert rule["original"] == {"lang": source, "text": by_lang[source][rule["id"]]["text"]}, rule["id"]
    assert any("original" in rule for rule in rules)
