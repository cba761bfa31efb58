"""One search index per language (``search/`` for the reference language, ``fr/search/``,
``it/search/``), each made to find what a judge types.

Material's plugin writes one index mixing every language; each entry's location starts with its
language folder (none for the reference language). overrides/main.html points each language's
pages at their own index.

Material's search worker (lunr) cannot be patched and does nothing to a query but split it with
the index's separator, lower-case it and add a trailing wildcard to each word; a wildcard term
skips lunr's query pipeline (lunr.QueryParser.parseTerm), so not even a pipeline function could
fold it: a query is matched, as a prefix, against the indexed words as typed. So what a judge may type is put in the index, in two fields
that Material indexes but never shows (DESIGN.md, "Search finds what judges type"):

- ``alt_title``, boosted almost as the title: the title's accented words without their accents, and the
  other languages' names of the glossary terms the section is about;
- ``alt_text``, boosted almost as the text: the same for the body text.

A glossary term is a paragraph of the glossary page that names itself in every language
(``English: Prize cards · français : cartes Récompense · italiano: carte Premio``) and links to the
rule section it belongs to. Its names are added to that section at heading level, and to every
other section of a rule page that uses one of them, at the level where it uses it.
"""

from __future__ import annotations

import html
import json
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from calculators.i18n import LANGUAGES, REFERENCE_LANGUAGE, language_folder
from sitebuild.rulebook import GLOSSARY as GLOSSARY_PAGE, NOT_RULE_PAGES, Book, Rule

#: The hidden fields, each boosted as the visible field it stands for, times ALT_BOOST: where nothing
#: else decides, a section that shows a word ranks a little above one that was only given it, and
#: both far above a match in body text (the title's boost is 1000 times the text's). (Where a
#: glossary link decides, it decides first: the same first results at 1.0 for the tested queries.)
ALT_FIELDS = {"alt_title": "title", "alt_text": "text"}
ALT_BOOST = 0.9
#: Pages whose sections get no glossary names: the glossary itself already holds all of them.
GLOSSARY = "glossary/"
#: Material's per-page ``boost`` (lunr's document boost) of the pages that point to rules or restate them
#: (home, round clock, changes, glossary): of two sections saying the same words, the rule comes first
#: (« main de départ » gave the home page's list of calculators, « combien de rondes » the clock).
POINTER_BOOST = 0.5
#: Letters that Unicode does not decompose into a base letter and an accent.
_LIGATURES = str.maketrans({"œ": "oe", "æ": "ae", "ß": "ss"})
_TAG = re.compile(r"<[^>]+>")
#: "English: Prize cards · français : cartes Récompense · italiano: carte Premio": one name a part.
_NAMES_LINE = re.compile(r"^\s*[^\W\d_]+\s?:\s*(.+?)\s*$")
_QUALIFIER = re.compile(r"\([^)]*\)")


def fold(word: str) -> str:
    """``word`` without its accents, as a judge types it on a phone.

    >>> fold("légendaire"), fold("réserve"), fold("cœur"), fold("più")
    ('legendaire', 'reserve', 'coeur', 'piu')
    """
    decomposed = unicodedata.normalize("NFD", word.translate(_LIGATURES))
    return unicodedata.normalize("NFC", "".join(c for c in decomposed if unicodedata.category(c) != "Mn"))


def words(markup: str, separator: re.Pattern[str]) -> list[str]:
    """The words Material's tokenizer indexes in ``markup`` (tags skipped, lower case), in order."""
    text = html.unescape(_TAG.sub(" ", markup))
    return [w for w in separator.split(text.lower()) if w]


@dataclass(frozen=True)
class Term:
    """A glossary term: its names in every language (qualifiers in parentheses dropped), and the
    ids of the rule sections its definition links to."""

    names: tuple[str, ...]
    sections: tuple[str, ...]


def glossary_terms(entries: Iterable[Rule]) -> list[Term]:
    """The terms among the glossary's entries (the rule model's) that name themselves in every language
    and link to a rule section. Entries without such a line or link are not terms."""
    terms = []
    for entry in entries:
        lines = [line for line in entry.lines if line.count("·") == len(LANGUAGES) - 1]
        if entry.kind != "glossary" or not lines or not entry.links:
            continue
        names = []
        for part in lines[0].split("·"):
            found = _NAMES_LINE.match(part)
            if found:
                for name in re.split(r"\s*[/,]\s*", _QUALIFIER.sub(" ", found.group(1))):
                    if name.strip() and name.strip() not in names:
                        names.append(name.strip())
        if len(names) >= len(LANGUAGES):
            terms.append(Term(tuple(names), tuple(dict.fromkeys(entry.links))))
    return terms


def _uses(folded_words: list[str], name: list[str]) -> bool:
    """The words contain the name's words in a row (the last one may end in a plural)."""
    n = len(name)
    return any(
        folded_words[i:i + n - 1] == name[:-1] and folded_words[i + n - 1].startswith(name[-1])
        and len(folded_words[i + n - 1]) - len(name[-1]) <= 2
        for i in range(len(folded_words) - n + 1)
    )


