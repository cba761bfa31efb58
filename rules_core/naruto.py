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

import enum

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
