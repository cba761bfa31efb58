"""Pokémon TCG: outcome of a match not finished at the time limit (Italian source, authoritative).

Single game: (1) a player late or absent (judge informed) loses, unless both
were; (2) fewer Prize cards left wins; (3) otherwise Sudden Death.
Best of three: (1) a player late or absent without permission (judge informed
before the end of the match) loses, unless both were; (2) more completed games
won wins; (3) equal games and an unfinished game in progress: fewer Prize cards
left wins (no game in progress: skipped); (4) otherwise Sudden Death.

>>> o = time_limit_outcome(MatchFormat.SINGLE_GAME, prizes_a=2, prizes_b=4)
>>> o.winner, o.decided_by, o.sudden_death
(<Player.A: 'a'>, <Criterion.PRIZES: 'prizes'>, False)
>>> o = time_limit_outcome(MatchFormat.BEST_OF_THREE, games_a=1, games_b=1, in_progress=False)
>>> o.winner, o.decided_by.value, [s.finding.value for s in o.steps]
(None, 'sudden_death', ['neither', 'equal', 'no_game_in_progress', 'tied'])
>>> time_limit_outcome(MatchFormat.BEST_OF_THREE, games_a=2)
Traceback (most recent call last):
...
rules_core.pokemon.MatchAlreadyDecided: games_a: already_decided (got 2; games=2)
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

from rules_core.errors import OutOfRange, RuleError, require_int
from rules_core.players import Player

#: Prize cards a player can have left in an unfinished game (0 means that game is won).
MIN_PRIZES, MAX_PRIZES = 1, 6
#: Games a player must win to win a best-of-three match.
GAMES_TO_WIN = 2


class MatchFormat(enum.Enum):
    """How many games a match is played over."""

    SINGLE_GAME = "bo1"
    """One game (late, Prize cards, Sudden Death)."""
    BEST_OF_THREE = "bo3"
    """Best of three games (late, games won, Prize cards, Sudden Death)."""


class Criterion(enum.Enum):
    """A criterion of the time-limit procedure, in the order they are applied."""

    LATE = "late"
    """A player arrived late or left the match (conditions depend on the format)."""
    GAMES = "games"
    """Best of three only: more completed games won."""
    PRIZES = "prizes"
    """Fewer Prize cards left (best of three: only with an unfinished game in progress)."""
    SUDDEN_DEATH = "sudden_death"
    """Nothing decided: the match goes to Sudden Death."""


class Finding(enum.Enum):
    """What one criterion found."""

    NEITHER = "neither"
    """Late: neither player arrived late or left; the criterion does not apply."""
    BOTH = "both"
    """Late: both players did; the criterion is ignored."""
    A_LATE = "a_late"
    """Late: only player A did; A loses."""
    B_LATE = "b_late"
    """Late: only player B did; B loses."""
    A_AHEAD = "a_ahead"
    """Games: A won more completed games. Prizes: A has fewer Prize cards left."""
    B_AHEAD = "b_ahead"
    """Games: B won more completed games. Prizes: B has fewer Prize cards left."""
    EQUAL = "equal"
    """Games or Prize cards are equal; the next criterion applies."""
    NO_GAME_IN_PROGRESS = "no_game_in_progress"
    """Prizes, best of three: no unfinished game is in progress; the criterion is skipped."""
    TIED = "tied"
    """Sudden Death: every earlier criterion left the players tied."""


@dataclass(frozen=True)
class Step:
    """One criterion applied: what it found, the values it compared, who it made win."""

    criterion: Criterion
    finding: Finding
    a: int | bool | None = None
    b: int | bool | None = None
    winner: Player | None = None


@dataclass(frozen=True)
class TimeLimitOutcome:
    """The result of the time-limit procedure; the last step is the one that decided."""

    match_format: MatchFormat
    winner: Player | None
    steps: tuple[Step, ...]

    @property
    def decided_by(self) -> Criterion:
        return self.steps[-1].criterion

    @property
    def sudden_death(self) -> bool:
        return self.decided_by is Criterion.SUDDEN_DEATH


class MatchAlreadyDecided(RuleError):
    """A player has already won two games of a best-of-three match."""

    def __init__(self, field: str, value: int) -> None:
        super().__init__(field, "already_decided", value, games=GAMES_TO_WIN)


class GameAlreadyWon(RuleError):
    """0 Prize cards left: that player has already won the game."""

    def __init__(self, field: str, value: int) -> None:
        super().__init__(field, "game_already_won", value)


def _games(field: str, value: object) -> int | None:
    if value is None:
        return None
    games = require_int(field, value)
    if games == GAMES_TO_WIN:
        raise MatchAlreadyDecided(field, games)
    if not 0 <= games < GAMES_TO_WIN:
        raise OutOfRange(field, games, 0, GAMES_TO_WIN - 1)
    return games


def _prizes(field: str, value: object) -> int | None:
    """Check a Prize card count if given (``None``: not entered)."""
    if value is None:
        return None
    prizes = require_int(field, value)
    if prizes == 0:
        raise GameAlreadyWon(field, prizes)
    return require_int(field, prizes, MIN_PRIZES, MAX_PRIZES)


def _each_checked(checks: list[tuple[Callable[[str, object], int | None], str, object]]) -> list[int | None]:
    """Every count checked: each bad one is its own field's error, all at once in an ``ExceptionGroup``
    (the form shows an error under each field; fixing one must not reveal the next)."""
    values: list[int | None] = []
    errors: list[RuleError] = []
    for check, field, value in checks:
        try:
            values.append(check(field, value))
        except RuleError as err:
            errors.append(err)
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise ExceptionGroup("several counts are out of range", errors)
    return values


def _compare(criterion: Criterion, a: int, b: int, fewer_wins: bool) -> Step:
    if a == b:
        return Step(criterion, Finding.EQUAL, a, b)
    a_ahead = (a < b) == fewer_wins
    return Step(criterion, Finding.A_AHEAD if a_ahead else Finding.B_AHEAD, a, b, Player.A if a_ahead else Player.B)


def _needed(name: str, a: int | None, b: int | None) -> tuple[int, int]:
    """Both players' counts for the criterion reached: ``None`` (not entered) is never read as 0.

    Each missing one is a ``needed`` error on its field (``prizes_a``...), both at once in an ``ExceptionGroup``.
    """
    missing = [RuleError(f"{name}_{p}", "needed", None) for p, v in (("a", a), ("b", b)) if v is None]
    if len(missing) == 1:
        raise missing[0]
    if missing:
        raise ExceptionGroup("both players' counts are needed", missing)
    return a, b


def time_limit_outcome(
    match_format: MatchFormat,
    *,
    late_a: bool = False,
    late_b: bool = False,
    games_a: int | None = None,
    games_b: int | None = None,
    in_progress: bool | None = None,
    prizes_a: int | None = None,
    prizes_b: int | None = None,
) -> TimeLimitOutcome:
    """Apply the time-limit criteria of ``match_format`` in order until one decides.

    ``late_x``: the player arrived late or left, under the format's conditions.
    ``games_x``, ``in_progress``: best of three only (ignored for a single game). ``in_progress``
    ``None`` (not answered) is ``needed`` once the games are equal: after a time call a game is
    usually in progress, so "no" is never assumed.
    ``prizes_x``: Prize cards left in the unfinished game. Counts are checked whenever given and
    needed only when their criterion is reached: an answer not given is never taken as 0.

    >>> time_limit_outcome(MatchFormat.SINGLE_GAME, late_a=True).winner
    <Player.B: 'b'>
    >>> o = time_limit_outcome(MatchFormat.BEST_OF_THREE, games_a=1, games_b=0, in_progress=True, prizes_a=6, prizes_b=1)
    >>> o.winner, o.decided_by
    (<Player.A: 'a'>, <Criterion.GAMES: 'games'>)
    >>> time_limit_outcome(MatchFormat.SINGLE_GAME, prizes_a=0, prizes_b=3)
    Traceback (most recent call last):
    ...
    rules_core.pokemon.GameAlreadyWon: prizes_a: game_already_won (got 0)
    >>> time_limit_outcome(MatchFormat.BEST_OF_THREE, games_a=1)
    Traceback (most recent call last):
    ...
    rules_core.errors.RuleError: games_b: needed (got None)
    >>> time_limit_outcome(MatchFormat.BEST_OF_THREE, games_a=1, games_b=1)
    Traceback (most recent call last):
    ...
    rules_core.errors.RuleError: in_progress: needed (got None)
    """
    best_of_three = MatchFormat(match_format) is MatchFormat.BEST_OF_THREE
    checks = [(_prizes, "prizes_a", prizes_a), (_prizes, "prizes_b", prizes_b)]
    if best_of_three:
        checks[:0] = [(_games, "games_a", games_a), (_games, "games_b", games_b)]
    checked = _each_checked(checks)
    if best_of_three:
        games_a, games_b = checked.pop(0), checked.pop(0)
    prizes_a, prizes_b = checked
    late_a, late_b = bool(late_a), bool(late_b)
    steps: list[Step] = []

    def done(step: Step) -> TimeLimitOutcome:
        steps.append(step)
        return TimeLimitOutcome(MatchFormat(match_format), step.winner, tuple(steps))

    if late_a != late_b:
        late = Player.A if late_a else Player.B
        return done(Step(Criterion.LATE, Finding.A_LATE if late_a else Finding.B_LATE, late_a, late_b, late.other))
    steps.append(Step(Criterion.LATE, Finding.BOTH if late_a else Finding.NEITHER, late_a, late_b))
    if best_of_three:
        games = _compare(Criterion.GAMES, *_needed("games", games_a, games_b), fewer_wins=False)
        if games.winner:
            return done(games)
        steps.append(games)
    if best_of_three and in_progress is None:
        raise RuleError("in_progress", "needed", None)
    if best_of_three and not in_progress:
        steps.append(Step(Criterion.PRIZES, Finding.NO_GAME_IN_PROGRESS))
    else:
        prizes = _compare(Criterion.PRIZES, *_needed("prizes", prizes_a, prizes_b), fewer_wins=True)
        if prizes.winner:
            return done(prizes)
        steps.append(prizes)
    return done(Step(Criterion.SUDDEN_DEATH, Finding.TIED))
