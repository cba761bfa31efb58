"""The rule model (sitebuild/rulebook.py) and its marks on a page (sitebuild/rule_markup.py), on a small
docs/ tree: the markup a translated rule gets, link controls named by kind, captions without ids, and
what a translation behind its original shows."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import markdown
import pytest
import yaml

from sitebuild import rulebook
from sitebuild.rule_markup import RuleMarkupExtension, caption
from sitebuild.words import words

FR = """---
verbatim: true
---

# Règles { #naruto }

## Règles de "blitz" { #naruto-blitz }

**1.** La manche dure 30 minutes.
{ #naruto-blitz-1 }

– Chaque joueur dispose de 15 secondes par action.
{ #naruto-blitz-2 }
"""
IT = """# Regole { #naruto }

## Regole blitz { #naruto-blitz }

**1.** La partita dura 30 minuti.
{ #naruto-blitz-1 }

– Ogni giocatore ha 15 secondi per azione.
{ #naruto-blitz-2 }
"""
GLOSSARY = """# Glossary { #glossary }

## Naruto CCG { #glossary-naruto }

**Sideboard (Réserve)**<br>
English: Sideboard (Réserve) · français : Réserve · italiano: Riserva (sideboard)<br>
Exactly 10 cards ([The Sideboard](naruto.md#naruto-reserve)).
{ #glossary-reserve }
"""


def docs_tree(root: Path, fr: str = FR, it: str = IT, en: str = IT.replace("Regole {", "Rules {")) -> Path:
    for lang, text in (("fr", fr), ("it", it), ("en", en)):
        (root / "docs" / lang).mkdir(parents=True, exist_ok=True)
        (root / "docs" / lang / "naruto.md").write_text(text, encoding="utf-8")
        (root / "docs" / lang / "glossary.md").write_text(GLOSSARY.replace("# Glossary", f"# Glossary ({lang})"),
                                                          encoding="utf-8")
    return root / "docs"


def render(docs: Path, lang: str, page: str) -> str:
    """The page as MkDocs renders it: mkdocs.yml's extensions, toc with its permalinks."""
    text = (docs / lang / f"{page}.md").read_text(encoding="utf-8")
    md = markdown.Markdown(extensions=[*rulebook.EXTENSIONS, RuleMarkupExtension(docs_dir=str(docs))],
                           extension_configs={"toc": {"permalink": True}})
    return md.convert(rulebook.split_front_matter(text)[1])


@pytest.fixture
def docs(tmp_path):
    docs = docs_tree(tmp_path)
    for lang in ("fr", "it", "en"):
        rulebook.Book(docs, tmp_path / "texts").confirm(lang)
    return docs


def test_mkdocs_yml_runs_the_model_s_extensions_and_ours():
    class Loader(yaml.SafeLoader):
        pass
    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)  # !ENV
    config = yaml.load((rulebook.ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)
    names = [next(iter(ext)) if isinstance(ext, dict) else ext for ext in config["markdown_extensions"]]
    assert names == [*rulebook.EXTENSIONS, "sitebuild.rule_markup"]


def test_the_model_reads_kinds_numbers_and_the_declared_original(docs):
    found = rulebook.book(docs, docs.parent / "texts")
    page = found.page("it", "naruto")
    assert (page.source, found.page("fr", "naruto").declared, page.declared) == ("fr", True, False)
    assert [(r.id, r.kind, r.section, r.number) for r in page.rules] == [
        ("naruto", "section", "", ""), ("naruto-blitz", "section", "naruto-blitz", ""),
        ("naruto-blitz-1", "rule", "naruto-blitz", "1"), ("naruto-blitz-2", "rule", "naruto-blitz", "")]
    entry = found.page("en", "glossary").rule("glossary-reserve")
    assert (entry.kind, entry.lines[0], entry.links) == ("glossary", "Sideboard (Réserve)", ("naruto-reserve",))
    assert found.page("en", "glossary").source == "en"  # the site's own words: the reference language's


def test_two_declared_originals_of_one_page_fail(tmp_path):
    docs = docs_tree(tmp_path, it="---\nverbatim: true\n---\n\n" + IT)
    with pytest.raises(ValueError, match="verbatim: true"):
        rulebook.Book(docs, tmp_path / "texts")


def test_two_pages_with_the_same_text_fail(tmp_path):
    """The extension knows a page by its text alone: two alike would get each other's marks."""
    docs = docs_tree(tmp_path, en=IT)
    with pytest.raises(ValueError, match="same text"):
        rulebook.Book(docs, tmp_path / "texts")


def test_a_translated_rule_gets_its_original_in_its_language(docs):
    html = render(docs, "it", "naruto")
    t = words("it")
    assert ('<details class="og" data-for="naruto-blitz-1" data-search-exclude=""><summary>'
            f'<span>{t("ui.original.show.fr")}</span><span>{t("ui.original.hide.fr")}</span></summary>'
            '<p lang="fr"><strong>1.</strong> La manche dure 30 minutes.</p></details></div>') in html
    assert html.count("<details") == 3  # not the title
    assert (f'data-search-exclude="" type="button"><span class="og-show-all">{t("ui.original.show_all.fr")}</span>'
            f'<span class="og-hide-all">{t("ui.original.hide_all.fr")}</span></button>') in html
    assert html.endswith('<script src="../../calc/site/originals.js" type="module"></script>')
    assert "data-stale-translation" not in html
    assert "<details" not in render(docs, "fr", "naruto") and "<details" not in render(docs, "it", "glossary")


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_each_control_names_its_kind_and_no_caption_shows_an_id(docs, lang):
    t = words(lang)
    html = render(docs, lang, "naruto") + render(docs, lang, "glossary")
    assert html.count(f'aria-label="{t("ui.rule.copy.section")}"') == 4
    assert html.count(f'aria-label="{t("ui.rule.copy.rule")}"') == 2
    assert html.count(f'aria-label="{t("ui.rule.copy.glossary")}"') == 1
    found = rulebook.book(docs, docs.parent / "texts")
    expected = [caption(rule, page, lang) for name in ("naruto", "glossary")
                for page in [found.page(lang, name)] for rule in page.rules]
    assert [unescape(c) for c in re.findall(r'data-caption="([^"]*)"', html)] == expected
    assert not [c for c in expected if re.search(r"naruto|glossary-", c)]


def test_captions_say_the_section_and_the_number_or_the_first_words(docs):
    found = rulebook.book(docs, docs.parent / "texts")
    page = found.page("fr", "naruto")
    t = words("fr")
    # the source's straight quotes become the inner marks inside the caption's « »
    assert caption(page.rule("naruto-blitz-1"), page, "fr") == t("ui.rule.caption.numbered", number="1", section="Règles de “blitz”")
    assert caption(page.rule("naruto-blitz-2"), page, "fr") == t(
        "ui.rule.caption.words", words="Chaque joueur dispose de 15 secondes…", section="Règles de “blitz”")
    # one colon a line: a title with a colon is quoted, never after a second « : »
    assert caption(page.rule("naruto-blitz"), page, "fr").count(":") == 0


def test_a_changed_original_marks_its_translations_and_an_added_rule_shows_the_original(docs):
    source = docs / "fr" / "naruto.md"
    source.write_text(FR.replace("30 minutes", "25 minutes") + "\n– Une règle nouvelle.\n{ #naruto-blitz-3 }\n",
                      encoding="utf-8")
    found = rulebook.book(docs, docs.parent / "texts")
    assert [(lang, rule_id, why) for lang, _, rule_id, why in found.status()] == [
        ("en", "naruto-blitz-1", "changed"), ("en", "naruto-blitz-3", "untranslated"),
        ("it", "naruto-blitz-1", "changed"), ("it", "naruto-blitz-3", "untranslated")]
    html = render(docs, "it", "naruto")
    t = words("it")
    assert '<p data-stale-translation="changed" id="naruto-blitz-1">' in html
    assert f'<p class="rule-stale" data-search-exclude="">{t("ui.rule.stale.fr")}</p>' in html
    assert '<p data-untranslated="" id="naruto-blitz-3" lang="fr">– Une règle nouvelle.' in html
    assert html.index("naruto-blitz-2") < html.index("naruto-blitz-3") < html.index("originals.js")
    assert t("ui.rule.untranslated.fr") in html
    # the editor confirms the Italian translation: its marks go, the English one's stay
    found.confirm("it", {"naruto-blitz-1"})
    assert [(lang, rule_id) for lang, _, rule_id, _ in rulebook.book(docs, docs.parent / "texts").status()] == [
        ("en", "naruto-blitz-1"), ("en", "naruto-blitz-3"), ("it", "naruto-blitz-3")]
    assert "data-stale-translation" not in render(docs, "it", "naruto")
    assert json.loads((docs.parent / "texts" / "translations" / "it.json").read_text())["naruto"]["naruto-blitz-1"] \
        == found.page("fr", "naruto").rule("naruto-blitz-1").fingerprint


def test_a_renamed_rule_keeps_what_its_translation_recorded(docs):
    for lang in ("fr", "it", "en"):
        path = docs / lang / "naruto.md"
        path.write_text(path.read_text(encoding="utf-8").replace("naruto-blitz-2", "naruto-blitz-action"), encoding="utf-8")
    (docs.parent / "texts" / "moved.json").write_text('{"naruto-blitz-2": "naruto-blitz-action"}')
    assert rulebook.book(docs, docs.parent / "texts").status() == []


def test_a_heading_without_its_permalink_fails(docs):
    md = markdown.Markdown(extensions=[*rulebook.EXTENSIONS, RuleMarkupExtension(docs_dir=str(docs))])
    with pytest.raises(ValueError, match="permalink"):
        md.convert(IT)


def test_a_page_that_is_not_in_docs_fails(docs):
    md = markdown.Markdown(extensions=[*rulebook.EXTENSIONS, RuleMarkupExtension(docs_dir=str(docs))],
                           extension_configs={"toc": {"permalink": True}})
    with pytest.raises(ValueError, match="docs"):
        md.convert("# Somewhere else { #elsewhere }\n")


def test_today_s_translations_all_record_their_original():
    """`make build` on the repository's texts reports no stale translation."""
    assert rulebook.status_lines(rulebook.book()) == []
