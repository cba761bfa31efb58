"""``naruto-rounds``: minimum Swiss rounds and final phase for a Naruto CCG tournament."""

from __future__ import annotations

from typing import Any

from calculators.i18n import Translator
from calculators.spec import Calculator, Field, Outcome
from rules_core import naruto


def run(values: dict[str, Any], t: Translator) -> Outcome:
    players = values["players"]
    rounds = naruto.min_swiss_rounds(players)
    phase = naruto.final_phase(players)
    return Outcome(
        result={"swiss_rounds": rounds, "final_phase": phase.value},
        summary=t(f"naruto-rounds.summary.{phase.value}", players=players, rounds=rounds),
        details=[
            t("naruto-rounds.detail.minimum", rounds=rounds),
            t(f"naruto-rounds.detail.{phase.value}"),
        ],
    )


SPEC = Calculator(
    id="naruto-rounds",
    fields=(Field("players", "integer", maximum=1_000_000, inputmode="numeric"),),
    run=run,
)
