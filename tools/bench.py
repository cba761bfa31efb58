"""`make bench`: calculator start-up against a bare Pyodide boot, latency, bytes, Lighthouse.

Not a test: it measures and reports. It builds the site (unless ``--site`` names a built one),
serves it on 127.0.0.1 and, in headless Chromium, runs alternately ``--runs`` times each:

(a) the floor: a bare page that only boots Pyodide (same files, main thread) and runs one line
    of Python, cold (new browser context) and warm (reloaded in the same context);
(b) a calculator page, cold (new context); (c) the same page again (repeat visit, the service
    worker in control); (d) the same page offline (network off, everything from the service worker);
(e) per calculator, input -> verdict rendered latency, p50 and p95 (a 60-line decklist for naruto-reserve);
(f) bytes of the page itself, every file but the engine's, per page (HTML+CSS+JS, gzip-equivalent);
(g) Lighthouse (npm ``lighthouse``) mobile performance score and Total Blocking Time per calculator page
    (medians of ``--runs`` runs), and of /glossary/, a page without a calculator, as the control;
(h) bytes sent by the server from navigation start to "ready" on a first visit to /naruto/ (the page,
    its worker and its service worker alike: counted at the server), and which files they were;
(j) main-thread blocking under a 4x CPU slowdown (Chromium's CPU throttling, a mid-range phone):
    the sum of (duration - 50 ms) over the page's long tasks, from navigation to 3 s after "ready"
    (3 s after "load" for the plain page), /naruto/ against /glossary/ (no calculator), alternating;
(i) time to "ready" on a first visit under emulated Slow 4G (150 ms round trip, 1.6 Mbit/s down,
    750 kbit/s up): /naruto/ against a bare page booting Pyodide from the npm package's files as
    shipped (gzip on the fly, as a host without this site's build would send them), alternating.

Times are from navigation start to "ready" (data-state on the page, or Python's answer on the
floor page). It prints a table (medians and ratios to the matching floor) and writes JSON to
``bench-results/``.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tools.chromium import ARGS, find  # noqa: E402
from sitebuild.engine import engine_paths  # noqa: E402
from tools.serve import serve_in_thread  # noqa: E402

CALC_PAGE = "fr/naruto/"  # (b)-(d): the page with the most calculators
PAGES = ("", "naruto/", "fr/naruto/", "judge-tower/", "pokemon/", "glossary/")  # (f)
#: The calculator pages, and /glossary/: the same site without a calculator (Material's own share).
LIGHTHOUSE_PAGES = ("naruto/", "judge-tower/", "pokemon/", "glossary/")
TIMEOUT_MS = 120_000
TARGETS = {"cold": 1.10, "repeat": 0.75, "offline": 0.75, "p95_ms": 16, "kb_gzip": 150, "score": 0.98, "tbt_ms": 50,
           "first_visit_mb": 3.5, "slow4g_ratio": 0.6, "blocking_extra_ms": 50}
#: (j): a calculator page and a plain page of the same site.
BLOCKING_PAGES = ("naruto/", "glossary/")
LONG_TASKS = """
window.__longTasks = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); })
  .observe({ type: "longtask", buffered: true });
