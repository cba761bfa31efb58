"""The Content-Security-Policy of every page, computed at build time.

Static hosts cannot be relied on for headers, so each page carries its policy in a
``<meta http-equiv="Content-Security-Policy">`` placed first in ``<head>``, before any
script. Everything comes from the site itself; nothing else is allowed:

- ``script-src 'self'`` plus the sha256 hash of each inline script the page really has
  (Material's two small snippets: ``__md_scope`` helpers and the tab restorer; their text
  differs per page depth, so hashes are computed per page). No ``'unsafe-inline'`` (but under
  ``make dev``, whose live-reload script differs per response: :func:`policy`), no ``'unsafe-eval'``. ``'wasm-unsafe-eval'`` lets Pyodide's WebAssembly compile: the page
  compiles it (``calc/engine/start.js``) and hands the module to the worker, which compiles
  it itself as a fallback. A worker loaded from a URL is governed by its own response's
  policy, not by the page's meta tag; a host that sends this policy as a header on every
  file (``worker.js`` included) keeps the engine working: a browser test does exactly that,
  and another shows that without ``'wasm-unsafe-eval'`` the engine cannot start. Pyodide
  needs no ``eval``: it only evals EM_ASM code of shared libraries, and our wheel is pure Python.
- ``style-src 'self'``: Material and our scripts style elements through the CSSOM
  (``el.style.x = ...``), which a policy does not restrict; no page has an inline
  ``<style>`` or ``style=""`` attribute (hashes are added if one appears).
- ``img-src 'self' data:``: Material's icons are ``data:`` SVG URLs in its stylesheet.
- ``connect-src``, ``worker-src``, ``font-src``, ``manifest-src 'self'``; ``default-src
  'none'`` for the rest; ``base-uri``/``form-action 'self'``; ``object-src 'none'``.

``frame-ancestors`` cannot be set by a meta tag (browsers ignore it there): a host that can
send headers should send :func:`policy` plus ``frame-ancestors 'none'`` as a header.
"""

from __future__ import annotations

import base64
import hashlib
import re
from html import escape

#: ``<script ...>body</script>`` with its attributes.
_SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.S | re.I)
_STYLE = re.compile(r"<style\b[^>]*>(.*?)</style\s*>", re.S | re.I)
_STYLE_ATTRIBUTE = re.compile(r"""<[a-zA-Z][^>]*\sstyle\s*=\s*["']""")
_TYPE = re.compile(r"""\btype\s*=\s*["']?([^"'\s>]+)""", re.I)
#: Script types a browser runs; any other type (``application/json``) is a data block.
_EXECUTABLE = {"", "text/javascript", "module", "application/javascript"}
_HEAD = re.compile(r"<head\b[^>]*>", re.I)
_CHARSET = re.compile(r"<meta\s+charset=[^>]*>", re.I)
_META = re.compile(r"<meta\s+http-equiv=[\"']?content-security-policy", re.I)


def source_hash(text: str) -> str:
    """The CSP source expression allowing exactly this inline text.

    >>> source_hash("alert(1)")
    "'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='"
    """
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def inline_scripts(html: str) -> list[str]:
    """The bodies of the scripts a browser would run inline (not ``src=``, not data blocks)."""
    bodies = []
    for attrs, body in _SCRIPT.findall(html):
        kind = _TYPE.search(attrs)
        if "src=" in attrs.lower() or (kind.group(1).lower() if kind else "") not in _EXECUTABLE:
            continue
        bodies.append(body)
    return bodies


def policy(html: str, live_reload: bool = False) -> str:
    """The policy for one page: the site's own files, plus hashes of its inline scripts and styles.
    ``live_reload``: any inline script instead of those hashes (the dev server injects one per response).

    >>> p = policy('<head><script>var a=1</script><script type="application/json">{}</script></head>')
    >>> p.count("'sha256-"), "'unsafe-inline'" in p, "'unsafe-eval'" in p
    (1, False, False)
    >>> "script-src 'self' 'wasm-unsafe-eval' 'unsafe-inline';" in policy("<head></head>", live_reload=True)
    True
    """
    if _STYLE_ATTRIBUTE.search(html):
        raise ValueError("a style=\"\" attribute would need 'unsafe-inline' for styles: use a class")
    scripts = ["'unsafe-inline'"] if live_reload else sorted(set(map(source_hash, inline_scripts(html))))
    styles = sorted(set(map(source_hash, _STYLE.findall(html))))
    directives = {
        "default-src": ["'none'"],
        "script-src": ["'self'", "'wasm-unsafe-eval'", *scripts],
        "style-src": ["'self'", *styles],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "worker-src": ["'self'"],
        "manifest-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
    }
    return "; ".join(f"{name} {' '.join(sources)}" for name, sources in directives.items())


def head_start(html: str, tag: str) -> str:
    """``html`` with ``tag`` first in ``<head>``, after the charset (which must come first).

    >>> head_start('<html><head><meta charset="utf-8"><title>t</title></head></html>', '<x>')
    '<html><head><meta charset="utf-8"><x><title>t</title></head></html>'
    """
    anchor = _CHARSET.search(html) or _HEAD.search(html)
    if anchor is None:
        raise ValueError("page has no <head>")
    return html[: anchor.end()] + tag + html[anchor.end():]


def add_policy(html: str, live_reload: bool = False) -> str:
    """``html`` with its policy as the first element of ``<head>`` (after the charset).

    >>> out = add_policy('<html><head><meta charset="utf-8"><script>x()</script></head></html>')
    >>> out.index('http-equiv="Content-Security-Policy"') < out.index("<script>")
    True
    """
    if _META.search(html):
        raise ValueError("page already has a Content-Security-Policy meta tag")
    return head_start(html, f'<meta http-equiv="Content-Security-Policy" content="{escape(policy(html, live_reload), quote=False)}">')
