"""A player's name in a sentence: a typed name stands as typed («Alice vince»), a default label takes
what the language needs around it (Italian «il giocatore A vince», «al giocatore A»; French « le
joueur A »), and stands bare only as a label (before a colon, or before its count in a listing).

Every sentence that names a player is rendered here both ways, in every language, from inputs that
reach each of them; the expectations are the languages' grammar, not the catalogs' sentences.
"""

from __future__ import annotations

import re
import string

import pytest

from calculators import evaluate
from calculators.i18n import LANGUAGES, Translator
from calculators.players import ISOLATE, isolated, player
from rules_core.players import Player
from sitebuild.contract import BLITZ_PLAYER_WORDS
from sitebuild.words import words
from tests.unit.test_catalogs import po_messages

#: Inputs reaching every sentence that names a player (turns, criteria, summaries).
CASES = [
    ("naruto-end-of-time", {"starter": "a", "active": "a"}),
    ("naruto-end-of-time", {"starter": "a", "active": "b", "mode": "blitz"}),
    ("naruto-tiebreak", {"rewards_a": "3", "rewards_b": "1"}),
    ("naruto-tiebreak", {"rewards_a": "3", "rewards_b": "3", "deck_a": "4", "deck_b": "9"}),
    ("pokemon-time-limit", {"late_a": "yes", "late_b": "no"}),
    ("pokemon-time-limit", {"late_a": "no", "late_b": "no", "prizes_a": "4", "prizes_b": "2"}),
    ("pokemon-time-limit", {"format": "bo3", "late_a": "no", "late_b": "yes"}),
    ("pokemon-time-limit", {"format": "bo3", "late_a": "no", "late_b": "no", "games_a": "1", "games_b": "0"}),
    ("pokemon-time-limit", {"format": "bo3", "late_a": "no", "late_b": "no", "games_a": "1", "games_b": "1", "in_progress": "yes",
                            "prizes_a": "2", "prizes_b": "5"}),
]
TYPED = {"name_a": "Alice", "name_b": "Bob"}
#: Judge Tower's shame counters: players out, one winner, several winners.
SHAME = ["9\n1\n3", "9\n8\n1\n1"]
SHAME_TYPED = ["Alice: 9\nBob: 1\nEve: 3", "Alice: 9\nBob: 8\nEve: 1\nIda: 1"]

#: A default label as a language writes it: bare (a label) and in a sentence.
LABEL = {"en": r"Player", "fr": r"Joueur", "it": r"Giocatore"}
ARTICLE = {"fr": r"(?:[Ll]e|au|du)", "it": r"(?:[Ii]l|al|del)"}
#: Words that must never come before a typed name: an article, or a preposition fused with one.
NO_ARTICLE = re.compile(r"\b(?:il|lo|la|al|del|le|au|du|the)\s+" + ISOLATE, re.I)


def texts(lang: str, typed: bool) -> list[str]:
    out = []
    for calc, inputs in CASES:
        verdict = evaluate(calc, {**inputs, **(TYPED if typed else {})}, lang)
        assert verdict["ok"], (calc, inputs, verdict["errors"])
        out += [verdict["summary"], *verdict["details"]]
    for shame in SHAME_TYPED if typed else SHAME:
        verdict = evaluate("judge-tower-shame", {"shame": shame}, lang)
        assert verdict["ok"], verdict["errors"]
        out += [verdict["summary"], *verdict["details"]]
    return out


