"""``pokemon-time-limit``: who wins a Pokémon TCG match not finished at the time limit.

The fields a format does not use are hidden (and ignored): a single game has no
games won nor "game in progress"; a best-of-three match with no unfinished game
in progress has no Prize cards to compare. Each detail line restates the exact
condition of the chosen format for the criterion it reports.

>>> from calculators import evaluate
>>> v = evaluate("pokemon-time-limit", {"format": "bo3", "late_a": "no", "late_b": "no", "games_a": "1", "games_b": "1",
...               "in_progress": "no"}, "en")
>>> v["result"]["decided_by"], v["result"]["sudden_death"], v["hidden_fields"]
('sudden_death', True, ['prizes_a', 'prizes_b'])
"""

from __future__ import annotations

from typing import Any, Mapping

from calculators.i18n import Translator
from calculators.players import NAME_FIELDS
from calculators.players import names as player_names
from calculators.spec import Calculator, Field, Answer
from rules_core.pokemon import Criterion, Finding, MatchFormat, Player, Step, TimeLimitOutcome, time_limit_outcome

ID = "pokemon-time-limit"
YES_NO = ("no", "yes")
#: Longest player name accepted, in characters.
#: Criterion numbers as the source numbers them, per format.
NUMBERS = {
    MatchFormat.SINGLE_GAME: {Criterion.LATE: 1, Criterion.PRIZES: 2, Criterion.SUDDEN_DEATH: 3},
    MatchFormat.BEST_OF_THREE: {Criterion.LATE: 1, Criterion.GAMES: 2, Criterion.PRIZES: 3, Criterion.SUDDEN_DEATH: 4},
}


def _choice(raw: Mapping[str, str], name: str, default: str) -> str:
    return (raw.get(name) or default).strip()


def hidden(raw: Mapping[str, str]) -> set[str]:
    """Fields the chosen format does not use.

    >>> sorted(hidden({}))
    ['games_a', 'games_b', 'in_progress']
    >>> sorted(hidden({"format": "bo3", "in_progress": "no"}))
    ['prizes_a', 'prizes_b']
    >>> hidden({"format": "bo3", "in_progress": "yes"})
    set()
    """
    if _choice(raw, "format", "bo1") != MatchFormat.BEST_OF_THREE.value:
        return {"games_a", "games_b", "in_progress"}
    if _choice(raw, "in_progress", "") != "yes":
        return {"prizes_a", "prizes_b"}
    return set()


def _step_json(step: Step) -> dict[str, Any]:
    return {
        "criterion": step.criterion.value,
        "found": step.finding.value,
        "a": step.a,
        "b": step.b,
        "winner": step.winner.value if step.winner else None,
    }


def _sudden_death(outcome: TimeLimitOutcome) -> str:
    """The Sudden Death message's variant: ``bo3_no_game`` when criterion 3 was skipped, so that
    criterion 4 had no Prize cards to compare (the reading the page declares in a note)."""
    skipped = any(step.finding is Finding.NO_GAME_IN_PROGRESS for step in outcome.steps)
    return f"{outcome.match_format.value}{'_no_game' if skipped else ''}"


def _both_late_bo1(outcome: TimeLimitOutcome) -> bool:
    """A single game where both players were late or absent: its Prize-card criterion literally covers
    players neither late nor absent; the page's note gives the reading applied, which the detail cites."""
    return outcome.match_format is MatchFormat.SINGLE_GAME and any(
        step.criterion is Criterion.LATE and step.finding is Finding.BOTH for step in outcome.steps)


def _detail(t: Translator, outcome: TimeLimitOutcome, step: Step, names: dict[Player, str]) -> str:
    fmt = outcome.match_format.value
    params = dict(number=NUMBERS[outcome.match_format][step.criterion], name_a=names[Player.A], name_b=names[Player.B],
                  a=step.a, b=step.b, winner=names[step.winner] if step.winner else "")
    if step.criterion is Criterion.LATE:
        kind = {Finding.NEITHER: "neither", Finding.BOTH: "both"}.get(step.finding, "one")
        loser = names[step.winner.other] if step.winner else ""
        return t(f"{ID}.detail.late.{kind}.{fmt}", loser=loser, **params)
    if step.criterion is Criterion.SUDDEN_DEATH:
        return t(f"{ID}.detail.sudden_death.{_sudden_death(outcome)}", **params)
    kind = {Finding.EQUAL: "equal", Finding.NO_GAME_IN_PROGRESS: "skipped"}.get(step.finding, "ahead")
    if step.criterion is Criterion.PRIZES and _both_late_bo1(outcome):
        kind += ".both_late"
    return t(f"{ID}.detail.{step.criterion.value}.{kind}", **params)


def _summary(t: Translator, outcome: TimeLimitOutcome, names: dict[Player, str]) -> str:
    last = outcome.steps[-1]
    if outcome.winner is None:
        return t(f"{ID}.summary.sudden_death.{_sudden_death(outcome)}")
    winner, loser = outcome.winner, outcome.winner.other
    values = {Player.A: last.a, Player.B: last.b}
    return t(f"{ID}.summary.{last.criterion.value}", winner=names[winner], loser=names[loser],
             winner_value=values[winner], loser_value=values[loser])


def run(values: dict[str, Any], t: Translator) -> Answer:
    fmt = MatchFormat(values["format"])
    outcome = time_limit_outcome(
        fmt,
        late_a=values["late_a"] == "yes",
        late_b=values["late_b"] == "yes",
        games_a=values.get("games_a"),
        games_b=values.get("games_b"),
        in_progress=None if values.get("in_progress") is None else values["in_progress"] == "yes",
        prizes_a=values.get("prizes_a"),
        prizes_b=values.get("prizes_b"),
    )
    names = player_names(values, t)
    return Answer(
        result={
            "winner": outcome.winner.value if outcome.winner else None,
            "decided_by": outcome.decided_by.value,
            "sudden_death": outcome.sudden_death,
            "steps": [_step_json(step) for step in outcome.steps],
        },
        summary=_summary(t, outcome, names),
        details=[_detail(t, outcome, step, names) for step in outcome.steps],
    )


SPEC = Calculator(
    id=ID,
    fields=(
        Field("format", "choice", choices=tuple(f.value for f in MatchFormat), default=MatchFormat.SINGLE_GAME.value),
        *NAME_FIELDS,
        # Criterion 1 decides before any other: the judge answers it, nothing is pre-chosen (DESIGN.md).
        Field("late_a", "choice", choices=YES_NO, label_by="format"),
        Field("late_b", "choice", choices=YES_NO, label_by="format"),
        Field("games_a", "integer", required=False),
        Field("games_b", "integer", required=False),
        # Decisive once the games are equal, and usually "yes" after a time call: nothing pre-chosen;
        # rules_core asks for it (``needed``) only when it is reached.
        Field("in_progress", "choice", choices=YES_NO, required=False),
        Field("prizes_a", "integer", required=False),
        Field("prizes_b", "integer", required=False),
    ),
    run=run,
    example={"late_a": "no", "late_b": "no", "prizes_a": "4", "prizes_b": "2"},
    result_keys=("winner", "decided_by", "sudden_death", "steps"),
    hidden=hidden,
    hidden_by=("format", "in_progress"),
)
