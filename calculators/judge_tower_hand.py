"""``judge-tower-hand``: a Judge Tower player's starting hand size (general rule 1).

>>> from calculators import evaluate
>>> evaluate("judge-tower-hand", {"level": "3"}, "en")["result"]
{'hand_size': 3}
"""

from __future__ import annotations

from typing import Any

from calculators.i18n import Translator
from calculators.spec import Calculator, Field, Answer
from rules_core import judge_tower

ID = "judge-tower-hand"
LEVELS = tuple(str(n) for n in range(judge_tower.MIN_LEVEL, judge_tower.MAX_LEVEL + 1))


def run(values: dict[str, Any], t: Translator) -> Answer:
    size = judge_tower.starting_hand_size(int(values["level"]))
    plural = {0: "zero", 1: "one"}.get(size, "many")
    return Answer(
        result={"hand_size": size},
        summary=t(f"{ID}.summary.{plural}", size=size),
        details=[t(f"{ID}.detail.rule")],
    )


SPEC = Calculator(id=ID, fields=(Field("level", "choice", choices=LEVELS),), run=run, result_keys=("hand_size",),
                  example={"level": "3"})
