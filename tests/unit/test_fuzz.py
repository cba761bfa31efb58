"""Hostile input for every calculator in the registry (new calculators are covered automatically).

Whatever arrives (arbitrary strings, huge or negative numbers, missing and extra fields,
values of any JSON type, no mapping at all, a wrong language code), ``evaluate()`` returns
either a verdict with a result and no error, or no result and localized errors that each
name a field; it never raises. Size limits answer before any parsing.
"""

from __future__ import annotations

import itertools
import json
import os
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calculators import CALCULATORS, LANGUAGES, error_message, evaluate
from calculators.bridge import evaluate_json
from calculators.i18n import Translator
from calculators.spec import Calculator, Field
from rules_core.errors import RuleError

SPECS = sorted(CALCULATORS.values(), key=lambda spec: spec.id)
KEYS = {"id", "lang", "ok", "result", "summary", "details", "errors", "hidden_fields"}
#: FUZZ_EXAMPLES=5000 for a longer hunt than the one every test run does.
FUZZ = settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "150")), deadline=None, suppress_health_check=[HealthCheck.too_slow])

HOSTILE = [
    "<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "</textarea><b>x</b>", "javascript:alert(1)",
    "{label}", "{value}", "{0}", "{}", "{value.__class__}", "%s%n", "\x00", "\u202e1", "\ufeff3", "\r\n", "\t",
    "9" * 100, "-" + "9" * 99, "9" * 5000, "1e309", "NaN", "inf", "-0", "+0", "\u22125", "\u2212", "1_000", "0x10",
    "\uff13", "\u0663", "1.5", "1,5", " 12 ", "true", "None", "null", "[]", "{}", "\U0001f600", "a" * 200,
]
hostile = st.sampled_from(HOSTILE) | st.text() | st.text(alphabet="0123456789-+ \n\u2212", max_size=30)
numbers = st.integers(min_value=-(10**40), max_value=10**40).map(str)
#: Decklist-like lines: QTY NAME [TAGS], with hostile names.
lines = st.lists(st.tuples(st.integers(-5, 120), hostile).map(lambda p: f"{p[0]} {p[1]}"), max_size=40).map("\n".join)
#: What JSON.stringify of a form could become if the page were tampered with.
json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
                           max_leaves=8)
languages = st.sampled_from(LANGUAGES) | st.sampled_from(["", "EN", "fr-FR", "de", "it_IT", "\x00"]) | st.text(max_size=6)


def field_values(field: Field) -> st.SearchStrategy[str]:
    by_kind = {
        "integer": numbers | st.integers(-3, 200).map(str),
        "choice": st.sampled_from(field.choices or ("",)) | st.sampled_from([c.upper() for c in field.choices] or [""]),
        "text": lines if field.multiline else st.text(max_size=field.max_length + 5),
    }
    return by_kind.get(field.kind, st.nothing()) | hostile


#: Names a user may legitimately type: valid input, displayed as text wherever it appears.
names = st.sampled_from(["<b>Bold</b>", "<script>alert(1)</script>", "Zoë \u202eevil", "{player}", "A&amp;B", "Ren"]) | st.text(
    alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1, max_size=20)
list_line = (st.tuples(st.integers(1, 3), names, st.sampled_from(["", " [ninja]", " [platoon]", " [legendary]"]))
             .map(lambda p: f"{p[0]} {p[1].replace(chr(10), ' ')}{p[2]}")
             | st.tuples(names, st.integers(-1, 8)).map(lambda p: f"{p[0].replace(chr(10), ' ').replace(',', ' ')}: {p[1]}"))


def plausible_value(field: Field) -> st.SearchStrategy[str]:
    """A value within the field's declared bounds (so verdicts happen too)."""
    if field.kind == "integer":
        low = field.minimum if field.minimum is not None else -2
        return st.integers(low, max(low, min(field.maximum if field.maximum is not None else 8, low + 80))).map(str)
    if field.kind == "choice":
        return st.sampled_from(field.choices)
    if field.multiline:
        return st.lists(list_line, min_size=0, max_size=60).map("\n".join)
    return names.filter(lambda n: len(n.strip()) <= field.max_length)


def plausible_inputs(spec: Calculator) -> st.SearchStrategy[dict]:
    """Every field within bounds, then at most one field replaced by something hostile."""
    valid = st.fixed_dictionaries({f.name: plausible_value(f) for f in spec.fields})
    spoiled = st.one_of(st.just({}), st.sampled_from(spec.fields).flatmap(lambda f: st.fixed_dictionaries({f.name: hostile})))
    return st.tuples(valid, spoiled).map(lambda parts: {**parts[0], **parts[1]})


