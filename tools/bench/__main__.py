"""`make bench`: calculator start-up against a bare Pyodide boot, latency, bytes, Lighthouse.

Not a test: it measures and reports. It builds the site (unless ``--site`` names a built one),
serves it on 127.0.0.1 and, in headless Chromium, runs alternately ``--runs`` times each:

(a) the floor: a bare page that only boots Pyodide (same files, main thread) and runs one line
    of Python, cold (new browser context) and warm (reloaded in the same context); and the same bare
    page booting Pyodide as npm ships it (the files of (i)), cold and warm;
(b) a calculator page, cold (new context); (c) the same page again (repeat visit, the service
    worker in control); (d) the same page offline (network off, everything from the service worker).
    Read against npm's Pyodide (issue 44: what a site without this work serves), and (b) also as its
    difference to the floor of our own files: what the page itself does besides booting them.
    ``--startup-cpu renderer``: all of (a)-(d) with every renderer thread 4x slower (as (k));
(e) per calculator, input -> verdict rendered latency, p50 and p95 (a 60-line decklist for naruto-reserve);
    second column: the same loop with the CPU 4x slower (``--phone-cpu``, see (k));
(f) bytes of the page itself, every file but the engine's, per page (HTML+CSS+JS, gzip-equivalent);
(g) Lighthouse (npm ``lighthouse``) mobile performance score and Total Blocking Time per calculator page
    (medians of ``--runs`` runs), read against /glossary/, a page without a calculator, in the same run:
    met when the median score is at most 0.02 below /glossary/'s and the median TBT at most 50 ms above it;
(h) a first visit to /naruto/ with a value in the address (new context: nothing cached, no service worker
    yet), counted at the server: the bytes of every request of the page and its workers (Material's search
    worker included) that arrived before the calculator's verdict, search files asked after it added; second
    figure, the whole visit until the server has sent nothing for 3 s once the engine and
    its snapshot are stored (the service worker's precache included), with its largest files and the files
    asked more than once;
(j) main-thread blocking under a 4x CPU slowdown (Chromium's CPU throttling, a mid-range phone):
    the sum of (duration - 50 ms) over the page's long tasks, from navigation to 3 s after "ready"
    (3 s after "load" for the plain page), /naruto/ against /glossary/ (no calculator), alternating;
(i) time to "ready" on a first visit under emulated Slow 4G (150 ms round trip, 1.6 Mbit/s down,
    750 kbit/s up): /naruto/ against a bare page booting Pyodide from the npm package's files as
    shipped (gzip on the fly, as a host without this site's build would send them), alternating;
(k) the first verdict on a phone: Playwright's Pixel 7 profile (viewport, user agent, touch, pixel ratio),
    Slow 4G as in (i) and the CPU 4x slower, new context, no service worker: from navigation start to the
    verdict of the shared link /fr/naruto/?naruto-rounds.players=24#calc-naruto-rounds on the page (its
    summary written and data-result set), against the bare npm page of (i) reaching ``runPython("1 + 1")``;
    alternating, at least 3 runs each. ``--phone-cpu page`` (default) is Chromium's emulation
    (``Emulation.setCPUThrottlingRate``), which slows the page's main thread only: this site's engine runs in
    a worker at full speed, the bare page's on the throttled main thread. ``--phone-cpu renderer`` slows every
    thread of the renderer processes alike; with the default, (k) also runs that way, as a second row (a
    phone's worker is as slow as its main thread);
(m) the answer before the engine: the first verdict of a shared link on the phone of (k), every renderer thread
    4x slower, first visit, against the bare npm page in the same run, for each link of ``EARLY_LINKS`` (values the
    build's tables hold: sitebuild/answers.py); alternating, at least 3 runs each. (h), (k) and (l) wait for the
    engine's verdict, as before the tables;
(l) the same phone's repeat visit: in one context (service worker allowed) a first visit to the link, then,
    once the service worker has stored the engine and the engine its snapshot, the link again until its
    verdict; against the bare npm page loaded again in its context; alternating, at least 3 runs each.

Times are from navigation start to "ready" (data-state on the page), to a verdict, or to Python's answer
on the floor page, read in the page at the event. It prints a table (medians and ratios to the matching
floor) and writes JSON to ``bench-results/``.
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
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tools.chromium import ARGS, find  # noqa: E402
from sitebuild.engine import engine_paths  # noqa: E402
from tools.serve import serve_in_thread  # noqa: E402

CALC_PAGE = "fr/naruto/"  # (b)-(d): the page with the most calculators
PAGES = ("", "naruto/", "fr/naruto/", "judge-tower/", "pokemon/", "glossary/")  # (f)
#: The calculator pages, and /glossary/: the same site without a calculator (Material's own share).
LIGHTHOUSE_PAGES = ("naruto/", "judge-tower/", "pokemon/", "glossary/")
TIMEOUT_MS = 120_000
#: (b)-(d) against npm's Pyodide (issue 44); "page_work_ms": (b) minus (a) cold, unthrottled and with
#: ``--startup-cpu renderer``.
TARGETS = {"cold": 0.55, "repeat": 0.35, "offline": 0.35, "page_work_ms": 250, "page_work_4x_ms": 600, "p95_ms": 16, "p95_4x_ms": 100, "kb_gzip": 150,
           # (g): against /glossary/ in the same run (issue 36): score at most 0.02 below it, TBT at most 50 ms above it.
           "score_below_control": 0.02, "tbt_above_control_ms": 50,
           "first_visit_mb": 3.7, "slow4g_ratio": 0.6, "blocking_extra_ms": 50, "phone_ratio": 0.47,
           "phone_repeat_ratio": 0.25, "early_ratio": 0.15}
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
#: Where they are served: a folder the host sends as immutable (``/calc/pyodide-*``, sitebuild/hosting.py), as a
#: careful host would send versioned engine files. A cold visit ((i), (k)) is the same either way; a warm bare page
#: ((l)) then reads them from the HTTP cache, where with ``no-cache`` tools/serve.py, which answers a conditional
#: request for a compressed file with the whole file, not a 304, would send them again, making the control slow.
NPM_DIR = "pyodide-npm/"

#: (k), (l): a mid-range phone. Playwright's device profile (viewport, user agent, touch, pixel ratio), Slow 4G as
#: in (i), and the CPU 4x slower (``--phone-cpu``).
PHONE = "Pixel 7"
CPU_RATE = 4
#: A shared link: its verdict is the figure (first calculator of /fr/naruto/, a value from the address).
PHONE_CALC = "calc-naruto-rounds"
PHONE_LINK = f"fr/naruto/?naruto-rounds.players=24#{PHONE_CALC}"
PHONE_TIMEOUT_MS = 400_000
#: (m): shared links whose values the build's tables hold (calculator element id, link).
EARLY_LINKS = (
    (PHONE_CALC, PHONE_LINK),
    ("calc-pokemon-time-limit", "it/pokemon/?pokemon-time-limit.late_a=no&pokemon-time-limit.late_b=no"
                                "&pokemon-time-limit.prizes_a=2&pokemon-time-limit.prizes_b=2"
                                "#calc-pokemon-time-limit"),
)

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

#: (h), (k), (l): records when calculator %(id)s shows its verdict (web/calc.js writes the summary, then sets
#: data-result; the observer runs right after that task), in navigation-start time and in epoch milliseconds
#: (the server's clock, for (h)), and says it on the console: waiting for it needs no Playwright query of the
#: page (Playwright's injected script would run on the throttled main thread, and the CSP forbids its eval).
VERDICT_MESSAGE = "bench: verdict"
VERDICT_PROBE = """
new MutationObserver((_, observer) => {
  const el = document.getElementById(%(id)r);
  const summary = el && el.querySelector(".calc-summary");
  if (!el || el.dataset.result === undefined || !summary || !summary.textContent.trim()) return;
  if (%(engine)s && el.dataset.state !== "ready") return; // the engine's verdict, not the build's tables'

  window.__verdict = performance.now();
  window.__verdictEpoch = performance.timeOrigin + window.__verdict;
  window.__verdictResult = el.dataset.result;
  observer.disconnect();
  console.log(%(message)r);
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-result"] });
"""
#: (k), (l): the bare page's answer (``window.__floor``, set by FLOOR_HTML) said on the console too.
FLOOR_MESSAGE = "bench: floor"
FLOOR_CONSOLE = """
let floorAt;
Object.defineProperty(window, "__floor", { configurable: true, get: () => floorAt,
  set: (value) => { floorAt = value; console.log(%r); } });
""" % FLOOR_MESSAGE


def verdict_probe(calc_id: str, engine: bool = True) -> str:
    """``engine``: wait for the engine's verdict ((h), (k), (l): guards of the engine's start), not the first
    one, which a link the build's tables hold gets before the engine ((m); sitebuild/answers.py)."""
    return VERDICT_PROBE % {"id": calc_id, "message": VERDICT_MESSAGE, "engine": "true" if engine else "false"}


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
    npm = target / "calc" / NPM_DIR
    npm.mkdir()
    for name in NPM_FILES:
        shutil.copy2(ROOT / "node_modules" / "pyodide" / name, npm / name)
    (target / "bench" / "npm.html").write_text(FLOOR_HTML % {"dir": NPM_DIR})
    return target


def left_behind(page, timeout: float) -> None:
    """Waits for what a first visit leaves for the next: the engine in the service worker's cache and the
    engine's memory snapshot (web/offline.js, web/worker.js); attributes, not an eval (CSP)."""
    page.wait_for_selector("html[data-offline=ready]", state="attached", timeout=timeout)
    page.wait_for_selector("html[data-engine-snapshot=stored]", state="attached", timeout=timeout)


def median(values):
    return statistics.median(values) if values else None


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


#: ``--phone-cpu renderer``: every thread of this run's renderer processes (the page's workers included) 4x
#: slower, by stopping the processes (SIGSTOP) for (rate - 1) of every ``rate`` milliseconds. Chromium's own
#: emulation (``Emulation.setCPUThrottlingRate``, the default ``page``) slows the page's main thread only:
#: a dedicated worker, where this site runs Python, keeps the full speed (measured here: a loop in a worker took
#: the same time at rate 1 and 4; a worker's DevTools session answers "Operation is only supported for pages").
#: A separate process, so that this one's GIL cannot stretch the stops. Linux only (``/proc``). Measured on a
#: loop: 4.0-5.5x on the main thread and in a worker alike. Stops are 3 ms long: a task of a millisecond may fit
#: between two (so (e)'s p50 is not a phone's), fine for the seconds of (k) and (l).
RENDERER_THROTTLE = r"""
import os, signal, sys, time
root, rate = int(sys.argv[1]), float(sys.argv[2])
run = 0.001  # then stopped for about (rate - 1) ms
done = []
signal.signal(signal.SIGTERM, lambda *_: done.append(1))

def renderers():
    parents = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as fh:
                    parents[int(name)] = int(fh.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    ours, todo = set(), [root]
    while todo:
        parent = todo.pop()
        for pid, ppid in parents.items():
            if ppid == parent and pid not in ours:
                ours.add(pid)
                todo.append(pid)
    found = []
    for pid in ours - {os.getpid()}:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                # Chromium rewrites its command line into one space-separated string
                if b" --type=renderer " in b" " + fh.read().replace(b"\0", b" ") + b" ":
                    found.append(pid)
        except OSError:
            pass
    return found

def send(pids, sig):
    for pid in pids:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass

pids, cycle = renderers(), 0
ran = stopped = 0.0  # seconds so far: each stop is as long as keeps stopped = (rate - 1) * ran, whatever sleep overshoots
print("throttling", flush=True)
try:
    while not done and os.getppid() == root:
        started = time.monotonic()
        time.sleep(run)
        send(pids, signal.SIGSTOP)
        stopped_at = time.monotonic()
        ran += stopped_at - started
        cycle += 1
        if cycle % 25 == 0:  # new renderers (a navigation to another process), found while the others are stopped
            pids = renderers()
        time.sleep(max(0.0, (rate - 1) * ran - stopped - (time.monotonic() - stopped_at)))
        send(pids, signal.SIGCONT)
        stopped += time.monotonic() - stopped_at
finally:
    send(renderers(), signal.SIGCONT)
"""


class Bench:
    def __init__(self, browser, origin: str, latency_ms: float = 0, phone: dict | None = None,
                 phone_cpu: str = "page") -> None:
        self.browser = browser
        self.origin = origin
        self.latency_ms = latency_ms
        self.phone = phone or {}  # Playwright's device profile, for new_context
        self.phone_cpu = phone_cpu  # "page" (Chromium's emulation, main thread) or "renderer" (every thread)

    def phone_page(self, probe: str, **options):
        """A new context with the phone's profile (``options`` added), ``probe`` run in each document, and its
        page under Slow 4G; returns (context, page, DevTools session), the session for ``slow_cpu``."""
        context = self.browser.new_context(**self.phone, **options)
        context.add_init_script(probe)
        page = context.new_page()
        return context, page, self.emulate_network(context, page)

    def emulate_network(self, context, page):
        """Slow 4G for the page and its dedicated workers, as (i) does; the session, for the CPU's emulation."""
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", SLOW_4G)
        return cdp

    @contextlib.contextmanager
    def slow_cpu(self, cdp):
        """The phone's CPU, ``CPU_RATE`` times slower, for the duration of the block (``--phone-cpu``)."""
        if self.phone_cpu == "page":
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_RATE})
            try:
                yield
            finally:
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
            return
        throttle = subprocess.Popen([sys.executable, "-c", RENDERER_THROTTLE, str(os.getpid()), str(CPU_RATE)],
                                    stdout=subprocess.PIPE, text=True)
        try:
            throttle.stdout.readline()  # "throttling": renderers found, the stops begin
            yield
        finally:
            throttle.terminate()  # it lets every renderer run again before it exits
            throttle.wait(timeout=10)

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

    def floor(self, path: str = "bench/floor.html") -> tuple[float, float]:
        context = self.browser.new_context(service_workers="block")
        page = self.new_page(context)
        times = []
        for _ in range(2):  # cold, then warm (HTTP cache and compiled-wasm cache filled)
            page.goto(f"{self.origin}/{path}")
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
        left_behind(page, TIMEOUT_MS)
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
    ("pokemon/", "calc-pokemon-time-limit", {"late_a": "no", "late_b": "no", "prizes_b": "2"}, "prizes_a", [str(1 + i % 6) for i in range(SAMPLES)]),
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
    """(e): per calculator, the loop at full speed (the first column), then the same loop with the CPU
    ``CPU_RATE`` times slower (``--phone-cpu``; Chromium's emulation slows the main thread only)."""
    context = bench.browser.new_context()
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    out = {}
    for path, calc_id, fixed, field, values in LATENCY:
        if not page.url.endswith("/" + path):
            page.goto(f"{bench.origin}/{path}")
        page.wait_for_selector(f'#{calc_id}[data-state="ready"]', state="attached", timeout=TIMEOUT_MS)
        if page.get_attribute("html", "data-engine-start") == "full":  # typing, not the snapshot's storing
            page.wait_for_selector("html[data-engine-snapshot=stored]", state="attached", timeout=TIMEOUT_MS)
        dom, painted = (times[WARMUP:] for times in page.evaluate(MEASURE_LATENCY, [calc_id, fixed, field, values]))
        with bench.slow_cpu(cdp):
            slow_dom, slow_painted = (times[WARMUP:]
                                      for times in page.evaluate(MEASURE_LATENCY, [calc_id, fixed, field, values]))
        out[calc_id] = {"p50_ms": percentile(dom, 0.5), "p95_ms": percentile(dom, 0.95), "samples": len(dom),
                        "next_frame_p50_ms": percentile(painted, 0.5), "next_frame_p95_ms": percentile(painted, 0.95),
                        "cpu4x_p50_ms": percentile(slow_dom, 0.5), "cpu4x_p95_ms": percentile(slow_dom, 0.95),
                        "cpu4x_next_frame_p95_ms": percentile(slow_painted, 0.95)}
        lat = out[calc_id]
        print(f"  {calc_id}: p50 {lat['p50_ms']:.1f} ms, p95 {lat['p95_ms']:.1f} ms; {CPU_RATE}x CPU: "
              f"p50 {lat['cpu4x_p50_ms']:.1f} ms, p95 {lat['cpu4x_p95_ms']:.1f} ms", flush=True)
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


