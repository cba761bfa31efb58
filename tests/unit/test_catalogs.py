"""Message catalogs: every key in every language, same placeholders, keys unique across domains."""

from __future__ import annotations

import re
import string

import pytest
from babel.messages.pofile import read_po

from calculators import CALCULATORS, evaluate, field_label
from calculators.i18n import LANGUAGES, LOCALE_DIR, REFERENCE_LANGUAGE, Translator
from sitebuild.words import BUILD_LOCALE

#: The runtime's catalogs (in the wheel) and the build's own words.
LOCALE_DIRS = (LOCALE_DIR, BUILD_LOCALE)


def po_messages(lang: str) -> dict[str, dict[str, str]]:
    """domain -> {key: text} read from the .po sources."""
    out = {}
    for po in sorted(po for folder in LOCALE_DIRS for po in (folder / lang / "LC_MESSAGES").glob("*.po")):
        with po.open("rb") as fh:
            out[po.stem] = {m.id: m.string for m in read_po(fh) if m.id}
    return out


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


REFERENCE = po_messages(REFERENCE_LANGUAGE)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_complete(lang):
    messages = po_messages(lang)
    assert sorted(messages) == sorted(REFERENCE), f"{lang}: domains differ"
    problems = []
    for domain, reference in REFERENCE.items():
        for key, text in reference.items():
            translated = messages[domain].get(key)
            if not translated:
                problems.append(f"{lang}/{domain}: missing {key}")
            elif placeholders(translated) != placeholders(text):
                problems.append(f"{lang}/{domain}: {key} placeholders {placeholders(translated)} != {placeholders(text)}")
        problems += [f"{lang}/{domain}: extra key {k}" for k in set(messages[domain]) - set(reference)]
    assert not problems, "\n".join(problems)


#: Each language's own double quotes in its interface strings: a “ ” or a straight " in a French or
#: Italian message is a slip of a translation, as a « » in an English one.
QUOTES = {"en": "“”", "fr": "«»", "it": "«»"}
ANY_QUOTE = set('"“”«»„‟〝〞＂')


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_quote_style_per_language(lang):
    """Every message of every catalog uses its language's quotes, opened and closed in pairs."""
    problems = []
    for domain, messages in po_messages(lang).items():
        for key, text in messages.items():
            if key == "ui.rule.caption.inner_quotes":  # the marks a quotation inside a quotation takes
                continue
            wrong = sorted({c for c in text if c in ANY_QUOTE} - set(QUOTES[lang]))
            opening, closing = QUOTES[lang]
            if wrong:
                problems.append(f"{lang}/{domain}: {key} uses {''.join(wrong)} (this language writes {opening} {closing})")
            elif text.count(opening) != text.count(closing):
                problems.append(f"{lang}/{domain}: {key} opens {text.count(opening)} and closes {text.count(closing)} quotes")
    assert not problems, "\n".join(problems)


def test_keys_unique_across_domains():
    seen: dict[str, str] = {}
    for domain, messages in REFERENCE.items():
        for key in messages:
            assert key not in seen, f"{key} is in both {seen[key]} and {domain}"
            seen[key] = domain


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_calculator_has_its_words(lang):
    t = Translator(lang)
    for spec in CALCULATORS.values():
        assert t.has(f"{spec.id}.title"), spec.id
        for field in spec.fields:
            assert t.has(f"{spec.id}.{field.name}.label"), f"{spec.id}.{field.name}.label"
            for choice in spec.field(field.label_by).choices if field.label_by else ():
                assert t.has(f"{spec.id}.{field.name}.label.{choice}"), f"{spec.id}.{field.name}.label.{choice}"
            for choice in field.choices:
                assert t.has(f"{spec.id}.{field.name}.{choice}"), f"{spec.id}.{field.name}.{choice}"


