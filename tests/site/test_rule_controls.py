"""Each rule's link control and QR / table-card caption in the built pages, in every language: the
noun of its kind (section, rule, glossary entry), words a reader finds on the page, never an id.
Pages and rules are the model's (sitebuild/rulebook.py); the words, the catalogs'."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from calculators.i18n import LANGUAGES, language_folder
from sitebuild.rulebook import book
from sitebuild.typeset import french_spaces
from sitebuild.words import words

HEADING = re.compile(r"h[1-6]")


class Controls(HTMLParser):
    """id of each paragraph or heading -> the attributes of its copy-link control."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: dict[str, dict[str, str]] = {}
        self._open: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if (tag == "p" or HEADING.fullmatch(tag)) and attrs.get("id"):
            self._open = attrs["id"]
        elif tag == "a" and self._open and attrs.get("class") in ("rule-link", "headerlink"):
            self.found[self._open] = attrs

    def handle_endtag(self, tag):
        if tag == "p" or HEADING.fullmatch(tag):
            self._open = None


def noun_start(lang: str, key: str) -> str:
    """What a caption of ``key`` says before its first placeholder: its noun ("Glossary entry “")."""
    return words(lang).templates(key)[""].split("{", 1)[0]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_control_and_caption_names_its_kind_and_no_id(site, lang):
    t = words(lang)
    found = book()
    ids = {r.id for page in found.pages.values() for r in page.rules if "-" in r.id}
    labels = {"section": t("ui.rule.copy.section"), "rule": t("ui.rule.copy.rule"), "note": t("ui.rule.copy.rule"),
              "glossary": t("ui.rule.copy.glossary")}
    starts = {"section": (noun_start(lang, "ui.rule.caption.section"),),
              "glossary": (noun_start(lang, "ui.rule.caption.glossary"),),
              "rule": (noun_start(lang, "ui.rule.caption.numbered"), noun_start(lang, "ui.rule.caption.words"))}
    starts["note"] = starts["rule"]
    assert len(set(labels.values())) == 3 and len({s for v in starts.values() for s in v}) >= 3
    checked = 0
    for name in found.names():
        page = found.page(lang, name)
        parser = Controls()
        parser.feed((site / language_folder(lang) / (name if name != "index" else "") / "index.html")
                    .read_text(encoding="utf-8"))
        for rule in page.rules:
            control = parser.found[rule.id]
            caption = control["data-caption"]
            assert control["aria-label"] == control["title"] == labels[rule.kind], rule.id
            assert caption.startswith(starts[rule.kind]), (rule.id, caption)
            assert not [i for i in ids if i in caption], (rule.id, caption)
            if rule.kind == "glossary":  # the entry's own name, as printed in bold
                assert rule.lines[0] in caption
            elif rule.kind == "rule" and rule.number:
                assert f" {rule.number} " in caption
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_changes_page_says_today_s_texts_are_the_first_release(site, lang):
    found = book()
    assert [name for name, _ in found.releases][:1] == ["2026-12-06"]
    html = (site / language_folder(lang) / "changes" / "index.html").read_text(encoding="utf-8")
    said = words(lang)("ui.changes.first", release=found.releases[0][0])
    assert said.replace("'", "&#x27;") in html and found.changes() == []


def page_captions(site, lang: str) -> dict[str, list[tuple[str, str]]]:
    """Each page's (rule id, caption) as the built page carries them."""
    found, out = book(), {}
    for name in found.names():
        parser = Controls()
        parser.feed((site / language_folder(lang) / (name if name != "index" else "") / "index.html")
                    .read_text(encoding="utf-8"))
        out[name] = [(rule.id, parser.found[rule.id]["data-caption"]) for rule in found.page(lang, name).rules]
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_two_rules_of_a_page_share_a_caption(site, lang):
    """A caption names the nearest heading (the 3rd tiebreak criterion is not "rule 3" of the whole
    section) and quotes words until the captions of a page differ: a judge scanning a QR code lands on
    one rule."""
    for name, captions in page_captions(site, lang).items():
        seen: dict[str, str] = {}
        for rule_id, said in captions:
            assert said not in seen, (name, rule_id, seen.get(said), said)
            seen[said] = rule_id


@pytest.mark.parametrize("lang", LANGUAGES)
def test_captions_are_typeset_and_cut_on_a_word_that_says_something(site, lang):
    """A cut of first words ends on a word, not on punctuation nor an article or preposition (« de la… »);
    a quotation inside a caption's quotation marks takes the inner marks; French captions have French
    spaces, as the headings do."""
    t = words(lang)
    weak = set(t("ui.rule.caption.weak_words").split())
    opening, closing = t("ui.rule.caption.inner_quotes")
    outer = noun_start(lang, "ui.rule.caption.section").strip()[-1]  # the catalog's opening mark
    marks = {key: words(lang).templates(f"ui.rule.caption.{key}")[""].count(outer)
             for key in ("section", "glossary", "numbered", "words")}
    checked = 0
    for captions in page_captions(site, lang).values():
        for rule_id, said in captions:
            assert said.count(outer) in marks.values(), (rule_id, said)  # no mark of its own inside
            assert '"' not in said and not re.search(r"(?<!\w)'", said), (rule_id, said)  # typographic marks only
            for cut in re.findall(r"(\S+)…", said):
                assert cut[-1].isalnum() or cut[-1] in "»”’)", (rule_id, said)
                assert cut.strip("«“‘»”’").lower() not in weak, (rule_id, said)
                checked += 1
            if lang == "fr":
                assert french_spaces(said) == said, (rule_id, said)
    assert checked > 10