#: (h): the first visit's page, with a value from the address, so that it ends in a verdict.
FIRST_VISIT_LINK = f"{FIRST_VISIT_PAGE}?naruto-rounds.players=24#{PHONE_CALC}"
#: Material's search: its worker, its index, lunr and its language files.
SEARCH_FILE = re.compile(r"/assets/javascripts/(workers/search\.|lunr/)|/search/search_index\.json")
#: (h), second figure: the whole first visit ends once the server has sent nothing for this long.
QUIET_S, QUIET_LIMIT_S = 3.0, 180.0


def tally(sent: dict[tuple[float, str], int], end: float = float("inf")) -> dict[str, object]:
    """The server's record ((arrival, path) -> bytes sent) of the requests that arrived until ``end``: bytes,
    requests, bytes per path (largest first; a path asked twice counts twice) and, for paths asked more than
    once, the bytes of the repeats."""
    chosen = [(key, size) for key, size in sent.items() if key[0] <= end]
    files: dict[str, int] = {}
    asked: dict[str, list[int]] = {}
    for (_, path), size in sorted(chosen):
        files[path] = files.get(path, 0) + size
        asked.setdefault(path.split("?", 1)[0], []).append(size)  # "/naruto/?x=1" is /naruto/ again
    again = {path: sum(sizes[1:]) for path, sizes in asked.items() if len(sizes) > 1}
    return {"bytes": sum(files.values()), "requests": len(chosen),
            "files": dict(sorted(files.items(), key=lambda item: -item[1])),
            "again": dict(sorted(again.items(), key=lambda item: -item[1]))}


