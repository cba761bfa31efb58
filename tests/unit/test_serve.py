"""tools/serve.py answers like a static host: gzip for text and wasm when asked, plain otherwise."""

from __future__ import annotations

import email.utils
import gzip
import time
import urllib.error
import urllib.request

import pytest

from sitebuild.hosting import HASHED, IMMUTABLE, REVALIDATE
from tools.serve import serve_in_thread


@pytest.fixture
def origin(tmp_path):
    (tmp_path / "page").mkdir()
    (tmp_path / "page" / "index.html").write_text("<p>" + "règle " * 500 + "</p>", encoding="utf-8")
    (tmp_path / "engine.wasm").write_bytes(b"\0asm" + bytes(5000))
    (tmp_path / "stdlib.zip").write_bytes(b"PK" + bytes(5000))
    server = serve_in_thread(tmp_path)
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def get(url: str, gzip_ok: bool, method: str = "GET", accept: str | None = None):
    accept = accept if accept is not None else ("gzip" if gzip_ok else "")
    request = urllib.request.Request(url, method=method, headers={"Accept-Encoding": accept} if accept else {})
    with urllib.request.urlopen(request) as response:
        return response.headers, response.read()


@pytest.mark.parametrize("path, content_type", [("/page/", "text/html"), ("/engine.wasm", "application/wasm")])
def test_compressible_files_are_sent_gzipped_when_accepted(origin, path, content_type, tmp_path):
    headers, body = get(origin + path, gzip_ok=True)
    plain_headers, plain = get(origin + path, gzip_ok=False)
    assert headers["Content-Encoding"] == "gzip" and headers["Content-Type"] == content_type
    assert int(headers["Content-Length"]) == len(body) < len(plain)
    assert gzip.decompress(body) == plain
    assert plain_headers["Content-Encoding"] is None and plain_headers["Content-Type"] == content_type
    head, empty = get(origin + path, gzip_ok=True, method="HEAD")
    assert head["Content-Length"] == headers["Content-Length"] and empty == b""


def test_compressed_formats_and_redirects_are_left_alone(origin):
    headers, body = get(origin + "/stdlib.zip", gzip_ok=True)
    assert headers["Content-Encoding"] is None and body.startswith(b"PK")
    headers, body = get(origin + "/page", gzip_ok=True)  # urllib follows the slash redirect
    assert gzip.decompress(body).startswith(b"<p>")


def test_missing_files_get_the_site_404_page(origin, tmp_path):
    request = urllib.request.Request(origin + "/fr/nope/")
    with pytest.raises(urllib.error.HTTPError) as answer:
        urllib.request.urlopen(request)
    assert answer.value.code == 404 and b"Error response" in answer.value.read()  # no 404.html: the default page
    (tmp_path / "404.html").write_text("<h1>Page not found</h1>", encoding="utf-8")
    with pytest.raises(urllib.error.HTTPError) as answer:
        urllib.request.urlopen(request)
    assert answer.value.code == 404 and answer.value.read() == b"<h1>Page not found</h1>"


def test_a_client_closing_early_prints_no_traceback(origin, tmp_path, capfd):
    """A browser leaving a page mid-download is ordinary: test output shows results only."""
    import socket
    from urllib.parse import urlsplit

    (tmp_path / "big.wasm").write_bytes(bytes(8_000_000))
    host, port = urlsplit(origin).hostname, urlsplit(origin).port
    for _ in range(3):
        with socket.create_connection((host, port)) as conn:
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\1\0\0\0\0\0\0\0")  # reset on close
            conn.sendall(b"GET /big.wasm HTTP/1.1\r\nHost: x\r\n\r\n")
            conn.recv(100)
    headers, _ = get(origin + "/page/", gzip_ok=False)  # the server still answers
    assert headers["Content-Type"] == "text/html"
    err = capfd.readouterr().err
    assert "Traceback" not in err and "BrokenPipe" not in err and "ConnectionReset" not in err, err


