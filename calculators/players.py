"""The optional player-name fields shared by two-player calculators, and the names to show."""

from __future__ import annotations

from collections import Counter
from typing import Any

from calculators.i18n import Translator
from calculators.spec import Field
from rules_core.players import Player

#: The longest player name, in characters.
NAME_LENGTH = 40
NAME_FIELDS = (
    Field("name_a", "text", required=False, max_length=NAME_LENGTH, marked_optional=True),
    Field("name_b", "text", required=False, max_length=NAME_LENGTH, marked_optional=True),
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


class Name(str):
    """A player's name as sentences take it: a typed name, or a default label ("Player A").

    ``{winner}`` in a message is the name or label as it stands alone (a field, a list, before a
    colon). Inside a sentence a label may need what a typed name never takes: Italian writes «il
    giocatore A vince» but «Alice vince», French « le joueur A » but « Alice ». So a message writes
    ``{winner:the}`` inside a sentence and ``{winner:The}`` at its start; for a label, the catalog's
    ``<label key>.the`` form («il giocatore A»), capitalized for ``The``. A label may have further
    forms (``of``, ``to``: «del giocatore A», «al giocatore A») for words only labels take (the
    blitz timer's); a typed name has only ``the``, so a sentence that could take one cannot
    contract a preposition with an article it does not have (an unknown form is a ``KeyError``,
    which the catalog tests render with typed names to find).

    >>> label = Name("Giocatore A", {"the": "il giocatore A"})
    >>> "{0}: 3. {0:The} vince; vincerebbe {0:the}.".format(label)
    'Giocatore A: 3. Il giocatore A vince; vincerebbe il giocatore A.'
    >>> "{0:The} vince.".format(typed("Alice")) == f"{isolated('Alice')} vince."
    True
    """

    forms: dict[str, str]

    def __new__(cls, text: str, forms: dict[str, str] | None = None) -> "Name":
        name = super().__new__(cls, text)
        name.forms = dict(forms or {})
        return name

    def __format__(self, spec: str) -> str:
        if not spec:
            return str(self)
        form = self.forms[spec.lower()]
        return form[:1].upper() + form[1:] if spec[:1].isupper() else form


def typed(name: str) -> Name:
    """A name as typed (isolated): the same words wherever the sentence puts it."""
    shown = isolated(name)
    return Name(shown, {"the": shown})


def label(t: Translator, key: str, **params: object) -> Name:
    """A default label (``player.a``, ``judge-tower-shame.player``) with each form its language
    gives it in the catalog (``<key>.the``, ``<key>.of``…)."""
    forms = {form: template.format(**params) for form, template in t.templates(f"{key}.").items()
             if "." not in form}
    return Name(t(key, **params), forms)


def joined(t: Translator, parts: list[Name]) -> Name:
    """Several names as one (``list.and``: "A, B and C"), in every form all of them have."""
    def join(items: list[str]) -> str:
        return t("list.and", items=", ".join(items[:-1]), last=items[-1]) if len(items) > 1 else items[0]

    common = set.intersection(*(set(p.forms) for p in parts))
    return Name(join(parts), {form: join([p.forms[form] for p in parts]) for form in common})


def player(t: Translator, p: Player) -> Name:
    """The localized "Player A" / "Player B" with its forms."""
    return label(t, f"player.{p.value}")


def told_apart(t: Translator, entries: list[tuple[str | None, Name]]) -> list[Name]:
    """Each player's name as sentences take it, from ``(typed name or None, default label)``: the typed
    name, else the label. Two players with the same name (compared as the Réserve compares card names:
    case and runs of spaces aside) are each told apart by their label, "Anne (Player A)", rather than
    refused: the same first name at one table is ordinary, and the judge keeps what was typed.

    >>> t = Translator("en")
    >>> [str(n).replace(ISOLATE, "").replace(END_ISOLATE, "") for n in told_apart(t, [
    ...     ("Anne", player(t, Player.A)), ("ANNE", player(t, Player.B))])]
    ['Anne (Player A)', 'ANNE (Player B)']
    >>> told_apart(t, [("Player B", player(t, Player.A)), (None, player(t, Player.B))])[1]
    'Player B'
    """
    shared = sharing_a_name(entries)
    shown = []
    for i, (name, label) in enumerate(entries):
        if not name:
            shown.append(label)
        elif i in shared:
            apart = t("player.same_name", name=isolated(name), label=str(label))
            shown.append(Name(apart, {"the": apart}))
        else:
            shown.append(typed(name))
    return shown


def sharing_a_name(entries: list[tuple[str | None, Name]]) -> set[int]:
    """The indexes of the typed names in ``(typed name or None, default label)`` that another player's
    name or label also is (case and runs of spaces aside): those :func:`told_apart` names with a label.

    >>> t = Translator("en")
    >>> sorted(sharing_a_name([("Anne", player(t, Player.A)), (" anne ", player(t, Player.B))]))
    [0, 1]
    """
    def key(text: str) -> str:
        return " ".join(text.replace(ISOLATE, "").replace(END_ISOLATE, "").split()).casefold()

    count = Counter(key(name or label) for name, label in entries)
    return {i for i, (name, _) in enumerate(entries) if name and count[key(name)] > 1}


def names(values: dict[str, Any], t: Translator) -> dict[Player, Name]:
    """The typed names (isolated), or the localized "Player A" / "Player B"; the same name typed twice
    told apart (:func:`told_apart`)."""
    typed_names = [(values.get(f"name_{p.value}") or "").strip() or None for p in Player]
    return dict(zip(Player, told_apart(t, [(name, player(t, p)) for name, p in zip(typed_names, Player)])))
