"""What blocks the page's main thread while a calculator page starts (issue #21): a Chromium
performance trace of a first visit (or a repeat visit, with the engine snapshot) under 4x CPU
throttling, and the main thread's long tasks broken down by what ran inside them.

    python -m tools.trace_start [--site site] [--page naruto/] [--repeat] [--runs 3] [--save trace.json] [--restyles]
    python -m tools.trace_start --functions 25 [--runs 3] ...   (instead of a trace: the main thread's own CPU
                                                                 time per JavaScript function, from V8's sampling profiler)

Not a test and not a benchmark: the figures that decide are in `make bench` (j). This says where
the time goes; DESIGN.md ("Decisions": a first visit compiles the wasm in the worker) keeps the findings.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tools.chromium import ARGS, find  # noqa: E402
from tools.serve import serve_in_thread  # noqa: E402

CATEGORIES = ",".join([
    "devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "v8.wasm", "blink", "loading",
    "disabled-by-default-v8.compile", "toplevel", "disabled-by-default-devtools.timeline.stack",
])
TOP = {"RunTask", "ThreadControllerImpl::RunTask"}
READY = '.calc[data-state="ready"]'


def long_tasks(trace: dict, pid: int, tid: int, threshold_ms: float = 50) -> list[dict]:
    """Top-level tasks of (pid, tid) longer than ``threshold_ms``, each with the time of every
    event name directly or indirectly inside it (self time of the outermost occurrence)."""
    events = [e for e in trace["traceEvents"] if e.get("pid") == pid and e.get("tid") == tid and e.get("ph") == "X"]
    events.sort(key=lambda e: (e["ts"], -e.get("dur", 0)))
    tasks = []
    for e in events:  # outermost only: a RunTask holds a ThreadControllerImpl::RunTask of the same length
        if e["name"] in TOP and e.get("dur", 0) >= threshold_ms * 1000:
            if not tasks or e["ts"] >= tasks[-1]["ts"] + tasks[-1]["dur"]:
                tasks.append(e)
    out = []
    for task in tasks:
        end = task["ts"] + task["dur"]
        inside = [e for e in events if task["ts"] <= e["ts"] < end and e is not task and e["name"] not in TOP]
        # Children's own time: each event's duration minus what its direct children took.
        stack: list[dict] = []
        own: dict[str, float] = collections.defaultdict(float)
        detail: dict[str, set] = collections.defaultdict(set)
        for e in inside:
            while stack and e["ts"] >= stack[-1]["ts"] + stack[-1].get("dur", 0):
                stack.pop()
            dur = e.get("dur", 0)
            own[e["name"]] += dur
            if stack:
                own[stack[-1]["name"]] -= dur
            data = e.get("args", {}).get("data", {}) or {}
            what = data.get("url") or data.get("functionName") or data.get("type") or ""
            if what:
                detail[e["name"]].add(str(what)[-80:])
            stack.append(e)
        top = dict(sorted(own.items(), key=lambda kv: -kv[1])[:8])
        out.append({
            "start_ms": task["ts"] / 1000, "dur_ms": task["dur"] / 1000,
            "own_ms": {k: round(v / 1000, 1) for k, v in top.items()},
            "detail": {k: sorted(v)[:4] for k, v in detail.items() if k in top},
        })
    return out


def restyles(trace: dict, pid: int, tid: int, min_elements: int = 100) -> list[dict]:
    """The main thread's style recalculations of at least ``min_elements`` elements, each with the
    script that forced it, if one did (DESIGN.md: "Material's start-up restyles nothing")."""
    def where(stack: list) -> str:
        return " < ".join(f"{f.get('url', '').rsplit('/', 1)[-1]}:{f.get('functionName') or '?'}" for f in stack[:2])

    events = sorted((e for e in trace["traceEvents"] if e.get("pid") == pid), key=lambda e: e["ts"])
    out: list[dict] = []
    causes: set[str] = set()  # since the last restyle listed: subtrees invalidated, and scripts touching html/body/article
    for e in events:
        args = e.get("args", {})
        data = args.get("data") or {}
        if "InvalidationTracking" in e["name"] and "subtree" in str(data.get("reason", "")).lower():
            causes.add(f"{data.get('nodeName', '?')[:40]}: {data.get('reason')}")
        if "InvalidationTracking" in e["name"] and data.get("stackTrace") and data.get("nodeName", "").startswith(("HTML", "BODY", "ARTICLE")):
            causes.add(f"{data['nodeName'][:40]} by {where(data['stackTrace'])}")
        if e["name"] == "UpdateLayoutTree" and e.get("tid") == tid and args.get("elementCount", 0) >= min_elements:
            out.append({"at_ms": e["ts"] / 1000, "dur_ms": e.get("dur", 0) / 1000, "elements": args["elementCount"],
                        "forced_by": where((args.get("beginData") or {}).get("stackTrace") or []), "after": sorted(causes)[:4]})
            causes = set()
    return out


def main_thread(trace: dict) -> tuple[int, int]:
    """(pid, tid) of the renderer main thread (only the traced page's renderer is in the trace)."""
    for e in trace["traceEvents"]:
        if e.get("ph") == "M" and e.get("name") == "thread_name" and e["args"]["name"] == "CrRendererMain":
            return e["pid"], e["tid"]
    raise SystemExit("no renderer main thread found in the trace")


def visit(browser, origin: str, path: str, repeat: bool, start, stop):
    """One visit under 4x CPU in a new context (after a first visit that stores the engine's snapshot and
    the offline copy, if ``repeat``): ``start(page, cdp)`` before it navigates, ``stop(page, cdp)`` 3 s
    after "ready" (what follows it, as bench (j) counts it); returns what ``stop`` returns."""
    context = browser.new_context()
    if repeat:
        page = context.new_page()
        page.goto(f"{origin}/{path}")
        page.wait_for_selector('html[data-engine-snapshot="stored"]', state="attached", timeout=120_000)
        page.wait_for_selector('html[data-offline="ready"]', state="attached", timeout=120_000)
        page.close()
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    start(page, cdp)
    page.goto(f"{origin}/{path}", wait_until="load", timeout=120_000)
    if page.locator(".calc[data-calc]").count():
        page.wait_for_selector(READY, state="attached", timeout=120_000)
    page.wait_for_timeout(3000)
    result = stop(page, cdp)
    context.close()
    return result


def run(browser, origin: str, path: str, repeat: bool, save: Path | None,
        categories: str = CATEGORIES) -> tuple[dict, int, int]:
    """One traced visit: the trace and the (pid, tid) of the page's main thread."""
    raw = visit(browser, origin, path, repeat,
                lambda page, cdp: browser.start_tracing(page=page, categories=categories.split(",")),
                lambda page, cdp: browser.stop_tracing())
    trace = json.loads(raw)
    if save:
        save.write_bytes(raw)
    return (trace, *main_thread(trace))


def functions(browser, origin: str, path: str, repeat: bool) -> tuple[collections.Counter, float]:
    """One visit as ``run`` makes it, profiled by V8's sampling profiler instead of traced: each
    function's self time on the page's main thread ("name file:line"; native work a function causes,
    a forced layout, an ICU set-up, counts as its own), and the main thread's time not idle."""
    def start(page, cdp) -> None:
        cdp.send("Profiler.enable")
        cdp.send("Profiler.setSamplingInterval", {"interval": 200})  # microseconds
        cdp.send("Profiler.start")

    profile = visit(browser, origin, path, repeat, start, lambda page, cdp: cdp.send("Profiler.stop")["profile"])
    names = {}
    for node in profile["nodes"]:
        frame = node["callFrame"]
        names[node["id"]] = f"{frame['functionName'] or '(anonymous)'} {frame['url'].rsplit('/', 1)[-1]}:{frame['lineNumber'] + 1}"
    own: collections.Counter = collections.Counter()
    for sample, delta in zip(profile["samples"], profile["timeDeltas"]):
        own[names[sample]] += delta / 1000
    busy = sum(ms for name, ms in own.items() if not name.startswith("(idle)"))
    return own, busy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    parser.add_argument("--page", default="naruto/")
    parser.add_argument("--repeat", action="store_true", help="a repeat visit (engine snapshot restored)")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--save", type=Path, help="write the (last) raw trace here (open it in DevTools)")
    parser.add_argument("--functions", type=int, metavar="N",
                        help="profile instead of tracing: the N JavaScript functions with the most main-thread time")
    parser.add_argument("--restyles", action="store_true",
                        help="also list restyles of 100 elements or more, and what forced each (style invalidation tracking)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    categories = CATEGORIES
    if args.restyles:  # adds to what the trace costs the page: not for comparing the long tasks
        categories += ",disabled-by-default-devtools.timeline.invalidationTracking"

    chromium = find()  # before Playwright's loop starts (finding Playwright's own browser starts one)
    server = serve_in_thread(args.site)
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=ARGS)
            if args.functions:
                runs = [functions(browser, origin, args.page, args.repeat) for _ in range(args.runs)]
                total: collections.Counter = sum((own for own, _ in runs), collections.Counter())
                print(f"/{args.page}: main thread not idle {', '.join(f'{busy:.0f}' for _, busy in runs)} ms "
                      f"(4x CPU, until 3 s after ready); own time per function, mean of {args.runs} runs:")
                # Functions with no file (query, previewNode) are Playwright's own script, waiting for "ready".
                shown = [(name, ms) for name, ms in total.most_common() if not name.startswith("(idle)")]
                for name, ms in shown[:args.functions]:
                    print(f"  {ms / args.runs:7.1f} ms  {name}")
                return
            for i in range(args.runs):
                trace, pid, tid = run(browser, origin, args.page, args.repeat, args.save, categories)
                tasks = long_tasks(trace, pid, tid)
                blocking = sum(max(0, t["dur_ms"] - 50) for t in tasks)
                print(f"run {i + 1}: /{args.page} {'repeat' if args.repeat else 'first'} visit, "
                      f"{len(tasks)} long tasks, blocking {blocking:.0f} ms")
                for t in tasks:
                    print(f"  at {t['start_ms'] % 100000:9.0f} ms  {t['dur_ms']:6.0f} ms  "
                          + ", ".join(f"{k} {v}" for k, v in t["own_ms"].items()))
                    for k, v in t["detail"].items():
                        print(f"      {k}: {v}")
                if args.restyles:
                    print("  restyles of 100 elements or more:")
                    for r in restyles(trace, pid, tid):
                        print(f"  at {r['at_ms'] % 100000:9.0f} ms  {r['dur_ms']:6.0f} ms  {r['elements']} elements"
                              + (f", forced by {r['forced_by']}" if r["forced_by"] else "")
                              + "".join(f"\n      after {c}" for c in r["after"]))
            browser.close()
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
