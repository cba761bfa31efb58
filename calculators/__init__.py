"""Calculators: rules from ``rules_core`` turned into localized verdicts.

:func:`evaluate` is the single entry point used by the CLI, the tests, the
build-time renderer and the browser bridge.
"""

from __future__ import annotations

from typing import Any, Mapping

from calculators.i18n import LANGUAGES, REFERENCE_LANGUAGE, Translator
from calculators.registry import CALCULATORS
from calculators.spec import Calculator, Field, Answer
from rules_core.errors import RuleError

__all__ = ["CALCULATORS", "LANGUAGES", "Calculator", "Field", "Answer", "evaluate"]

#: How much of a bad value an error message quotes.
QUOTE_LIMIT = 40


def quote(value: object) -> str:
    """The bad value as shown inside an error message (as typed), shortened."""
    text = str(value)
    return text if len(text) <= QUOTE_LIMIT else text[: QUOTE_LIMIT - 1] + "\u2026"


def field_label(t: Translator, calc_id: str, field: str, inputs: Mapping[str, str] | None = None) -> str:
    """The field's label; with ``label_by``, the variant the form shows for those inputs (Pokémon's
    late questions carry the chosen format's conditions: the short label drops some)."""
    spec = CALCULATORS.get(calc_id)
    label_by = next((f.label_by for f in spec.fields if f.name == field), "") if spec else ""
    if inputs is not None and label_by:
        variant = f"{calc_id}.{field}.label.{inputs.get(label_by) or spec.field(label_by).default}"
        if t.has(variant):
            return t(variant)
    key = f"{calc_id}.{field}.label"
    return t(key) if t.has(key) else field


def choice_list(t: Translator, calc_id: str, field: Field) -> str:
    """A choice field's accepted values as a link carries them, each beside the answer the form shows
    ("No = no, Yes = yes"): a value alone ("no, yes") is a machine word inside a French sentence."""
    pairs = []
    for choice in field.choices:
        option = t(f"{calc_id}.{field.name}.{choice}")
        pairs.append(choice if option.startswith(choice) else t("error.not_a_choice.pair", option=option, code=choice))
    return ", ".join(pairs)


def error_message(t: Translator, calc_id: str, err: RuleError, inputs: Mapping[str, str] | None = None) -> str:
    """The localized sentence for a rule error, naming the field's label as the form shows it."""
    code = err.code
    if code == "out_of_range":
        low, high = err.params.get("minimum"), err.params.get("maximum")
        code = "out_of_range" if low is not None and high is not None else ("too_small" if low is not None else "too_large")
    key = f"{calc_id}.error.{code}" if t.has(f"{calc_id}.error.{code}") else f"error.{code}"
    label = field_label(t, calc_id, err.field, inputs)
    if label.endswith("?") and t.has(f"{key}.question"):  # "Who started this game?: …" reads wrong
        key = f"{key}.question"
    # Numbers, the value read included, are written by the Translator with the site's minus sign (a
    # counter's −2 beside the rule's −1); text the user typed is quoted as typed.
    params = {k: quote(v) if isinstance(v, str) else v for k, v in err.params.items()}
    if err.code == "not_a_choice" and (spec := CALCULATORS.get(calc_id)):
        params["choices"] = choice_list(t, calc_id, spec.field(err.field))
    value = err.value if isinstance(err.value, (int, float)) and not isinstance(err.value, bool) else quote(err.value)
    return t(key, label=label, value=value, **params)


def _verdict(calc_id: object, lang: str, errors: list[dict[str, str]], answer: Answer | None = None,
             hidden: set[str] | frozenset[str] = frozenset()) -> dict[str, Any]:
    return {
        "id": calc_id if isinstance(calc_id, str) else str(calc_id),
        "lang": lang,
        "ok": answer is not None and not errors,
        "result": answer.result if answer is not None and not errors else None,
        "summary": answer.summary if answer is not None and not errors else "",
        "details": list(answer.details) if answer is not None and not errors else [],
        "errors": errors,
        "hidden_fields": sorted(hidden),
    }


def evaluate(calc_id: str, inputs: Mapping[str, str], lang: str = REFERENCE_LANGUAGE) -> dict[str, Any]:
    """Apply calculator ``calc_id`` to the typed ``inputs``, worded in ``lang``.

    Returns ``{"id", "lang", "ok", "result", "summary", "details", "errors",
    "hidden_fields"}``. Invalid input never raises: it gives ``ok: False``,
    no result, and one localized error per offending field: ``{"field", "code",
    "message"}``, where ``code`` ``required`` or ``needed`` means an answer not given yet
    (the page shows it as a neutral note until the user has touched that field).

    >>> v = evaluate("naruto-rounds", {"players": "24"}, "en")
    >>> v["ok"], v["result"]["swiss_rounds"], v["result"]["final_phase"]
    (True, 4, 'top8')
    >>> evaluate("naruto-rounds", {"players": "3"}, "fr")["errors"][0]["field"]
    'players'
    """
    if lang not in LANGUAGES:
        t = Translator(REFERENCE_LANGUAGE)
        message = t("error.unknown_language", value=quote(lang), languages=", ".join(LANGUAGES))
        return _verdict(calc_id, REFERENCE_LANGUAGE, [{"field": "lang", "code": "unknown_language", "message": message}])
    t = Translator(lang)
    spec = CALCULATORS.get(calc_id) if isinstance(calc_id, str) else None
    if spec is None:
        message = t("error.unknown_calculator", value=quote(calc_id), known=", ".join(sorted(CALCULATORS)))
        return _verdict(calc_id, lang, [{"field": "id", "code": "unknown_calculator", "message": message}])
    raw = {str(k): ("" if v is None else str(v)) for k, v in inputs.items()} if isinstance(inputs, Mapping) else {}
    hidden = spec.hidden(raw) if spec.hidden else set()
    errors: list[dict[str, str]] = []
    values: dict[str, Any] = {}
    for field in spec.fields:
        if field.name in hidden:
            continue
        try:
            value = field.parse(raw.get(field.name, "") or field.default)
        except RuleError as err:
            errors.append(_error(t, spec.id, err, raw))
            continue
        if value is None and field.required:
            errors.append(_error(t, spec.id, RuleError(field.name, "required"), raw))
        values[field.name] = value
    if errors:
        return _verdict(spec.id, lang, errors, hidden=hidden)
    try:
        answer = spec.run(values, t)
    except RuleError as err:
        failures = [err]
    except ExceptionGroup as group:  # a rule reporting several fields at once
        matched, rest = group.split(RuleError)
        if rest is not None:
            raise
        failures = [err for err in _leaves(matched)]
    else:
        return _verdict(spec.id, lang, [], answer, hidden)
    errors = [_error(t, spec.id, err, raw) for err in failures]
    return _verdict(spec.id, lang, errors, hidden=hidden)


def _error(t: Translator, calc_id: str, err: RuleError, inputs: Mapping[str, str]) -> dict[str, str]:
    return {"field": err.field, "code": err.code, "message": error_message(t, calc_id, err, inputs)}


def _leaves(group: BaseExceptionGroup) -> list[RuleError]:
    return [leaf for exc in group.exceptions
            for leaf in (_leaves(exc) if isinstance(exc, BaseExceptionGroup) else [exc])]