def page_records(sent: dict[tuple[float, str], int], asked: Counter, end: float) -> dict[tuple[float, str], int]:
    """The server's records, up to ``end``, of the requests the page and its workers made (``asked``: how many
    times they asked for each path, query left out): for each path, its first ``asked[path]`` records. What is
    left, later requests for the same paths and paths the page never asked for, is the service worker's."""
    taken: Counter = Counter()
    out = {}
    for key in sorted(sent):
        path = key[1].split("?", 1)[0]
        if key[0] <= end and taken[path] < asked[path]:
            out[key] = sent[key]
            taken[path] += 1
    return out


def late_search(sent: dict[tuple[float, str], int], end: float, paths) -> dict[tuple[float, str], int]:
    """The server's records of search files the page asked for after ``end``: for each path, its first
    request after ``end`` (the service worker, which asks for them again later, cannot be told apart)."""
    out = {}
    for path in dict.fromkeys(paths):
        after = sorted(key for key in sent if key[1] == path and key[0] > end)
        if after:
            out[after[0]] = sent[after[0]]
    return out


def wait_quiet(server, quiet: float = QUIET_S, limit: float = QUIET_LIMIT_S) -> float | None:
    """Waits until the server has sent nothing for ``quiet`` seconds; returns when its last byte went out
    (epoch seconds, within 0.1 s), or None after ``limit`` seconds of traffic."""
    begun = last_change = time.time()
    last = None
    while time.time() - begun < limit:
        record = dict(server.sent)
        state = (len(record), sum(record.values()))
        if state != last:
            last, last_change = state, time.time()
        elif time.time() - last_change >= quiet:
            return last_change
        time.sleep(0.1)
    return None


