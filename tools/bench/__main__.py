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
    (3 s after "load" for the plain pages), /naruto/ against /glossary/ (no calculator), alternating; a
    second row splits it with /naruto/ less its calculators' blocks, served beside them;
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
(n) the offline copy's check per page view on a repeat visit (tools/bench/offline_check.py): bytes hashed by
    the service worker and its check's time, service worker running and restarted, against ``--old-site`` (e.g.
    main's build) in the same run;
(l) the same phone's repeat visit: in one context (service worker allowed) a first visit to the link, then,
    once the service worker has stored the engine and the engine its snapshot, the link again until its
    verdict; against the bare npm page loaded again in its context; alternating, at least 3 runs each.

Times are from navigation start to "ready" (data-state on the page), to a verdict, or to Python's answer
on the floor page, read in the page at the event. It prints a table (medians and ratios to the matching
floor) and writes JSON to ``bench-results/``.

This module: the command line and the order of the measures (issue 55: a module per family of measures).
common.py: what several share (``Bench``, ``prepare``, the probes, the targets); startup.py: (a)-(d);
latency.py: (e); transfer.py: (f), (h), (i); lighthouse.py: (g); blocking.py: (j); phone.py: (k), (l), (m);
offline_check.py: (n);
report.py: the table and bench.md's heading.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from tools.bench.blocking import add_page_without_calculators, run_blocking
from tools.bench.common import CPU_RATE, PHONE, ROOT, Bench, build, prepare
from tools.bench.latency import run_latency
from tools.bench.lighthouse import run_lighthouse
from tools.bench.offline_check import run_offline_check
from tools.bench.phone import run_phone_early, run_phone_first, run_phone_repeat
from tools.bench.report import heading, provenance, summary
from tools.bench.startup import run_startup
from tools.bench.transfer import FIRST_VISIT_LINK, run_bytes, run_first_visit_bytes, run_slow_4g
from tools.chromium import ARGS, find
from tools.serve import serve_in_thread


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a built site (default: run `make build` and use site/)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--out", type=Path, default=ROOT / "bench-results")
    parser.add_argument("--only", default="abcdefghijklmn", help="which parts to run, e.g. abcd")
    parser.add_argument("--old-site", type=Path, help="(n): another build to compare with, e.g. main's site/")
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
                    add_page_without_calculators(served)
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
                if "n" in args.only:
                    print("(n) the offline copy's check per repeat page view", flush=True)
                    results["offline_check"] = run_offline_check(
                        browser, {"new": site, **({"old": args.old_site} if args.old_site else {})})
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


if __name__ == "__main__":
    main()
