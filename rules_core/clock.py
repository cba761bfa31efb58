"""The round clock: what can be played, and which round lengths the rules fix.

Only Naruto blitz has a length set by the rules (30 minutes). For the others the organiser
chooses; there is deliberately no default here, so none can be shown as if it were a rule.

>>> fixed_minutes(Game.NARUTO_BLITZ)
30
>>> fixed_minutes("pokemon-bo3") is None
True
>>> round_minutes(Game.NARUTO_STANDARD, 50), round_minutes("naruto-blitz", None)
(50, 30)
>>> round_minutes("pokemon-bo1", None)
Traceback (most recent call last):
...
rules_core.errors.RuleError: minutes: required (got None)
"""

from __future__ import annotations

import enum

from rules_core.errors import RuleError, require_int
from rules_core.naruto import BLITZ_GAME_MINUTES

#: Bounds of what a clock accepts as typed input (sanity limits of the tool, not rules).
MAX_ROUND_MINUTES = 300
MAX_EXTENSION_MINUTES = 60
MAX_TABLE = 9_999
#: Tables with an extension at once, in a clock or its link: more than a large hall's late tables.
MAX_EXTENSIONS = 100
#: How far ahead a running round may end (or how much a paused one may have left): the longest round
#: the clock accepts plus the longest extension. A link beyond it is an error, not a clock.
MAX_AHEAD_MINUTES = MAX_ROUND_MINUTES + MAX_EXTENSION_MINUTES
#: The highest round number the clock shows ("round 3 of 5"): the organiser's count, not a rule's
#: (the rules give a minimum of Swiss rounds, never how many are played).
MAX_ROUND_NUMBER = 99


class Game(enum.Enum):
    """What is played in the round; decides the end-of-time procedure shown when time is called."""

    NARUTO_STANDARD = "naruto-standard"
    """Naruto CCG, standard match: end of time then tiebreak (naruto-end-of-time, naruto-tiebreak)."""
    NARUTO_BLITZ = "naruto-blitz"
    """Naruto CCG blitz: a 30-minute game, ~15 s per action (naruto-blitz)."""
    POKEMON_BO1 = "pokemon-bo1"
    """Pokémon TCG, single-game match (pokemon-single)."""
    POKEMON_BO3 = "pokemon-bo3"
    """Pokémon TCG, best-of-three match (pokemon-bo3)."""


def fixed_minutes(game: Game | str) -> int | None:
    """The round length the rules set for ``game``, or ``None`` when the organiser chooses."""
    return BLITZ_GAME_MINUTES if Game(game) is Game.NARUTO_BLITZ else None


def round_minutes(game: Game | str, minutes: int | None, field: str = "minutes") -> int:
    """The round's length: the rules' one when they fix it, else the organiser's (required)."""
    fixed = fixed_minutes(game)
    if fixed is not None:
        return fixed
    if minutes is None:
        raise RuleError(field, "required")
    return require_int(field, minutes, minimum=1, maximum=MAX_ROUND_MINUTES)
