"""The build's words: the runtime catalogs plus the build's own domain (``sitebuild/locale``).

Words only the built pages use (service-worker prompt, app manifest, 404 page) stay out of the
wheel that every phone downloads, so they live here rather than in ``calculators/locale``.
"""

from __future__ import annotations

from pathlib import Path

from calculators.i18n import Translator

BUILD_LOCALE = Path(__file__).with_name("locale")


def words(lang: str) -> Translator:
    """A translator for ``lang`` that knows the runtime's and the build's messages."""
    return Translator(lang, (BUILD_LOCALE,))
