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


def names(values: dict[str, Any], t: Translator) -> dict[Player, str]:
    """The typed names, or the localized "Player A" / "Player B"."""
    return {p: (values.get(f"name_{p.value}") or "").strip() or t(f"player.{p.value}") for p in Player}