"""
FIRST_VISIT_PAGE = "naruto/"  # (h), (i)
#: Lighthouse's "Slow 4G" (Chromium DevTools network emulation; throughput in bytes per second).
SLOW_4G = {"offline": False, "latency": 150, "downloadThroughput": 1_600_000 / 8, "uploadThroughput": 750_000 / 8}
#: (i): the files of a bare Pyodide boot, as the npm package ships them.
NPM_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")

FLOOR_HTML = """<!doctype html><meta charset="utf-8"><title>floor</title>
<script type="module">
const { loadPyodide } = await import("../calc/%(dir)spyodide.mjs");
const pyodide = await loadPyodide({ indexURL: new URL("../calc/%(dir)s", location.href).href });
const answer = pyodide.runPython("1 + 1");
window.__floor = performance.now();
document.title = "floor " + answer;
</script>"""

#: Records when the first calculator of the page becomes ready (navigation start = 0).
READY_PROBE = """
new MutationObserver((_, observer) => {
  if (document.querySelector('.calc[data-state="ready"]')) { window.__ready = performance.now(); observer.disconnect(); }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-state"] });
"""
#: (j): the same, also said on the console, so that waiting for it needs no Playwright query of the page.
READY_MESSAGE = "bench: calculator ready"
READY_CONSOLE = READY_PROBE.replace("observer.disconnect();", f"observer.disconnect(); console.log({READY_MESSAGE!r});")


def build() -> Path:
    subprocess.run(["make", "build"], cwd=ROOT, check=True)
    return ROOT / "site"


def prepare(site: Path, work: Path) -> Path:
    """A copy of the site with the floor page added (the built site itself stays as built)."""
    target = work / "site"
    shutil.copytree(site, target)
    engine = engine_paths(target)
    (target / "bench").mkdir(exist_ok=True)
    (target / "bench" / "floor.html").write_text(FLOOR_HTML % {"dir": engine["pyodide"]})
    # (i): Pyodide as shipped by npm (no precompressed copies: gzip on the fly), beside our trimmed engine.
    npm = target / "calc" / "npm-pyodide"
    npm.mkdir()
    for name in NPM_FILES:
        shutil.copy2(ROOT / "node_modules" / "pyodide" / name, npm / name)
    (target / "bench" / "npm.html").write_text(FLOOR_HTML % {"dir": "npm-pyodide/"})
    return target


def median(values):
    return statistics.median(values) if values else None


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


class Bench:
    def __init__(self, browser, origin: str, latency_ms: float = 0) -> None:
        self.browser = browser
        self.origin = origin
        self.latency_ms = latency_ms

    def new_page(self, context):
        """A page of ``context``, its requests (and its workers') delayed by ``latency_ms`` each
        (Chromium's network emulation), as on a real network: 127.0.0.1 has no round-trip cost."""
        page = context.new_page()
        if self.latency_ms:
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": self.latency_ms,
                                                          "downloadThroughput": -1, "uploadThroughput": -1})
        return page

    def floor(self) -> tuple[float, float]:
        context = self.browser.new_context(service_workers="block")
        page = self.new_page(context)
        times = []
        for _ in range(2):  # cold, then warm (HTTP cache and compiled-wasm cache filled)
            page.goto(f"{self.origin}/bench/floor.html")
            page.wait_for_function("window.__floor !== undefined", timeout=TIMEOUT_MS)
            times.append(page.evaluate("window.__floor"))
        context.close()
        return times[0], times[1]

    def _ready(self, page, path: str) -> float:
        page.goto(f"{self.origin}/{path}")
        page.wait_for_selector('.calc[data-state="ready"]', state="attached", timeout=TIMEOUT_MS)  # (CSP: no eval)
        return page.evaluate("window.__ready")

    def calculator(self) -> tuple[float, float, float]:
        context = self.browser.new_context()
        context.add_init_script(READY_PROBE)
        page = self.new_page(context)
        cold = self._ready(page, CALC_PAGE)
        # What a first visit leaves behind for the next: the engine in the service worker's cache,
        # and the engine's memory snapshot (web/worker.js).
        page.wait_for_selector("html[data-offline=ready]", state="attached", timeout=TIMEOUT_MS)
        page.wait_for_selector("html[data-engine-snapshot=stored]", state="attached", timeout=TIMEOUT_MS)
        repeat = self._ready(page, CALC_PAGE)
        context.set_offline(True)
        offline = self._ready(page, CALC_PAGE)
        context.close()
        return cold, repeat, offline


DECK_60 = "\n".join(["3x Kakashi Hatake [ninja]", *(f"1 Ninja {i} [ninja]" for i in range(30)),
                     *(f"1 Team {i} [Gruppo]" for i in range(15)), "1 Gaara [Légendaire]", *(f"1 Card {i}" for i in range(13))])
#: (e): inputs per calculator, the first WARMUP left out: a p95 over 100 samples is the 5th slowest,
#: not the 2nd (35 samples gave p95s that moved by 2x between runs).
SAMPLES, WARMUP = 120, 20
#: (e): page, calculator element id, fields set once, the field that changes, its successive values.
LATENCY = (
    ("naruto/", "calc-naruto-rounds", {}, "players", [str(8 + i % 40) for i in range(SAMPLES)]),
    ("naruto/", "calc-naruto-reserve", {}, "deck", [DECK_60 + f"\n1 Extra {i}" * (i % 2) for i in range(SAMPLES)]),
    ("naruto/", "calc-naruto-end-of-time", {"starter": "a", "active": "b"}, "name_a", [f"Alice {i}" for i in range(SAMPLES)]),
    ("naruto/", "calc-naruto-tiebreak", {"name_a": "A", "name_b": "B"}, "rewards_a", [str(i % 10) for i in range(SAMPLES)]),
    ("judge-tower/", "calc-judge-tower-hand", {}, "level", [str(i % 6) for i in range(SAMPLES)]),
    ("judge-tower/", "calc-judge-tower-shame", {}, "shame", [f"Alice: {i % 9}\nBob: 1" for i in range(SAMPLES)]),
    ("pokemon/", "calc-pokemon-time-limit", {"prizes_b": "2"}, "prizes_a", [str(1 + i % 6) for i in range(SAMPLES)]),
)
#: Sets each value, waits for the verdict event and the next frame (the verdict on screen), then for
#: that frame's rendering to end before the next value: a value set at once from the animation frame
#: callback waited behind the rendering of the verdict before it (~10 ms on /naruto/ here), which a
#: user's next keystroke, 100 ms or more later, never does.
MEASURE_LATENCY = """async ([id, fixed, field, values]) => {
  const el = document.getElementById(id);
  const form = el.querySelector("form");
  const set = (name, value) => { form.elements[name].value = value; };
  const verdict = () => new Promise((resolve) => el.addEventListener("calc:verdict", resolve, { once: true }));
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  for (const [name, value] of Object.entries(fixed)) set(name, value);
  const dom = [], painted = [];
  for (const value of values) {
    const done = verdict();
    const start = performance.now();
    set(field, value);
    form.dispatchEvent(new Event("input", { bubbles: true }));
    await done; // calc.js fires it right after writing the verdict into the DOM
    dom.push(performance.now() - start);
    await frame();
    painted.push(performance.now() - start);
    await new Promise((resolve) => setTimeout(resolve, 0)); // a task: after this frame's rendering
  }
  return [dom, painted];
}"""


def run_latency(bench: Bench) -> dict[str, dict[str, float]]:
    context = bench.browser.new_context()
    page = context.new_page()
    out = {}
    for path, calc_id, fixed, field, values in LATENCY:
        if not page.url.endswith("/" + path):
            page.goto(f"{bench.origin}/{path}")
        page.wait_for_selector(f'#{calc_id}[data-state="ready"]', state="attached", timeout=TIMEOUT_MS)
        if page.get_attribute("html", "data-engine-start") == "full":  # typing, not the snapshot's storing
            page.wait_for_selector("html[data-engine-snapshot=stored]", state="attached", timeout=TIMEOUT_MS)
        dom, painted = (times[WARMUP:] for times in page.evaluate(MEASURE_LATENCY, [calc_id, fixed, field, values]))
        out[calc_id] = {"p50_ms": percentile(dom, 0.5), "p95_ms": percentile(dom, 0.95), "samples": len(dom),
                        "next_frame_p50_ms": percentile(painted, 0.5), "next_frame_p95_ms": percentile(painted, 0.95)}
        print(f"  {calc_id}: p50 {out[calc_id]['p50_ms']:.1f} ms, p95 {out[calc_id]['p95_ms']:.1f} ms", flush=True)
    context.close()
    return out


#: The engine's files: the worker, its modules, Pyodide's runtime and our wheel (sitebuild/engine.py).
ENGINE_FILE = re.compile(r"/calc/(worker\.js|engine-module\.js|engine\.json|pyodide-[0-9a-f]+/|wheel-[0-9a-f]+/)")


def run_bytes(bench: Bench, served: Path) -> dict[str, dict[str, float]]:
    """What a page needs besides the engine: every file it requests until it is ready, but the
    engine's, measured as the files' gzip size (what a compressing host, and tools/serve.py, sends).
    The engine starts from <head>, so "before the engine" is "all but the engine", not an order."""
    out = {}
    for path in PAGES:
        context = bench.browser.new_context(service_workers="block")
        page = context.new_page()
        urls: list[str] = []
        page.on("request", lambda request: urls.append(request.url))
        page.goto(f"{bench.origin}/{path}", wait_until="load")
        if page.locator(".calc[data-calc]").count():
            page.wait_for_selector('.calc[data-state="ready"]', state="attached", timeout=TIMEOUT_MS)
        context.close()
        code = other = 0
        for url in dict.fromkeys(u for u in urls if not ENGINE_FILE.search(u)):
            rel = urlsplit(url).path.lstrip("/")
            file = served / (rel + "index.html" if rel.endswith("/") or not rel else rel)
            if not file.is_file():
                continue
            size = len(gzip.compress(file.read_bytes(), 6))
            if file.suffix in (".html", ".css", ".js", ".mjs"):
                code += size
            else:
                other += size
        out[path or "(home)"] = {"html_css_js_kb_gzip": round(code / 1024, 1), "other_kb_gzip": round(other / 1024, 1)}
        print(f"  /{path}: {out[path or '(home)']}", flush=True)
    return out


def run_lighthouse(origin: str, chromium: str, out_dir: Path, runs: int) -> dict[str, dict[str, object]]:
    """``runs`` Lighthouse runs per page, reported as medians: one run's TBT varies a lot here
    (16 to 112 ms for the same page), as Lighthouse's own docs warn; every run is kept in the JSON."""
    binary = ROOT / "node_modules" / ".bin" / "lighthouse"
    if not binary.exists():
        print("  lighthouse missing: run `npm ci`", flush=True)
        return {}
    results = {}
    flags = " ".join(["--headless=new", *ARGS])
    for path in LIGHTHOUSE_PAGES:
        each = []
        for i in range(runs):
            report = out_dir / f"lighthouse-{path.strip('/') or 'home'}-{i + 1}.json"
            subprocess.run([str(binary), f"{origin}/{path}", "--only-categories=performance", "--output=json",
                            f"--output-path={report}", "--quiet", f"--chrome-flags={flags}"],
                           check=True, env={**os.environ, "CHROME_PATH": chromium})
            data = json.loads(report.read_text())
            each.append({"score": data["categories"]["performance"]["score"],
                         "tbt_ms": data["audits"]["total-blocking-time"]["numericValue"],
                         "lcp_ms": data["audits"]["largest-contentful-paint"]["numericValue"]})
        results[path] = {key: median([run[key] for run in each]) for key in ("score", "tbt_ms", "lcp_ms")}
        results[path]["runs"] = each
        runs_text = ", ".join(f"{run['score']}/{run['tbt_ms']:.0f}" for run in each)
        print(f"  /{path}: median score {results[path]['score']}, TBT {results[path]['tbt_ms']:.0f} ms "
              f"(score/TBT of each run: {runs_text})", flush=True)
    return results


#: Records "ready" in epoch milliseconds: the server's clock for (h).
READY_EPOCH = READY_PROBE.replace("window.__ready = performance.now();",
                                  "window.__ready = performance.now(); window.__readyEpoch = performance.timeOrigin + performance.now();")


def run_first_visit_bytes(bench: Bench, server) -> dict[str, object]:
    """(h): a new context (nothing cached, no service worker yet), /naruto/ until "ready"; every
    request that reached the server before "ready", with the bytes it was sent."""
    context = bench.browser.new_context()
    context.add_init_script(READY_EPOCH)
    page = context.new_page()
    server.sent.clear()
    page.goto(f"{bench.origin}/{FIRST_VISIT_PAGE}")
    page.wait_for_selector('.calc[data-state="ready"]', state="attached", timeout=TIMEOUT_MS)
    ready = page.evaluate("window.__readyEpoch") / 1000
    before = {path: size for (arrived, path), size in list(server.sent.items()) if arrived <= ready}
    context.close()
    files = sorted(before.items(), key=lambda item: -item[1])
    total = sum(before.values())
    print(f"  {total / 1e6:.2f} MB in {len(files)} requests; largest: "
          + ", ".join(f"{path} {size / 1e3:.0f} KB" for path, size in files[:6]), flush=True)
    return {"bytes": total, "files": dict(files)}


def run_slow_4g(bench: Bench, runs: int) -> dict[str, list[float]]:
    """(i): first visits under Slow 4G, our page and the bare npm Pyodide page alternating."""
    out: dict[str, list[float]] = {"bare": [], "page": []}

    def visit(path: str, ready_js: str) -> float:
        context = bench.browser.new_context()
        context.add_init_script(READY_PROBE)
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", SLOW_4G)
        page.goto(f"{bench.origin}/{path}", timeout=TIMEOUT_MS * 2)
        if ready_js == "window.__ready":  # our page: its CSP forbids wait_for_function's eval
            page.wait_for_selector('.calc[data-state="ready"]', state="attached", timeout=TIMEOUT_MS * 2)
        else:
            page.wait_for_function(f"{ready_js} !== undefined", timeout=TIMEOUT_MS * 2, polling=100)
        elapsed = page.evaluate(ready_js)
        context.close()
        return elapsed

    for i in range(runs):
        out["bare"].append(visit("bench/npm.html", "window.__floor"))
        out["page"].append(visit(FIRST_VISIT_PAGE, "window.__ready"))
        print(f"  run {i + 1}: bare npm Pyodide {out['bare'][-1]:.0f} ms, /{FIRST_VISIT_PAGE} {out['page'][-1]:.0f} ms",
              flush=True)
    return out


def run_blocking(bench: Bench, runs: int) -> dict[str, list[float]]:
    """(j): total blocking time under 4x CPU throttling, first visits, the two pages alternating."""
    out: dict[str, list[float]] = {path: [] for path in BLOCKING_PAGES}
    for i in range(runs):
        for path in BLOCKING_PAGES:
            context = bench.browser.new_context()
            context.add_init_script(LONG_TASKS + READY_CONSOLE)
            page = context.new_page()
            context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 4})
            # No locator or selector wait: Playwright's injected script (parsed on the page's main thread,
            # 60-300 ms under 4x CPU) would be counted. "ready" comes as a console message.
            ready = (page.expect_console_message(lambda m: m.text == READY_MESSAGE, timeout=TIMEOUT_MS)
                     if path == BLOCKING_PAGES[0] else contextlib.nullcontext())
            with ready:
                page.goto(f"{bench.origin}/{path}", wait_until="load", timeout=TIMEOUT_MS)
            page.wait_for_timeout(3000)  # what follows "ready": the service worker, the snapshot (a bench, not a test)
            out[path].append(sum(max(0, d - 50) for d in page.evaluate("window.__longTasks")))
            context.close()
        print(f"  run {i + 1}: " + ", ".join(f"/{p} {out[p][-1]:.0f} ms" for p in BLOCKING_PAGES), flush=True)
    return out


