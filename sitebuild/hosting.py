"""Host configuration written with every build, from the built pages themselves.

- ``site/_headers``: Netlify and Cloudflare Pages read it at deploy time (and do not publish it).
- ``build/hosting/nginx.conf``: a complete nginx server block for ``site/``.

Both send the pages' Content-Security-Policy as a header (a meta tag cannot govern the engine's
worker, nor set ``frame-ancestors``): the union of every page's meta policy, whose only per-page
parts are the hashes of Material's inline scripts. Engine files live under content-hashed paths
and are sent as immutable; everything else is revalidated (hosts' default for HTML; said
explicitly for ``sw.js`` and the unhashed scripts). nginx also gets the type of each kind of file
(:data:`TYPES`) and serves the build's ``.br``/``.gz`` copies. GitHub Pages sends no custom header: there the meta
tag is the policy (``.github/workflows/pages.yml``).
"""

from __future__ import annotations

import fnmatch
import re
from html import unescape
from pathlib import Path

_META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
#: Engine directories named by their content hash (sitebuild: engine.install_engine).
HASHED = ("/calc/pyodide-*", "/calc/wheel-*")
#: The type of every kind of file the site has (tests/site/test_hosting.py checks none is missing). The
#: nginx block declares them all instead of including the host's mime.types: one that lists wasm too
#: (Debian's) made nginx warn "duplicate extension" at every start, one that lacks .mjs or .wasm (older
#: nginx) would stop the engine, which starts only with these types.
TYPES = {
    "html": "text/html", "css": "text/css", "js": "text/javascript", "mjs": "text/javascript",
    "json": "application/json", "map": "application/json", "webmanifest": "application/manifest+json",
    "wasm": "application/wasm", "zip": "application/zip", "whl": "application/zip", "png": "image/png",
    "svg": "image/svg+xml", "ico": "image/x-icon", "txt": "text/plain", "xml": "application/xml",
}


def is_hashed(path: str) -> bool:
    """Whether the site's file at URL path ``path`` ("/calc/pyodide-0a1b/x.wasm") is under a hashed folder.

    >>> is_hashed("/calc/wheel-0a1b/w.whl"), is_hashed("/calc/calc.js")
    (True, False)
    """
    return any(fnmatch.fnmatchcase(path, pattern) for pattern in HASHED)


def site_policy(site: Path) -> str:
    """Every page's meta policy merged into one, plus ``frame-ancestors 'none'`` (header only)."""
    merged: dict[str, list[str]] = {}
    pages = sorted(site.rglob("*.html"))
    for page in pages:
        found = _META.search(page.read_text(encoding="utf-8"))
        if not found:
            raise ValueError(f"{page.relative_to(site)} has no Content-Security-Policy meta tag")
        for directive in unescape(found.group(1)).split(";"):
            name, *sources = directive.split()
            merged.setdefault(name, [])
            merged[name] += [s for s in sources if s not in merged[name]]
    merged["frame-ancestors"] = ["'none'"]
    return "; ".join(f"{name} {' '.join(sources)}" for name, sources in merged.items())


def netlify_headers(policy: str) -> str:
    lines = ["# Written by the build (sitebuild/hosting.py): Netlify and Cloudflare Pages headers.",
             "/*", f"  Content-Security-Policy: {policy}", "  X-Content-Type-Options: nosniff"]
    for path in HASHED:
        lines += [path, f"  Cache-Control: {IMMUTABLE}"]
    for path in ("/sw.js", "/calc/*.js"):
        lines += [path, f"  Cache-Control: {REVALIDATE}"]
    return "\n".join(lines) + "\n"


def nginx_conf(policy: str) -> str:
    # add_header in a location replaces every inherited one: the security headers are repeated.
    security = (f'        add_header Content-Security-Policy "{policy}" always;\n'
                '        add_header X-Content-Type-Options nosniff always;\n')
    types = "".join(f"        {mime} {ext};\n" for ext, mime in TYPES.items())
    return (
        "# Written by the build (sitebuild/hosting.py): an nginx server block for the built site.\n"
        "# Copy site/ to the root below. brotli_static needs ngx_brotli (Debian: libnginx-mod-http-brotli-static);\n"
        "# without it, delete that line: gzip_static still sends the .gz copies.\n"
        "server {\n"
        "    listen 80;\n"
        "    server_name _;\n"
        "    root /var/www/card-game-rules;\n"
        f"    types {{\n{types}    }}\n"
        "    default_type application/octet-stream;\n"
        "    gzip_static on;\n"
        "    brotli_static on;\n"
        "    error_page 404 /404.html;\n"
        "    location ~ ^/calc/(pyodide|wheel)-[0-9a-f]+/ {\n"
        f'        add_header Cache-Control "{IMMUTABLE}" always;\n'
        f"{security}"
        "    }\n"
        "    location / {\n"
        f'        add_header Cache-Control "{REVALIDATE}" always;\n'
        f"{security}"
        "        try_files $uri $uri/ =404;\n"
        "    }\n"
        "}\n"
    )


def write_hosting(site: Path, out: Path) -> str:
    """Write ``site/_headers`` and ``out/nginx.conf``; return the policy they send."""
    policy = site_policy(site)
    (site / "_headers").write_text(netlify_headers(policy), encoding="utf-8")
    out.mkdir(parents=True, exist_ok=True)
    (out / "nginx.conf").write_text(nginx_conf(policy), encoding="utf-8")
    return policy
