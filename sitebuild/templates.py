"""What the templates in ``overrides/`` read from the build (the Jinja global ``sitebuild``).

Values are returned HTML-escaped: MkDocs' Jinja environment does not autoescape.
"""

from __future__ import annotations

import base64
import mimetypes
import re
from html import escape, unescape
from importlib.metadata import version
from pathlib import Path

from calculators.i18n import LANGUAGES, REFERENCE_LANGUAGE, language_folder
from sitebuild.contract import modulepreloads, page_data_json, stylesheets
from sitebuild.engine import WEB
from sitebuild.offline import THEME_COLOR
from sitebuild.words import words


def widget_names(html: str) -> list[str]:
    """The widgets (``data-widget``, each a ``calc/widgets/<name>.js``) of a page's calculators, sorted."""
    return sorted(set(re.findall(r'\sdata-widget="([a-z0-9-]+)"', html)))


def material_search_worker() -> str:
    """``assets/javascripts/workers/search.<hash>.min.js`` as the installed Material ships it."""
    import material

    folder = Path(material.__file__).parent / "templates"
    found = sorted(folder.glob("assets/javascripts/workers/search.*.min.js"))
    if len(found) != 1:
        raise FileNotFoundError(f"expected one search worker in {folder}, found {[p.name for p in found]}")
    return found[0].relative_to(folder).as_posix()


class TemplateData:
    reference = REFERENCE_LANGUAGE
    theme_color = THEME_COLOR
    #: The installed Material's version, for the generator line our copy of its ``site_meta`` block
    #: writes (a literal there said 9.8.1 after the move to 9.8.2).
    material_version = version("mkdocs-material")
    #: Material's search worker, whose file name carries a hash that changes with its releases (our
    #: copy of its ``config`` block names it).
    search_worker = material_search_worker()

    def __init__(self, theme_dirs: tuple[str, ...] | list[str] = ()) -> None:
        self.theme_dirs = [Path(d) for d in theme_dirs]

    def favicon_data_url(self, favicon: str) -> str:
        """The theme's favicon as a data: URL: a file was fetched again after every
        history.replaceState (each keystroke in a calculator)."""
        for folder in self.theme_dirs:
            if (folder / favicon).is_file():
                data = (folder / favicon).read_bytes()
                kind = mimetypes.guess_type(favicon)[0] or "image/png"
                return f"data:{kind};base64,{base64.b64encode(data).decode()}"
        raise FileNotFoundError(f"favicon {favicon!r} is in none of the theme's folders {self.theme_dirs}")

    @staticmethod
    def title(title: str) -> str:
        """A page title as the tab shows it: without tags, its no-break spaces kept (Jinja's
        ``striptags`` turns every run of whitespace, a no-break space included, into one space).

        >>> TemplateData.title("JCC Pokémon\xa0: <em>limite</em>  de temps &amp; plus")
        'JCC Pokémon\xa0: limite de temps &amp; plus'
        """
        text = unescape(re.sub(r"<[^>]*>", "", title))
        return escape(re.sub(r"[ \t\r\n]+", " ", text).strip(), quote=False)

    @staticmethod
    def folder(lang: str) -> str:
        return language_folder(lang)

    @staticmethod
    def stylesheets(content: str) -> list[str]:
        """Every stylesheet of ours a page links: the site's, its features' (sitebuild/contract.py), its widgets'."""
        return stylesheets(content) + TemplateData.widget_stylesheets(content)

    @staticmethod
    def widget_stylesheets(content: str) -> list[str]:
        """The stylesheets of the widgets on a page (``data-widget``), linked from its head: added by
        the widget's script they arrived after the first layout, and restyled the whole page."""
        return [f"calc/widgets/{name}.css" for name in widget_names(content or "")
                if (WEB / "widgets" / f"{name}.css").is_file()]

    @staticmethod
    def modulepreloads(content: str) -> list[str]:
        """The modules a page preloads (sitebuild/contract.py), its widgets' with them."""
        return modulepreloads(content, tuple(f"widgets/{name}.js" for name in widget_names(content or "")))

    @staticmethod
    def page_data(content: str, lang: str) -> str:
        """The page's data block: the words and limits its scripts need (sitebuild/contract.py)."""
        return page_data_json(content, lang)

    @staticmethod
    def not_found(base_url: str) -> str:
        """The 404 page's content, served by hosts at any path, for a reader of any of our languages:
        "not found" and a link to each language's home page, each in its own language. Its hidden
        lines (`nf-offline`) are what the service worker shows instead for a page of the site whose
        copy on the phone is missing or damaged, offline (web/offline/sw.js): the page exists, the network is
        needed."""
        root = base_url if base_url.endswith("/") else base_url + "/"
        parts = []
        for lang in LANGUAGES:
            t = words(lang)
            said, offline = "", escape(t("ui.not_found.offline"))
            if lang != REFERENCE_LANGUAGE:  # (the reference language's heading says it)
                said = f'<span class="nf-online">{escape(t("ui.not_found.title"))}. </span>'
                offline = f'{escape(t("ui.not_found.offline_title"))}. {offline}'
            home = root + language_folder(lang)
            parts.append(f'<p lang="{lang}" class="nf-offline" hidden>{offline}</p>'
                         f'<p lang="{lang}">{said}<a href="{home}">{escape(t("ui.not_found.home"))}</a></p>')
        ref = words(REFERENCE_LANGUAGE)
        return (f'<h1 id="not-found" class="nf-online">{escape(ref("ui.not_found.title"))}</h1>'
                f'<h1 id="not-offline" class="nf-offline" hidden>{escape(ref("ui.not_found.offline_title"))}</h1>'
                + "".join(parts))
