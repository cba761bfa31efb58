"""What several of `make bench`'s measures share: the repository root, the targets, the phone and its
CPU rate, the floor page and the probes a page runs (ready, verdict), the copy of the site a run serves
(``prepare``), ``Bench`` (a browser and the server's origin: pages, contexts, network and CPU emulation,
and (a)-(d)'s floor and calculator visits), the renderer throttle and the median and percentile."""

from __future__ import annotations

import contextlib
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from sitebuild.engine import engine_paths  # noqa: E402

CALC_PAGE = "fr/naruto/"  # (b)-(d): the page with the most calculators
TIMEOUT_MS = 120_000
#: (b)-(d) against npm's Pyodide (issue 44); "page_work_ms": (b) minus (a) cold, unthrottled and with
#: ``--startup-cpu renderer``.
TARGETS = {"cold": 0.55, "repeat": 0.35, "offline": 0.35, "page_work_ms": 250, "page_work_4x_ms": 600, "p95_ms": 16, "p95_4x_ms": 100, "kb_gzip": 150,
           # (g): against /glossary/ in the same run (issue 36): score at most 0.02 below it, TBT at most 50 ms above it.
           "score_below_control": 0.02, "tbt_above_control_ms": 50,
           "first_visit_mb": 3.7, "slow4g_ratio": 0.6, "blocking_extra_ms": 50, "phone_ratio": 0.47,
           "phone_repeat_ratio": 0.25, "early_ratio": 0.15}
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

#: (h), (k), (l): records when calculator %(id)s shows its verdict (web/calculators/calc.js writes the summary, then sets
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
    engine's memory snapshot (web/offline/offline.js, web/engine/worker.js); attributes, not an eval (CSP)."""
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
    if result == "null":  # web/calculators/calc.js: an error verdict; the figure is about a verdict
        raise RuntimeError(f"{url}: the link's verdict is an error, not a result")
    return elapsed, start