def test_precompressed_copies_are_negotiated(origin, tmp_path):
    """The build's .br/.gz copies go to browsers that accept them (Brotli first), with Vary;
    others get the file as is; a file without copies is still gzipped on the fly."""
    import brotli

    from sitebuild.precompress import precompress

    (tmp_path / "app.js").write_text("const rule = 'exactly ten cards';\n" * 200, encoding="utf-8")
    written = precompress(tmp_path)
    assert {p.name for p in written} >= {"app.js.br", "app.js.gz", "engine.wasm.br", "engine.wasm.gz"}
    plain = (tmp_path / "app.js").read_bytes()
    headers, body = get(origin + "/app.js", gzip_ok=False, accept="gzip, deflate, br, zstd")
    assert headers["Content-Encoding"] == "br" and brotli.decompress(body) == plain
    assert headers["Content-Type"] == "text/javascript" and "Accept-Encoding" in headers["Vary"]
    headers, body = get(origin + "/app.js", gzip_ok=True)
    assert headers["Content-Encoding"] == "gzip" and body == (tmp_path / "app.js.gz").read_bytes()
    assert gzip.decompress(body) == plain
    headers, body = get(origin + "/app.js", gzip_ok=False)
    assert headers["Content-Encoding"] is None and body == plain and "Accept-Encoding" in headers["Vary"]
    (tmp_path / "other.css").write_text("p { color: red }\n" * 200, encoding="utf-8")  # no copies
    headers, body = get(origin + "/other.css", gzip_ok=False, accept="br, gzip")
    assert headers["Content-Encoding"] == "gzip" and gzip.decompress(body) == (tmp_path / "other.css").read_bytes()


def test_hashed_engine_files_are_immutable_and_the_rest_revalidated(origin, tmp_path):
    """As the build's host configurations say: a first visit's prefetch of the wasm is then the
    download the worker reads (no second download, no revalidation)."""
    hashed = ["/calc/pyodide-0a1b2c/file.js", "/calc/wheel-3d4e5f/file.js"]  # folders as the build names them
    for path in [*hashed, "/calc/file.js"]:
        (tmp_path / path.lstrip("/")).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path.lstrip("/")).write_text("x()", encoding="utf-8")
    assert len(HASHED) == len(hashed)  # one example per pattern
    for path in hashed:
        assert get(origin + path, gzip_ok=True)[0]["Cache-Control"] == IMMUTABLE, path
        assert get(origin + path + "?v=1", gzip_ok=False)[0]["Cache-Control"] == IMMUTABLE, path
    for path in ("/calc/file.js", "/page/", "/engine.wasm"):
        assert get(origin + path, gzip_ok=True)[0]["Cache-Control"] == REVALIDATE, path
    with pytest.raises(urllib.error.HTTPError) as missing:  # a hashed path that is not there: not kept
        get(origin + "/calc/pyodide-0a1b2c/missing.js", gzip_ok=True)
    assert missing.value.code == 404 and missing.value.headers["Cache-Control"] == REVALIDATE


@pytest.mark.parametrize("accept", ["gzip", "br, gzip", ""])
def test_a_revalidation_of_an_unchanged_file_is_answered_not_modified(origin, tmp_path, accept):
    """As hosts answer a browser revalidating its copy (a page's files are revalidated on every visit):
    304 without a body, for the encoded copies too; a file changed since is sent again."""
    (tmp_path / "page" / "index.html.br").write_bytes(b"not really brotli")
    headers, _ = get(origin + "/page/", gzip_ok=True, accept=accept)
    request = urllib.request.Request(origin + "/page/", headers={"Accept-Encoding": accept, "If-Modified-Since": headers["Last-Modified"]})
    with pytest.raises(urllib.error.HTTPError) as answer:  # urllib raises on a 304
        urllib.request.urlopen(request)
    assert answer.value.code == 304 and answer.value.read() == b""
    request.add_header("If-Modified-Since", "Thu, 01 Jan 1970 00:00:00 GMT")
    with urllib.request.urlopen(request) as response:
        assert response.status == 200 and response.read()


def test_a_revalidation_dated_without_a_zone_is_read_as_utc(origin, tmp_path, monkeypatch):
    """An HTTP date may end in "-0000" (no zone said): UTC, as the standard library reads it, whatever
    the machine's zone (east of UTC, reading it as local time made an unchanged file look changed)."""
    monkeypatch.setenv("TZ", "JST-9")
    time.tzset()
    (tmp_path / "page" / "index.html.br").write_bytes(b"not really brotli")  # a copy the server chooses itself
    try:
        headers, _ = get(origin + "/page/", gzip_ok=True, accept="br")
        stamp = email.utils.format_datetime(email.utils.parsedate_to_datetime(headers["Last-Modified"])).replace("+0000", "-0000")
        assert stamp.endswith("-0000")
        request = urllib.request.Request(origin + "/page/", headers={"Accept-Encoding": "br", "If-Modified-Since": stamp})
        with pytest.raises(urllib.error.HTTPError) as answer:
            urllib.request.urlopen(request)
        assert answer.value.code == 304
    finally:
        monkeypatch.undo()
        time.tzset()
