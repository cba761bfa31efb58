"""``naruto-end-of-time``: the turns left to play when time is called (standard and blitz).

Also the pieces both end-of-time calculators share (mode, the section cited);
``naruto-tiebreak`` imports them.
"""

from __future__ import annotations

from typing import Any

from calculators.i18n import Translator
from calculators.players import NAME_FIELDS, names
from calculators.spec import Calculator, Field, Answer
from rules_core import naruto_end_of_time as rules

MODE = Field("mode", "choice", choices=("standard", "blitz"), default="standard")



def source(t: Translator, calc_id: str, mode: str) -> str:
    """The detail line citing the section applied (standard rules or blitz rules)."""
    return t(f"{calc_id}.source.{mode}")


def run(values: dict[str, Any], t: Translator) -> Answer:
    who = names(values, t)
    turns = rules.turns_left(values["starter"], values["active"])
    extra_seen = {p: 0 for p in rules.Player}
    lines = []
    for number, turn in enumerate(turns, start=1):
        if turn.kind is rules.TurnKind.EXTRA:
            extra_seen[turn.player] += 1
        # The blitz rules name their turns "extra", the standard rules "additional": each mode its own term.
        blitz = ".blitz" if turn.kind is rules.TurnKind.EXTRA and values["mode"] == "blitz" else ""
        lines.append(t(f"naruto-end-of-time.turn.{turn.kind.value}{blitz}", number=number, name=who[turn.player],
                       extra=extra_seen[turn.player], extras=rules.EXTRA_TURNS_EACH))
    return Answer(
        result={"turns": [{"player": turn.player.value, "kind": turn.kind.value} for turn in turns]},
        summary=t("naruto-end-of-time.summary", count=len(turns)),
        details=[*lines, source(t, "naruto-end-of-time", values["mode"])],
    )


SPEC = Calculator(
    id="naruto-end-of-time",
    fields=(
        MODE,  # first, as in the tiebreak: the verdict right under the last question
        *NAME_FIELDS,
        Field("starter", "choice", choices=("a", "b")),
        Field("active", "choice", choices=("a", "b")),
    ),
    run=run,
    example={"name_a": "Alice", "name_b": "Bob", "starter": "a", "active": "b"},
    result_keys=("turns",),
    widget="checklist",
)
