"""sitebuild/originals.py on small pages: the markup a translated rule gets, and the build's failure
on a rule that has no original."""

from __future__ import annotations

import pytest

from calculators.i18n import Translator
from sitebuild.originals import add_originals, with_originals
from sitebuild.words import BUILD_LOCALE

PAGE = ('<html><body><article class="md-content__inner md-typeset">'
        '<h1 id="naruto">Rules<a class="headerlink" href="#naruto">&para;</a></h1>'
        '<p id="naruto-blitz-2">The game lasts 30 minutes. <a class="rule-link" href="#naruto-blitz-2"></a></p>'
        '<p class="calc-title" id="calc-x-title">Calculator</p>'
        '</article></body></html>')


def test_a_translated_rule_gets_its_original_in_its_language():
    html = with_originals(PAGE, {"naruto-blitz-2": "La manche dure 30 minutes."}, "fr", "it", "../../")
    t = Translator("it", (BUILD_LOCALE,))
    assert ('<div class="og-pair"><p id="naruto-blitz-2">The game lasts 30 minutes. '
            '<a class="rule-link" href="#naruto-blitz-2"></a></p><details class="og"><summary>'
            f'<span>{t("ui.original.show.fr")}</span><span>{t("ui.original.hide.fr")}</span></summary>'
            '<p lang="fr">La manche dure 30 minutes.</p></details></div>') in html.replace("&#x27;", "'")
    assert (f'<span class="og-show-all">{t("ui.original.show_all.fr")}</span>'
            f'<span class="og-hide-all">{t("ui.original.hide_all.fr")}</span></button>') in html.replace("&#x27;", "'")
    assert html.count("<details") == 1  # not the title, not a calculator's paragraph
    assert html.endswith('<script type="module" src="../../calc/originals.js"></script></body></html>')


def test_a_rule_without_an_original_fails_the_build():
    with pytest.raises(ValueError, match="#naruto-blitz-2 has no original"):
        with_originals(PAGE, {"naruto-blitz-1": "…"}, "fr", "en", "../")


def test_a_source_page_without_the_id_fails_the_whole_step(tmp_path):
    for folder in ("naruto", "fr/naruto", "it/naruto"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "index.html").write_text(PAGE.replace("naruto-blitz-2", "naruto-blitz-9") if folder == "fr/naruto"
                                                      else PAGE, encoding="utf-8")
    with pytest.raises(ValueError, match=r"naruto/index.html: #naruto-blitz-2 has no original"):
        add_originals(tmp_path)
