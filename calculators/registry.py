"""Every calculator, by id. Add a calculator by importing its module's SPEC here."""

from __future__ import annotations

from calculators import naruto_rounds
from calculators.spec import Calculator

CALCULATORS: dict[str, Calculator] = {
    spec.id: spec
    for spec in (
        naruto_rounds.SPEC,
    )
}