def run_first_visit_bytes(bench: Bench, server) -> dict[str, object]:
    """(h): a new context (nothing cached, no service worker yet) opens /naruto/ with a value in the address.
    First figure: every request of the page and its workers (ours, Material's search worker) that reached the
    server before the verdict, with the bytes it was sent, plus any search file the page asked for after the
    verdict. The service worker registers once the engine is ready, racing the verdict: its requests count in
    the second figure only. Second figure: the whole visit, until the server has sent nothing for 3 s once the service worker has stored
    the engine and the engine its snapshot (the service worker's precache of the site included)."""
    context = bench.browser.new_context()
    context.add_init_script(verdict_probe(PHONE_CALC))
    page = context.new_page()
    asked: list[str] = []  # paths the page and its workers asked for (not the service worker)
    page.on("request", lambda request: asked.append(urlsplit(request.url).path))
    server.sent.clear()
    _verdict(page, f"{bench.origin}/{FIRST_VISIT_LINK}")
    end = page.evaluate("window.__verdictEpoch") / 1000
    left_behind(page, TIMEOUT_MS)
    quiet = wait_quiet(server)
    sent = dict(server.sent)
    context.close()
    # When each search file the page asked for reached the server first (the service worker asks later).
    search = {path: round(min(at for at, sent_path in sent if sent_path == path) - end, 2)
              for path in dict.fromkeys(asked) if SEARCH_FILE.search(path) and any(q == path for _, q in sent)}
    late = [path for path, offset in search.items() if offset > 0]
    before = tally({**page_records(sent, Counter(asked), end), **late_search(sent, end, late)})
    whole = tally(sent)
    out = {"link": FIRST_VISIT_LINK, **before, "search_s_from_verdict": search, "search_after_verdict": late,
           "whole": {**whole, "quiet": quiet is not None}}
    print(f"  before the verdict: {before['bytes'] / 1e6:.2f} MB in {before['requests']} requests; largest: "
          + ", ".join(f"{path} {size / 1e3:.0f} KB" for path, size in list(before["files"].items())[:6]), flush=True)
    print(f"  search, seconds from the verdict: "
          + (", ".join(f"{path} {offset:+.2f}" for path, offset in search.items()) or "none asked"), flush=True)
    print(f"  whole visit{'' if quiet else ' (never quiet: cut at ' + str(QUIET_LIMIT_S) + ' s)'}: "
          f"{whole['bytes'] / 1e6:.2f} MB in {whole['requests']} requests; largest: "
          + ", ".join(f"{path} {size / 1e3:.0f} KB" for path, size in list(whole["files"].items())[:12]), flush=True)
    print("  asked more than once (bytes of the repeats): "
          + (", ".join(f"{path} {size / 1e3:.1f} KB" for path, size in whole["again"].items()) or "none"), flush=True)
    return out


def run_slow_4g(bench: Bench, runs: int) -> dict[str, list[float]]:
    """(i): first visits under Slow 4G, our page and the bare npm Pyodide page alternating."""
    out: dict[str, list[float]] = {"bare": [], "page": []}

    def visit(path: str, ready_js: str) -> float:
        context = bench.browser.new_context()
        context.add_init_script(READY_PROBE)
        page = context.new_page()
        bench.emulate_network(context, page)
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


