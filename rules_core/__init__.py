"""Pure rules of the card-game tournament texts we publish.

Standard library only: no browser, no MkDocs, no user-facing prose. Functions
return enums, frozen dataclasses and machine codes, and raise the
:class:`RuleError` family, which names the offending field and quotes the value.
"""

from rules_core.errors import RuleError

__all__ = ["RuleError"]