def test_compiled_catalogs_are_current():
    for po in (po for folder in LOCALE_DIRS for po in folder.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        assert mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime, f"{mo} is stale"


def test_uncompiled_catalogs_are_reported_as_such(tmp_path, monkeypatch):
    from calculators import i18n

    (tmp_path / REFERENCE_LANGUAGE / "LC_MESSAGES").mkdir(parents=True)  # .po sources only, no .mo
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    with pytest.raises(FileNotFoundError, match="make catalogs"):
        i18n.domains()


def test_french_messages_are_compiled_with_french_spacing():
    """A translator types plain spaces; the compiled French catalogs (what pages and verdicts show)
    have a non-breaking space before « : », a narrow one before « ; ? ! », one inside « »."""
    from calculators.i18n import catalog
    from sitebuild.typeset import french_spaces

    compiled = catalog("fr", (BUILD_LOCALE,))
    plain = [k for k, text in compiled.items() if re.search(r"[ \t\n][:;?!»]|«[ \t\n]", text)]
    assert not plain, plain
    sources = {k: v for messages in po_messages("fr").values() for k, v in messages.items()}
    assert compiled == {k: french_spaces(v) for k, v in sources.items()}
    assert sum("\u00a0:" in text for text in compiled.values()) > 50  # the rule was applied, not skipped


def test_french_units_do_not_wrap_apart_from_their_number():
    """« 15 s », « +3 min »: a unit never starts a line alone on the blitz display (issue 53)."""
    from calculators.i18n import catalog

    compiled = catalog("fr", (BUILD_LOCALE,))
    units = {k: text for k, text in compiled.items() if re.search(r"[\d}]\s(?:s|min|%)(?![\w'’])", text)}
    assert {"blitz.left", "blitz.overrun", "clock.add", "clock.ext.running"} <= set(units)
    assert not [k for k, text in units.items() if re.search(r"[\d}][ \t\n](?:s|min|%)(?![\w'’])", text)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_question_label_takes_no_colon_in_its_errors(lang):
    """"Who started this game?: this field is required" reads wrong: after a label that is a
    question, an error is a sentence of its own (the ``.question`` variants)."""
    seen = 0
    for calc_id, spec in CALCULATORS.items():
        for field in (f for f in spec.fields if f.kind == "choice"):
            for typed in ("", "zz"):
                for error in evaluate(calc_id, {field.name: typed}, lang)["errors"]:
                    label = field_label(Translator(lang), calc_id, field.name, {field.name: typed}) if error["field"] == field.name else ""
                    if label.endswith("?"):
                        seen += 1
                        assert error["message"].startswith(label + " ") and not re.search(r"\?\s?:", error["message"])
    assert seen >= 4


#: Placeholders whose text may hold a colon of its own: page and section titles (« JCC Pokémon : limite de
#: temps »), a rule's first words, a glossary term, typed card names.
MAY_HOLD_A_COLON = ("title", "section", "words", "term", "card")
_QUOTED = re.compile(r"“[^”]*”|«[^»]*»|\"[^\"]*\"")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_colon_per_line(lang):
    """« Section : JCC Pokémon : limite de temps », « Échange : Jutsu Z : 2 à retirer »: a title or a card
    name after a label's colon is quoted or the sentence reworded, so a line reads with one colon."""
    found = []
    for domain, messages in po_messages(lang).items():
        for key, text in messages.items():
            bare = _QUOTED.sub("", text)
            for match in re.finditer(r"\{(%s)\}" % "|".join(MAY_HOLD_A_COLON), bare):
                if ":" in re.sub(r"\{[^}]*\}", "", bare[:match.start()]):
                    found.append(f"{domain}: {key}: {text}")
    assert not found, "\n".join(found)
    assert sum(bool(re.search(r"\{(%s)\}" % "|".join(MAY_HOLD_A_COLON), text))
               for messages in po_messages(lang).values() for text in messages.values()) >= 4  # the scan saw them


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_card_name_inside_a_sentence_is_quoted(lang):
    """A typed card name is any text ("Swap of Jutsu of the Leaf: 2 taken out" reads as one phrase): past
    a message's start it stands between the language's quotes (“{card}”, « {card} », «{card}»)."""
    found = [f"{domain}: {key}: {text}" for domain, messages in po_messages(lang).items()
             for key, text in messages.items()
             for match in re.finditer(r"\{card\}", text)
             if match.start() > 0 and not re.search(r"[“«][\s\u00a0\u202f]*$", text[:match.start()])]
    assert not found, "\n".join(found)
    assert sum("{card}" in text for messages in po_messages(lang).values() for text in messages.values()) >= 4


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_wrong_choice_lists_the_answers_the_form_shows(lang):
    """A link's "sì" or "BO1": the error lists each accepted answer as the form shows it beside the value a
    link carries ("Sì = yes"), never the machine values alone inside a sentence; every choice field."""
    t = Translator(lang)
    seen = 0
    for calc_id, spec in CALCULATORS.items():
        for field in spec.fields:
            if field.kind != "choice":
                continue
            verdict = evaluate(calc_id, {**spec.example, field.name: "¿?"}, lang)
            if field.name in verdict["hidden_fields"]:  # not read with the example's other answers
                continue
            [error] = [e for e in verdict["errors"] if e["field"] == field.name]
            for choice in field.choices:
                option = t(f"{calc_id}.{field.name}.{choice}")
                shown = choice if option.startswith(choice) else f"{option} = {choice}"
                assert shown in error["message"], error["message"]
            seen += 1
    assert seen >= 5


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("value", ["1,000", "1.000", "1 000", "1.5"])
def test_a_number_with_separators_is_not_called_not_a_number(lang, value):
    """English reads "1,000" as a number: the error says it cannot be read and asks for digits without
    separators, never that "1,000" is not a whole number."""
    [error] = evaluate("naruto-rounds", {"players": value}, lang)["errors"]
    assert error["code"] == "not_integer" and NO_SEPARATORS[lang] in error["message"], error["message"]


NO_SEPARATORS = {"en": "with no separators", "fr": "sans séparateur", "it": "senza separatori"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_not_a_number_error_gives_no_number_outside_the_field_s_range(lang):
    """"Prize cards: cannot be read… for example 24" sends a judge to a value the field refuses: any
    number the message gives besides the label is one the field accepts; every integer field."""
    seen = 0
    for spec in CALCULATORS.values():
        for field in spec.fields:
            if field.kind != "integer":
                continue
            error = Translator(lang)("error.not_integer", label="", value="x")
            shown = [int(n) for n in re.findall(r"\d+", error)]
            low = field.minimum if field.minimum is not None else -10**9
            high = field.maximum if field.maximum is not None else 10**9
            assert all(low <= n <= high for n in shown), (spec.id, field.name, error)
            seen += 1
    assert seen >= 5
