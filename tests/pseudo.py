"""A pseudo-locale, made from the English catalogs and pages at test time and never published: every
message and every text of an English page accented, about 40 % longer and bracketed
(⟦Çáłçûłáţõr ··⟧). A word a user sees outside brackets was written in code (JavaScript, a template,
Python) instead of a catalog; longer words show a layout that only fits English lengths.

:func:`build` makes a copy of the checkout where English is the pseudo-locale and builds the site
from it, as ``make build`` does (the wheel too: the browser's verdicts come from its catalogs).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from sitebuild.typeset import map_text
from tests.kept import checkout_files, kept, makefile_epochs

OPEN, CLOSE = "\u27e6", "\u27e7"
ACCENTED = str.maketrans("aceinousyACEINOUSY", "áçéîñöüšýÅÇÉÎÑÖÜŠÝ")
#: The padding's groups: short, each after a space, so a long sentence can still wrap.
PAD_GROUP = 4
ROOT = Path(__file__).resolve().parents[1]


def pseudo(text: str) -> str:
    """One message in the pseudo-locale; ``{placeholders}`` (and their format specs) kept as they are.

    >>> pseudo("Player {name:the} wins")
    '⟦Pláýér {name:the} wîñš ···· ···· ·⟧'
    >>> pseudo("OK")
    '⟦ÖK ·⟧'
    """
    parts = re.split(r"(\{[^{}]*\})", text)
    body = "".join(p if p.startswith("{") else p.translate(ACCENTED) for p in parts)
    pad = max(1, round(len(text) * 0.4))
    groups = ["·" * PAD_GROUP] * (pad // PAD_GROUP) + (["·" * (pad % PAD_GROUP)] if pad % PAD_GROUP else [])
    return f"{OPEN}{body} {' '.join(groups)}{CLOSE}"


def outside_messages(text: str) -> str:
    """What is left once every message (innermost first: a label inside a sentence) is taken out."""
    previous = None
    while previous != text:
        previous, text = text, re.sub(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}", " ", text)
    return text


# --- the pseudo-localized build ------------------------------------------------------------------

#: The glossary's line of a term's names in every language ("English: … · français : … · italiano: …"):
#: other languages' words, which sitebuild/search.py reads from the built page; left as written.
GLOSSARY_NAMES = re.compile(r"^\s*English: .* · français : .* · italiano: .*$", re.S)


def pseudo_html(html: str) -> str:
    """Every text of ``html`` that holds a letter in the pseudo-locale (tags, comments, scripts and code kept).

    >>> pseudo_html('<p>Hi <a href="x">you</a>!<!-- calc:x --> 3</p>')
    '<p>⟦Hî ·⟧ <a href="x">⟦ýöü ·⟧</a>!<!-- calc:x --> 3</p>'
    """
    def change(part: str) -> str:
        if not re.search(r"[^\W\d_]", part) or GLOSSARY_NAMES.match(part):
            return part
        lead, core, trail = re.fullmatch(r"(\s*)(.*?)(\s*)", part, re.S).groups()
        return lead + pseudo(core) + trail

    return map_text(html, change)


#: mkdocs.yml's English words (site name, description, the palette toggles' names).
_YAML_WORDS = re.compile(r"^(site_name|site_description|        name): (?![{\[])(.+)$", re.M)
_HOOK = "hooks:\n  - sitebuild/mkdocs_hook.py\n"


def _pseudo_yaml(text: str) -> str:
    english = text.split("plugins:", 1)
    english[0] = _YAML_WORDS.sub(lambda m: f"{m.group(1)}: {pseudo(m.group(2).strip(chr(34)))}", english[0])
    text = "plugins:".join(english)
    assert _HOOK in text, "mkdocs.yml's hooks changed: update tests/pseudo.py"
    text = text.replace(_HOOK, "hooks:\n  - pseudo_hook.py\n  - sitebuild/mkdocs_hook.py\n")
    # English alone is walked: the other languages' pages are not built (their rules, the originals
    # of the English pages, come from the Markdown: sitebuild/rulebook.py)
    built = text.count("          build: true\n")
    assert built == 3, "mkdocs.yml's languages changed: update tests/pseudo.py"
    return text.replace("          build: true\n", "          build: false\n", 3).replace("          build: false\n", "          build: true\n", 1)


def _pseudo_catalogs(copy: Path) -> None:
    from babel.messages.pofile import read_po, write_po

    for po in [*copy.glob("calculators/locale/en/LC_MESSAGES/*.po"), *copy.glob("sitebuild/locale/en/LC_MESSAGES/*.po")]:
        with po.open("rb") as fh:
            catalog = read_po(fh, locale="en", domain=po.stem)
        for message in catalog:
            if message.id and isinstance(message.string, str):
                message.string = pseudo(message.string)
        with po.open("wb") as fh:
            write_po(fh, catalog)


def build(work: Path) -> Path:
    """The site built from a copy of the checkout whose English is the pseudo-locale; returns its folder.

    The copy shares the checkout's ``node_modules`` and build cache (read-only inputs, cached by
    content), so only what the catalogs change is built again.
    """
    copy = work / "checkout"
    for name in checkout_files():
        target = copy / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    (ROOT / ".cache").mkdir(exist_ok=True)
    for shared in ("node_modules", ".cache"):
        (copy / shared).symlink_to(ROOT / shared)
    _pseudo_catalogs(copy)
    (copy / "mkdocs.yml").write_text(_pseudo_yaml((ROOT / "mkdocs.yml").read_text(encoding="utf-8")), encoding="utf-8")
    shutil.copy2(Path(__file__).with_name("pseudo_hook.py"), copy / "pseudo_hook.py")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(copy)}
    env.pop("SITE_URL", None)
    run = lambda *args, **extra: subprocess.run(args, cwd=copy, check=True, capture_output=True,  # noqa: E731
                                                 env={**env, **extra})
    try:
        run(sys.executable, "tools/compile_catalogs.py")
        run(sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", "dist", ".",
            SOURCE_DATE_EPOCH=makefile_epochs()["wheel"])  # the Makefile's: the wheel's zip dates
        run(sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(work / "site"))
    except subprocess.CalledProcessError as err:
        raise RuntimeError(f"the pseudo-locale build failed: {err.args}\n{err.stdout.decode()}\n{err.stderr.decode()}") from err
    return work / "site"


#: This variant's own inputs, beside what the site is built from.
_OWN = ("tests/pseudo.py", "tests/pseudo_hook.py", "tests/kept.py", "tests/__init__.py")


def _build(folder: Path) -> None:
    build(folder)
    shutil.rmtree(folder / "checkout")


def ensure() -> Path:
    """The pseudo-locale site, kept in build/pseudo/ (tests/kept.py): built again only when the checkout
    changed since."""
    return kept("pseudo", _build, _OWN) / "site"


if __name__ == "__main__":  # make test: python -m tests.pseudo
    print(ensure())
