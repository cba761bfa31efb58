"""Every calculator, by id. Add a calculator by importing its module's SPEC here."""

from __future__ import annotations

from calculators import naruto_rounds
from calculators import judge_tower_hand, judge_tower_shame, pokemon_time_limit
from calculators import naruto_end_of_time, naruto_reserve, naruto_tiebreak
from calculators.spec import Calculator

CALCULATORS: dict[str, Calculator] = {
    spec.id: spec
    for spec in (
        naruto_rounds.SPEC,
        pokemon_time_limit.SPEC, judge_tower_hand.SPEC, judge_tower_shame.SPEC,
        naruto_reserve.SPEC, naruto_end_of_time.SPEC, naruto_tiebreak.SPEC,
    )
}
