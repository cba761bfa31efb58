"""Serve the built site on 127.0.0.1 (used by `make serve` and by the browser tests).

A plain static server, like any host the site will be deployed to, with the
MIME types the engine needs (``.mjs``, ``.wasm``) set explicitly.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import threading
from pathlib import Path

TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
         ".json": "application/json", ".whl": "application/zip", ".webmanifest": "application/manifest+json"}


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib signature
        if self.server.verbose:  # type: ignore[attr-defined]
            super().log_message(format, *args)


def make_server(root: Path, host: str = "127.0.0.1", port: int = 0, verbose: bool = False) -> http.server.ThreadingHTTPServer:
    handler = functools.partial(Handler, directory=str(root))
    server = http.server.ThreadingHTTPServer((host, port), handler)
    server.verbose = verbose  # type: ignore[attr-defined]
    return server


def serve_in_thread(root: Path, host: str = "127.0.0.1") -> http.server.ThreadingHTTPServer:
    """Start a server on a free port in a daemon thread; the caller shuts it down."""
    server = make_server(root, host)
    threading.Thread(target=server.serve_forever, daemon=True).start()
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
