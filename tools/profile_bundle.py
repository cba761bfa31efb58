"""How much JavaScript Material's bundle runs while a page starts, by the source file it came from.

    python -m tools.profile_bundle [--site site] [--runs 3] [--top 25] [glossary/ naruto/ ...]

Cold loads (a new context each, no service worker) in desktop Chromium without throttling, sampled
by V8's CPU profiler every 100 µs until 1.5 s after "load". Each sample whose stack holds a frame of
the bundle counts once for every source file on that stack (inclusive time), mapped through the
source map that Material's pip package ships beside its bundle. Not a benchmark: it says where
Lighthouse's TBT comes from (DESIGN.md, "Material's bundle alone is above Lighthouse's TBT target here").
"""

from __future__ import annotations

import argparse
import bisect
import collections
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tools.chromium import ARGS, find  # noqa: E402
from tools.serve import serve_in_thread  # noqa: E402

BASE64 = {c: i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}


def vlq(segment: str) -> list[int]:
    """The integers of one source-map segment (base64 VLQ)."""
    values, value, shift = [], 0, 0
    for char in segment:
        digit = BASE64[char]
        value += (digit & 31) << shift
        shift += 5
        if not digit & 32:
            values.append(-(value >> 1) if value & 1 else value >> 1)
            value, shift = 0, 0
    return values


class SourceMap:
    """Generated (line, column), both from 0, to the source file it was built from."""

    def __init__(self, data: dict) -> None:
        self.sources = data["sources"]
        self.lines: list[tuple[list[int], list[int]]] = []  # per line: columns, source indexes
        source = 0
        for line in data["mappings"].split(";"):
            column, columns, indexes = 0, [], []
            for segment in filter(None, line.split(",")):
                fields = vlq(segment)
                column += fields[0]
                if len(fields) > 1:
                    source += fields[1]
                    columns.append(column)
                    indexes.append(source)
            self.lines.append((columns, indexes))

    def source(self, line: int, column: int) -> str:
        columns, indexes = self.lines[line] if line < len(self.lines) else ([], [])
        at = bisect.bisect_right(columns, column) - 1
        if at < 0:
            return "(unmapped: the bundle's own wrapper)"
        # "node_modules/rxjs/src/internal/Subscriber.ts" -> "rxjs: internal/Subscriber.ts";
        # "src/templates/assets/javascripts/browser/document/index.ts" -> "browser/document/index.ts"
        name = self.sources[indexes[at]].removeprefix("src/templates/assets/javascripts/")
        if name.startswith("node_modules/"):
            package, _, rest = name.removeprefix("node_modules/").partition("/")
            name = f"{package}: {rest.removeprefix('dist/').removeprefix('src/')}"
        return name


def bundle_map(site: Path) -> tuple[str, SourceMap]:
    """The bundle's file name in the built site, and the source map Material ships for it."""
    import material

    name = next(site.glob("assets/javascripts/bundle.*.min.js")).name
    shipped = Path(material.__file__).parent / "templates" / "assets" / "javascripts" / f"{name}.map"
    return name, SourceMap(json.loads(shipped.read_text(encoding="utf-8")))


def profile(browser, url: str, bundle: str, runs: int) -> list[tuple[list[tuple[int, int]], int]]:
    """(the bundle's frames on the stack as (line, column), microseconds) per sample, over ``runs`` loads."""
    samples = []
    for _ in range(runs):
        context = browser.new_context(service_workers="block")
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Profiler.enable")
        cdp.send("Profiler.setSamplingInterval", {"interval": 100})
        cdp.send("Profiler.start")
        page.goto(url, wait_until="load")
        page.wait_for_timeout(1500)  # what the bundle sets off after "load" (a tool, not a test)
        result = cdp.send("Profiler.stop")["profile"]
        context.close()
        nodes = {node["id"]: node for node in result["nodes"]}
        parent = {child: node["id"] for node in result["nodes"] for child in node.get("children", [])}
        for node_id, micros in zip(result["samples"], result["timeDeltas"]):
            stack = []
            while node_id in nodes:
                frame = nodes[node_id]["callFrame"]
                if frame["url"].endswith(bundle):
                    stack.append((frame["lineNumber"], frame["columnNumber"]))
                node_id = parent.get(node_id)
            if stack:
                samples.append((stack, micros))
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="*", default=["glossary/", "naruto/"])
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    bundle, source_map = bundle_map(args.site)
    chromium = find()
    from playwright.sync_api import sync_playwright

    server = serve_in_thread(args.site)
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=ARGS)
            for path in args.pages:
                samples = profile(browser, f"{origin}/{path}", bundle, args.runs)
                inclusive: collections.Counter[str] = collections.Counter()
                for stack, micros in samples:
                    for name in {source_map.source(line, column) for line, column in stack}:
                        inclusive[name] += micros
                total = sum(micros for _, micros in samples) / 1000 / args.runs
                print(f"/{path}: {bundle} ran {total:.0f} ms of JavaScript per load ({args.runs} loads); by source, inclusive:")
                for name, micros in inclusive.most_common(args.top):
                    print(f"  {micros / 1000 / args.runs:7.1f} ms  {name}")
            browser.close()
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
