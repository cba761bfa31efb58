"""The built search indexes: one per language, words split at punctuation, accent-free spellings
and the glossary's names in the other languages in fields Material indexes but never shows."""

from __future__ import annotations

import json
import re
from pathlib import Path
from html import escape

import pytest

from calculators.i18n import LANGUAGES, language_folder
from sitebuild.rulebook import book
from sitebuild.search import ALT_BOOST, ALT_FIELDS, glossary_terms
from sitebuild.words import words


def index(site, lang: str) -> dict:
    return json.loads((site / language_folder(lang) / "search" / "search_index.json").read_text(encoding="utf-8"))


def entry(data: dict, location: str) -> dict:
    return next(d for d in data["docs"] if d["location"] == location)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_words_in_parentheses_and_quotes_are_words(site, lang):
    separator = re.compile(index(site, lang)["config"]["separator"])
    assert [w for w in separator.split("La 'Réserve' (sideboard) d'appel «blitz» 18.5.3.") if w] == [
        "La", "Réserve", "sideboard", "d", "appel", "blitz", "18.5.3"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_hidden_fields_are_boosted_almost_as_the_fields_they_stand_for(site, lang):
    fields = index(site, lang)["config"]["fields"]
    for alt, field in ALT_FIELDS.items():
        assert fields[alt]["boost"] == pytest.approx(fields[field]["boost"] * ALT_BOOST)
    assert fields["title"]["boost"] > 100 * fields["alt_text"]["boost"]  # a heading before body text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_rule_carries_every_name_and_spelling_at_heading_level(site, lang):
    data = index(site, lang)

    def heading(location: str) -> set[str]:
        return set(entry(data, location)["alt_title"].split())

    assert {"sideboard", "réserve", "reserve", "riserva"} <= heading("naruto/#naruto-reserve")
    assert {"legendaire", "légendaire", "legendary", "leggendaria"} <= heading("naruto/#naruto-reserve-limits")
    assert {"prize", "cards", "cartes", "récompense", "recompense", "carte", "premio"} <= heading("pokemon/#pokemon-single")
    # must not: the glossary, which names every term in every language already, gets the names again
    for doc in data["docs"]:
        if doc["location"].startswith("glossary/"):
            assert "riserva" not in doc.get("alt_text", "").split() + doc.get("alt_title", "").split()


def test_the_glossary_gives_its_terms_and_their_sections(site):
    terms = {term.names: term.sections for term in glossary_terms(book().page("en", "glossary").rules)}
    assert terms[("Sideboard", "Réserve", "Riserva")] == ("naruto-reserve",)
    assert terms[("Prize cards", "cartes Récompense", "carte Premio")] == ("pokemon-single",)
    assert terms[("top cut", "phase finale", "fase finale")] == ("naruto-final-phase",)
    # must not: the game / match entry, which links no rule section, made a term of every "match"
    assert not [names for names in terms if "match" in names]


#: Words of the calculators, the round clock and the blitz timer (their catalogs), none of which the
#: rules' own text uses: a result showing one of them is the interface, not a rule.
INTERFACE = ("ui.retry", "ui.copy_calc_link", "ui.loading", "clock.copy", "clock.start", "blitz.tap")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_interface_is_not_indexed(site, lang):
    t = words(lang)
    texts = [f"{doc['title']} {doc['text']}" for doc in index(site, lang)["docs"]]
    for key in INTERFACE:
        assert not [text for text in texts if t(key) in text], (key, t(key))
    # ... while the pages that show them still do
    pages = "".join((site / language_folder(lang) / page / "index.html").read_text(encoding="utf-8") for page in ("naruto", "clock"))
    assert all(escape(t(key), quote=False) in pages for key in INTERFACE)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_words_judges_use_are_given_to_the_rule(site, lang):
    """The glossary's other names, some of them words no rule text uses (issue 51): the toss and
    the tiebreak at the Naruto tiebreak criteria, Sudden Death in every language at the Pokémon
    best-of-three rule."""
    data = index(site, lang)
    tiebreak = set(entry(data, "naruto/#naruto-tiebreak")["alt_title"].split())
    assert {"tiebreaker", "coin", "pile", "face", "moneta", "sorteggio"} <= tiebreak
    assert {"sudden", "death", "mort", "subite", "morte", "improvvisa"} <= set(entry(data, "pokemon/#pokemon-bo3")["alt_title"].split())


#: Issue 62 item 3: players' sentences, typed whole, and the section the first result must be (a page, or a page's
#: section). Function words alone find nothing; a section holding the content words beats a heading's common word.
SENTENCES = {
    "fr": [("joueur en retard", "pokemon/#pokemon-"), ("combien de cartes en sideboard", "naruto/#naruto-reserve"),
           ("carte légendaire", "naruto/#naruto-reserve-limits"), ("compteur de honte", "judge-tower/#jt-shame"),
           ("main de départ", "judge-tower/#jt-general"), ("combien de rondes", "naruto/#naruto-rounds"),
           ("combien de joueurs pour la phase finale", "naruto/#naruto-final-phase"), ("top cut", "naruto/#naruto-final-phase"),
           ("fin du temps", "naruto/#naruto-end-of-time"), ("pénalité", "naruto/#naruto-sanctions"),
           ("penalite", "naruto/#naruto-sanctions"), ("de", None), ("la", None)],
    "it": [("giocatore in ritardo", "pokemon/#pokemon-"), ("contatore della vergogna", "judge-tower/#jt-shame"),
           ("dimensione della riserva", "naruto/#naruto-reserve"), ("carte premio", "pokemon/#pokemon-"),
           ("grimorio vuoto", "judge-tower/"), ("quante copie posso mettere di una carta", "naruto/#naruto-reserve"),
           ("mano iniziale", "judge-tower/#jt-general"), ("quanti round", "naruto/#naruto-rounds"),
           ("spareggio", "naruto/#naruto-tiebreak"), ("tempo scaduto", "naruto/#naruto-end-of-time"),
           ("quanti giocatori per la fase finale", "naruto/#naruto-final-phase"), ("penalità", "naruto/#naruto-sanctions"),
           ("di", None)],
    "en": [("late player", "pokemon/#pokemon-"), ("how many rounds for 20 players", "naruto/#naruto-rounds"),
           ("top cut", "naruto/#naruto-final-phase"), ("opening hand size", "judge-tower/#jt-general"),
           ("time called mid turn", "naruto/#naruto-end-of-time"), ("how many copies of a card", "naruto/#naruto-reserve"),
           ("penalty", "naruto/#naruto-sanctions"), ("who wins when time runs out", "naruto/#naruto-end-of-time"),
           ("the", None)],
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_players_sentences_find_their_section_first(site, lang):
    """Through the pages' own search worker (Material's, with calc/site/search-worker.js around it) under Node."""
    import subprocess

    page = (site / language_folder(lang) / "index.html").read_text(encoding="utf-8")
    assert '"search": "' in page and "calc/site/search-worker.js" in page  # the worker the pages start
    queries = [query for query, _ in SENTENCES[lang]]
    tool = Path(__file__).resolve().parents[2] / "tools" / "search_query.mjs"
    out = subprocess.run(["node", str(tool), str(site), language_folder(lang), *queries],
                         capture_output=True, text=True, check=True).stdout
    found = dict(json.loads(line) for line in out.splitlines())
    for query, first in SENTENCES[lang]:
        if first is None:
            assert found[query] == [], (query, found[query][:3])
        else:
            assert found[query] and found[query][0].startswith(first), (query, found[query][:3])


def test_players_synonyms_are_in_the_index(site):
    """Judge Tower's Italian « grimorio » is a « mazzo » to a player: its sections are found by either."""
    sections = [d for d in index(site, "it")["docs"] if d["location"].startswith("judge-tower/") and "grimorio" in d["text"]]
    assert sections and all("mazzo" in d.get("alt_text", "").split() for d in sections)


def test_the_search_worker_loads_materials_own(site):
    """Every page starts calc/site/search-worker.js naming Material's worker file (hashed) as the build found it."""
    for page in site.rglob("*.html"):
        found = re.search(r'"search": "[^"]*calc/site/search-worker\.js\?material=([^"]+)"', page.read_text(encoding="utf-8"))
        assert found and (site / "assets" / "javascripts" / "workers" / found.group(1)).is_file(), page