def form_inputs(spec: Calculator) -> st.SearchStrategy[dict]:
    """A form's values: each field present or missing, plus extra keys, sometimes of other JSON types."""
    fields = st.fixed_dictionaries({}, optional={f.name: field_values(f) for f in spec.fields})
    extra = st.dictionaries(st.text(max_size=12), hostile | json_values, max_size=3)
    retyped = st.dictionaries(st.sampled_from([f.name for f in spec.fields]), json_values, max_size=2)
    return st.tuples(extra, fields, retyped).map(lambda parts: {**parts[0], **parts[1], **parts[2]})


def check_verdict(spec: Calculator, inputs: object, lang: object, verdict: dict) -> None:
    """Properties every verdict has, whatever the input: none restates how evaluate() works."""
    assert set(verdict) == KEYS
    json.dumps(verdict, allow_nan=False)  # JSON-able, as the worker sends it
    assert verdict["id"] == spec.id
    known = {f.name for f in spec.fields}
    if lang not in LANGUAGES:
        assert verdict["ok"] is False and verdict["result"] is None
        assert [e["field"] for e in verdict["errors"]] == ["lang"]
        return
    assert verdict["lang"] == lang
    assert set(verdict["hidden_fields"]) <= known
    if verdict["ok"]:
        assert verdict["errors"] == []
        keys = set(verdict["result"])
        assert set(spec.result_keys) <= keys <= set(spec.result_keys) | set(spec.optional_result_keys), keys
        assert isinstance(verdict["summary"], str) and verdict["summary"].strip()
        assert all(isinstance(line, str) and line.strip() for line in verdict["details"])
    else:
        assert verdict["result"] is None and verdict["summary"] == "" and verdict["details"] == []
        assert verdict["errors"], "not ok, yet no error"
        for error in verdict["errors"]:
            assert set(error) == {"field", "code", "message"}
            assert isinstance(error["code"], str) and error["code"].isidentifier(), error
            assert error["field"] in known, error
            assert isinstance(error["message"], str) and error["message"].strip(), error
            assert "{" not in error["message"] or "{" in repr(inputs), error  # no unfilled placeholder


def check_every_language(spec: Calculator, inputs: object) -> None:
    """The same input gets the same decision in every language, worded in each: the same result
    or the same fields in error, each with a message of its own language's catalog."""
    verdicts = {lang: evaluate(spec.id, inputs, lang) for lang in LANGUAGES}
    for lang, verdict in verdicts.items():
        check_verdict(spec, inputs, lang, verdict)
    decisions = {(v["ok"], json.dumps(v["result"], sort_keys=True), tuple(e["field"] for e in v["errors"]))
                 for v in verdicts.values()}
    assert len(decisions) == 1, decisions


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.id)
def test_hostile_forms_never_raise(spec):
    @FUZZ
    @given(inputs=form_inputs(spec) | plausible_inputs(spec))
    def run(inputs):
        check_every_language(spec, inputs)

    run()


def test_every_calculator_documents_its_result_and_an_example():
    """The result-key property above needs each calculator's contract; the engine's self-test
    (and the offline tests) need an example that gives a verdict in every language."""
    assert all(spec.result_keys for spec in SPECS), [spec.id for spec in SPECS if not spec.result_keys]
    for spec in SPECS:
        for lang in LANGUAGES:
            verdict = evaluate(spec.id, spec.example, lang)
            assert verdict["ok"], (spec.id, lang, verdict["errors"])
            check_verdict(spec, spec.example, lang, verdict)


def bounded_numbers(spec: Calculator) -> list[Field]:
    return [f for f in spec.fields if f.kind == "integer" and (f.minimum is not None or f.maximum is not None)]


@pytest.mark.parametrize("spec", [spec for spec in SPECS if bounded_numbers(spec)], ids=lambda s: s.id)
def test_out_of_bounds_numbers_are_named_errors(spec):
    """A number just outside a field's declared bounds is an error naming that field, whatever
    the other fields say (an oracle built from the declared bounds alone)."""
    bounded = bounded_numbers(spec)

    @FUZZ
    @given(valid=plausible_inputs(spec), field=st.sampled_from(bounded), side=st.sampled_from(["below", "above"]))
    def run(valid, field, side):
        bound = field.minimum if side == "below" else field.maximum
        if bound is None:
            return
        inputs = {**valid, field.name: str(bound - 1 if side == "below" else bound + 1)}
        if spec.hidden and field.name in spec.hidden(inputs):
            return
        verdict = evaluate(spec.id, inputs, "en")
        assert not verdict["ok"] and field.name in [e["field"] for e in verdict["errors"]], (inputs, verdict)

    run()


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.id)
def test_anything_at_all(spec):
    """Not a mapping, wrong language codes, JSON of any shape through the worker's bridge."""

    @FUZZ
    @given(inputs=json_values | form_inputs(spec) | st.tuples(st.text()) | st.just(object()), lang=languages)
    def run(inputs, lang):
        check_verdict(spec, inputs, lang, evaluate(spec.id, inputs, lang))
        try:
            text = json.dumps(inputs)
        except TypeError:
            return
        check_verdict(spec, inputs, lang, json.loads(evaluate_json(spec.id, text, lang)))

    run()


