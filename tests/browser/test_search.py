"""Site search finds what a judge types: words without their accents, a word in parentheses in a
heading, another language's name of a rule, and the rule that a term is about first.

Each query is typed into Material's own search (its worker, the built index), on the home page of
one language; a result is read from the list Material renders. The module's queries in a language
share one visit to its home page (``home``; a subtest each: a failure names its query); the index
test alone opens its own."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from calculators.i18n import LANGUAGES, language_folder
from sitebuild.words import words
from tests.browser.conftest import Watch

PREFIX = {lang: language_folder(lang) for lang in LANGUAGES}
#: The term that each glossary entry's line gives in each language (docs/*/glossary.md).
PRIZE_CARDS = {"en": "Prize cards", "fr": "cartes Récompense", "it": "carte Premio"}
TOP_CUT = {"en": "top cut", "fr": "phase finale", "it": "fase finale"}


@pytest.fixture(scope="module")
def homes(warm_context, site_url):
    """One page per language in the warm context, kept on its home page by this module's searches
    (each empties the field first): the page and its index are the same for every query."""
    pages, watch = {}, Watch(site_url)

    def home(lang):
        if lang not in pages:
            pages[lang] = warm_context.new_page()
            watch.attach(pages[lang])
        return pages[lang]

    home.watch = watch
    yield home
    for page in pages.values():
        page.close()


@pytest.fixture
def home(homes):
    """``home(lang)``: the language's shared page; what it did wrong fails the test it did it in."""
    yield homes
    try:
        homes.watch.check()
    finally:
        homes.watch.foreign.clear()
        homes.watch.errors.clear()


def search(page, site_url: str, lang: str, query: str) -> list[list[str]]:
    """Type ``query`` into the search of ``lang``'s home page; return the results as Material
    shows them: one list per page, the page's path first, then its best sections
    (``naruto/#naruto-reserve``), the ones folded under "more" left out. A page already there with
    its index loaded is reused: the field is emptied (the results go), then the query is typed."""
    home = f"{site_url}/{PREFIX[lang]}"
    field = page.get_by_role("dialog").get_by_role("textbox")
    results = page.locator(".md-search-result__item")
    if page.url != home or not field.is_visible():  # (a failed test may have left it elsewhere)
        page.set_viewport_size({"width": 1280, "height": 800})
        page.goto(home)
        meta = page.locator(".md-search-result__meta")
        # "Initializing search" in the page's language, as served (the live text may have changed already)
        served = page.request.get(page.url).text()
        initializing = re.search(r'md-search-result__meta">\s*([^<]+?)\s*<', served).group(1)
        field.click()
        expect(meta).not_to_have_text(initializing)  # the index is loaded: what is typed now is searched
    else:
        field.press("ControlOrMeta+A")
        field.press("Backspace")  # a key's release: Material searches the empty field and clears the list
        expect(results).to_have_count(0)
    # Material searches on each key's release: all but the last character at once, then one key, so
    # the list shown is the whole query's (not a shorter one's, still on screen)
    field.fill(query[:-1])
    field.press(query[-1])
    expect(results.first).to_be_visible()
    groups = results.evaluate_all("""items => items.map((item) =>
        [...item.querySelectorAll(':scope > a.md-search-result__link')].map((a) => a.href))""")
    for group in groups:
        for href in group:
            # must not: a result from another language's pages
            path = urlsplit(href).path
            assert path.startswith(f"/{PREFIX[lang]}"), href
            assert not any(path.startswith(f"/{p}") for code, p in PREFIX.items() if p and code != lang), href
    return [[_where(href, lang) for href in group] for group in groups]


def _where(href: str, lang: str) -> str:
    url = urlsplit(href)
    return url.path.removeprefix(f"/{PREFIX[lang]}") + (f"#{url.fragment}" if url.fragment else "")


def first_result(groups: list[list[str]]) -> tuple[str, list[str]]:
    page, *sections = groups[0]
    return page, sections


#: Words typed without their accents, and the section each must find: Réserve, Légendaire (one copy,
#: deck and Réserve).
WITHOUT_ACCENTS = [("reserve", "naruto/#naruto-reserve"), ("legendaire", "naruto/#naruto-reserve-limits")]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_word_typed_without_its_accents_finds_the_rule(home, site_url, lang, subtests):
    page = home(lang)
    for query, section in WITHOUT_ACCENTS:
        with subtests.test(query=query):
            found, sections = first_result(search(page, site_url, lang, query))
            assert found == "naruto/"
            assert section in sections
            # must not: the word counted as missing from the rule it found (Material strikes such words out)
            expect(page.locator(".md-search-result__item").first.locator("del")).to_have_count(0)


