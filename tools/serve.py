"""Serve the built site on 127.0.0.1 (used by `make serve`, `make bench` and the browser tests).

A plain static server, like a well-configured host the site is deployed to: the MIME types the
engine needs (``.mjs``, ``.wasm``) set explicitly; the engine's content-hashed files sent as
immutable, everything else revalidated (as the build's host configurations say,
sitebuild/hosting.py); the build's precompressed copies (``<file>.br``, ``<file>.gz``,
sitebuild/precompress.py) sent to browsers that accept them, as
nginx's ``brotli_static``/``gzip_static`` do; other text and wasm gzip-compressed on the fly (what
a host does with files it has no precompressed copy of); and ``404.html`` for missing files. What
the browser tests and the benchmark see on the wire is what a phone gets.
"""

from __future__ import annotations

import argparse
import datetime
import email.utils
import functools
import gzip
import http.server
import io
import os
import sys
import threading
import time
from pathlib import Path

from sitebuild.hosting import IMMUTABLE, REVALIDATE, is_hashed

TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
         ".json": "application/json", ".whl": "application/zip", ".webmanifest": "application/manifest+json"}


#: Sent gzip-compressed when the browser accepts it (zip, wheel and PNG files are compressed already).
COMPRESSED = {".html", ".css", ".js", ".mjs", ".json", ".wasm", ".svg", ".webmanifest", ".txt", ".map"}
_gzipped: dict[tuple[str, int, int], bytes] = {}  # (path, mtime, size) -> gzip body, shared by all servers


def gzipped(path: str) -> bytes:
    """The file's gzip encoding, computed once per version of the file."""
    stat = os.stat(path)
    key = (path, stat.st_mtime_ns, stat.st_size)
    if key not in _gzipped:
        with open(path, "rb") as fh:
            _gzipped[key] = gzip.compress(fh.read(), compresslevel=6, mtime=0)
    return _gzipped[key]


class _Counted:
    """The handler's output stream, counting what is sent per request (for `make bench`)."""

    def __init__(self, inner, handler) -> None:
        self.inner, self.handler = inner, handler

    def write(self, data) -> int:
        written = self.inner.write(data)
        self.handler.server.record(self.handler, len(data))
        return written

    def __getattr__(self, name):
        return getattr(self.inner, name)


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def setup(self) -> None:
        super().setup()
        self.wfile = _Counted(self.wfile, self)

    def parse_request(self) -> bool:
        self.started = time.time()  # when the request arrived, in epoch seconds
        return super().parse_request()

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """A missing file gets the site's 404.html with status 404, as static hosts answer."""
        page = os.path.join(self.directory, "404.html")
        if code != 404 or not os.path.isfile(page):
            return super().send_error(code, message, explain)
        with open(page, "rb") as fh:
            body = fh.read()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def encoded(self, path: str) -> tuple[str, bytes] | None:
        """The body to send for ``path`` in the best encoding the browser accepts, or None (as is)."""
        accepted = {token.split(";")[0].strip() for token in self.headers.get("Accept-Encoding", "").split(",")}
        for encoding, suffix in (("br", ".br"), ("gzip", ".gz")):
            if encoding in accepted and os.path.isfile(path + suffix):
                with open(path + suffix, "rb") as fh:
                    return encoding, fh.read()
        if "gzip" in accepted and os.path.splitext(path)[1] in COMPRESSED:
            return "gzip", gzipped(path)
        return None

    def send_head(self):  # type: ignore[override]
        path = self.translate_path(self.path)
        if os.path.isdir(path) and self.path.split("?", 1)[0].endswith("/"):
            path = os.path.join(path, "index.html")
        if os.path.isfile(path) and self.not_modified(path):
            return None  # answered before any byte of the file is read
        chosen = self.encoded(path) if os.path.isfile(path) else None
        if chosen is None:
            return super().send_head()  # directories without a slash, missing files, other types
        encoding, body = chosen
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", encoding)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(int(os.stat(path).st_mtime)))
        self.end_headers()
        return io.BytesIO(body)

    def not_modified(self, path: str) -> bool:
        """A revalidation of a file unchanged since the browser's copy is answered 304, as hosts answer
        (the standard library's own check, which it applies only to the files it sends itself)."""
        since = self.headers.get("If-Modified-Since")
        if not since or "If-None-Match" in self.headers:
            return False
        try:
            cached = email.utils.parsedate_to_datetime(since)
        except (TypeError, ValueError, IndexError, OverflowError):
            return False
        if cached.tzinfo is None:  # "-0000": UTC, as the standard library reads it (not the machine's zone)
            cached = cached.replace(tzinfo=datetime.timezone.utc)
        if int(os.stat(path).st_mtime) > cached.timestamp():
            return False
        self.send_response(304)
        self.end_headers()
        return True

    def end_headers(self) -> None:
        # As the build's host configurations say (sitebuild/hosting.py): a first visit's prefetch
        # of the wasm is then the download the worker reads (DESIGN.md). Never a 404 kept for a year.
        path = self.path.split("?", 1)[0]
        kept = is_hashed(path) and os.path.isfile(self.translate_path(path))
        self.send_header("Cache-Control", IMMUTABLE if kept else REVALIDATE)
        self.send_header("Vary", "Accept-Encoding")  # the body depends on it
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib signature
        if self.server.verbose:  # type: ignore[attr-defined]
            super().log_message(format, *args)


class Server(http.server.ThreadingHTTPServer):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        #: (arrival in epoch seconds, path) -> bytes sent, headers included: what the benchmark counts.
        self.sent: dict[tuple[float, str], int] = {}
        self._lock = threading.Lock()

    def record(self, handler, size: int) -> None:
        key = (getattr(handler, "started", 0.0), getattr(handler, "path", ""))
        with self._lock:
            self.sent[key] = self.sent.get(key, 0) + size

    def handle_error(self, request, client_address) -> None:
        """A browser that closes a connection early (a page left, a download cancelled) is
        ordinary traffic, not an error worth a traceback."""
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError, ConnectionAbortedError)):
            return
        super().handle_error(request, client_address)


def make_server(root: Path, host: str = "127.0.0.1", port: int = 0, verbose: bool = False) -> Server:
    handler = functools.partial(Handler, directory=str(root))
    server = Server((host, port), handler)
    server.verbose = verbose  # type: ignore[attr-defined]
    return server


def serve_in_thread(root: Path, host: str = "127.0.0.1") -> Server:
    """Start a server on a free port in a daemon thread; the caller shuts it down."""
    server = make_server(root, host)
    # shutdown() waits for the loop's next poll: 0.5 s by default, on every test server's teardown
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    server = make_server(args.root, args.host, args.port, verbose=True)
    print(f"http://{args.host}:{server.server_address[1]}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