@given(calc_id=st.text(max_size=20) | st.none() | st.integers(), lang=languages)
@FUZZ
def test_unknown_calculator_is_an_error_not_an_exception(calc_id, lang):
    verdict = evaluate(calc_id, {}, lang)
    if calc_id in CALCULATORS:
        return
    assert verdict["ok"] is False and verdict["result"] is None
    assert verdict["errors"] and all(e["message"].strip() for e in verdict["errors"])


def huge_inputs() -> list[tuple[str, str, str]]:
    """(calculator id, field, value) for every visible field: a 1 MB paste, and 10,000 lines in lists."""
    cases = []
    for spec in SPECS:
        for field in spec.fields:
            cases.append((spec.id, field.name, "1 Naruto Uzumaki <b>x</b> " * 40_000))  # ~1 MB, one line
            if field.multiline:
                cases.append((spec.id, field.name, "\n".join(f"1 Card {n}" for n in range(10_000))))
                cases.append((spec.id, field.name, "3 Kakashi\n" * 100_000))  # 1 MB of lines
    return cases


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("calc_id", "field", "value"), huge_inputs(),
                         ids=lambda v: v if len(str(v)) < 40 else f"{len(v)}chars")
def test_size_limits_answer_too_long_quickly(calc_id, field, value, lang):
    spec = CALCULATORS[calc_id]
    inputs = {field: value}
    if spec.hidden and field in spec.hidden(inputs):
        # Fields hidden by default: reveal them by choosing each choice of the other fields.
        revealing = [{**dict.fromkeys([f.name], c), **inputs} for f in spec.fields if f.kind == "choice" for c in f.choices]
        inputs = next((i for i in revealing if field not in spec.hidden(i)), inputs)
    start = time.perf_counter()
    verdict = evaluate(calc_id, inputs, lang)
    elapsed = time.perf_counter() - start
    check_verdict(spec, inputs, lang, verdict)
    if spec.hidden and field in spec.hidden(inputs):
        assert field not in [e["field"] for e in verdict["errors"]]
        return
    mine = [e["message"] for e in verdict["errors"] if e["field"] == field]
    assert mine, verdict["errors"]
    limit = spec.field(field).max_length
    length = len(value if spec.field(field).multiline else value.strip())
    if length > limit:  # refused by its length alone, before any parsing
        too_long = RuleError(field, "too_long", None, limit=limit, length=length)
        assert mine == [error_message(Translator(lang), calc_id, too_long, inputs)]
    assert elapsed < 2.0, f"{elapsed:.2f} s for {len(value)} characters"


def _showing(spec: Calculator, name: str) -> dict[str, str]:
    """The calculator's example, or every number equal (a tiebreak shows a criterion once the ones before
    are tied), with the choices (``hidden_by``) that show field ``name``."""
    ties = {f.name: "1" for f in spec.fields if f.kind == "integer"}
    for start in (spec.example, {**spec.example, **ties}):
        for combo in itertools.product(*(spec.field(by).choices for by in spec.hidden_by)):
            inputs = {**start, **dict(zip(spec.hidden_by, combo))}
            if not spec.hidden or name not in spec.hidden(inputs):
                return inputs
    raise AssertionError(f"{spec.id}.{name} is never shown")


COUNTS = [(spec, field) for spec in SPECS for field in spec.fields if field.kind == "integer"]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("spec, field", COUNTS, ids=[f"{s.id}.{f.name}" for s, f in COUNTS])
def test_a_negative_count_is_refused_as_out_of_range(spec, field, lang):
    """Every number a calculator asks for counts something (players, rounds, cards, games): −1 is refused
    as outside the field's range, naming the field, never answered by a rule ("with −1 players the
    rules give no number of rounds")."""
    verdict = evaluate(spec.id, {**_showing(spec, field.name), field.name: "-1"}, lang)
    assert [(e["field"], e["code"]) for e in verdict["errors"]] == [(field.name, "out_of_range")], verdict["errors"]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("spec", CALCULATORS.values(), ids=lambda spec: spec.id)
def test_two_bad_numbers_give_two_errors(spec, lang):
    """Best of three with −1 and 1000000 games reported only Player A's: a judge fixed it and met B's next.
    Every pair of whole-number fields a form shows (under any answer to its choices), both out of any range,
    gives an error under each of the two."""
    variants = [spec.example, *({**spec.example, f.name: c} for f in spec.fields if f.kind == "choice" for c in f.choices)]
    for inputs in variants:
        hidden = set(evaluate(spec.id, inputs, lang)["hidden_fields"] or ())
        numbers = [f.name for f in spec.fields if f.kind == "integer" and f.name not in hidden]
        for pair in itertools.combinations(numbers, 2):
            verdict = evaluate(spec.id, {**inputs, **dict.fromkeys(pair, "-1000000")}, lang)
            assert set(pair) <= {error["field"] for error in verdict["errors"]}, (inputs, pair, verdict["errors"])
