"""The built site behind a real nginx with the configuration the build writes (build/hosting/nginx.conf):
the headers each path must get, a shared link's verdict, and a start without a warning.

Debian's ``nginx-light`` with ``libnginx-mod-http-brotli-static`` is installed with apt when missing
(tools/apt.py, as Chromium is) and run as root on 127.0.0.1 without a system service: ``nginx -c``
with its pid file and error log in a temporary folder. Skipped, with the reason, where that cannot be.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from calculators import evaluate
from sitebuild.hosting import IMMUTABLE, site_policy
from tests.browser.conftest import ROOT, SITE, expect_ready
from tests.browser.pages import summary
from tools import apt

PACKAGES = ("nginx-light", "libnginx-mod-http-brotli-static")
BROTLI_MODULE = Path("/usr/lib/nginx/modules/ngx_http_brotli_static_module.so")
#: The shared link: a filled-in calculator, in French.
LINK = ("/fr/naruto/?naruto-rounds.players=24#calc-naruto-rounds", "naruto-rounds", {"players": "24"}, "fr")


def nginx_binary() -> str:
    """nginx and its Brotli module, installed when missing; the test is skipped where they cannot be."""
    if os.geteuid() != 0:
        pytest.skip("runs nginx as root, as CI does")
    if not (shutil.which("nginx") and BROTLI_MODULE.is_file()):
        reason = apt.unavailable()
        if reason:
            pytest.skip(f"{' and '.join(PACKAGES)} are missing and {reason}")
        apt.install(*PACKAGES)
    return shutil.which("nginx")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def nginx(tmp_path_factory):
    """``(origin, startup output, error log)`` of nginx serving site/ with the generated server block,
    its address and root being the only lines a deployer changes."""
    binary = nginx_binary()
    tmp = tmp_path_factory.mktemp("nginx")
    port = free_port()
    server = (ROOT / "build" / "hosting" / "nginx.conf").read_text(encoding="utf-8")
    assert "    listen 80;\n" in server and "    root /var/www/card-game-rules;\n" in server
    server = server.replace("listen 80;", f"listen 127.0.0.1:{port};").replace(
        "root /var/www/card-game-rules;", f"root {SITE};")
    (tmp / "site.conf").write_text(server, encoding="utf-8")
    temp_paths = "".join(f"    {kind}_temp_path {tmp}/{kind};\n"
                         for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    (tmp / "nginx.conf").write_text(
        "include /etc/nginx/modules-enabled/*.conf;\n"  # Debian loads brotli_static here
        "user root;\n"
        f"pid {tmp}/nginx.pid;\n"
        f"error_log {tmp}/error.log notice;\n"
        "events { worker_connections 64; }\n"
        f"http {{\n    access_log off;\n{temp_paths}    include {tmp}/site.conf;\n}}\n",
        encoding="utf-8")
    conf = str(tmp / "nginx.conf")
    checked = subprocess.run([binary, "-t", "-c", conf], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    # Daemonized: nginx returns once its master listens, so no waiting for it to come up.
    started = subprocess.run([binary, "-c", conf], capture_output=True, text=True, check=True)
    try:
        yield f"http://127.0.0.1:{port}", checked.stderr + started.stderr, tmp / "error.log"
    finally:
        subprocess.run([binary, "-c", conf, "-s", "stop"], check=True)


def get(url: str, encoding: str = "br, gzip") -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers={"Accept-Encoding": encoding})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read()


def test_nginx_starts_with_the_generated_configuration_without_a_warning(nginx):
    _, output, error_log = nginx
    logged = error_log.read_text(encoding="utf-8")
    for level in ("[warn]", "[emerg]", "[alert]", "[crit]", "[error]"):
        assert level not in output and level not in logged, output + logged


def test_each_path_gets_its_headers_from_nginx(nginx):
    origin = nginx[0]
    policy = site_policy(SITE)
    wasm, = SITE.glob("calc/pyodide-*/pyodide.asm.wasm")
    wheel, = SITE.glob("calc/wheel-*/*.whl")

    status, headers, body = get(f"{origin}/{wasm.relative_to(SITE)}")
    assert status == 200 and headers["Content-Encoding"] == "br" and headers["Content-Type"] == "application/wasm"
    assert body == wasm.with_name(wasm.name + ".br").read_bytes()
    assert headers["Cache-Control"] == IMMUTABLE and headers["Content-Security-Policy"] == policy
    status, headers, _ = get(f"{origin}/{wasm.relative_to(SITE)}", encoding="gzip")
    assert headers["Content-Encoding"] == "gzip" and headers["Cache-Control"] == IMMUTABLE
    status, headers, _ = get(f"{origin}/{wheel.relative_to(SITE)}")
    assert status == 200 and headers["Cache-Control"] == IMMUTABLE

    for path, kind in (("/fr/naruto/", "text/html"), ("/sw.js", "text/javascript"),
                       ("/calc/engine/start.js", "text/javascript"), ("/manifest.webmanifest", "application/manifest+json")):
        status, headers, _ = get(origin + path)
        assert status == 200 and headers["Content-Type"].startswith(kind), (path, headers)
        assert headers["Cache-Control"] == "no-cache" and headers["Content-Security-Policy"] == policy, path
        assert headers["X-Content-Type-Options"] == "nosniff", path
    mjs, = SITE.glob("calc/pyodide-*/pyodide.mjs")
    assert get(f"{origin}/{mjs.relative_to(SITE)}")[1]["Content-Type"] == "text/javascript"

    status, headers, body = get(f"{origin}/no-such-page/", encoding="identity")
    assert status == 404 and body == (SITE / "404.html").read_bytes()
    assert headers["Content-Security-Policy"] == policy


def test_a_shared_link_gives_its_verdict_through_nginx(nginx, fresh):
    origin = nginx[0]
    path, calc_id, inputs, lang = LINK
    _, page, _ = fresh(origin)
    page.goto(origin + path)
    calc = page.locator(f'.calc[data-calc="{calc_id}"]')
    expect_ready(calc)
    verdict = evaluate(calc_id, inputs, lang)
    assert verdict["ok"]
    expect(summary(calc)).to_have_text(verdict["summary"])
    assert json.loads(calc.get_attribute("data-result")) == verdict["result"]
