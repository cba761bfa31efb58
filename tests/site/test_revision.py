"""A revision of the rules, built in a copy of docs/ and texts/: one French Naruto rule's
text changed, one added (French only), one removed and one renamed (in every language, declared in
texts/moved.json). Checked in the three languages: the stale marks on the Italian and English
translations of the changed rule, the build's list of stale rules, the added rule's fallback, the
changes page and the old ids' links. (One build, kept between runs: tests/revision.py.)"""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest

from calculators.i18n import LANGUAGES, language_folder
from sitebuild.words import words
from tests.revision import ADDED, ADDED_TEXT, CHANGED, NEW, OLD, REMOVED, build_revision



@pytest.fixture(scope="module")
def revision():
    return build_revision()


def page(work: Path, lang: str, name: str) -> str:
    return (work / "site" / language_folder(lang) / name / "index.html").read_text(encoding="utf-8")


def element(html: str, rule_id: str) -> str:
    found = re.search(rf'<(p|h[1-6])\b[^>]*\bid="{rule_id}"[^>]*>.*?</\1>', html, re.S)
    assert found, rule_id
    return found.group(0)


def plain(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def test_the_build_lists_the_stale_translations(revision):
    _, said = revision
    listed = sorted(re.findall(r"^  (\w\w) naruto #([a-z0-9-]+): (.*)$", said, re.M))
    assert listed == [("en", CHANGED, "the original changed after this translation"), ("en", ADDED, "not translated yet"),
                      ("it", CHANGED, "the original changed after this translation"), ("it", ADDED, "not translated yet")]


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_translation_of_the_changed_rule_is_marked_in_the_reader_s_language(revision, lang):
    work, _ = revision
    html = page(work, lang, "naruto")
    assert 'data-stale-translation="changed"' in element(html, CHANGED)
    assert html.count("data-stale-translation") == 1
    note = re.search(rf'id="{CHANGED}".*?<p class="rule-stale"[^>]*>(.*?)</p>', html, re.S).group(1)
    assert unescape(note) == words(lang)("ui.rule.stale.fr")
    original = re.search(rf'<details class="og" data-for="{CHANGED}"[^>]*>.*?<p lang="fr">(.*?)</p>', html, re.S)
    assert "1 seule manche gagnante" in original.group(1)  # the new original, one tap away


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_added_rule_shows_the_original_with_a_note(revision, lang):
    work, _ = revision
    html = page(work, lang, "naruto")
    added = element(html, ADDED)
    assert 'lang="fr"' in added and plain(added) == ADDED_TEXT
    assert html.index(f'id="{NEW}"') < html.index(f'id="{ADDED}"') < html.index('id="naruto-blitz-tiebreak"')
    assert words(lang)("ui.rule.untranslated.fr") in unescape(html)


def test_the_original_carries_no_mark(revision):
    work, _ = revision
    html = page(work, "fr", "naruto")
    assert "data-stale-translation" not in html and "rule-stale" not in html
    assert plain(element(html, ADDED)).startswith(ADDED_TEXT)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_changes_page_lists_the_revision(revision, lang):
    work, _ = revision
    t = words(lang)
    html = page(work, lang, "changes")
    assert t("ui.changes.unreleased", previous="2026-12-06") in unescape(html)
    items = dict(re.findall(r'<li data-change="(\w+)">(.*?)</li>', html, re.S))
    assert set(items) == {"added", "changed", "removed", "moved"}
    assert f'href="../naruto/#{ADDED}"' in items["added"] and ADDED_TEXT in unescape(items["added"])
    assert f'href="../naruto/#{CHANGED}"' in items["changed"]
    assert "1 manche gagnante" in items["changed"] and "1 seule manche gagnante" in items["changed"]
    assert f'href="../naruto/#{NEW}"' in items["moved"]
    assert "href" not in items["removed"] and "10 cartes" in unescape(items["removed"])
    for item in items.values():  # the noun of the kind and what the reader sees, never an id
        assert not re.search(r">[^<]*naruto-[a-z]", item)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_old_ids_lead_to_their_successor_or_say_removed(revision, lang):
    work, _ = revision
    html = page(work, lang, "naruto")
    moves = re.search(r'<div class="rule-moves"[^>]*data-moves="([^"]*)"', html)
    assert json.loads(unescape(moves.group(1))) == {OLD: NEW, REMOVED: None}
    assert "calc/site/moved.js" in html
    assert unescape(words(lang)("ui.moved.here")) in unescape(html)
    # the other rule pages hold neither id: no moves there
    assert "rule-moves" not in page(work, lang, "judge-tower")