def _until(page, url: str, message: str, value_js: str):
    """Navigates to ``url`` and waits for ``message`` on the console; then reads ``value_js`` (times are the
    page's own, from navigation start, taken at the event)."""
    with page.expect_console_message(lambda m: m.text == message, timeout=PHONE_TIMEOUT_MS):
        page.goto(url, wait_until="commit", timeout=PHONE_TIMEOUT_MS)
    return page.evaluate(value_js)


VERDICT_VALUE = "[window.__verdict, window.__verdictResult, document.documentElement.dataset.engineStart || '']"


def _verdict(page, url: str) -> tuple[float, str]:
    """Time to the link's verdict, and how the engine started ("full" or "snapshot")."""
    elapsed, result, start = _until(page, url, VERDICT_MESSAGE, VERDICT_VALUE)
    if result == "null":  # web/calc.js: an error verdict; the figure is about a verdict
        raise RuntimeError(f"{url}: the link's verdict is an error, not a result")
    return elapsed, start


def phone_visit(bench: Bench, path: str, probe: str, measure) -> float:
    """A first visit of the phone of ``bench`` (new context, no service worker) to ``path``, timed by ``measure``."""
    context, page, cdp = bench.phone_page(probe, service_workers="block")
    with bench.slow_cpu(cdp):
        elapsed = measure(page, f"{bench.origin}/{path}")
    context.close()
    return elapsed


def bare_phone_visit(bench: Bench) -> float:
    """The bare npm Pyodide page on the phone of ``bench``, until ``runPython``."""
    return phone_visit(bench, "bench/npm.html", FLOOR_CONSOLE, lambda page, url: _until(page, url, FLOOR_MESSAGE, "window.__floor"))


def run_phone_first(bench: Bench, runs: int) -> dict[str, list[float]]:
    """(k): a first visit on a phone (profile, Slow 4G, 4x CPU, cold, no service worker): the shared link
    until its verdict against the bare npm Pyodide page until ``runPython("1 + 1")``, alternating."""
    out: dict[str, list[float]] = {"bare": [], "page": []}

    for i in range(runs):
        out["bare"].append(bare_phone_visit(bench))
        out["page"].append(phone_visit(bench, PHONE_LINK, verdict_probe(PHONE_CALC), lambda page, url: _verdict(page, url)[0]))
        print(f"  run {i + 1}: bare npm Pyodide {out['bare'][-1]:.0f} ms, /{PHONE_LINK} verdict {out['page'][-1]:.0f} ms",
              flush=True)
    return out


def run_phone_early(bench: Bench, runs: int) -> dict[str, list[float]]:
    """(m): first visits on the phone of ``bench``: each link of EARLY_LINKS until its first verdict (from the
    build's tables, before the engine), against the bare npm Pyodide page, alternating."""
    out: dict[str, list[float]] = {"bare": [], **{link: [] for _, link in EARLY_LINKS}}

    for i in range(runs):
        out["bare"].append(bare_phone_visit(bench))
        for calc_id, link in EARLY_LINKS:
            out[link].append(phone_visit(bench, link, verdict_probe(calc_id, engine=False), lambda page, url: _verdict(page, url)[0]))
        print(f"  run {i + 1}: bare npm Pyodide {out['bare'][-1]:.0f} ms, "
              + ", ".join(f"/{link} {out[link][-1]:.0f} ms" for _, link in EARLY_LINKS), flush=True)
    return out


def run_phone_repeat(bench: Bench, runs: int) -> dict[str, list]:
    """(l): the same phone's repeat visit. Ours: in one context (service worker allowed), a first visit to the
    link, then once the service worker has stored the engine and the engine its snapshot, the link again (a new
    navigation, through about:blank: the same address with a fragment would only scroll) until its verdict.
    The control: the bare npm page loaded once, then again in the same context until ``runPython``. Both visits
    of each run under the phone's emulation; alternating."""
    out: dict[str, list] = {"bare": [], "page": [], "page_first": [], "bare_first": [], "engine_start": []}

    def ours() -> None:
        context, page, cdp = bench.phone_page(verdict_probe(PHONE_CALC))
        url = f"{bench.origin}/{PHONE_LINK}"
        with bench.slow_cpu(cdp):
            out["page_first"].append(_verdict(page, url)[0])
        left_behind(page, PHONE_TIMEOUT_MS)
        page.goto("about:blank")
        with bench.slow_cpu(cdp):
            elapsed, start = _verdict(page, url)
        out["page"].append(elapsed)
        out["engine_start"].append(start)
        context.close()

    def bare() -> None:
        context, page, cdp = bench.phone_page(FLOOR_CONSOLE)
        url = f"{bench.origin}/bench/npm.html"
        with bench.slow_cpu(cdp):
            out["bare_first"].append(_until(page, url, FLOOR_MESSAGE, "window.__floor"))
        page.goto("about:blank")
        with bench.slow_cpu(cdp):
            out["bare"].append(_until(page, url, FLOOR_MESSAGE, "window.__floor"))
        context.close()

    for i in range(runs):
        bare()
        ours()
        print(f"  run {i + 1}: bare npm Pyodide warm {out['bare'][-1]:.0f} ms (first {out['bare_first'][-1]:.0f}), "
              f"/{PHONE_LINK} repeat verdict {out['page'][-1]:.0f} ms (first {out['page_first'][-1]:.0f}, "
              f"engine start: {out['engine_start'][-1] or '?'})", flush=True)
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