def blitz_texts(lang: str) -> list[str]:
    """The blitz timer's words naming a player (only ever a default label there)."""
    t = words(lang)
    return [t(f"blitz.{key}", name=player(t, p), count=2) for p in Player for key in ("warn", "undo", *(k.removeprefix("blitz.") for k in BLITZ_PLAYER_WORDS))]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_typed_name_takes_no_article(lang):
    found = [text for text in texts(lang, typed=True) if NO_ARTICLE.search(text)]
    assert not found, found
    assert all(LABEL[lang] not in text for text in texts(lang, typed=True)), "a default label beside typed names"


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_a_default_label_in_a_sentence_takes_its_article(lang):
    """«il giocatore A vince», «al giocatore A»: the bare label «Giocatore A» only before a colon
    (a label) or before its count in a listing («Giocatore A 3, Giocatore B 1»)."""
    problems = []
    for text in texts(lang, typed=False) + blitz_texts(lang):
        for match in re.finditer(rf"(\S+\s+)?({LABEL[lang]}|{LABEL[lang].lower()}) [A-Z0-9]\b(.{{0,2}})", text):
            before, word, after = match.groups()
            if word[0].isupper():  # bare: a label
                if not re.match(r"\s?:| \d", after):
                    problems.append(f"bare label in a sentence: {text!r}")
            elif not re.fullmatch(ARTICLE[lang] + r"\s+", before or ""):
                problems.append(f"label without its article: {text!r}")
    assert not problems, "\n".join(problems)
    assert any(re.search(ARTICLE[lang] + " " + LABEL[lang].lower(), text) for text in texts(lang, typed=False))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_sentences_ask_only_for_forms_that_exist(lang):
    """``{name:the}`` and ``{name:The}`` fit any name; ``of`` and ``to`` (a preposition fused with an
    article) only a label, so only the blitz timer's words, which never show a typed name, use them."""
    forms = {form for key, form in ((k, k.rsplit(".", 1)[1]) for k in po_messages(lang)["common"])
             if key.startswith("player.a.")}
    assert {"the", "of", "to"} <= forms
    for domain, messages in po_messages(lang).items():
        for key, text in messages.items():
            for _, field, spec, _ in string.Formatter().parse(text):
                if spec and "|" not in spec:  # "a|b": a count's singular and plural (test_counts.py)
                    assert spec.lower() in forms, f"{lang}/{domain}: {key} asks for {{{field}:{spec}}}"
                    assert spec.lower() == "the" or key.startswith("blitz."), f"{lang}/{domain}: {key}: {spec} needs a label"


#: être / essere (or a reflexive verb) right after a name: the next word would agree with the name's gender.
BE = {"fr": r"(?:n'|ne\s+)?(?:est|sont|était|étaient|sera|seront|serait|soit|fut|a\s+été|ont\s+été|s'est|se\s+sont)",
      "it": r"(?:non\s+)?(?:è|sono|era|erano|sarà|saranno|sarebbe|sia|fu|si\s+è|si\s+sono)"}
#: Adverbs between the verb and what follows it; then words that agree with nothing (« est hors de la partie »,
#: «è in vantaggio»).
ADVERBS = {"fr": r"(?:(?:pas|plus|jamais|encore|toujours|déjà)\s+)*", "it": r"(?:(?:più|mai|ancora|già|stat[oaie])\s+)*"}
NEUTRAL = {"fr": {"hors", "en", "à", "au", "aux", "dans", "sous", "sur", "de", "du", "des", "le", "la", "les", "un",
                  "une", "l'"},
           "it": {"in", "a", "al", "alla", "fuori", "di", "del", "della", "da", "dal", "dalla", "tra", "fra", "il",
                  "la", "un", "una", "l'"}}


