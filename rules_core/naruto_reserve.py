"""Naruto CCG decklists: the deck, the Réserve (sideboard) and the swap between games.

A list has one card name per line, ``QTY NAME [TAGS]``; tags say what the
counting rules need to know (non-Platoon Ninja, Platoon Ninja, Legendary).

>>> deck = parse_list("deck", "3 Kakashi Hatake [ninja]\\n" + "\\n".join(f"3 Card {i}" for i in range(12)) + "\\n1 Gaara")
>>> [(e.name, e.count, e.line) for e in deck][:2]
[('Kakashi Hatake', 3, 1), ('Card 0', 3, 2)]
>>> check(deck, ()).legal
True
>>> parse_list("reserve", "Kakashi Hatake")
Traceback (most recent call last):
...
rules_core.naruto_reserve.LineError: reserve: no_quantity (got 'Kakashi Hatake'; line=1)

Limits on the input (so a pasted novel cannot stall a phone): at most
``MAX_CHARS`` characters and ``MAX_LINES`` lines per list, ``MAX_LINE_CHARS``
characters per line, ``MAX_QUANTITY`` copies on one line.
"""

from __future__ import annotations

import enum
import functools
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from rules_core.errors import RuleError

DECK_SIZE = 40
RESERVE_SIZE = 10
DECK_NINJA_MAX = 25
TOTAL_NINJA_MAX = 30
COPIES_MAX = 3
LEGENDARY_MAX = 1

#: Input limits, per list: well above any real decklist (40 + 10 cards), low enough to stay fast on a phone.
MAX_CHARS = 100_000
MAX_LINES = 1_000
MAX_LINE_CHARS = 200
MAX_QUANTITY = 99


class Kind(enum.Enum):
    """What a card is for the Ninja limits."""

    OTHER = "other"
    """Not tagged as a Ninja: counts toward no Ninja limit."""
    NINJA = "ninja"
    """A Ninja without the Platoon characteristic: counts toward 25 (deck) and 30 (deck + Réserve)."""
    PLATOON = "platoon"
    """A Platoon (group) Ninja: counts toward no Ninja limit."""


#: Tag words, compared case- and accent-insensitively, in English, French and Italian.
TAGS: dict[str, str] = {
    "ninja": "ninja",
    "platoon": "platoon", "group": "platoon", "groupe": "platoon", "gruppo": "platoon", "plotone": "platoon",
    "legendary": "legendary", "legendaire": "legendary", "leggendaria": "legendary", "leggendario": "legendary",
}

# "3x Kakashi", "3 x Kakashi": an x after the quantity is a multiplier only when a name follows it, so
# "1 X [ninja]" is one card named X.
_QUANTITY = re.compile(r"(\d+)(?:\s*[xX\u00d7](?=\s+[^\s\[]))?\s+(\S.*)")
_ONLY_QUANTITY = re.compile(r"\d+[xX\u00d7]?")
_NAME_TAGS = re.compile(r"([^\[\]]+?)\s*(?:\[([^\[\]]*)\])?")


class LineError(RuleError):
    """A line of a list that cannot be read; ``line`` is its 1-based number in the field."""

    def __init__(self, field: str, code: str, value: object, line: int, **params: object) -> None:
        super().__init__(field, code, value, line=line, **params)


@dataclass(frozen=True)
class Entry:
    """One line of a list: ``count`` copies of ``name`` (as typed, spaces collapsed)."""

    name: str
    count: int
    line: int
    kind: Kind | None = None
    """``None`` when the line has no Ninja/Platoon tag."""
    legendary: bool = False

    @functools.cached_property
    def key(self) -> str:
        """The name as compared: case-insensitive, runs of spaces collapsed."""
        return normalize_name(self.name)


def normalize_name(name: str) -> str:
    """``"  KAKASHI   hatake "`` -> ``"kakashi hatake"``.

    >>> normalize_name("  KAKASHI   hatake ")
    'kakashi hatake'
    """
    return " ".join(name.split()).casefold()


