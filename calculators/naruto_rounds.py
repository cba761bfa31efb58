"""``naruto-rounds``: minimum Swiss rounds and final phase, and a round planner.

With the optional ``rounds`` (at least the minimum), it estimates how many players
end at each record if every match were a 50/50 win or loss, and which records
are expected to reach the final phase. The page draws that as a chart (widget
``records-chart``) with a table as its text equivalent.
"""

from __future__ import annotations

from typing import Any

from calculators.i18n import Translator
from calculators.spec import Calculator, Field, Answer
from rules_core import naruto


def run(values: dict[str, Any], t: Translator) -> Answer:
    players = values["players"]
    minimum = naruto.min_swiss_rounds(players)
    phase = naruto.final_phase(players)
    rounds = naruto.planned_rounds(players, values.get("rounds"))
    records = naruto.expected_records(players, rounds)
    details = [
        t("naruto-rounds.detail.minimum", rounds=minimum),
        t(f"naruto-rounds.detail.{phase.value}"),
    ]
    if rounds > minimum:
        details.append(t("naruto-rounds.detail.planned", rounds=rounds, minimum=minimum))
    qualifying = [r for r in records if r.cut is not naruto.CutStatus.OUT]
    if qualifying:
        last = qualifying[-1]
        key = "naruto-rounds.detail.cut_partial" if last.cut is naruto.CutStatus.PARTIAL else "naruto-rounds.detail.cut_in"
        if last is records[0]:  # no better record exists ("6–0 or better" would promise one)
            key += "_best"
        details.append(t(key, rounds=rounds, size=phase.size, record=t("naruto-rounds.ui.score", wins=last.wins, losses=last.losses)))
    return Answer(
        result={
            "swiss_rounds": minimum,
            "final_phase": phase.value,
            "rounds": rounds,
            # the organiser's own count (else the rules' minimum): only then can a clock say "of N"
            "rounds_given": values.get("rounds") is not None,
            "records": [
                {"wins": r.wins, "losses": r.losses, "expected_players": r.expected_players, "cut": r.cut.value}
                for r in records
            ],
        },
        summary=t(f"naruto-rounds.summary.{phase.value}", players=players, rounds=minimum),
        details=details,
    )


SPEC = Calculator(
    id="naruto-rounds",
    fields=(
        # A count: below 0 is the field's error; 0 to 3 the rules' own answer (no table starts there).
        Field("players", "integer", minimum=0, maximum=1_000_000, inputmode="numeric"),
        Field("rounds", "integer", required=False, minimum=1, maximum=naruto.MAX_PLANNED_ROUNDS, inputmode="numeric",
              marked_optional=True),
    ),
    run=run,
    example={"players": "24"},
    result_keys=("swiss_rounds", "final_phase", "rounds", "rounds_given", "records"),
    widget="records-chart",
)