def name_fields() -> set[str]:
    """Placeholders a typed name can stand in: those given a name's form in any catalog, and name_a/name_b."""
    found = {"name_a", "name_b"}
    for lang in LANGUAGES:
        for messages in po_messages(lang).values():
            for text in messages.values():
                found |= {field for _, field, spec, _ in string.Formatter().parse(text)
                          if field and spec and "|" not in spec}
    return found


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_no_word_agrees_with_a_typed_name(lang):
    """« Anaïs est arrivé », «Anna è arrivato»: a typed name's gender is unknown, so no name is the subject
    of être/essere + a participle or an adjective (« {loser:the} perd pour retard », not « est arrivé »)."""
    fields = "|".join(sorted(name_fields()))
    pattern = re.compile(rf"\{{(?:{fields})(?::[^}}]*)?\}}\s+{BE[lang]}\s+{ADVERBS[lang]}([\w']+)", re.I)
    found = [f"{domain}: {key}: {text}" for domain, messages in po_messages(lang).items()
             for key, text in messages.items()
             for match in pattern.finditer(text) if match.group(1).lower() not in NEUTRAL[lang]]
    assert not found, "\n".join(found)
    assert {"winner", "loser", "player", "name"} <= name_fields()


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_no_word_agrees_with_a_typed_card_name(lang):
    """« « Kiba » est marqué … »: a card's name is typed too, its gender unknown; the sentence says « la
    carte « {value} » porte … » instead."""
    # {card} is always a card's name; {value} is one only in the error quoting a card (elsewhere a line, a number).
    card = {key: "card|value" if key.endswith(".conflicting_tags") else "card"
            for key in po_messages(lang)["naruto_reserve"]}
    found = [f"{key}: {text}" for key, text in po_messages(lang)["naruto_reserve"].items()
             for match in re.finditer(rf"\{{(?:{card[key]})\}}\s*[»”]?\s+{BE[lang]}\s+{ADVERBS[lang]}([\w']+)", text, re.I)
             if match.group(1).lower() not in NEUTRAL[lang]]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_same_name_typed_twice_is_told_apart_by_each_label(lang):
    """«Anne finishes… Anne plays…», «Alice and Alice would win together»: two players with the same name
    are each named with their label («Anne (Player A)») wherever a sentence names them, in every
    calculator with typed names; what was typed is kept as typed (Judge Tower's ``names``)."""
    t = Translator(lang)
    same = isolated("Anne")

    def apart(labels: list[str]) -> list[str]:
        return [t("player.same_name", name=same, label=label) for label in labels]

    checked = []
    for calc, inputs in CASES:
        verdict = evaluate(calc, {**inputs, "name_a": "Anne", "name_b": "Anne"}, lang)
        checked.append((verdict, apart([t("player.a"), t("player.b")])))
    verdict = evaluate("judge-tower-shame", {"shame": "Anne: 1\nAnne: 1\nBob: 9"}, lang)
    assert verdict["result"]["names"] == ["Anne", "Anne", "Bob"]
    checked.append((verdict, apart([t("judge-tower-shame.player", position=n) for n in (1, 2)])))
    for verdict, forms in checked:
        assert verdict["ok"], verdict["errors"]
        text = " ".join([verdict["summary"], *verdict["details"]])
        assert text.count(same) == sum(text.count(form) for form in forms) > 0, text
    assert all(any(form in " ".join([v["summary"], *v["details"]]) for v, _ in checked) for form in apart([t("player.b")]))


#: A hint opening on one word before its reason: a participle or adjective with no noun of its own.
LONE_WORD = {"fr": re.compile(r"^(?!Oui\b|Non\b)\w+ (?:parce que|car|si|quand)\b"),
             "it": re.compile(r"^(?!Sì\b|No\b)\w+ (?:perché|se|quando)\b")}  # "Yes if…": an answer, not a participle


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_a_hint_agrees_with_no_label(lang):
    """«Richiesto perché…» under «Carte nel mazzo del giocatore A», « Demandé parce que… » under « Cartes dans
    le deck »: a hint opening on a lone participle agrees with a label it cannot see (one hint serves labels
    of any gender and number); «Da inserire perché…», « À saisir parce que… » agree with nothing."""
    found = [f"{key}: {text}" for messages in po_messages(lang).values() for key, text in messages.items()
             if key.endswith(".hint") and LONE_WORD[lang].match(text)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_no_adjective_agrees_with_a_field_s_label(lang):
    """« Absent du lien : « Réserve », plus long que… »: a field's label is of any gender and number, so no
    adjective after it agrees with it (« le champ « {field} », qui dépasse… »)."""
    after = re.compile(r"\{(?:field|label)\}\s*[»”]?\s*,\s+(?:plus|più|trop|troppo|moins|meno)\s+\w+")
    found = [f"{key}: {text}" for messages in po_messages(lang).values() for key, text in messages.items()
             if after.search(text)]
    assert not found, "\n".join(found)
