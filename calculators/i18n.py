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


def singular(lang: str, value: float) -> bool:
    """Whether a count of ``value`` takes the singular (CLDR's "one", as ``Intl.PluralRules`` in the
    browser): in English and Italian only 1; in French 0 and anything below 2 (« 1,5 joueur »).

    >>> [singular("fr", n) for n in (0, 1, 1.5, 2)], [singular("it", n) for n in (0, 1, 1.5, 2)]
    ([True, True, True, False], [False, True, False, False])
    """
    return abs(value) < 2 if lang == "fr" else value == 1


#: The decimal separator where it is not a point.
DECIMAL_COMMA = {"fr", "it"}
#: Each language's thousands separator (CLDR's, as Babel and ``Intl.NumberFormat`` give it; the
#: wheel carries no Babel: tests/unit/test_counts.py compares). French: a narrow no-break space.
GROUP = {"en": ",", "fr": "\u202f", "it": "."}
#: Digits before the decimal separator from which a number is grouped: CLDR's minimumGroupingDigits
#: plus 3, as ``Intl.NumberFormat`` applies it by default ("1,000", « 1 000 », but Italian "1000" and
#: "10.000"). Babel ignores minimumGroupingDigits ("1.000"), so the test compares with Node's Intl.
GROUP_FROM = {"en": 4, "fr": 4, "it": 5}


class Count:
    """A number in a message: ``{n}`` writes it as the site does (minus sign, the language's decimal
    separator, its thousands separator from CLDR's :data:`GROUP_FROM` digits up); ``{n:card|cards}`` writes the singular or the plural by :func:`singular`, so one
    message reads right for 0, 1, 1.5 and 2 (``web/share.js`` fill() reads the same syntax).

    >>> "{0} {0:joueur|joueurs}, {1} {1:joueur|joueurs}".format(Count(1.5, "fr"), Count(2, "fr"))
    '1,5 joueur, 2 joueurs'
    >>> [str(Count(n, "it")) for n in (1000, 10000, -1234567)], str(Count(1000, "en"))
    (['1000', '10.000', '−1.234.567'], '1,000')
    """

    def __init__(self, value: float, lang: str) -> None:
        self.value, self.lang = value, lang

    def __format__(self, spec: str) -> str:
        if "|" in spec:
            one, other = spec.split("|", 1)
            return one if singular(self.lang, self.value) else other
        if spec:
            return format(self.value, spec)
        # At most three decimals, as Intl.NumberFormat writes them by default.
        text = f"{abs(self.value):,.3f}".rstrip("0").rstrip(".") if isinstance(self.value, float) else f"{abs(self.value):,}"
        whole = text.split(".")[0]
        group = GROUP[self.lang] if len(whole) - whole.count(",") >= GROUP_FROM[self.lang] else ""
        decimal = "," if self.lang in DECIMAL_COMMA else "."
        text = text.translate({ord(","): group, ord("."): decimal})
        return f"\u2212{text}" if self.value < 0 else text

    def __str__(self) -> str:
        return format(self, "")


class Later:
    """A placeholder left for the page's script to fill (``{count}``, or ``{count:card|cards}`` with
    its forms), where the build fills the rest of a message.

    >>> "{0} {0:card|cards}".format(Later("count"))
    '{count} {count:card|cards}'
    """

    def __init__(self, name: str) -> None:
        self.name = name

    def __format__(self, spec: str) -> str:
        return f"{{{self.name}:{spec}}}" if spec else f"{{{self.name}}}"


class Translator:
    """Looks up and formats messages in one language.

    A missing key raises ``KeyError``: catalogs are checked complete by the
    tests, so a missing key is a bug, never something to show a user.
    """

    def __init__(self, lang: str, extra: tuple[Path, ...] = ()) -> None:
        self.lang = lang
        self._messages = catalog(lang, extra)

    def __call__(self, key: str, **params: object) -> str:
        counts = {k: Count(v, self.lang) for k, v in params.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
        return self._messages[key].format(**{**params, **counts})

    def has(self, key: str) -> bool:
        return key in self._messages

    def templates(self, prefix: str) -> dict[str, str]:
        """Unformatted messages whose key starts with ``prefix`` (for the page's scripts to fill in)."""
        return {k[len(prefix):]: v for k, v in self._messages.items() if k.startswith(prefix)}