def run_startup(bench: Bench, runs: int, cpu: str = "none") -> dict[str, list[float]]:
    """(a)-(d), alternating; ``cpu`` "renderer": every renderer thread 4x slower throughout."""
    out: dict[str, list[float]] = {"floor_cold": [], "floor_warm": [], "npm_cold": [], "npm_warm": [],
                                   "cold": [], "repeat": [], "offline": []}
    slow = bench.slow_cpu(None) if cpu == "renderer" else contextlib.nullcontext()
    with slow:
        for i in range(runs):  # alternate floor and calculator runs so drift hits both alike
            cold, warm = bench.floor()
            out["floor_cold"].append(cold)
            out["floor_warm"].append(warm)
            npm_cold, npm_warm = bench.floor("bench/npm.html")
            out["npm_cold"].append(npm_cold)
            out["npm_warm"].append(npm_warm)
            c, r, o = bench.calculator()
            out["cold"].append(c)
            out["repeat"].append(r)
            out["offline"].append(o)
            print(f"  run {i + 1}: floor {cold:.0f}/{warm:.0f} ms, npm {npm_cold:.0f}/{npm_warm:.0f} ms, "
                  f"calculator cold {c:.0f} (+{c - cold:.0f}), repeat {r:.0f}, offline {o:.0f}", flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a built site (default: run `make build` and use site/)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--out", type=Path, default=ROOT / "bench-results")
    parser.add_argument("--only", default="abcdefghijklm", help="which parts to run, e.g. abcd")
    parser.add_argument("--latency", type=float, default=0, metavar="MS",
                        help="(a)-(d): delay every request by MS milliseconds, as on a real network")
    parser.add_argument("--startup-cpu", choices=("none", "renderer"), default="renderer",
                        help="(a)-(d): also run them with every renderer thread 4x slower ('none': not)")
    parser.add_argument("--phone-cpu", choices=("page", "renderer"), default="page",
                        help="(e) second column, (k), (l): how the CPU is slowed 4x: 'page', Chromium's emulation "
                             "(the page's main thread only; workers keep full speed), or 'renderer', every thread "
                             "of the renderer processes (stopped 3 ms of every 4; Linux)")
    args = parser.parse_args()
    site = args.site or build()
    from playwright.sync_api import sync_playwright

    chromium = find()
    results: dict[str, object] = {"chromium": chromium, "runs": args.runs, "latency_ms": args.latency,
                                  "phone_cpu": args.phone_cpu, "date": time.strftime("%Y-%m-%d %H:%M"), **provenance()}
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        served = prepare(site, Path(tmp))
        server = serve_in_thread(served)
        origin = f"http://127.0.0.1:{server.server_address[1]}"
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium, args=ARGS)
                bench = Bench(browser, origin, args.latency, phone_cpu=args.phone_cpu)
                phone = {key: value for key, value in p.devices[PHONE].items() if key != "default_browser_type"}
                on_phone = Bench(browser, origin, phone=phone, phone_cpu=args.phone_cpu)
                if set("abcd") & set(args.only):
                    print("(a)-(d) start-up", flush=True)
                    results["startup"] = run_startup(bench, args.runs)
                    if args.startup_cpu == "renderer":
                        print(f"(a)-(d) start-up, every renderer thread {CPU_RATE}x slower", flush=True)
                        results["startup_4x"] = run_startup(Bench(browser, origin, args.latency, phone_cpu="renderer"),
                                                            args.runs, "renderer")
                if "e" in args.only:
                    print("(e) input -> verdict latency", flush=True)
                    results["latency"] = run_latency(bench)
                if "f" in args.only:
                    print("(f) bytes of each page besides the engine", flush=True)
                    results["bytes"] = run_bytes(bench, served)
                if "h" in args.only:
                    print(f"(h) bytes of a first visit to /{FIRST_VISIT_LINK}", flush=True)
                    results["first_visit"] = run_first_visit_bytes(Bench(browser, origin), server)
                if "j" in args.only:
                    print("(j) main-thread blocking, 4x CPU slowdown", flush=True)
                    results["blocking"] = run_blocking(Bench(browser, origin), max(5, args.runs))
                if "i" in args.only:
                    print("(i) first visit under Slow 4G", flush=True)
                    results["slow_4g"] = run_slow_4g(Bench(browser, origin), max(3, args.runs))
                if "k" in args.only:
                    print(f"(k) first verdict on a phone ({PHONE}, Slow 4G, {CPU_RATE}x CPU: {args.phone_cpu})",
                          flush=True)
                    results["phone"] = run_phone_first(on_phone, max(3, args.runs))
                    if args.phone_cpu == "page":  # also as a phone is: its workers as slow as its main thread
                        print(f"(k) again, every renderer thread {CPU_RATE}x slower", flush=True)
                        results["phone_all_threads"] = run_phone_first(
                            Bench(browser, origin, phone=phone, phone_cpu="renderer"), max(3, args.runs))
                if "m" in args.only:
                    print(f"(m) the answer before the engine: first verdict on a phone ({PHONE}, Slow 4G, {CPU_RATE}x "
                          "CPU on every renderer thread)", flush=True)
                    results["phone_early"] = run_phone_early(Bench(browser, origin, phone=phone, phone_cpu="renderer"),
                                                             max(3, args.runs))
                if "l" in args.only:
                    print(f"(l) repeat visit on a phone ({PHONE}, Slow 4G, {CPU_RATE}x CPU: {args.phone_cpu})",
                          flush=True)
                    results["phone_repeat"] = run_phone_repeat(on_phone, max(3, args.runs))
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
    if results.get("latency_ms") and results.get("startup"):
        rows.append(f"| (a)-(d) every request delayed by | {results['latency_ms']:.0f} ms | | | |")
    for name, slowed in (("startup", ""), ("startup_4x", f", every renderer thread {CPU_RATE}×")):
        if results.get(name):
            rows.extend(startup_rows(results[name], slowed))
    for calc_id, lat in results.get("latency", {}).items():  # a row each: full speed, then 4x CPU if measured
        slow = "cpu4x_p95_ms" in lat
        value = f"{lat['p50_ms']:.1f} / {lat['p95_ms']:.1f} ms (next frame {lat['next_frame_p95_ms']:.1f})"
        target, met = f"p95 ≤ {TARGETS['p95_ms']} ms", yes(lat["p95_ms"] <= TARGETS["p95_ms"])
        if slow:
            value += (f"; 4×: {lat['cpu4x_p50_ms']:.1f} / {lat['cpu4x_p95_ms']:.1f} ms (next frame "
                      f"{lat['cpu4x_next_frame_p95_ms']:.1f})")
            target += f"; 4×: p95 ≤ {TARGETS['p95_4x_ms']} ms"
            met += f"; 4×: {yes(lat['cpu4x_p95_ms'] <= TARGETS['p95_4x_ms'])}"
        rows.append(f"| (e) {calc_id}: input → verdict in the DOM, p50 / p95"
                    f"{f'; {CPU_RATE}× CPU ({cpu_text(results)})' if slow else ''} | {value} | | {target} | {met} |")
    sizes = results.get("bytes", {})
    if sizes:
        kb = {("/" + page.strip("()") if page != "(home)" else "/"): b["html_css_js_kb_gzip"] for page, b in sizes.items()}
        rows.append(f"| (f) HTML+CSS+JS besides the engine, gzip, per page: "
                    f"{', '.join(f'{page} {size}' for page, size in kb.items())} KB | {max(kb.values())} KB at most | | "
                    f"≤ {TARGETS['kb_gzip']} KB | {yes(max(kb.values()) <= TARGETS['kb_gzip'])} |")
    visit = results.get("first_visit")
    if visit:
        mb = visit["bytes"] / 1e6
        late = visit.get("search_after_verdict", [])
        search = (f"search files asked: {len(visit.get('search_s_from_verdict', {}))}, "
                  + (f"{len(late)} after the verdict (counted)" if late else "none after the verdict"))
        rows.append(f"| (h) first visit to /{visit.get('link', FIRST_VISIT_PAGE)}: bytes before the verdict, "
                    f"{visit.get('requests', len(visit['files']))} requests ({search}; largest: "
                    f"{largest(visit['files'], 5)}) | {mb:.2f} MB | | ≤ {TARGETS['first_visit_mb']} MB | "
                    f"{yes(mb <= TARGETS['first_visit_mb'])} |")
        whole = visit.get("whole")
        if whole:
            again = (f"; asked again: {len(whole['again'])} files, {sum(whole['again'].values()) / 1e3:.0f} KB"
                     if whole["again"] else "")
            rows.append(f"| (h) the whole first visit, until {QUIET_S:.0f} s without traffic after the snapshot "
                        f"{'' if whole['quiet'] else '(never quiet: cut) '}(service worker's precache included), "
                        f"{whole['requests']} requests (largest: {largest(whole['files'], 8)}{again}) | "
                        f"{whole['bytes'] / 1e6:.2f} MB | | | |")
    if results.get("slow_4g"):
        rows.append(ratio_row(f"(i) first visit, Slow 4G: /{FIRST_VISIT_PAGE} / bare npm Pyodide",
                              results["slow_4g"]["page"], results["slow_4g"]["bare"], TARGETS["slow4g_ratio"]))
    if results.get("phone"):
        rows.append(ratio_row(f"(k) first verdict on a phone ({PHONE}, Slow 4G, {CPU_RATE}× CPU {cpu_text(results)}, "
                              f"cold): /{PHONE_LINK} / bare npm Pyodide", results["phone"]["page"],
                              results["phone"]["bare"], TARGETS["phone_ratio"]))
    if results.get("phone_all_threads"):
        rows.append(ratio_row(f"(k) the same, {CPU_RATE}× CPU on all renderer threads (the engine's worker too)",
                              results["phone_all_threads"]["page"], results["phone_all_threads"]["bare"],
                              TARGETS["phone_ratio"]))
    for _, link in EARLY_LINKS if results.get("phone_early") else ():
        rows.append(ratio_row(f"(m) first verdict before the engine on a phone ({PHONE}, Slow 4G, {CPU_RATE}× CPU on all "
                              f"renderer threads, cold): /{link} / bare npm Pyodide", results["phone_early"][link],
                              results["phone_early"]["bare"], TARGETS["early_ratio"]))
    if results.get("phone_repeat"):
        repeat = results["phone_repeat"]
        starts = ", ".join(f"{n} {kind or '?'}" for kind, n in Counter(repeat["engine_start"]).items())
        rows.append(ratio_row(f"(l) repeat visit on the same phone ({starts} engine start): the link's verdict / "
                              f"bare npm Pyodide warm", repeat["page"], repeat["bare"], TARGETS["phone_repeat_ratio"],
                              against="warm bare"))
    lighthouse = results.get("lighthouse", {})
    control = lighthouse.get(BLOCKING_PAGES[1])  # /glossary/: no calculator, what Material's own start-up costs
    for page, lh in lighthouse.items():
        scores, tbts = [r["score"] for r in lh["runs"]], [r["tbt_ms"] for r in lh["runs"]]
        label = (f"| (g) Lighthouse mobile /{page}{' (no calculator)' if page == BLOCKING_PAGES[1] else ''}: "
                 f"score, TBT (runs {min(scores):.2f}–{max(scores):.2f}, {min(tbts):.0f}–{max(tbts):.0f} ms) | "
                 f"{lh['score']:.2f}, {lh['tbt_ms']:.0f} ms |")
        if page == BLOCKING_PAGES[1] or control is None:
            rows.append(f"{label} | {'(control)' if control is lh else 'no /' + BLOCKING_PAGES[1] + ' run'} | |")
            continue
        met, score_gap, tbt_gap = lighthouse_met(lh, control)
        rows.append(f"{label} {score_gap:+.2f}, {tbt_gap:+.0f} ms against /{BLOCKING_PAGES[1]} | "
                    f"≥ −{TARGETS['score_below_control']}, ≤ +{TARGETS['tbt_above_control_ms']} ms against "
                    f"/{BLOCKING_PAGES[1]} | {yes(met)} |")
    if results.get("blocking"):
        calc, plain = (results["blocking"][p] for p in BLOCKING_PAGES)
        extra = median(calc) - median(plain)
        # Each run's pair (the two pages one after the other): how far the difference moves between runs.
        pairs = [c - p for c, p in zip(calc, plain)]
        rows.append(f"| (j) blocking time, 4× CPU: /{BLOCKING_PAGES[0]} / /{BLOCKING_PAGES[1]} (runs "
                    f"{min(calc):.0f}–{max(calc):.0f} / {min(plain):.0f}–{max(plain):.0f} ms; differences of each "
                    f"run's pair {min(pairs):+.0f} to {max(pairs):+.0f} ms) | {median(calc):.0f} / "
                    f"{median(plain):.0f} ms | {extra:+.0f} ms | ≤ +{TARGETS['blocking_extra_ms']} ms | "
                    f"{yes(extra <= TARGETS['blocking_extra_ms'])} |")
    return "\n".join(rows)