#: "La 'Réserve' (sideboard)", "La Riserva (sideboard)", "The Sideboard (Réserve)": by language.
RESERVE_QUERIES = {"fr": ["sideboard", "riserva"], "it": ["sideboard", "réserve"], "en": ["riserva", "réserve", "reserve"]}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_word_in_parentheses_or_another_language_finds_the_reserve(home, site_url, lang, subtests):
    """Found among the first page's best sections (two sections that tie are both shown). The
    must-not of these: a result on another language's pages (search() checks every link)."""
    page = home(lang)
    for query in RESERVE_QUERIES[lang]:
        with subtests.test(query=query):
            found, sections = first_result(search(page, site_url, lang, query))
            assert found == "naruto/"
            assert "naruto/#naruto-reserve" in sections


#: Terms in every language and the section each must give first, with no word of it counted as missing
#: (as when only "cards" of "Prize cards" matched: the Naruto tiebreak and the home page came first).
FIRST_SECTIONS = [(PRIZE_CARDS, "pokemon/#pokemon-single"), (TOP_CUT, "naruto/#naruto-final-phase")]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_prize_cards_and_top_cut_in_any_language_find_their_section_first(home, site_url, lang, subtests):
    page = home(lang)
    for terms, section in FIRST_SECTIONS:
        for term_lang in LANGUAGES:
            with subtests.test(query=terms[term_lang]):
                found, sections = first_result(search(page, site_url, lang, terms[term_lang]))
                assert (found, sections[0]) == (section.split("#")[0], section)
                expect(page.locator(".md-search-result__item").first.locator("del")).to_have_count(0)


# --- What judges type (issue 51): rules before the interface, and the words judges use -----------------

#: What a judge types for the same idea in each language, and the section it must give first. The
#: names come from the glossary's lines (docs/*/glossary.md), some of them words the rules never use:
#: the Italian text says «sorteggio» and «Partita Secca», the English one "tiebreak".
WHAT_JUDGES_TYPE = [
    *[(query, "naruto/", "naruto/#naruto-tiebreak") for query in ("coin", "pile ou face", "moneta", "tiebreaker")],
    *[(query, "pokemon/", "pokemon/#pokemon-bo3") for query in ("sudden death", "mort subite", "morte improvvisa")],
]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_words_judges_use_find_the_rule(home, site_url, lang, subtests):
    page = home(lang)
    for query, found_page, section in WHAT_JUDGES_TYPE:
        with subtests.test(query=query):
            found, sections = first_result(search(page, site_url, lang, query))
            assert found == found_page
            assert section in sections


@pytest.mark.parametrize(("lang", "query"), [("en", "warning"), ("fr", "avertissement"), ("it", "ammonizione")])
def test_a_warning_finds_the_blitz_rule_not_the_timers_buttons(home, site_url, lang, query):
    """The blitz rule (2 warnings lose the game) first; must not: the clock page, whose blitz timer
    labels ("Warn Player A", "Warnings for Player A: 0") came first."""
    page = home(lang)
    groups = search(page, site_url, lang, query)
    assert groups[0][:2] == ["naruto/", "naruto/#naruto-blitz"]
    assert not [group for group in groups if group[0] == "clock/"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_button_of_a_calculator_in_the_results(home, site_url, lang):
    """"mulligan" finds the Judge Tower rules; its results' snippets show rule text, never the words
    of the calculator below it ("Try again", "Copy the link to this calculator…", "QR code")."""
    page = home(lang)
    t = words(lang)
    search(page, site_url, lang, "mulligan")
    results = page.locator(".md-search-result__list")
    expect(results).to_contain_text("mulligan", ignore_case=True)
    for key in ("ui.retry", "ui.copy_calc_link", "ui.loading", "ui.qr.button"):
        expect(results).not_to_contain_text(t(key))


def test_the_index_is_built_when_first_asked_not_on_every_page_view(page, site_url):
    """Building the index (lunr over every section, the language's stemmer loaded) cost ~0.1 s of a
    desktop's CPU on every page view, several times that on a phone, and most views never search:
    search says it is ready at once, and the first query builds the index, then is answered."""
    lunr = []
    page.on("request", lambda request: "/lunr/" in request.url and lunr.append(request.url))
    page.goto(f"{site_url}/fr/")
    served = page.request.get(page.url).text()
    initializing = re.search(r'md-search-result__meta">\s*([^<]+?)\s*<', served).group(1)
    expect(page.locator(".md-search-result__meta")).not_to_have_text(initializing)  # ready, search not opened
    assert lunr == []  # must not: the French stemmer loaded (the index built) before anything was asked
    found, sections = first_result(search(page, site_url, "fr", "réserve"))
    assert (found, "naruto/#naruto-reserve" in sections) == ("naruto/", True)
    assert any(url.endswith("/lunr.fr.min.js") for url in lunr), lunr