def alternative_words(doc: dict, terms: list[Term], separator: re.Pattern[str]) -> dict[str, str]:
    """``alt_title`` and ``alt_text`` for one entry of the index (fields left out when empty).

    Words the section already shows are not repeated, except in the section a glossary term links
    to: there its names are added even if the heading shows one, so that, of two headings saying
    "Réserve", the one the glossary gives for it comes first.
    """
    section = doc["location"].rsplit("#", 1)[1] if "#" in doc["location"] else None
    is_glossary = doc["location"].startswith(GLOSSARY)
    seen: set[str] = set()
    out: dict[str, str] = {}
    for alt, field in ALT_FIELDS.items():
        own = words(doc.get(field, ""), separator)
        seen.update(own)
        folded_own = [fold(w) for w in own]
        extra = [f for w, f in zip(own, folded_own) if f != w]
        defined: list[str] = []
        for term in [] if is_glossary else terms:
            names = [w for name in term.names for w in words(name, separator) for w in (w, fold(w))]
            if field == "title" and section in term.sections:
                defined += names
            elif any(_uses(folded_own, [fold(w) for w in words(name, separator)]) for name in term.names):
                extra += names
        kept = [w for w in dict.fromkeys(extra) if w not in seen]
        kept += dict.fromkeys(defined)  # even if the folded heading has it: a second time counts
        kept = [w for w in kept if len(w) > 1]
        seen.update(kept)
        if kept:
            out[alt] = " ".join(kept)
    return out


#: Players' words for a term the page spells otherwise, per language: a section that uses the key word
#: gets its synonyms in ``alt_text`` (Judge Tower's Italian « grimorio » is a « mazzo » to a player).
SYNONYMS = {"fr": {"sanctions": ("pénalité", "pénalités")}, "it": {"grimorio": ("mazzo",), "sanzioni": ("penalità",)}}


#: Words a player's question wraps around its subject, which lunr's French and Italian stop words
#: keep (its English list drops "can", "may", "how", "what", "when"): a query drops them too
#: (« quante copie posso mettere » asks about copies; "mettere" and "posso" found Judge Tower).
QUESTION_WORDS = {
    "en": ("many", "much", "put"),
    "fr": ("combien", "comment", "quand", "quoi", "où", "pourquoi", "peux", "peut", "puis", "peuvent", "pouvons",
           "pouvez", "dois", "doit", "doivent", "devons", "devez", "mets", "met", "mettent", "mettre", "faut"),
    "it": ("quando", "posso", "puoi", "può", "possiamo", "potete", "possono", "devo", "devi", "deve", "dobbiamo",
           "dovete", "devono", "metto", "metti", "mette", "mettiamo", "mettono", "mettere"),
}


def boost(doc: dict) -> dict[str, float]:
    """``boost`` for an entry of a page that holds no rules (none for a rule page's).

    >>> boost({"location": "#home-rules"}), boost({"location": "glossary/#glossary-naruto"}), boost({"location": "naruto/"})
    ({'boost': 0.5}, {'boost': 0.5}, {})
    """
    page = doc["location"].split("/", 1)[0] if "/" in doc["location"] else "index"
    return {"boost": POINTER_BOOST} if page in NOT_RULE_PAGES or page == GLOSSARY_PAGE else {}


def synonyms(doc: dict, lang: str, separator: re.Pattern[str]) -> dict[str, str]:
    """``alt_text`` with the players' synonyms of the words ``doc`` uses added (unchanged without any)."""
    table = SYNONYMS.get(lang, {})
    used = set(words(doc.get("title", "") + " " + doc.get("text", ""), separator))
    extra = [word for key, values in table.items() if key in used for value in values
             for word in dict.fromkeys((value, fold(value))) if word not in used]
    if not extra:
        return {}
    return {"alt_text": " ".join([*doc.get("alt_text", "").split(), *extra])}


def split_search_index(site: Path, found: Book) -> None:
    index_path = site / "search" / "search_index.json"
    index = json.loads(index_path.read_text(encoding="utf-8"))
    separator = re.compile(index["config"]["separator"])
    glossary = found.page(REFERENCE_LANGUAGE, "glossary")  # every glossary gives the same names and ids
    terms = glossary_terms(glossary.rules)
    if not terms:
        raise ValueError(f"no glossary term in {glossary.url}: a paragraph that names itself in every language "
                         "('English: … · français : … · italiano: …') and links to a rule section")
    fields = dict(index["config"]["fields"])
    for alt, field in ALT_FIELDS.items():
        fields[alt] = {**fields[field], "boost": fields[field]["boost"] * ALT_BOOST}
    config = {**index["config"], "fields": fields}
    others = [lang for lang in LANGUAGES if lang != REFERENCE_LANGUAGE]
    for lang in LANGUAGES:
        prefix = language_folder(lang)
        if lang == REFERENCE_LANGUAGE:
            docs = [d for d in index["docs"] if d["location"].split("/", 1)[0] not in others]
        else:
            docs = [{**d, "location": d["location"][len(prefix):]} for d in index["docs"] if d["location"].startswith(prefix)]
        docs = [{**d, **alternative_words(d, terms, separator)} for d in docs]
        docs = [{**d, **synonyms(d, lang, separator), **boost(d)} for d in docs]
        target = site / prefix / "search" / "search_index.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        lang_config = {**config, "lang": [lang], "question_words": list(QUESTION_WORDS[lang])}
        target.write_text(json.dumps({**index, "config": lang_config, "docs": docs}), encoding="utf-8")
