"""Where a calculator page's start goes, step by step, in the browser: marks in the page and in the
engine's worker, read against the bare floor page of `make bench` (a), for one build or several side by
side (an A/B: each run visits the floor, then each build, alternating).

    python -m tools.start_timeline [--runs 5] [--warm] SITE [SITE ...]

Each SITE is a built site; it is copied, and the copy's calc.js, engine/start.js and worker.js get a
console line at each step (the service worker's revisions follow, so a repeat visit serves them).
Times are milliseconds from navigation start (epoch clocks, so the worker's line up with the page's),
medians over the runs. ``--warm``: after each cold visit, a repeat visit (the service worker and the
snapshot stored: (c)) and an offline one ((d)).

Not a benchmark: the marks are console lines and the copies differ from the built sites by them. The
figures that decide are `make bench`'s; this says which step moved (DESIGN.md, "Engine start";
notes/page-work.md).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sitebuild.engine import digest, engine_paths  # noqa: E402
from tools.bench.common import CALC_PAGE, READY_PROBE, TIMEOUT_MS, left_behind, prepare  # noqa: E402
from tools.chromium import ARGS, find  # noqa: E402
from tools.serve import serve_in_thread  # noqa: E402

MARK = "const __mark = (step) => console.log(`mark ${step} ${(performance.timeOrigin + performance.now()).toFixed(1)}`);\n"

#: file -> (anchor, text put before it): a step's line. An anchor that is gone fails the run, by name.
MARKS = {
    "calc/calculators/calc.js": [("const calculators = ", "__mark('calc.js');\n")],
    "calc/engine/start.js": [("  const firstVisit = ", "  __mark('launch');\n")],
    "calc/engine/worker.js": [
        ("const here = ", "__mark('worker');\n"),
        ("  const [{ loadPyodide }, { withModule }] = await loader;",
         "  runtime.then(() => __mark('runtime'));\n"
         "  [...prefetched.values()][0].then(() => __mark('stdlib'));\n"
         "  if (ownModule) ownModule.then(() => __mark('wasm'));\n"),
        ("      progress();\n      return pyodide;", "      __mark('pyodide');\n"),
        ("  const stored = await found;", "  found.then((stored) => __mark(stored ? 'snapshot found' : 'no snapshot'));\n"),
        ("    postMessage({ type: MESSAGE.READY, start });", "    __mark('ready posted');\n"),
    ],
}

#: The floor page of (a), with marks.
FLOOR = """<!doctype html><meta charset="utf-8"><title>floor</title>
<script type="module">
const mark = (step) => console.log(`mark ${step} ${(performance.timeOrigin + performance.now()).toFixed(1)}`);
const { loadPyodide } = await import("../calc/%(dir)spyodide.mjs");
mark("floor: imported");
const pyodide = await loadPyodide({ indexURL: new URL("../calc/%(dir)s", location.href).href });
mark("floor: pyodide");
pyodide.runPython("1 + 1");
mark("floor: answer");
window.__floor = performance.now();
</script>"""

PAGE_MARKS = READY_PROBE.replace(
    "window.__ready = performance.now();",
    "window.__ready = performance.now(); console.log(`mark ready ${(performance.timeOrigin + window.__ready).toFixed(1)}`);")


def rewrite(path: Path, text: str) -> None:
    """``path`` with ``text``, its precompressed copies dropped (the server would send those instead)."""
    path.write_text(text, encoding="utf-8")
    for compressed in (path.with_name(path.name + ".br"), path.with_name(path.name + ".gz")):
        compressed.unlink(missing_ok=True)


def marked_copy(site: Path, work: Path) -> Path:
    """A copy of ``site`` (with the floor page) whose scripts say their steps on the console."""
    copy = prepare(site, work)
    precache = (copy / "sw.js").read_text(encoding="utf-8")
    for rel, marks in MARKS.items():
        path = copy / rel
        text = path.read_text(encoding="utf-8")
        for anchor, line in marks:
            if anchor not in text:
                raise SystemExit(f"{rel}: no longer has {anchor.strip()!r}: update tools/start_timeline.py MARKS")
            text = text.replace(anchor, line + anchor, 1)
        rewrite(path, MARK + text)
        precache = re.sub(rf'"{re.escape(rel)}": "[0-9a-f]+"', f'"{rel}": "{digest(path.read_bytes())}"', precache)
    rewrite(copy / "sw.js", precache)
    floor = FLOOR % {"dir": engine_paths(copy)["pyodide"]}
    (copy / "bench" / "floor-marks.html").write_text(floor, encoding="utf-8")
    return copy


def visit(page, url: str) -> dict[str, float]:
    """Opens ``url`` until its first calculator is ready (or the floor answers); its marks, from navigation start."""
    marks: dict[str, float] = {}

    def heard(message) -> None:
        parts = message.text.split(" ")
        if parts[0] == "mark":
            marks.setdefault(" ".join(parts[1:-1]), float(parts[-1]))

    def worker(started) -> None:
        started.on("console", heard)

    page.on("console", heard)
    page.on("worker", worker)
    page.goto(url)
    if url.endswith("floor-marks.html"):
        page.wait_for_function("window.__floor !== undefined", timeout=TIMEOUT_MS)
    else:  # a site page's CSP refuses wait_for_function's eval
        page.wait_for_selector('.calc[data-state="ready"]', state="attached", timeout=TIMEOUT_MS)
    page.wait_for_timeout(200)  # the worker's last console lines, on their way to this process
    origin = page.evaluate("performance.timeOrigin")
    page.remove_listener("console", heard)
    page.remove_listener("worker", worker)
    return {step: at - origin for step, at in marks.items()}


def report(label: str, runs: list[dict[str, float]]) -> None:
    steps = sorted({s for run in runs for s in run}, key=lambda s: statistics.median(r[s] for r in runs if s in r))
    print(label)
    for step in steps:
        values = [run[step] for run in runs if step in run]
        print(f"  {step:16} {statistics.median(values):6.0f} ms  (runs {min(values):.0f}–{max(values):.0f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sites", type=Path, nargs="+")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--warm", action="store_true", help="also a repeat visit (c) and an offline one (d)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    chromium = find()
    with tempfile.TemporaryDirectory(prefix="timeline-") as tmp:
        copies = [marked_copy(site, Path(tmp) / str(i)) for i, site in enumerate(args.sites)]
        servers = [serve_in_thread(copy) for copy in copies]
        origins = [f"http://127.0.0.1:{server.server_address[1]}" for server in servers]
        floors: list[dict[str, float]] = []
        seen: dict[tuple[int, str], list[dict[str, float]]] = {}
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium, args=ARGS)
                for run in range(args.runs):
                    context = browser.new_context(service_workers="block")
                    floors.append(visit(context.new_page(), f"{origins[0]}/bench/floor-marks.html"))
                    context.close()
                    for i, origin in enumerate(origins):
                        context = browser.new_context()
                        context.add_init_script(PAGE_MARKS)
                        page = context.new_page()
                        seen.setdefault((i, "cold (b)"), []).append(visit(page, f"{origin}/{CALC_PAGE}"))
                        if args.warm:
                            left_behind(page, TIMEOUT_MS)
                            seen.setdefault((i, "repeat (c)"), []).append(visit(page, f"{origin}/{CALC_PAGE}"))
                            context.set_offline(True)
                            seen.setdefault((i, "offline (d)"), []).append(visit(page, f"{origin}/{CALC_PAGE}"))
                        context.close()
                    print(f"run {run + 1} of {args.runs}", flush=True)
                browser.close()
        finally:
            for server in servers:
                server.shutdown()
    report("floor (a), cold", floors)
    floor = [run["floor: answer"] for run in floors]
    for (i, kind), runs in seen.items():
        report(f"{args.sites[i]} {kind}", runs)
        if kind.startswith("cold"):
            pairs = sorted(run["ready"] - f for run, f in zip(runs, floor))
            print(f"  ready − floor    {statistics.median(pairs):+6.0f} ms  (pairs {pairs[0]:+.0f} to {pairs[-1]:+.0f})")


if __name__ == "__main__":
    main()
