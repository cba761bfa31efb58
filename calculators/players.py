"""The optional player-name fields shared by two-player calculators, and the names to show."""

from __future__ import annotations

from typing import Any

from calculators.i18n import Translator
from calculators.spec import Field
from rules_core.players import Player

#: The longest player name, in characters.
NAME_LENGTH = 40
NAME_FIELDS = (
    Field("name_a", "text", required=False, max_length=NAME_LENGTH),
    Field("name_b", "text", required=False, max_length=NAME_LENGTH),
)


#: Unicode's first-strong isolate and its end: what ``<bdi>`` does, in plain text.
ISOLATE, END_ISOLATE = "\u2068", "\u2069"


def isolated(name: str) -> str:
    """A typed name set apart from the sentence around it, so that a right-to-left name (or one
    starting with a direction override) cannot reorder the rest of the sentence.

    >>> isolated("\u202eboB") == "\u2068\u202eboB\u2069"
    True
    """
    return f"{ISOLATE}{name}{END_ISOLATE}"


def names(values: dict[str, Any], t: Translator) -> dict[Player, str]:
    """The typed names (isolated), or the localized "Player A" / "Player B"."""
    typed = {p: (values.get(f"name_{p.value}") or "").strip() for p in Player}
    return {p: isolated(typed[p]) if typed[p] else t(f"player.{p.value}") for p in Player}