def startup_rows(start: dict, slowed: str) -> list[str]:
    """(a)-(d): the floors, each page time against npm's Pyodide (and our own floor, for reference), and the
    page's own work: (b) minus (a) cold, with the spread of each run's difference."""
    m = {k: median(v) for k, v in start.items() if v}
    spread = {k: f" (runs {min(v):.0f}–{max(v):.0f})" for k, v in start.items() if v}
    rows = [f"| (a) floor{slowed}, bare Pyodide (our files) on the main thread, cold / warm | {m['floor_cold']:.0f} "
            f"ms{spread['floor_cold']} / {m['floor_warm']:.0f} ms{spread['floor_warm']} | 1 | | |"]
    if "npm_cold" in m:
        rows.append(f"| (a) the same, npm's Pyodide as shipped, cold / warm | {m['npm_cold']:.0f} ms{spread['npm_cold']} / "
                    f"{m['npm_warm']:.0f} ms{spread['npm_warm']} | | | |")
    for key, warmth, label in (("cold", "cold", "(b) calculator page, cold"), ("repeat", "warm", "(c) repeat visit"),
                               ("offline", "warm", "(d) offline, service worker")):
        own = m[key] / m[f"floor_{warmth}"]
        if "npm_cold" in m:
            ratio = m[key] / m[f"npm_{warmth}"]
            met = yes(ratio <= TARGETS[key]) if not slowed else ""
            rows.append(f"| {label}{slowed} | {m[key]:.0f} ms{spread[key]} | {ratio:.2f} × npm {warmth} ({own:.2f} × our "
                        f"floor) | {'≤ ' + str(TARGETS[key]) if not slowed else ''} | {met} |")
        else:  # a run of an earlier bench, against our own floor only
            rows.append(f"| {label}{slowed} | {m[key]:.0f} ms{spread[key]} | {own:.2f} × floor {warmth} | | |")
    work = m["cold"] - m["floor_cold"]
    pairs = [c - f for c, f in zip(start["cold"], start["floor_cold"])]
    target = TARGETS["page_work_4x_ms" if slowed else "page_work_ms"]
    rows.append(f"| (b) − (a) cold{slowed}: the page's own work besides booting our engine files (each run's pair "
                f"{min(pairs):+.0f} to {max(pairs):+.0f} ms) | {work:+.0f} ms | | ≤ {target} ms | {yes(work <= target)} |")
    return rows


