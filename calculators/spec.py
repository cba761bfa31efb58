"""What a calculator is: its fields (type, bounds) and the rule it applies.

A calculator module defines ``SPEC = Calculator(...)``; its ``run(values, t)``
receives the parsed field values and a :class:`~calculators.i18n.Translator`,
calls ``rules_core`` and returns an :class:`Answer` (machine result plus the
localized wording). ``rules_core`` errors raised by ``run`` become localized
field errors in :func:`calculators.evaluate`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from rules_core.errors import OutOfRange, RuleError

#: Longest text accepted in a one-line field, in characters.
MAX_LINE_FIELD = 100
_INTEGER = re.compile(r"[+\-\u2212]?[0-9]+")


@dataclass(frozen=True)
class Field:
    """One input of a calculator.

    ``kind`` is ``integer`` (whole number, optional ``minimum``/``maximum``),
    ``choice`` (one of ``choices``) or ``text`` (free text, up to
    ``max_length`` characters; ``multiline`` for lists).
    """

    name: str
    kind: str
    required: bool = True
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    default: str = ""
    multiline: bool = False
    max_length: int = MAX_LINE_FIELD
    inputmode: str = ""
    #: A choice field whose value selects this field's label (``<id>.<field>.label.<choice>``),
    #: for a question whose exact wording depends on, say, the match format.
    label_by: str = ""
    #: The form's label says the field may be left empty (``field.optional`` after it); the label an
    #: error names is the bare one, never "Name (optional): too long".
    marked_optional: bool = False

    def parse(self, raw: str) -> Any:
        """Turn the typed string into a value, or raise a :class:`RuleError` naming this field.

        Empty input gives ``None`` (the caller decides if it is required).
        """
        text = raw.strip() if not self.multiline else raw
        if len(text) > self.max_length:
            raise RuleError(self.name, "too_long", None, limit=self.max_length, length=len(text))
        if not text.strip():
            return None
        if self.kind == "integer":
            if not _INTEGER.fullmatch(text):
                raise RuleError(self.name, "not_integer", text)
            number = int(text.replace("\u2212", "-"))
            if (self.minimum is not None and number < self.minimum) or (
                self.maximum is not None and number > self.maximum
            ):
                raise OutOfRange(self.name, number, self.minimum, self.maximum)
            return number
        if self.kind == "choice":
            # Exact ids only: a link's "BO3" or "evil" is an error to show, never a silent guess.
            value = text.strip()
            if value not in self.choices:
                raise RuleError(self.name, "not_a_choice", text, choices=", ".join(self.choices))
            return value
        return text


@dataclass(frozen=True)
class Answer:
    """What a calculator's ``run`` answers: the machine ``result`` and its wording.
    :func:`calculators.evaluate` wraps it, or the errors, into the verdict."""

    result: dict[str, Any]
    summary: str
    details: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Calculator:
    """A calculator: an id, its fields and the function applying the rule.

    ``widget`` names an optional script that enriches the page (a checklist, a
    tracker); it listens to the ``calc:verdict`` event the page dispatches.
    ``hidden(raw_inputs)`` optionally names fields that the current inputs make
    irrelevant: they are neither validated nor passed to ``run``, and the page
    hides them.
    """

    id: str
    fields: tuple[Field, ...]
    run: Callable[[dict[str, Any], Any], Answer]
    hidden: Callable[[Mapping[str, str]], set[str]] | None = None
    #: The choice fields ``hidden`` reads, when it reads nothing else: the build then writes what
    #: each combination of their answers hides, so that the page sends only the fields it shows
    #: (a hidden field keeps its value and is not sent) before any verdict tells it.
    hidden_by: tuple[str, ...] = ()
    #: Optional page widget: ``web/widgets/<widget>.js`` exporting ``mount(el)``.
    widget: str | None = None
    #: Rule numbers the widget needs before any verdict (``name`` -> ``data-rule-<name>``), taken
    #: from ``rules_core`` here so that no widget writes one.
    widget_rules: Mapping[str, int] = field(default_factory=dict)
    #: The keys of every verdict's ``result``: the machine-readable contract that widgets,
    #: shared links and ``--json`` users rely on; ``optional_result_keys`` appear only when an
    #: input asks for them (a swap between games, player names).
    result_keys: tuple[str, ...] = ()
    optional_result_keys: tuple[str, ...] = ()
    #: Inputs that give a verdict: the documented example, which the engine's self-test after a
    #: snapshot restore and the tests use.
    example: Mapping[str, str] = field(default_factory=dict)

    def field(self, name: str) -> Field:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)
