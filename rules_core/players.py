"""The two sides of a two-player match, shared by every rule that names a winner."""

from __future__ import annotations

import enum


class Player(enum.Enum):
    """One side of the match, as entered: ``a`` or ``b``."""

    A = "a"
    """The first player as entered."""
    B = "b"
    """The second player as entered."""

    @property
    def other(self) -> Player:
        """The opponent.

        >>> Player.A.other
        <Player.B: 'b'>
        """
        return Player.B if self is Player.A else Player.A
