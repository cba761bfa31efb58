"""Every catalog message that takes a number reads right for 0, 1, 1.5 and 2 (issue 53).

Each message is rendered with each of its numbers set to those counts, the way the Translator and
web/shared/share.js fill() render it; the words after the number that agree with it (the nouns of the
lexicon below, their adjectives and verbs) must take the form the language's own rule gives: in
French 0, 1 and 1.5 take the singular (« 0 carte », « 1,5 joueur »), in English and Italian only 1.
The rule is written here from grammar books, not imported from calculators.i18n.
"""

from __future__ import annotations

import json
import re
import shutil
import string
import subprocess
from pathlib import Path

import pytest
from babel.numbers import format_decimal

from calculators.i18n import LANGUAGES, Count, catalog
from sitebuild.words import BUILD_LOCALE

COUNTS = (0, 1, 1.5, 2)


def native_singular(lang: str, n: float) -> bool:
    return n < 2 if lang == "fr" else n == 1


#: Placeholders that are never a number (names, labels, lists, times); every other one is rendered
#: as a count. A new placeholder name must be put here or be a number.
TEXT = {"brought", "card", "choices", "code", "criterion", "field", "game", "id", "items", "known", "label",
        "languages", "last", "left", "loser", "name", "names", "name_a", "name_b", "option", "player", "record", "score",
        "time", "title", "url", "winner"}

#: Words that agree with a number before them: (singular, plural) per language.
LEXICON = {
    "en": [("card", "cards"), ("copy", "copies"), ("player", "players"), ("participant", "participants"),
           ("round", "rounds"), ("character", "characters"), ("line", "lines"), ("minute", "minutes"),
           ("second", "seconds"), ("game", "games"), ("table", "tables"), ("extension", "extensions"),
           ("warning", "warnings"), ("turn", "turns"), ("person", "people"), ("problem", "problems")],
    "fr": [("carte", "cartes"), ("exemplaire", "exemplaires"), ("joueur", "joueurs"),
           ("participant", "participants"), ("ronde", "rondes"), ("suisse", "suisses"), ("caractère", "caractères"),
           ("ligne", "lignes"), ("minute", "minutes"), ("seconde", "secondes"), ("manche", "manches"),
           ("gagnée", "gagnées"), ("table", "tables"), ("prolongation", "prolongations"),
           ("avertissement", "avertissements"), ("tour", "tours"), ("ninja", "ninjas"), ("personne", "personnes"),
           ("saisie", "saisies"), ("peut", "peuvent"), ("première", "premières"), ("restante", "restantes"),
           ("retirée", "retirées"), ("intégrée", "intégrées"), ("problème", "problèmes"), ("trouvé", "trouvés")],
    "it": [("carta", "carte"), ("copia", "copie"), ("giocatore", "giocatori"), ("partecipante", "partecipanti"),
           ("turno", "turni"), ("svizzero", "svizzeri"), ("carattere", "caratteri"), ("riga", "righe"),
           ("minuto", "minuti"), ("secondo", "secondi"), ("partita", "partite"), ("vinta", "vinte"),
           ("tavolo", "tavoli"), ("estensione", "estensioni"), ("ammonizione", "ammonizioni"),
           ("persona", "persone"), ("inserita", "inserite"), ("vittoria", "vittorie"), ("può", "possono"),
           ("rimasta", "rimaste"), ("tolta", "tolte"), ("presa", "prese"), ("problema", "problemi"),
           ("trovato", "trovati")],
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
           "swiss", "loses", "has", "on", "for"},
    "fr": {"dans", "à", "sur", "est", "n'est", "min", "s", "%", "contre", "et", "ou", "fait", "a", "n'a", "dépasse", "de", "pour"},
    "it": {"nel", "nella", "in", "a", "di", "non", "su", "è", "min", "s", "%", "contro", "e", "o", "da", "ninja", "il",
           "ha", "supera", "per"},
}


#: Numbers around each grouping threshold, negative ones and fractions.
NUMBERS = [0, 1, 7, 999, 1000, 9999, 10_000, 12_345, 99_999, 100_000, 1_000_000, -1234, -12_345, 1.5, 0.25,
           1234.5, 12_345.5, 2.0, 1_000_000.0]


