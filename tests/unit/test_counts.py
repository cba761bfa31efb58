"""Every catalog message that takes a number reads right for 0, 1, 1.5 and 2 (issue 53).

Each message is rendered with each of its numbers set to those counts, the way the Translator and
web/share.js fill() render it; the words after the number that agree with it (the nouns of the
lexicon below, their adjectives and verbs) must take the form the language's own rule gives: in
French 0, 1 and 1.5 take the singular (« 0 carte », « 1,5 joueur »), in English and Italian only 1.
The rule is written here from grammar books, not imported from calculators.i18n.
"""

from __future__ import annotations

import re
import string

import pytest

from calculators.i18n import LANGUAGES, Count, catalog
from sitebuild.words import BUILD_LOCALE

COUNTS = (0, 1, 1.5, 2)


def native_singular(lang: str, n: float) -> bool:
    return n < 2 if lang == "fr" else n == 1


#: Placeholders that are never a number (names, labels, lists, times); every other one is rendered
#: as a count. A new placeholder name must be put here or be a number.
TEXT = {"brought", "card", "choices", "criterion", "field", "game", "id", "items", "known", "label", "languages",
        "last", "left", "loser", "name", "names", "name_a", "name_b", "player", "record", "score", "time", "title",
        "url", "winner"}

#: Words that agree with a number before them: (singular, plural) per language.
LEXICON = {
    "en": [("card", "cards"), ("copy", "copies"), ("player", "players"), ("participant", "participants"),
           ("round", "rounds"), ("character", "characters"), ("line", "lines"), ("minute", "minutes"),
           ("second", "seconds"), ("game", "games"), ("table", "tables"), ("extension", "extensions"),
           ("warning", "warnings"), ("turn", "turns"), ("person", "people")],
    "fr": [("carte", "cartes"), ("exemplaire", "exemplaires"), ("joueur", "joueurs"),
           ("participant", "participants"), ("ronde", "rondes"), ("suisse", "suisses"), ("caractère", "caractères"),
           ("ligne", "lignes"), ("minute", "minutes"), ("seconde", "secondes"), ("manche", "manches"),
           ("gagnée", "gagnées"), ("table", "tables"), ("prolongation", "prolongations"),
           ("avertissement", "avertissements"), ("tour", "tours"), ("ninja", "ninjas"), ("personne", "personnes"),
           ("saisie", "saisies"), ("peut", "peuvent"), ("première", "premières"), ("restante", "restantes"),
           ("retirée", "retirées"), ("intégrée", "intégrées")],
    "it": [("carta", "carte"), ("copia", "copie"), ("giocatore", "giocatori"), ("partecipante", "partecipanti"),
           ("turno", "turni"), ("svizzero", "svizzeri"), ("carattere", "caratteri"), ("riga", "righe"),
           ("minuto", "minuti"), ("secondo", "secondi"), ("partita", "partite"), ("vinta", "vinte"),
           ("tavolo", "tavoli"), ("estensione", "estensioni"), ("ammonizione", "ammonizioni"),
           ("persona", "persone"), ("inserita", "inserite"), ("vittoria", "vittorie"), ("può", "possono"),
           ("rimasta", "rimaste"), ("tolta", "tolte"), ("presa", "prese")],
}
#: How many words after a number are read (a noun, then an adjective or a verb).
WINDOW = 3
_WORDS = re.compile(r"[^\s,;:.()?!«»“”\"]+")


class Marked(Count):
    """The count under test, its number written between two markers, so that the check reads the
    words after this number and not after a digit the message writes itself ("table 1 to …")."""

    def __format__(self, spec: str) -> str:
        return super().__format__(spec) if spec else f"\0{super().__format__(spec)}\0"


class Anything(str):
    """A stand-in for a name or a label, in any form a message asks of it (``{winner:the}``)."""

    def __format__(self, spec: str) -> str:
        return "X"


def _fields(text: str) -> set[str]:
    return {name for _, name, spec, _ in string.Formatter().parse(text) if name}


def _numbers(text: str) -> set[str]:
    """Placeholders used as numbers: not text, and never given a name's form (``{players:the}``)."""
    named = {name for _, name, spec, _ in string.Formatter().parse(text) if name and spec and "|" not in spec}
    return _fields(text) - TEXT - named


def _messages():
    for lang in LANGUAGES:
        for key, text in sorted(catalog(lang, (BUILD_LOCALE,)).items()):
            if _numbers(text):
                yield lang, key, text


MESSAGES = list(_messages())


def test_every_language_has_messages_with_counts():
    assert {lang for lang, _, _ in MESSAGES} == set(LANGUAGES) and len(MESSAGES) > 60


def _agreement_errors(lang: str, text: str, n: float) -> list[str]:
    """Words after each number written for ``n`` that do not agree with it."""
    forms = {word: (i == 0) for pair in LEXICON[lang] for i, word in enumerate(pair)}
    found = []
    for match in re.finditer(r"\0([^\0]*)\0", text):
        after = re.split(r"[,;:.()?!«»“”\"\0]", text[match.end():].replace("\u00a0", " "), maxsplit=1)[0]
        for word in _WORDS.findall(after)[:WINDOW]:
            singular = forms.get(word.lower())
            if singular is not None and singular != native_singular(lang, n):
                found.append(f"«{match.group(1)} … {word}»")
    return found


@pytest.mark.parametrize(("lang", "key", "text"), MESSAGES, ids=[f"{lang}-{key}" for lang, key, _ in MESSAGES])
def test_counts_agree_for_0_1_one_and_a_half_and_2(lang, key, text):
    others = {name: Anything("X") for name in _fields(text)}
    problems = []
    for name in sorted(_numbers(text)):
        for n in COUNTS:
            values = {**others, **{other: Count(7, lang) for other in _numbers(text)}, name: Marked(n, lang)}
            rendered = text.format(**values)
            problems += [f"{name}={n}: {e} in {rendered!r}" for e in _agreement_errors(lang, rendered, n)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_word_after_a_number_is_classified(lang):
    """A new counted noun must join the lexicon: a word right after a number placeholder is either
    one of its forms, written with the {n:one|other} forms, or a word that does not agree."""
    lexicon = {word for pair in LEXICON[lang] for word in pair}
    unknown = set()
    for message_lang, key, text in MESSAGES:
        if message_lang != lang:
            continue
        for match in re.finditer(r"\{(\w+)\}[ \u00a0]+([^\s{]+)", text):
            word = _WORDS.match(match.group(2))
            if match.group(1) in _numbers(text) and word and word.group(0).lower() in NOT_AGREEING[lang]:
                continue
            if match.group(1) in _numbers(text) and word and word.group(0).lower() not in lexicon:
                unknown.add(f"{key}: {{{match.group(1)}}} {word.group(0)}")
    assert not unknown, "\n".join(sorted(unknown))


#: Words that may follow a number and do not agree with it (prepositions, a verb about the number
#: itself: "{value} is fewer"), per language.
NOT_AGREEING = {
    "en": {"in", "to", "of", "is", "min", "s", "%", "left", "taken", "brought", "non-platoon", "and", "or",
           "swiss", "loses", "has", "on"},
    "fr": {"dans", "à", "sur", "est", "n'est", "min", "s", "%", "contre", "et", "ou", "fait", "a"},
    "it": {"nel", "nella", "in", "a", "di", "non", "su", "è", "min", "s", "%", "contro", "e", "o", "da", "ninja", "il",
           "ha"},
}
