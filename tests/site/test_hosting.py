"""Ready-made host configuration (README, "Deploying"): each names every header the site needs,
and the public address comes from the environment, not from an edit of mkdocs.yml."""

from __future__ import annotations

import re

import pytest

from sitebuild.hosting import IMMUTABLE, TYPES, site_policy
from tests.site.conftest import ROOT

META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')


def headers_file(site) -> dict[str, dict[str, str]]:
    """site/_headers as {path: {header: value}}."""
    rules: dict[str, dict[str, str]] = {}
    current = None
    for line in (site / "_headers").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if not line.startswith(" "):
            current = rules.setdefault(line.strip(), {})
        else:
            name, _, value = line.strip().partition(": ")
            current[name] = value
    return rules


def test_the_header_policy_allows_what_every_page_runs_and_nothing_more(site):
    policy = site_policy(site)
    assert "frame-ancestors 'none'" in policy and "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy
    for page in site.rglob("*.html"):
        meta = META.search(page.read_text(encoding="utf-8")).group(1)
        script = re.search(r"script-src ([^;]*)", meta).group(1).split()
        assert set(script) <= set(re.search(r"script-src ([^;]*)", policy).group(1).split()), page


def test_netlify_and_cloudflare_headers(site):
    rules = headers_file(site)
    assert rules["/*"]["Content-Security-Policy"] == site_policy(site)
    assert rules["/*"]["X-Content-Type-Options"] == "nosniff"
    for hashed in ("/calc/pyodide-*", "/calc/wheel-*"):
        assert rules[hashed]["Cache-Control"] == IMMUTABLE
    assert "no-cache" in rules["/sw.js"]["Cache-Control"]
    assert list(site.glob("calc/pyodide-*/")) and list(site.glob("calc/wheel-*/"))  # the paths it names exist


def test_nginx_server_block():
    conf = (ROOT / "build" / "hosting" / "nginx.conf").read_text(encoding="utf-8")
    site = ROOT / "site"
    assert conf.count(f'add_header Content-Security-Policy "{site_policy(site)}" always;') == 2  # every location
    assert conf.count("add_header X-Content-Type-Options nosniff always;") == 2
    assert f'add_header Cache-Control "{IMMUTABLE}" always;' in conf and "(pyodide|wheel)-[0-9a-f]+/" in conf
    assert 'add_header Cache-Control "no-cache" always;' in conf
    for ext, mime in TYPES.items():
        assert f"{mime} {ext};" in conf
    assert "gzip_static on;" in conf and "brotli_static on;" in conf and "error_page 404 /404.html;" in conf
    assert conf.count("{") == conf.count("}")


def test_nginx_knows_the_type_of_every_file_the_site_has(site):
    """The server block declares its own types (the host's mime.types is not included): a new kind
    of file would go out as application/octet-stream."""
    kinds = {path.suffix.lstrip(".") for path in site.rglob("*.*") if path.suffix not in (".br", ".gz")}
    assert kinds and kinds <= set(TYPES), kinds - set(TYPES)


def test_github_pages_workflow_builds_with_the_public_address():
    workflow = (ROOT / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8")
    assert "SITE_URL: ${{ steps.pages.outputs.base_url }}/" in workflow
    assert "run: make build" in workflow and "path: site" in workflow and "actions/deploy-pages" in workflow


@pytest.mark.parametrize("url", ["https://rules.example.org/", "https://example.github.io/rules/"])
def test_the_public_address_comes_from_the_environment(url, monkeypatch):
    from mkdocs.config import load_config

    monkeypatch.setenv("SITE_URL", url)
    monkeypatch.chdir(ROOT)
    assert load_config(str(ROOT / "mkdocs.yml"))["site_url"] == url
    monkeypatch.delenv("SITE_URL")
    assert load_config(str(ROOT / "mkdocs.yml"))["site_url"] is None  # never a localhost default


def test_a_build_without_a_public_address_names_none(site):
    """Built without SITE_URL (as here): no page, rules list or sitemap names a local address, no page a
    canonical address, and no sitemap is written (it needs absolute addresses)."""
    import re

    for path in site.rglob("*"):
        if path.suffix in (".html", ".json", ".xml", ".js", ".webmanifest", ".txt") and path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace")
            assert not re.search(r"https?://(127\.0\.0\.1|localhost)|\bNone/", text), path
    assert 'rel="canonical"' not in (site / "naruto" / "index.html").read_text(encoding="utf-8")
    assert not list(site.rglob("sitemap.xml*"))