def _fold(word: str) -> str:
    decomposed = unicodedata.normalize("NFKD", word.strip().casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _tags(field: str, name: str, text: str, number: int) -> tuple[Kind | None, bool]:
    """The tags of the line ``number`` naming ``name`` (the card a conflict quotes, as on two lines)."""
    kind: Kind | None = None
    legendary = False
    for raw in text.split(","):
        if not raw.strip():
            continue
        tag = TAGS.get(_fold(raw))
        if tag is None:
            raise LineError(field, "bad_tag", raw.strip(), number)
        if tag == "legendary":
            legendary = True
            continue
        if kind is not None and kind.value != tag:
            raise LineError(field, "conflicting_tags", name, number)
        kind = Kind(tag)
    return kind, legendary


# Every keystroke in a 60-line list reads every line again; the entries are immutable, so the lines
# that did not change are not parsed again (an error is raised again each time: never kept).
@functools.lru_cache(maxsize=4096)
def parse_line(field: str, text: str, number: int) -> Entry | None:
    """One line -> an :class:`Entry`, ``None`` for a blank or ``#`` comment line.

    >>> parse_line("deck", "3x Gaara [Légendaire, GROUPE]", 7)
    Entry(name='Gaara', count=3, line=7, kind=<Kind.PLATOON: 'platoon'>, legendary=True)
    >>> parse_line("deck", "3 Xavier", 1).name
    'Xavier'
    >>> parse_line("deck", "# side", 1) is None
    True
    """
    if len(text) > MAX_LINE_CHARS:
        raise LineError(field, "line_too_long", None, number, limit=MAX_LINE_CHARS, length=len(text))
    line = text.strip()
    if not line or line.startswith("#"):
        return None
    if not line[0].isdigit():
        raise LineError(field, "no_quantity", line, number)
    if _ONLY_QUANTITY.fullmatch(line):
        raise LineError(field, "no_name", line, number)
    match = _QUANTITY.fullmatch(line)
    rest = _NAME_TAGS.fullmatch(match.group(2)) if match else None
    if not match or not rest:
        raise LineError(field, "syntax", line, number)
    count = int(match.group(1))
    if count < 1 or count > MAX_QUANTITY:
        raise LineError(field, "bad_quantity", count, number, maximum=MAX_QUANTITY)
    name = " ".join(rest.group(1).split())
    kind, legendary = _tags(field, name, rest.group(2) or "", number)
    return Entry(name, count, number, kind, legendary)


def parse_list(field: str, text: str) -> tuple[Entry, ...]:
    """Every card line of a list, in order; raise a :class:`RuleError` on the first bad line.

    >>> [e.count for e in parse_list("deck", "1 A\\n\\n# note\\n2 x B")]
    [1, 2]
    >>> parse_list("deck", "1 A\\n0 B")
    Traceback (most recent call last):
    ...
    rules_core.naruto_reserve.LineError: deck: bad_quantity (got 0; line=2; maximum=99)
    """
    if not isinstance(text, str):
        raise RuleError(field, "not_text", text)
    if len(text) > MAX_CHARS:
        raise RuleError(field, "too_long", None, limit=MAX_CHARS, length=len(text))
    lines = re.split(r"\r\n|\r|\n", text)
    if len(lines) > MAX_LINES:
        raise RuleError(field, "too_many_lines", None, limit=MAX_LINES, lines=len(lines))
    entries = (parse_line(field, line, number) for number, line in enumerate(lines, start=1))
    return tuple(e for e in entries if e is not None)


@dataclass(frozen=True)
class Card:
    """What the lists say about one card name (tags merged over every line naming it)."""

    name: str
    kind: Kind
    legendary: bool


def cards(lists: Iterable[tuple[str, Iterable[Entry]]]) -> dict[str, Card]:
    """Merge the lines of ``(field, entries)`` lists by name; a name tagged both Ninja and Platoon is an error.

    A line without a Ninja/Platoon tag takes the tag another line gives the same name.

    >>> d = parse_list("deck", "2 Naruto [ninja]\\n1 naruto")
    >>> cards([("deck", d)])["naruto"].kind
    <Kind.NINJA: 'ninja'>
    >>> cards([("deck", d), ("reserve", parse_list("reserve", "1 NARUTO [plotone]"))])
    Traceback (most recent call last):
    ...
    rules_core.naruto_reserve.LineError: reserve: conflicting_tags (got 'NARUTO'; line=1)
    """
    merged: dict[str, Card] = {}
    for field, entries in lists:
        for entry in entries:
            known = merged.get(entry.key)
            if known is None:
                merged[entry.key] = Card(entry.name, entry.kind or Kind.OTHER, entry.legendary)
                continue
            if entry.kind is not None and known.kind is not Kind.OTHER and entry.kind is not known.kind:
                raise LineError(field, "conflicting_tags", entry.name, entry.line)
            kind = known.kind if entry.kind is None else entry.kind
            merged[entry.key] = Card(known.name, kind, known.legendary or entry.legendary)
    return merged


def tally(entries: Iterable[Entry]) -> dict[str, int]:
    """Copies by compared name.

    >>> tally(parse_list("deck", "1 A\\n2  a"))
    {'a': 3}
    """
    counts: dict[str, int] = {}
    for entry in entries:
        counts[entry.key] = counts.get(entry.key, 0) + entry.count
    return counts


def ninja_count(counts: dict[str, int], known: dict[str, Card]) -> int:
    """Non-Platoon Ninja among ``counts``."""
    return sum(n for key, n in counts.items() if known[key].kind is Kind.NINJA)


@dataclass(frozen=True)
class Violation:
    """One broken rule, with the numbers involved (only those that apply are set).

    ``count`` is the number found and ``limit`` what the rule allows; ``card`` names the card (as first
    typed) for per-card rules; ``deck``/``reserve`` split ``count`` where a rule adds both lists. A
    ``swap`` violation has a ``reason``: ``unbalanced`` (``taken`` out, ``brought`` in), ``not_in_deck`` /
    ``not_in_reserve`` (``count`` wanted, ``available``), ``deck_size`` / ``deck_ninja`` (the deck after it),
    ``copies`` / ``legendary`` (``count`` copies of ``card`` in the deck after it).
    A ``copies`` or ``legendary`` violation found in a Réserve checked without its deck
    (:func:`check_reserve`) has the reason ``reserve_alone``, ``count`` its copies in the Réserve, no ``deck``.
    """

    code: str
    count: int | None = None
    limit: int | None = None
    card: str | None = None
    deck: int | None = None
    reserve: int | None = None
    reason: str | None = None
    available: int | None = None
    taken: int | None = None
    brought: int | None = None

    def as_dict(self) -> dict[str, object]:
        """The JSON form: the fields that apply."""
        return {k: v for k, v in vars(self).items() if v is not None}

    @property
    def lists(self) -> frozenset[str]:
        """The lists it blames: ``deck``, ``reserve``, both for a limit counted over both lists with cards
        in each, ``swap`` for the swap's (a verdict names exactly what fails).

        >>> sorted(Violation("copies", 4, 3, card="A", deck=4, reserve=0).lists)
        ['deck']
        >>> sorted(Violation("total_ninja", 31, 30, deck=25, reserve=6).lists)
        ['deck', 'reserve']
        """
        if self.code == "swap":
            return frozenset({"swap"})
        if self.code in ("deck_size", "deck_ninja"):
            return frozenset({"deck"})
        if self.code == "reserve_size" or self.deck is None:  # a Réserve checked alone has no deck count
            return frozenset({"reserve"})
        return frozenset(name for name, n in (("deck", self.deck), ("reserve", self.reserve)) if n)


@dataclass(frozen=True)
class Counts:
    """Cards and non-Platoon Ninja counted in the deck and the Réserve."""

    deck: int
    reserve: int
    deck_ninja: int
    total_ninja: int


@dataclass(frozen=True)
class Swap:
    """The deck after a swap and what is wrong with the swap (codes ``swap``, see ``Violation.reason``)."""

    deck: dict[str, int]
    deck_size: int
    deck_ninja: int
    violations: tuple[Violation, ...]

    @property
    def legal(self) -> bool:
        return not self.violations


@dataclass(frozen=True)
class DeckOutcome:
    """Every rule checked on a deck and its Réserve (and the swap, when one is given)."""

    counts: Counts
    violations: tuple[Violation, ...]
    cards: dict[str, Card]
    swap: Swap | None = None

    @property
    def legal(self) -> bool:
        """No violation at all, the swap's included."""
        return not self.violations

    @property
    def failing(self) -> frozenset[str]:
        """The registered lists that break a rule (``deck``, ``reserve``), the swap apart."""
        return frozenset().union(*(v.lists for v in self.violations)) - {"swap"}

    @property
    def lists_legal(self) -> bool:
        """The deck and Réserve as registered break no rule (the swap may): a judge reads "not legal"
        as an illegal registered deck, a penalty; a bad swap alone is not that."""
        return len(self.violations) == (len(self.swap.violations) if self.swap else 0)


def _deck_rules(size: int, ninja: int) -> list[Violation]:
    """Exactly 40 cards, at most 25 non-Platoon Ninja (the rules a deck meets before and after a swap)."""
    found = []
    if size != DECK_SIZE:
        found.append(Violation("deck_size", size, DECK_SIZE))
    if ninja > DECK_NINJA_MAX:
        found.append(Violation("deck_ninja", ninja, DECK_NINJA_MAX))
    return found


def _swap(deck: dict[str, int], reserve: dict[str, int], out: dict[str, int], into: dict[str, int],
          known: dict[str, Card]) -> Swap:
    found: list[Violation] = []
    taken, brought = sum(out.values()), sum(into.values())
    if taken != brought:
        found.append(Violation("swap", reason="unbalanced", taken=taken, brought=brought))
    for source, moved, reason in ((deck, out, "not_in_deck"), (reserve, into, "not_in_reserve")):
        for key, n in moved.items():
            if n > source.get(key, 0):
                found.append(Violation("swap", n, card=known[key].name, reason=reason, available=source.get(key, 0)))
    after = dict(deck)
    for key, n in out.items():
        after[key] = max(0, after.get(key, 0) - n)
    for key, n in into.items():
        after[key] = after.get(key, 0) + n
    after = {key: n for key, n in after.items() if n}
    size, ninja = sum(after.values()), ninja_count(after, known)
    found += [Violation("swap", v.count, v.limit, reason=v.code) for v in _deck_rules(size, ninja)]
    # The deck after the swap is a deck: the copy limits hold for it too (checked on the deck alone, as
    # the registered lists' copies over both lists are reported apart).
    for key, n in after.items():
        broken = _copies(known[key], n, 0)
        if broken:
            found.append(Violation("swap", broken.count, broken.limit, card=broken.card, reason=broken.code))
    return Swap(after, size, ninja, tuple(found))


def _copies(card: Card, d: int, r: int, **more: object) -> Violation | None:
    """The copy limit of ``card`` (Legendary: one) broken by ``d`` copies in the deck and ``r`` in the Réserve."""
    code, limit = ("legendary", LEGENDARY_MAX) if card.legendary else ("copies", COPIES_MAX)
    return Violation(code, d + r, limit, card=card.name, reserve=r, **more) if d + r > limit else None


def check_reserve(reserve: Iterable[Entry]) -> tuple[Violation, ...]:
    """What the rules say of a Réserve given without its deck: its size (exactly ``RESERVE_SIZE``) and
    the copy limits, which the Réserve alone can break whatever the deck (a deck only adds copies).
    The deck's own limits and the Ninja counted over both lists need the deck.

    >>> found = check_reserve(parse_list("reserve", "3 Kakashi\\n1 kakashi\\n2 Gaara [legendary]"))
    >>> [v.as_dict() for v in found]  # doctest: +NORMALIZE_WHITESPACE
    [{'code': 'reserve_size', 'count': 6, 'limit': 10},
     {'code': 'copies', 'count': 4, 'limit': 3, 'card': 'Kakashi', 'reserve': 4, 'reason': 'reserve_alone'},
     {'code': 'legendary', 'count': 2, 'limit': 1, 'card': 'Gaara', 'reserve': 2, 'reason': 'reserve_alone'}]
    >>> check_reserve(parse_list("reserve", "3 A\\n3 B\\n3 C\\n1 D [legendary]"))
    ()
    """
    reserve = tuple(reserve)
    known, counts = cards([("reserve", reserve)]), tally(reserve)
    side = sum(counts.values())
    found = [Violation("reserve_size", side, RESERVE_SIZE)] if side != RESERVE_SIZE else []
    broken = (_copies(known[key], 0, n, reason="reserve_alone") for key, n in counts.items())
    return tuple(found + [v for v in broken if v])


def check(deck: Iterable[Entry], reserve: Iterable[Entry], out: Iterable[Entry] | None = None,
          into: Iterable[Entry] | None = None) -> DeckOutcome:
    """Every rule on a deck and its Réserve (empty: no Réserve), and on the swap when ``out``/``into`` are given.

    >>> v = check(parse_list("deck", "2 Kakashi [ninja]"), parse_list("reserve", "2 kakashi"))
    >>> [x.as_dict() for x in v.violations]  # doctest: +NORMALIZE_WHITESPACE
    [{'code': 'deck_size', 'count': 2, 'limit': 40}, {'code': 'reserve_size', 'count': 2, 'limit': 10},
     {'code': 'copies', 'count': 4, 'limit': 3, 'card': 'Kakashi', 'deck': 2, 'reserve': 2}]
    >>> v.counts
    Counts(deck=2, reserve=2, deck_ninja=2, total_ninja=4)
    """
    deck, reserve = tuple(deck), tuple(reserve)
    out, into = tuple(out or ()), tuple(into or ())
    known = cards([("deck", deck), ("reserve", reserve), ("out", out), ("in", into)])
    in_deck, in_reserve = tally(deck), tally(reserve)
    size, side = sum(in_deck.values()), sum(in_reserve.values())
    deck_ninja = ninja_count(in_deck, known)
    total_ninja = deck_ninja + ninja_count(in_reserve, known)
    found = _deck_rules(size, deck_ninja)
    if side and side != RESERVE_SIZE:
        found.append(Violation("reserve_size", side, RESERVE_SIZE))
    if total_ninja > TOTAL_NINJA_MAX:
        found.append(Violation("total_ninja", total_ninja, TOTAL_NINJA_MAX, deck=deck_ninja, reserve=total_ninja - deck_ninja))
    for key in dict.fromkeys([*in_deck, *in_reserve]):
        d = in_deck.get(key, 0)
        violation = _copies(known[key], d, in_reserve.get(key, 0), deck=d)
        if violation:
            found.append(violation)
    swap = None
    if out or into:
        swap = _swap(in_deck, in_reserve, tally(out), tally(into), known)
        found += swap.violations
    return DeckOutcome(Counts(size, side, deck_ninja, total_ninja), tuple(found), known, swap)
