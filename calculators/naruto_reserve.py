"""``naruto-reserve``: a deck and its Réserve (sideboard) against the deck-building limits, and the swap between games.

Lists are pasted one card per line (``QTY NAME [TAGS]``, see :mod:`rules_core.naruto_reserve`). Size limits:
each list at most ``MAX_CHARS`` characters (the field's ``max_length``, generic ``too_long``), ``MAX_LINES``
lines and ``MAX_LINE_CHARS`` characters per line (``too_many_lines`` / ``line_too_long``).
"""

from __future__ import annotations

from typing import Any

from calculators.i18n import Translator
from calculators.spec import Calculator, Field, Answer
from rules_core import naruto_reserve as rules
from rules_core.errors import RuleError
from rules_core.naruto_reserve import MAX_CHARS

LISTS = ("deck", "reserve", "out", "in")
#: The limit of each count the reserve widget shows (data-rule-*); whether it is met, an empty
#: Réserve included, is the verdict's violations.
LIMITS = {"deck": rules.DECK_SIZE, "reserve": rules.RESERVE_SIZE,
          "deck_ninja": rules.DECK_NINJA_MAX, "total_ninja": rules.TOTAL_NINJA_MAX}
#: A legal 40-card deck, tags in three languages: the calculator's documented example.
EXAMPLE_DECK = "\n".join(["3x Kakashi Hatake [ninja]", *(f"1 Ninja {i} [ninja]" for i in range(21)),
                          *(f"1 Team {i} [Gruppo]" for i in range(10)), "1 Gaara [Légendaire]",
                          *(f"1 Card {i}" for i in range(5))])


def violation_text(t: Translator, violation: rules.Violation, no_reserve: bool = False) -> str:
    """One localized sentence naming the card (if any) and the numbers; ``no_reserve``: no Sideboard was
    entered (cards brought in from none are not "more than it holds (0)")."""
    key = f"naruto-reserve.violation.{violation.code}"
    if violation.reason:
        key += f".{violation.reason}"
        if violation.reason == "not_in_reserve" and no_reserve:
            key += ".no_reserve"
        elif violation.available == 0:  # "holds no copy", never "does not hold that many (0)"
            key += ".none"
    elif violation.code == "total_ninja" and no_reserve:  # never "0 in the Sideboard" for a Sideboard not entered
        key += ".no_reserve"
    elif violation.code in ("copies", "legendary") and not violation.reserve:  # never "0 in the Sideboard"
        key += ".deck_alone"
    elif violation.code in ("copies", "legendary") and not violation.deck:  # never "0 in the deck"
        key += ".reserve_only"
    return t(key, **violation.as_dict())


def _reserve_alone(reserve: tuple[rules.Entry, ...], t: Translator) -> Answer:
    """A Réserve typed before (or without) its deck: what the rules say of it alone, at once, and the
    deck asked for the rest. ``legal`` is ``None`` (not known) unless the Réserve alone breaks a rule;
    the counts that need the deck are ``None``."""
    violations = rules.check_reserve(reserve)
    side = sum(e.count for e in reserve)
    summary = (t("naruto-reserve.summary.reserve_illegal", count=len(violations)) if violations
               else t("naruto-reserve.summary.reserve_alone", reserve=side))
    return Answer(
        result={"legal": False if violations else None, "violations": [v.as_dict() for v in violations],
                "counts": {"deck": None, "reserve": side, "deck_ninja": None, "total_ninja": None}},
        summary=f"{summary} {t('naruto-reserve.summary.needs_deck')}",
        details=[violation_text(t, v) for v in violations],
    )


def run(values: dict[str, Any], t: Translator) -> Answer:
    entries = {name: rules.parse_list(name, values.get(name) or "") for name in LISTS}
    if not entries["deck"]:  # empty, or comments only: the deck is asked for what needs it
        if entries["out"] or entries["in"]:
            raise RuleError("deck", "needed")
        if not entries["reserve"]:
            raise RuleError("deck", "required")
        return _reserve_alone(entries["reserve"], t)
    outcome = rules.check(entries["deck"], entries["reserve"], entries["out"], entries["in"])
    counts = outcome.counts
    result: dict[str, Any] = {
        "legal": outcome.legal,
        "violations": [v.as_dict() for v in outcome.violations],
        "counts": {"deck": counts.deck, "reserve": counts.reserve,
                   "deck_ninja": counts.deck_ninja, "total_ninja": counts.total_ninja},
    }
    details = [violation_text(t, v, no_reserve=not counts.reserve) for v in outcome.violations]
    swap = outcome.swap
    if swap is not None:
        result["swap"] = {
            "deck": [{"card": outcome.cards[key].name, "count": n} for key, n in swap.deck.items()],
            "counts": {"deck": swap.deck_size, "deck_ninja": swap.deck_ninja},
            "legal": swap.legal,
        }
    # The details list every problem; the summary counts the lists' and the swap's apart and names
    # exactly which list fails (a legal Sideboard is never called illegal because the deck is).
    swap_count = len(swap.violations) if swap else 0
    list_count = len(outcome.violations) - swap_count
    swap_text = "" if swap is None else " " + t(f"naruto-reserve.swap.{'legal' if swap.legal else 'illegal'}",
                                                deck=swap.deck_size, deck_ninja=swap.deck_ninja)
    if outcome.legal and not counts.reserve:  # no Sideboard at all: never "a Sideboard of 0 cards"
        summary = t("naruto-reserve.summary.legal_no_reserve", deck=counts.deck, deck_ninja=counts.deck_ninja)
    elif outcome.legal:
        summary = t("naruto-reserve.summary.legal", deck=counts.deck, reserve=counts.reserve,
                    deck_ninja=counts.deck_ninja, total_ninja=counts.total_ninja)
    elif outcome.lists_legal:  # only the swap breaks a rule: the registered lists are legal
        key = "naruto-reserve.summary.swap_illegal" + ("" if counts.reserve else "_no_reserve")
        summary = t(key, count=swap_count)
    else:
        failing = outcome.failing
        key = ("illegal_no_reserve" if not counts.reserve else "illegal" if failing == {"deck", "reserve"}
               else "deck_illegal" if failing == {"deck"} else "reserve_illegal_deck_legal")
        summary = t(f"naruto-reserve.summary.{key}", count=list_count)
        if swap_count:
            summary += " " + t("naruto-reserve.summary.swap_also_illegal", count=swap_count)
    return Answer(result=result, summary=summary + swap_text, details=details)


SPEC = Calculator(
    id="naruto-reserve",
    fields=(
        # Not required by itself: a Réserve alone has a verdict of its own (run() asks for the deck).
        Field("deck", "text", required=False, multiline=True, max_length=MAX_CHARS),
        Field("reserve", "text", required=False, multiline=True, max_length=MAX_CHARS),
        Field("out", "text", required=False, multiline=True, max_length=MAX_CHARS),
        Field("in", "text", required=False, multiline=True, max_length=MAX_CHARS),
    ),
    run=run,
    example={"deck": EXAMPLE_DECK},
    result_keys=("legal", "counts", "violations"),
    optional_result_keys=("swap",),
    widget="reserve",
    widget_rules=LIMITS,
)