#: CLDR's own formatter: Node's Intl.NumberFormat with its default grouping (ICU applies CLDR's
#: minimumGroupingDigits, which Babel ignores: Babel writes Italian "1.000" where CLDR has "1000").
INTL = """process.stdout.write(JSON.stringify(%s.map((n) => new Intl.NumberFormat(%s).format(n))));"""


@pytest.mark.skipif(shutil.which("node") is None, reason="Node is part of the setup (npm ci)")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_numbers_are_grouped_as_the_language_writes_them(lang):
    """CLDR's grouping in every language: "1,000", « 1 000 » with a narrow no-break space, Italian
    "1000" but "10.000"; the separators are Babel's too. One threshold for a whole sentence: the
    English hint "(0 to 9,999)" beside "10,000"."""
    run = subprocess.run(["node", "--no-warnings", "-e", INTL % (json.dumps(NUMBERS), json.dumps(lang))],
                         capture_output=True, text=True, check=True)
    expected = [text.replace("-", "\u2212") for text in json.loads(run.stdout)]
    assert [str(Count(n, lang)) for n in NUMBERS] == expected
    assert str(Count(1_000_000, lang)) == format_decimal(1_000_000, locale=lang)


#: web/shared/share.js's fill() under Node, one module instance per language (it reads the page's lang).
FILL = """
globalThis.document = { documentElement: { lang: %s }, getElementById: () => null };
globalThis.addEventListener = () => {};
const { fill } = await import(%s + "?" + %s);
process.stdout.write(JSON.stringify(%s.map((n) => fill("{n}", { n }))));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="Node is part of the setup (npm ci)")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_writes_numbers_as_python_does(lang):
    """One rule for both: share.js fill() (Intl.NumberFormat) writes each number as Count does."""
    module = json.dumps((Path(__file__).resolve().parents[2] / "web" / "shared" / "share.js").as_uri())
    script = FILL % (json.dumps(lang), module, json.dumps(lang), json.dumps(NUMBERS))
    run = subprocess.run(["node", "--no-warnings", "--input-type=module", "-e", script],
                         capture_output=True, text=True, check=True)
    assert json.loads(run.stdout) == [str(Count(n, lang)) for n in NUMBERS]


#: Any space a message may hold (French typography puts no-break ones before a colon).
_SPACE = "[\\s\u00a0\u202f]*"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_plural_label_before_a_count(lang):
    """ "Problems found: 1" reads wrong at 1: a count is not the value of a plural label (the two words
    before the colon are read); the noun
    follows the number and agrees with it ("1 problem found")."""
    plurals = {plural for _, plural in LEXICON[lang]}
    found = [f"{key}: {text}" for message_lang, key, text in MESSAGES if message_lang == lang
             for match in re.finditer(r"([\w'-]+) ([\w'-]+)" + _SPACE + ":" + _SPACE + r"\{(\w+)\}", text)
             if match.group(3) in _numbers(text) and plurals & {match.group(1).lower(), match.group(2).lower()}]
    assert not found, "\n".join(found)


#: Words before a count that are wrong at 0: "only" (« il ne reste que 0 carte », «restano solo 0 carte»,
#: "only 0 cards"), "of which" (« dont 0 ninja », «di cui 0 Ninja»), «ne contiene 0».
ONLY = {"en": r"\b(?:only|just|of which)\s+",
        "fr": r"(?:\bne\b|\bn')[^.;:]*\bqu(?:e\s+|')|\bseulement\s+|\bdont\s+",
        "it": r"\b(?:solo|soltanto|solamente|di cui|ne contiene)\s+"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_count_reads_only_0(lang):
    """A count that may be 0 never follows "only" or "of which": the sentence must hold at 0."""
    found = [f"{key}: {text}" for message_lang, key, text in MESSAGES if message_lang == lang
             for name in _numbers(text) if re.search("(?:" + ONLY[lang] + r")\{" + name + r"\}", text)]
    assert not found, "\n".join(found)
