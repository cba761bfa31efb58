"""The error family raised by every rule function.

A :class:`RuleError` carries a machine ``code`` (the key of a localized
message), the ``field`` it concerns and the offending ``value``; extra
``params`` feed the localized sentence. The English ``str()`` is for logs
and developers only.

>>> err = RuleError("players", "below_table", 3, minimum=4)
>>> err.field, err.code, err.value, err.params
('players', 'below_table', 3, {'minimum': 4})
>>> str(err)
'players: below_table (got 3; minimum=4)'
>>> isinstance(err, ValueError)
True
"""

from __future__ import annotations

from typing import Any


class RuleError(ValueError):
    """An input that a rule cannot be applied to."""

    def __init__(self, field: str, code: str, value: Any = None, **params: Any) -> None:
        self.field = field
        self.code = code
        self.value = value
        self.params = params
        extra = "; ".join(f"{k}={v!r}" for k, v in params.items())
        super().__init__(f"{field}: {code} (got {value!r}{'; ' + extra if extra else ''})")


class NotAWholeNumber(RuleError):
    """A count that is not a whole number (text, decimals, booleans)."""

    def __init__(self, field: str, value: Any) -> None:
        super().__init__(field, "not_integer", value)


class OutOfRange(RuleError):
    """A whole number outside the bounds a rule accepts."""

    def __init__(self, field: str, value: Any, minimum: int | None = None, maximum: int | None = None) -> None:
        super().__init__(field, "out_of_range", value, minimum=minimum, maximum=maximum)


def require_int(field: str, value: Any, minimum: int | None = None, maximum: int | None = None) -> int:
    """Return ``value`` if it is an int within bounds, else raise.

    >>> require_int("players", 8, minimum=0)
    8
    >>> require_int("players", True)
    Traceback (most recent call last):
    ...
    rules_core.errors.NotAWholeNumber: players: not_integer (got True)
    >>> require_int("players", -1, minimum=0)
    Traceback (most recent call last):
    ...
    rules_core.errors.OutOfRange: players: out_of_range (got -1; minimum=0; maximum=None)
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise NotAWholeNumber(field, value)
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        raise OutOfRange(field, value, minimum, maximum)
    return value