def yes(met: bool) -> str:
    return "yes" if met else "no"


def cpu_text(results: dict) -> str:
    """How the CPU was slowed (``--phone-cpu``), for the table."""
    return ("all renderer threads" if results.get("phone_cpu") == "renderer"
            else "main thread only: workers at full speed")


def largest(files: dict[str, int], n: int) -> str:
    """The ``n`` first files (largest first), a file by its name, a page by its path."""
    return ", ".join(f"{path if path.split('?', 1)[0].endswith('/') else path.rsplit('/', 1)[-1]} {size / 1e3:.0f} KB"
                     for path, size in list(files.items())[:n])


def ratio_row(label: str, page: list[float], bare: list[float], target: float, against: str = "bare") -> str:
    """A row of a measure against a bare page in the same run: medians in seconds, each side's spread, the ratio
    of the medians."""
    ratio = median(page) / median(bare)
    return (f"| {label} (page {min(page) / 1000:.1f}–{max(page) / 1000:.1f} s, bare {min(bare) / 1000:.1f}–"
            f"{max(bare) / 1000:.1f} s, {len(page)} runs each) | {median(page) / 1000:.1f} s / {median(bare) / 1000:.1f} s "
            f"| {ratio:.2f} × {against} | ≤ {target} | {yes(ratio <= target)} |")


def lighthouse_met(page: dict, control: dict) -> tuple[bool, float, float]:
    """(g) against the control page of the same run: the median score at most 0.02 below the control's and the
    median TBT at most 50 ms above it. Returns whether both hold, and the two differences."""
    score_gap, tbt_gap = page["score"] - control["score"], page["tbt_ms"] - control["tbt_ms"]
    met = (score_gap >= -TARGETS["score_below_control"] - 1e-9) and tbt_gap <= TARGETS["tbt_above_control_ms"]
    return met, score_gap, tbt_gap


if __name__ == "__main__":
    main()
