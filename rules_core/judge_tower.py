"""Judge Tower (French community rules): starting hand size and shame counters.

General rule 1: a starting hand has as many cards as the player's judge level.
Shame counters start at 0 (-1 for a first game of Judge Tower). End of game 1:
a counter greater than twice the number of players who started the game loses
(state-based action). End of game 2: when the library runs out for good, the
player or players with the fewest shame counters win.

>>> starting_hand_size(3)
3
>>> s = shame_standing([3, 5, -1])
>>> s.players, s.limit, s.eliminated, s.winners_if_library_runs_out
(3, 6, (), (3,))
>>> shame_standing([0])
Traceback (most recent call last):
...
rules_core.judge_tower.TooFewPlayers: shame: too_few_players (got 1; minimum=2)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from rules_core.errors import RuleError, require_int

#: Judge levels: 0 (not certified, Rules Advisors included) to 5 (levels 4 and 5: former program).
MIN_LEVEL, MAX_LEVEL = 0, 5
#: A player's first game of Judge Tower starts at -1; everyone else at 0.
FIRST_GAME_START = -1
#: Largest counter accepted (far above any limit: the largest table loses at 2 * MAX_PLAYERS + 1).
MAX_COUNTER = 999
MIN_PLAYERS, MAX_PLAYERS = 2, 100


class TooFewPlayers(RuleError):
    """A game needs at least two players."""

    def __init__(self, field: str, value: int) -> None:
        super().__init__(field, "too_few_players", value, minimum=MIN_PLAYERS)


class TooManyPlayers(RuleError):
    """More players than the calculator accepts."""

    def __init__(self, field: str, value: int) -> None:
        super().__init__(field, "too_many_players", value, maximum=MAX_PLAYERS)


@dataclass(frozen=True)
class ShameStanding:
    """Where a game stands by its shame counters (positions are 1-based, in entry order)."""

    players: int
    limit: int
    eliminated: tuple[int, ...]
    winners_if_library_runs_out: tuple[int, ...]

    @property
    def last_one_in(self) -> int | None:
        """The one player still in when every other is out: that player has won (Magic's
        rule 104.2a, which Judge Tower keeps), whatever the library holds."""
        left = [i for i in range(1, self.players + 1) if i not in self.eliminated]
        return left[0] if len(left) == 1 else None

    @property
    def draw(self) -> bool:
        """Every player is out: a draw if the last players in went over the limit at the same moment
        (shame rule 3 raises two counters at once; players who all lose simultaneously draw, Magic's
        rule 104.4a, which Judge Tower keeps). Counters alone cannot show it (a tracker adds one point
        per tap), so the verdict says both: a draw if together, else the last one in has won.

        >>> shame_standing([5, 5]).draw, shame_standing([5, 4]).draw
        (True, False)
        """
        return len(self.eliminated) == self.players


def starting_hand_size(level: int, field: str = "level") -> int:
    """Cards in the starting hand of a player of judge ``level``.

    >>> [starting_hand_size(n) for n in range(6)]
    [0, 1, 2, 3, 4, 5]
    """
    return require_int(field, level, MIN_LEVEL, MAX_LEVEL)


def shame_limit(players: int, field: str = "players") -> int:
    """The highest counter that stays in the game: twice the players who started it.

    >>> shame_limit(2), shame_limit(3), shame_limit(6)
    (4, 6, 12)
    """
    count = require_int(field, players)
    if count < MIN_PLAYERS:
        raise TooFewPlayers(field, count)
    if count > MAX_PLAYERS:
        raise TooManyPlayers(field, count)
    return 2 * count


def shame_standing(counters: Sequence[int], field: str = "shame") -> ShameStanding:
    """Who is out and who would win if the library ran out, from every starting player's counter.

    A counter equal to the limit stays in; the winners are the players still in
    with the fewest counters (all of them when tied; none if everyone is out).

    >>> shame_standing([4, 5])
    ShameStanding(players=2, limit=4, eliminated=(2,), winners_if_library_runs_out=(1,))
    >>> shame_standing([4, 5]).last_one_in, shame_standing([4, 4]).last_one_in
    (1, None)
    >>> shame_standing([1, 1, 7]).winners_if_library_runs_out
    (1, 2)
    >>> shame_standing([0, -2])
    Traceback (most recent call last):
    ...
    rules_core.errors.OutOfRange: shame: out_of_range (got -2; minimum=-1; maximum=999)
    """
    values = [require_int(field, c, FIRST_GAME_START, MAX_COUNTER) for c in counters]
    limit = shame_limit(len(values), field)
    eliminated = tuple(i for i, c in enumerate(values, 1) if c > limit)
    remaining = [c for i, c in enumerate(values, 1) if i not in eliminated]
    fewest = min(remaining, default=None)
    winners = tuple(i for i, c in enumerate(values, 1) if i not in eliminated and c == fewest)
    return ShameStanding(len(values), limit, eliminated, winners)
