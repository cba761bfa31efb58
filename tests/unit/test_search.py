"""sitebuild.search on small inputs: glossary terms, accent-free spellings, other languages' names."""

from __future__ import annotations

import re

import pytest

from sitebuild.rulebook import read_markdown
from sitebuild.search import Term, alternative_words, glossary_terms

SEPARATOR = re.compile(r"""[\s\-,;:!?()\[\]"'’«»·/]+|\.(?!\d)""")
GLOSSARY = """## Naruto CCG { #glossary-naruto }

**Réserve**<br>
English: Sideboard (Réserve) · français : Réserve · italiano: Riserva (sideboard)<br>
Exactement 10 cartes ([La Réserve](naruto.md#naruto-reserve)).
{ #glossary-reserve }

**manche / partie**<br>
English: game / match · français : manche / partie (Naruto CCG) · italiano: partita / incontro<br>
Sans lien vers une règle, mais vers [ce glossaire](#glossary-naruto).
{ #glossary-game-match }
"""
RESERVE = Term(("Sideboard", "Réserve", "Riserva"), ("naruto-reserve",))


def test_a_glossary_term_has_its_names_without_qualifiers_and_the_sections_it_links():
    # must not: a link within the glossary taken for a rule section, nor an entry without one
    assert glossary_terms(read_markdown(GLOSSARY, "glossary", "fr").rules) == [RESERVE]


def test_a_heading_gets_its_accent_free_spelling_and_the_other_languages_names():
    doc = {"location": "naruto/#naruto-reserve", "title": "La 'Réserve' (sideboard)", "text": "<p>Une réserve de cartes légendaires.</p>"}
    alt = alternative_words(doc, [RESERVE], SEPARATOR)
    assert alt["alt_title"].split() == ["reserve", "sideboard", "réserve", "reserve", "riserva"]
    assert alt["alt_text"].split() == ["legendaires"]  # must not: a name the heading already carries


@pytest.mark.parametrize(("location", "expected"), [
    ("naruto/#naruto-blitz", {"alt_text": "reserve sideboard riserva"}),  # uses the term: its names, as body text
    ("glossary/#glossary-naruto", {"alt_text": "reserve"}),  # must not: names the glossary already gives
])
def test_a_section_that_uses_a_term_gets_its_names_where_it_uses_it(location, expected):
    doc = {"location": location, "title": "Blitz", "text": "<p>Une Réserve de 10 cartes.</p>"}
    assert alternative_words(doc, [RESERVE], SEPARATOR) == expected
