"""``judge-tower-shame``: shame-counter limit, players out, and who would win if the library ran out.

The field lists every starting player's counter, one per line or separated by
commas, each optionally named (``Alice: 3``). On the page, the ``shame-tracker``
widget writes this field from its table-side tracker. The details are one line
per player, in entry order (the tracker shows line *i* on row *i*).

>>> from calculators import evaluate
>>> v = evaluate("judge-tower-shame", {"shame": "Alice: 7\\nBob: 2, Chloé: −1"}, "en")
>>> v["result"]
{'players': 3, 'limit': 6, 'eliminated': [1], 'winners_if_library_runs_out': [3], 'counters': [7, 2, -1], 'names': ['Alice', 'Bob', 'Chloé']}
"""

from __future__ import annotations

import re
from typing import Any

from calculators.i18n import Translator
from calculators.players import NAME_LENGTH, Name, joined, label, sharing_a_name, told_apart
from calculators.spec import Calculator, Field, Answer
from rules_core import judge_tower
from rules_core.errors import RuleError

ID = "judge-tower-shame"
#: Longest player name accepted, in characters.
MAX_NAME = NAME_LENGTH
#: Room for MAX_PLAYERS entries of the longest name and counter.
MAX_TEXT = judge_tower.MAX_PLAYERS * (MAX_NAME + 8)
_SEPARATORS = re.compile(r"[,\n]")
#: A comma between two digits: a decimal comma (« 1,5 », as French and Italian write it) or "3,1" without
#: its space, never a separator, so "Anna: 1,5; Bob: 2" is not read as Anna 1 and a player named "5; Bob";
#: the error says how to write it. One grammar in every language: a link means the same in each.
_DECIMAL = re.compile(r"[^,\n]*\d,\d+")
_COUNTER = Field("shame", "integer")


def parse_counters(text: str, field: str = "shame") -> tuple[list[str | None], list[int]]:
    """``"Alice: 3, 0"`` -> (names, counters); a name is ``None`` when not given.

    >>> parse_counters("Alice: 3, 0\\n\\nDr: Who: \\u22121")
    (['Alice', None, 'Dr: Who'], [3, 0, -1])
    >>> parse_counters("Anna: 1,5; Bob: 2")
    Traceback (most recent call last):
    ...
    rules_core.errors.RuleError: shame: comma (got 'Anna: 1,5')
    >>> parse_counters("Alice: three")
    Traceback (most recent call last):
    ...
    rules_core.errors.RuleError: shame: not_a_counter (got 'Alice: three')
    """
    if decimal := _DECIMAL.search(text):
        raise RuleError(field, "comma", decimal.group(0).strip())
    entries = [entry.strip() for entry in _SEPARATORS.split(text) if entry.strip()]
    if len(entries) > judge_tower.MAX_PLAYERS:  # before reading them all
        raise judge_tower.TooManyPlayers(field, len(entries))
    names: list[str | None] = []
    counters: list[int] = []
    for entry in entries:
        name, _, number = entry.rpartition(":")
        name = name.strip()
        if len(name) > MAX_NAME:
            raise RuleError(field, "name_too_long", name, limit=MAX_NAME)
        try:
            counter = _COUNTER.parse(number)
        except RuleError:
            counter = None
        if counter is None:
            raise RuleError(field, "not_a_counter", entry)
        names.append(name or None)
        counters.append(counter)
    return names, counters


def run(values: dict[str, Any], t: Translator) -> Answer:
    names, counters = parse_counters(values["shame"])
    standing = judge_tower.shame_standing(counters)
    entries = [(name, label(t, f"{ID}.player", position=i)) for i, name in enumerate(names, 1)]
    shown = told_apart(t, entries)

    def listing(positions: tuple[int, ...]) -> Name:
        return joined(t, [shown[i - 1] for i in positions])

    result: dict[str, Any] = {
        "players": standing.players,
        "limit": standing.limit,
        "eliminated": list(standing.eliminated),
        "winners_if_library_runs_out": list(standing.winners_if_library_runs_out),
        "counters": counters,  # as read: the tracker shows a shared link's counters from here
    }
    if any(names):
        result["names"] = names
    if apart := sharing_a_name(entries):  # the players the tracker's bar names with their label too
        result["told_apart"] = sorted(i + 1 for i in apart)
    winners, won = standing.winners_if_library_runs_out, standing.last_one_in
    # What changes at the table first (who is out, who has won or would win), the rule it follows last: the
    # tracker's sticky bar shows the summary's first two lines.
    summary = [
        t(f"{ID}.summary.out", names=listing(standing.eliminated)) if standing.eliminated else t(f"{ID}.summary.none_out"),
        t(f"{ID}.summary.won", player=shown[won - 1]) if won else
        t(f"{ID}.summary.{'winner' if len(winners) == 1 else 'winners'}", names=listing(winners))
        if not standing.draw else t(f"{ID}.summary.draw"),
        t(f"{ID}.summary.limit", players=standing.players, limit=standing.limit),
    ]
    details = []
    for i, counter in enumerate(counters, 1):
        state = "out" if i in standing.eliminated else "won" if i == won else ("leader" if i in winners else "in")
        details.append(t(f"{ID}.detail.{state}", player=shown[i - 1], counter=counter, limit=standing.limit))
    return Answer(result=result, summary=" ".join(summary), details=details)


SPEC = Calculator(
    id=ID,
    fields=(Field("shame", "text", multiline=True, max_length=MAX_TEXT),),
    run=run,
    example={"shame": "Alice: 3\nBob: 1"},
    result_keys=("players", "limit", "eliminated", "winners_if_library_runs_out", "counters"),
    optional_result_keys=("names", "told_apart"),
    widget="shame-tracker",
    widget_rules={"min_players": judge_tower.MIN_PLAYERS, "max_players": judge_tower.MAX_PLAYERS,
                  "max_name": MAX_NAME, "max_counter": judge_tower.MAX_COUNTER,
                  "first_game_start": judge_tower.FIRST_GAME_START},
)