def run_startup(bench: Bench, runs: int) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"floor_cold": [], "floor_warm": [], "cold": [], "repeat": [], "offline": []}
    for i in range(runs):  # alternate floor and calculator runs so drift hits both alike
        cold, warm = bench.floor()
        out["floor_cold"].append(cold)
        out["floor_warm"].append(warm)
        c, r, o = bench.calculator()
        out["cold"].append(c)
        out["repeat"].append(r)
        out["offline"].append(o)
        print(f"  run {i + 1}: floor {cold:.0f}/{warm:.0f} ms, calculator cold {c:.0f}, repeat {r:.0f}, offline {o:.0f}",
              flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a built site (default: run `make build` and use site/)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--out", type=Path, default=ROOT / "bench-results")
    parser.add_argument("--only", default="abcdefghij", help="which parts to run, e.g. abcd")
    parser.add_argument("--latency", type=float, default=0, metavar="MS",
                        help="(a)-(d): delay every request by MS milliseconds, as on a real network")
    args = parser.parse_args()
    site = args.site or build()
    from playwright.sync_api import sync_playwright

    chromium = find()
    results: dict[str, object] = {"chromium": chromium, "runs": args.runs, "latency_ms": args.latency,
                                  "date": time.strftime("%Y-%m-%d %H:%M"), **provenance()}
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        served = prepare(site, Path(tmp))
        server = serve_in_thread(served)
        origin = f"http://127.0.0.1:{server.server_address[1]}"
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium, args=ARGS)
                bench = Bench(browser, origin, args.latency)
                if set("abcd") & set(args.only):
                    print("(a)-(d) start-up", flush=True)
                    results["startup"] = run_startup(bench, args.runs)
                if "e" in args.only:
                    print("(e) input -> verdict latency", flush=True)
                    results["latency"] = run_latency(bench)
                if "f" in args.only:
                    print("(f) bytes of each page besides the engine", flush=True)
                    results["bytes"] = run_bytes(bench, served)
                if "h" in args.only:
                    print(f"(h) bytes before ready, first visit to /{FIRST_VISIT_PAGE}", flush=True)
                    results["first_visit"] = run_first_visit_bytes(Bench(browser, origin), server)
                if "j" in args.only:
                    print("(j) main-thread blocking, 4x CPU slowdown", flush=True)
                    results["blocking"] = run_blocking(Bench(browser, origin), max(5, args.runs))
                if "i" in args.only:
                    print("(i) first visit under Slow 4G", flush=True)
                    results["slow_4g"] = run_slow_4g(Bench(browser, origin), max(3, args.runs))
                browser.close()
            if "g" in args.only:
                print("(g) Lighthouse, mobile", flush=True)
                args.out.mkdir(exist_ok=True)
                results["lighthouse"] = run_lighthouse(origin, chromium, args.out, args.runs)
        finally:
            server.shutdown()
    args.out.mkdir(exist_ok=True)
    (args.out / "bench.json").write_text(json.dumps(results, indent=1))
    table = summary(results)
    (args.out / "bench.md").write_text(f"{heading(results)}\n\n{table}\n")
    print(table)
    print(f"\nfigures: {args.out / 'bench.json'}")


