"""Message catalogs: gettext ``.mo`` files compiled from ``locale/<lang>/LC_MESSAGES/<domain>.po``.

Message ids are stable keys (``naruto-rounds.players.label``); English is the
reference language. Each calculator family has its own domain so catalogs can
grow independently; keys must be unique across domains (a unit test checks).
Messages use ``str.format`` placeholders (``{players}``).
"""

from __future__ import annotations

import functools
import gettext
from pathlib import Path

LANGUAGES: tuple[str, ...] = ("en", "fr", "it")
REFERENCE_LANGUAGE = "en"
LOCALE_DIR = Path(__file__).with_name("locale")


def language_folder(lang: str) -> str:
    """Where a language lives on the site, relative to its root: ``""`` for the reference language,
    ``"fr/"`` for the others (the one place that says so).

    >>> language_folder("en"), language_folder("fr")
    ('', 'fr/')
    """
    return "" if lang == REFERENCE_LANGUAGE else f"{lang}/"


def domains(locale_dir: Path | None = None) -> tuple[str, ...]:
    """Every catalog domain, found from the reference language's compiled ``.mo`` files.

    None found means the catalogs were never compiled (they are build output, not sources): that
    is said here, rather than as a missing message key on the first lookup.
    """
    folder = (locale_dir or LOCALE_DIR) / REFERENCE_LANGUAGE / "LC_MESSAGES"
    found = tuple(sorted(p.stem for p in folder.glob("*.mo")))
    if not found:
        raise FileNotFoundError(f"no compiled message catalogs (.mo) in {folder}: run `make catalogs`")
    return found


@functools.lru_cache(maxsize=None)
def catalog(lang: str, extra: tuple[Path, ...] = ()) -> dict[str, str]:
    """All messages of ``lang`` as one dict (key -> text), merged over domains; ``extra`` locale
    folders (the build's own words, which the wheel does not carry) are merged in too."""
    messages: dict[str, str] = {}
    for locale_dir in (LOCALE_DIR, *extra):
        messages.update(_messages(locale_dir, lang))
    return messages


def _messages(locale_dir: Path, lang: str) -> dict[str, str]:
    messages: dict[str, str] = {}
    for domain in domains(locale_dir):
        mo = locale_dir / lang / "LC_MESSAGES" / f"{domain}.mo"
        with mo.open("rb") as fh:
            translations = gettext.GNUTranslations(fh)
        messages.update({k: v for k, v in translations._catalog.items() if isinstance(k, str) and k})
    return messages


def number(value: object) -> object:
    """A negative whole number as the site writes it, with a minus sign (U+2212), not a hyphen.

    >>> number(-1), number(3)
    ('\u22121', 3)
    """
    return f"\u2212{-value}" if isinstance(value, int) and not isinstance(value, bool) and value < 0 else value


class Translator:
    """Looks up and formats messages in one language.

    A missing key raises ``KeyError``: catalogs are checked complete by the
    tests, so a missing key is a bug, never something to show a user.
    """

    def __init__(self, lang: str, extra: tuple[Path, ...] = ()) -> None:
        self.lang = lang
        self._messages = catalog(lang, extra)

    def __call__(self, key: str, **params: object) -> str:
        return self._messages[key].format(**params)

    def has(self, key: str) -> bool:
        return key in self._messages

    def templates(self, prefix: str) -> dict[str, str]:
        """Unformatted messages whose key starts with ``prefix`` (for the page's scripts to fill in)."""
        return {k[len(prefix):]: v for k, v in self._messages.items() if k.startswith(prefix)}
