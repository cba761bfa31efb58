"""``naruto-tiebreak``: the criteria that decide a match still tied after the additional turns.

A criterion's fields are shown, validated and required only when every earlier criterion is tied
(``hidden``); a shown but empty one is a ``needed`` error on its field.
"""

from __future__ import annotations

from typing import Any, Mapping

from calculators.i18n import Translator
from calculators.naruto_end_of_time import MODE, source
from calculators.players import NAME_FIELDS, names
from calculators.spec import Calculator, Field, Answer
from rules_core import naruto_end_of_time as rules
from rules_core.errors import RuleError
from rules_core.naruto_reserve import DECK_SIZE
from rules_core.players import Player

#: Largest count accepted in any criterion field.
MAX_COUNT = 9_999
#: Cards left in a deck: never more than a legal deck holds (exactly DECK_SIZE cards, even after a
#: Réserve swap), so a typo like 60 is refused, not ranked.
MAXIMA = {rules.Criterion.DECK: DECK_SIZE, rules.Criterion.CHARACTERS: DECK_SIZE}
COUNT_FIELDS = tuple(
    Field(f"{c.value}_{p}", "integer", required=(c is rules.Criterion.REWARDS), minimum=0,
          maximum=MAXIMA.get(c, MAX_COUNT))
    for c in rules.Criterion for p in ("a", "b")
)


def _lenient(raw: Mapping[str, str], name: str) -> int | None:
    """The typed count, or ``None`` when it is empty or invalid (validation reports it elsewhere)."""
    try:
        return SPEC.field(name).parse(raw.get(name, ""))
    except RuleError:
        return None


def hidden(raw: Mapping[str, str]) -> set[str]:
    """Fields of the criteria not needed yet: those after the first criterion that is unknown or decides."""
    counts = {c.value: (_lenient(raw, f"{c.value}_a"), _lenient(raw, f"{c.value}_b")) for c in rules.Criterion}
    needed = rules.needed(counts)
    return {f"{c.value}_{p}" for c in rules.Criterion if c not in needed for p in ("a", "b")}


def run(values: dict[str, Any], t: Translator) -> Answer:
    who = names(values, t)
    counts = {c.value: (values.get(f"{c.value}_a"), values.get(f"{c.value}_b")) for c in rules.Criterion}
    outcome = rules.tiebreak(counts)
    lines = []
    for number, step in enumerate(outcome.steps, start=1):
        state = "tied" if step.winner is None else "ahead"
        lines.append(t(f"naruto-tiebreak.step.{state}", number=number,
                       criterion=t(f"naruto-tiebreak.criterion.{step.criterion.value}"),
                       name_a=who[Player.A], name_b=who[Player.B], a=step.a, b=step.b,
                       winner=who[step.winner] if step.winner else ""))
    if outcome.winner is None:
        summary = t("naruto-tiebreak.summary.coin_toss")
    else:
        summary = t("naruto-tiebreak.summary.winner", winner=who[outcome.winner], number=len(outcome.steps),
                    criterion=t(f"naruto-tiebreak.criterion.{outcome.decided_by.value}"))
    return Answer(
        result={
            "winner": outcome.winner.value if outcome.winner else None,
            "decided_by": outcome.decided_by.value,
            "steps": [{"criterion": s.criterion.value, "a": s.a, "b": s.b,
                       "winner": s.winner.value if s.winner else None} for s in outcome.steps],
        },
        summary=summary,
        details=[*lines, source(t, "naruto-tiebreak", values["mode"])],
    )


SPEC = Calculator(
    id="naruto-tiebreak",
    # The mode first: at the end it came between the last count and the verdict (issue 62).
    fields=(MODE, *NAME_FIELDS, *COUNT_FIELDS),
    run=run,
    example={"name_a": "Alice", "name_b": "Bob", "rewards_a": "3", "rewards_b": "1"},
    result_keys=("winner", "decided_by", "steps"),
    hidden=hidden,
)
