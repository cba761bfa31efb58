"""Naruto CCG tournament rules (French source, authoritative).

Swiss rounds: the table gives a *minimum* number of rounds by participants.

>>> min_swiss_rounds(24)
4
>>> final_phase(24)
<FinalPhase.TOP8: 'top8'>
>>> min_swiss_rounds(3)
Traceback (most recent call last):
...
rules_core.naruto.BelowTable: players: below_table (got 3; minimum=4)
"""

from __future__ import annotations

import dataclasses
import enum
import math

from rules_core.errors import RuleError, require_int

#: The smallest tournament the source's tables cover.
MIN_PARTICIPANTS = 4

#: (last participant count of the row, minimum Swiss rounds); the last row is open-ended.
SWISS_ROUNDS_TABLE: tuple[tuple[int | None, int], ...] = (
    (16, 3),
    (32, 4),
    (64, 5),
    (None, 6),
)


class BelowTable(RuleError):
    """Fewer participants than the source's tables start at (4)."""

    def __init__(self, field: str, value: int) -> None:
        super().__init__(field, "below_table", value, minimum=MIN_PARTICIPANTS)


class FinalPhase(enum.Enum):
    """The single-elimination phase that follows the Swiss rounds."""

    NONE = "none"
    """4 to 7 participants: only the Swiss standings decide the winner."""
    TOP4 = "top4"
    """8 to 16 participants: semi-finals, then final."""
    TOP8 = "top8"
    """17 participants and more: quarter-finals, semi-finals, then final."""

    @property
    def size(self) -> int:
        """How many players the final phase takes (0 when there is none).

        >>> FinalPhase.TOP8.size
        8
        """
        return {"none": 0, "top4": 4, "top8": 8}[self.value]


def _participants(players: object, field: str) -> int:
    count = require_int(field, players)
    if count < MIN_PARTICIPANTS:
        raise BelowTable(field, count)
    return count


def min_swiss_rounds(players: int, field: str = "players") -> int:
    """Minimum number of Swiss rounds for ``players`` participants.

    >>> [min_swiss_rounds(n) for n in (4, 16, 17, 32, 33, 64, 65, 1000)]
    [3, 3, 4, 4, 5, 5, 6, 6]
    """
    count = _participants(players, field)
    for last, rounds in SWISS_ROUNDS_TABLE:
        if last is None or count <= last:
            return rounds
    raise AssertionError("unreachable: the last row is open-ended")


def final_phase(players: int, field: str = "players") -> FinalPhase:
    """The final phase for ``players`` participants.

    >>> [final_phase(n).value for n in (4, 7, 8, 16, 17)]
    ['none', 'none', 'top4', 'top4', 'top8']
    """
    count = _participants(players, field)
    if count < 8:
        return FinalPhase.NONE
    if count <= 16:
        return FinalPhase.TOP4
    return FinalPhase.TOP8


#: Most Swiss rounds the planner accepts (beyond that the estimate means nothing for a card tournament).
MAX_PLANNED_ROUNDS = 20


class BelowMinimumRounds(RuleError):
    """A planned number of Swiss rounds below the table's minimum for the tournament."""

    def __init__(self, field: str, value: int, minimum: int, players: int) -> None:
        super().__init__(field, "below_minimum", value, minimum=minimum, players=players)


class CutStatus(enum.Enum):
    """Where a record stands against the final phase, in the 50/50 estimate."""

    IN = "in"
    """Every player expected at this record fits in the final phase."""
    PARTIAL = "partial"
    """Only some of them fit: tiebreakers decide."""
    OUT = "out"
    """No player at this record is expected to reach the final phase."""


@dataclasses.dataclass(frozen=True)
class Record:
    """Expected number of players finishing the Swiss rounds with ``wins``–``losses``."""

    wins: int
    losses: int
    expected_players: float
    cut: CutStatus


def planned_rounds(players: int, rounds: int | None, field: str = "rounds") -> int:
    """The rounds an organiser plans: at least the table's minimum (more is allowed).

    >>> planned_rounds(24, None), planned_rounds(24, 6)
    (4, 6)
    >>> planned_rounds(24, 3)
    Traceback (most recent call last):
    ...
    rules_core.naruto.BelowMinimumRounds: rounds: below_minimum (got 3; minimum=4; players=24)
    """
    minimum = min_swiss_rounds(players)
    if rounds is None:
        return minimum
    require_int(field, rounds, minimum=1, maximum=MAX_PLANNED_ROUNDS)
    if rounds < minimum:
        raise BelowMinimumRounds(field, rounds, minimum, players)
    return rounds


def expected_records(players: int, rounds: int) -> tuple[Record, ...]:
    """Expected players at each record if every match were a 50/50 win or loss, no draws.

    N·C(R, k)/2^R players are expected at k wins; best records first. Records are
    marked against the final phase: ``in`` while the expected players so far fit in
    it, ``partial`` for the record where it fills up, ``out`` below.

    >>> [(r.wins, r.losses, r.expected_players, r.cut.value) for r in expected_records(16, 3)]
    [(3, 0, 2.0, 'in'), (2, 1, 6.0, 'partial'), (1, 2, 6.0, 'out'), (0, 3, 2.0, 'out')]
    """
    phase = final_phase(players)
    require_int("rounds", rounds, minimum=1, maximum=MAX_PLANNED_ROUNDS)
    records = []
    before = 0.0
    for wins in range(rounds, -1, -1):
        expected = players * math.comb(rounds, wins) / 2**rounds
        if phase.size == 0 or before >= phase.size:
            cut = CutStatus.OUT
        elif before + expected <= phase.size:
            cut = CutStatus.IN
        else:
            cut = CutStatus.PARTIAL
        records.append(Record(wins, rounds - wins, expected, cut))
        before += expected
    return tuple(records)


# --- Blitz rules (section "Blitz rules", naruto-blitz-2 and naruto-blitz-4) ---------------------------

#: "The game lasts 30 minutes." (naruto-blitz-2)
BLITZ_GAME_MINUTES = 30
#: "A player has only about fifteen seconds to carry out an action." (naruto-blitz-4). "About": the
#: judge decides; tools show the overrun and never penalize by themselves.
BLITZ_ACTION_SECONDS = 15
#: "If a player receives 2 warnings, they lose the game, and therefore the match." (naruto-blitz-4)
BLITZ_WARNINGS_TO_LOSE = 2