def provenance() -> dict[str, str]:
    """What was measured, on what: the commit (with "+changes" when the tree differs from it) and the machine.
    Figures re-measured elsewhere are compared with these."""
    def git(*cmd: str) -> str:
        run = subprocess.run(["git", *cmd], cwd=ROOT, capture_output=True, text=True)
        return run.stdout.strip() if run.returncode == 0 else ""
    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    if git("status", "--porcelain", "--untracked-files=no"):
        commit += "+changes"
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), "") if Path("/proc/cpuinfo").exists() else ""
    return {"commit": commit, "machine": f"{os.cpu_count()} cores, {cpu or 'cpu unknown'}, {sys.platform}"}


def heading(results: dict) -> str:
    """The line above the table in bench.md: when, which commit, which machine and browser, how many runs."""
    return (f"`make bench` of {results['commit']}, {results['date']}, {results['machine']}, "
            f"{Path(results['chromium'] or 'chromium').name}, {results['runs']} runs (medians with the runs' spread)")


def summary(results: dict) -> str:
    """A Markdown table: medians, ratios to the matching floor, targets and whether they are met."""
    rows = ["| measure | median / value | ratio to floor | target | met |", "|---|---|---|---|---|"]
    start = results.get("startup")
    if start:
        m = {k: median(v) for k, v in start.items()}
        spread = {k: f" (runs {min(v):.0f}–{max(v):.0f})" for k, v in start.items()}
        if results.get("latency_ms"):
            rows.append(f"| (a)-(d) every request delayed by | {results['latency_ms']:.0f} ms | | | |")
        rows.append(f"| (a) floor, bare Pyodide on the main thread, cold | {m['floor_cold']:.0f} ms{spread['floor_cold']} | 1 | | |")
        rows.append(f"| (a) floor, warm | {m['floor_warm']:.0f} ms{spread['floor_warm']} | 1 | | |")
        for key, floor, label in (("cold", "floor_cold", "(b) calculator page, cold"),
                                  ("repeat", "floor_warm", "(c) repeat visit"),
                                  ("offline", "floor_warm", "(d) offline, service worker")):
            ratio = m[key] / m[floor]
            rows.append(f"| {label} | {m[key]:.0f} ms{spread[key]} | {ratio:.2f} × {floor.replace('_', ' ')} | ≤ {TARGETS[key]} | "
                        f"{'yes' if ratio <= TARGETS[key] else 'no'} |")
    for calc_id, lat in results.get("latency", {}).items():
        rows.append(f"| (e) {calc_id}: input → verdict in the DOM, p50 / p95 | {lat['p50_ms']:.1f} / {lat['p95_ms']:.1f} ms"
                    f" (next frame {lat['next_frame_p95_ms']:.1f}) | | p95 ≤ {TARGETS['p95_ms']} ms | "
                    f"{'yes' if lat['p95_ms'] <= TARGETS['p95_ms'] else 'no'} |")
    for page, b in results.get("bytes", {}).items():
        rows.append(f"| (f) /{page.strip('()') if page != '(home)' else ''}: HTML+CSS+JS besides the engine, gzip "
                    f"| {b['html_css_js_kb_gzip']} KB | | ≤ {TARGETS['kb_gzip']} KB | "
                    f"{'yes' if b['html_css_js_kb_gzip'] <= TARGETS['kb_gzip'] else 'no'} |")
    if results.get("first_visit"):
        mb = results["first_visit"]["bytes"] / 1e6
        top = ", ".join(f"{path.rsplit('/', 1)[-1]} {size / 1e3:.0f} KB"
                        for path, size in list(results["first_visit"]["files"].items())[:5])
        rows.append(f"| (h) first visit to /{FIRST_VISIT_PAGE}: bytes before ready (largest: {top}) | {mb:.2f} MB | | "
                    f"≤ {TARGETS['first_visit_mb']} MB | {'yes' if mb <= TARGETS['first_visit_mb'] else 'no'} |")
    if results.get("slow_4g"):
        bare, page = median(results["slow_4g"]["bare"]), median(results["slow_4g"]["page"])
        spread = (f"page {min(results['slow_4g']['page']) / 1000:.1f}–{max(results['slow_4g']['page']) / 1000:.1f} s, "
                  f"bare {min(results['slow_4g']['bare']) / 1000:.1f}–{max(results['slow_4g']['bare']) / 1000:.1f} s")
        ratio = page / bare
        rows.append(f"| (i) first visit, Slow 4G: /{FIRST_VISIT_PAGE} / bare npm Pyodide ({spread}) | "
                    f"{page / 1000:.1f} s / {bare / 1000:.1f} s | {ratio:.2f} × bare | ≤ {TARGETS['slow4g_ratio']} | "
                    f"{'yes' if ratio <= TARGETS['slow4g_ratio'] else 'no'} |")
    for page, lh in results.get("lighthouse", {}).items():
        met = lh["score"] >= TARGETS["score"] and lh["tbt_ms"] <= TARGETS["tbt_ms"]
        scores, tbts = [r["score"] for r in lh["runs"]], [r["tbt_ms"] for r in lh["runs"]]
        control = page == BLOCKING_PAGES[1]  # no calculator: what Material's own start-up costs here
        rows.append(f"| (g) Lighthouse mobile /{page}{' (no calculator)' if control else ''}: score, TBT (runs "
                    f"{min(scores):.2f}–{max(scores):.2f}, {min(tbts):.0f}–{max(tbts):.0f} ms) | "
                    f"{lh['score']:.2f}, {lh['tbt_ms']:.0f} ms | | "
                    + ("(control) | |" if control else
                       f"≥ {TARGETS['score']}, ≤ {TARGETS['tbt_ms']} ms | {'yes' if met else 'no'} |"))
    if results.get("blocking"):
        calc, plain = (results["blocking"][p] for p in BLOCKING_PAGES)
        extra = median(calc) - median(plain)
        # Each run's pair (the two pages one after the other): how far the difference moves between runs.
        pairs = [c - p for c, p in zip(calc, plain)]
        rows.append(f"| (j) blocking time, 4× CPU: /{BLOCKING_PAGES[0]} / /{BLOCKING_PAGES[1]} (runs "
                    f"{min(calc):.0f}–{max(calc):.0f} / {min(plain):.0f}–{max(plain):.0f} ms; differences of each "
                    f"run's pair {min(pairs):+.0f} to {max(pairs):+.0f} ms) | {median(calc):.0f} / "
                    f"{median(plain):.0f} ms | {extra:+.0f} ms | ≤ +{TARGETS['blocking_extra_ms']} ms | "
                    f"{'yes' if extra <= TARGETS['blocking_extra_ms'] else 'no'} |")
    return "\n".join(rows)


if __name__ == "__main__":
    main()
