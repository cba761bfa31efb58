"""Naruto CCG end of time: the turns still to play, then the tiebreak criteria.

The same rules apply to standard and blitz matches (the source states them twice).

>>> [(t.player.value, t.kind.value) for t in turns_left("a", "b")]
[('b', 'finish'), ('a', 'extra'), ('b', 'extra'), ('a', 'extra'), ('b', 'extra')]
>>> r = tiebreak({"rewards": (3, 3), "deck": (12, 9)})
>>> r.winner, r.decided_by.value, len(r.steps)
(<Player.A: 'a'>, 'deck', 2)
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

from rules_core.errors import RuleError, require_int
from rules_core.players import Player

#: Additional turns each player plays after the active turn (and the last turn, if any).
EXTRA_TURNS_EACH = 2


class TurnKind(enum.Enum):
    FINISH = "finish"
    """The active player finishes the current turn."""
    LAST = "last"
    """The player who did not start the game plays one last turn, so both have played as many turns."""
    EXTRA = "extra"
    """One of the additional turns (2 each, alternating, the starter first)."""


@dataclass(frozen=True)
class Turn:
    """One turn still to play when time is called: whose, and why (its kind)."""

    player: Player
    kind: TurnKind


def _player(field: str, value: object) -> Player:
    try:
        return value if isinstance(value, Player) else Player(value)
    except ValueError:
        raise RuleError(field, "not_a_choice", value, choices="a, b") from None


def turns_left(starter: Player | str, active: Player | str) -> tuple[Turn, ...]:
    """Every turn still to play when time is called, in order.

    >>> [(t.player.value, t.kind.value) for t in turns_left("a", "a")][:3]
    [('a', 'finish'), ('b', 'last'), ('a', 'extra')]
    """
    first, now = _player("starter", starter), _player("active", active)
    turns = [Turn(now, TurnKind.FINISH)]
    if now is first:
        turns.append(Turn(first.other, TurnKind.LAST))
    for _ in range(EXTRA_TURNS_EACH):
        turns += [Turn(first, TurnKind.EXTRA), Turn(first.other, TurnKind.EXTRA)]
    return tuple(turns)


class Criterion(enum.StrEnum):
    """The tiebreak criteria, in the order they apply; the higher value wins each."""

    REWARDS = "rewards"
    """Battle Rewards."""
    DECK = "deck"
    """Cards left in the deck."""
    CHARACTERS = "characters"
    """Characters left in the deck."""
    COMBAT = "combat"
    """Total combat value of the characters in the deck."""
    ENTRANCE = "entrance"
    """Total Entrance cost of the characters in the deck."""


class Toss(enum.StrEnum):
    """What decides when every criterion is tied."""

    COIN = "coin_toss"
    """The judge tosses a coin."""


#: ``decided_by`` when every criterion is tied.
COIN_TOSS = Toss.COIN

#: ``{criterion value: (player A's value, player B's value)}``, ``None`` where not counted yet.
CriterionValues = Mapping[str, "tuple[int | None, int | None]"]


@dataclass(frozen=True)
class Step:
    """One tiebreak criterion compared: both players' counts."""

    criterion: Criterion
    a: int
    b: int

    @property
    def winner(self) -> Player | None:
        return None if self.a == self.b else (Player.A if self.a > self.b else Player.B)


@dataclass(frozen=True)
class TiebreakOutcome:
    """The criteria compared in order, up to the one that decides (or all of them, then a coin toss)."""

    winner: Player | None
    """``None``: every criterion is tied, the judge tosses a coin."""
    decided_by: Criterion | Toss
    """The deciding criterion, or :data:`COIN_TOSS` (enum members, as ``decided_by`` in rules_core.pokemon)."""
    steps: tuple[Step, ...]


def needed(counts: CriterionValues) -> tuple[Criterion, ...]:
    """The criteria a judge must count, given what is known so far (``None``: not counted yet).

    A criterion is needed when every earlier one is known and tied.

    >>> [c.value for c in needed({"rewards": (2, 2), "deck": (5, None)})]
    ['rewards', 'deck']
    >>> [c.value for c in needed({})]
    ['rewards']
    """
    found = []
    for criterion in Criterion:
        found.append(criterion)
        a, b = counts.get(criterion.value, (None, None))
        if a is None or b is None or a != b:
            break
    return tuple(found)


def tiebreak(counts: CriterionValues) -> TiebreakOutcome:
    """Apply the criteria in order to ``{criterion: (player A's value, player B's value)}``.

    Values of criteria after the deciding one may be missing. A needed value that is ``None`` raises
    ``needed`` on its field (``deck_b``...), both players' at once in an ``ExceptionGroup``;
    characters may not exceed the cards in the deck.

    >>> tiebreak({"rewards": (1, 1), "deck": (4, 4), "characters": (2, 2), "combat": (5, 5), "entrance": (3, 3)}).decided_by.value
    'coin_toss'
    >>> tiebreak({"rewards": (1, 1), "deck": (None, 3)})
    Traceback (most recent call last):
    ...
    rules_core.errors.RuleError: deck_a: needed (got None)
    >>> tiebreak({"rewards": (0, 0), "deck": (3, 3), "characters": (4, 1)})
    Traceback (most recent call last):
    ...
    rules_core.errors.RuleError: characters_a: more_than_deck (got 4; deck=3)
    """
    steps: list[Step] = []
    for criterion in needed(counts):
        pair = counts.get(criterion.value, (None, None))
        missing = [RuleError(f"{criterion.value}_{p.value}", "needed", None) for p, v in zip(Player, pair) if v is None]
        if len(missing) > 1:
            raise ExceptionGroup("both players' values are needed", missing)
        if missing:
            raise missing[0]
        values = [require_int(f"{criterion.value}_{p.value}", v, minimum=0) for p, v in zip(Player, pair)]
        if criterion is Criterion.CHARACTERS:
            for player, chars, deck in zip(Player, values, counts["deck"]):
                if chars > deck:
                    raise RuleError(f"characters_{player.value}", "more_than_deck", chars, deck=deck)
        steps.append(Step(criterion, *values))
        if steps[-1].winner is not None:
            return TiebreakOutcome(steps[-1].winner, criterion, tuple(steps))
    return TiebreakOutcome(None, COIN_TOSS, tuple(steps))
