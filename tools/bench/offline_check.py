"""(n) The offline copy's check per page view on a repeat visit: the bytes the service worker hashes
(serving the page's files and checking the copy) and the time its check takes, for this site and for
another build (``--old-site``, e.g. main's), in the same run, alternating.

Each site is served from a copy whose ``sw.js`` starts with a counter: every ``crypto.subtle.digest``
adds its input's bytes, and every message handler's ``waitUntil`` (the page's "check the copy") is
timed and reported to the pages. A first visit stores the whole site; then pages without a calculator
are opened one after another, with the service worker still running ("running") and stopped before
each view ("restarted": Chromium stops an idle service worker after ~30 s, so a judge's next page
often meets a new one). Figures: medians over the views, and the new/old ratios.

    .venv/bin/python -m tools.bench.offline_check --site site --old-site <main's built site/>
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
from pathlib import Path

from tools.bench.common import TIMEOUT_MS
from tools.chromium import ARGS, find
from tools.serve import serve_in_thread

#: Pages without a calculator (no engine start competes), each in turn.
VIEWS = ("fr/glossary/", "it/", "glossary/", "fr/", "it/glossary/", "")

COUNTER = """// bench: bytes hashed and the check's time (tools/bench/offline_check.py)
(() => {
  const digest = crypto.subtle.digest.bind(crypto.subtle);
  let hashed = 0;
  crypto.subtle.digest = (algorithm, data) => { hashed += data.byteLength; return digest(algorithm, data); };
  const listen = self.addEventListener.bind(self);
  self.addEventListener = (type, handler, ...rest) => listen(type, type !== "message" ? handler : (event) => {
    if (event.data?.type === "bench-hashed") return event.source.postMessage({ type: "bench-hashed", hashed });
    const wait = event.waitUntil.bind(event);
    event.waitUntil = (promise) => {
      const start = performance.now();
      wait(promise.finally(async () => {
        const report = { type: "bench-check", ms: performance.now() - start };
        for (const client of await self.clients.matchAll({ includeUncontrolled: true })) client.postMessage(report);
      }));
    };
    handler(event);
  }, ...rest);
})();
"""

LISTEN = """window.__checks = [];
navigator.serviceWorker?.addEventListener("message", ({ data }) => {
  if (data?.type === "bench-check") window.__checks.push(data.ms);
});"""

HASHED = """() => new Promise((resolve) => {
  navigator.serviceWorker.addEventListener("message", ({ data }) => { if (data?.type === "bench-hashed") resolve(data.hashed); });
  navigator.serviceWorker.controller.postMessage({ type: "bench-hashed" });
})"""


def instrumented(site: Path, work: Path) -> Path:
    copy = work / site.name
    shutil.copytree(site, copy)
    sw = copy / "sw.js"
    sw.write_text(COUNTER + sw.read_text(encoding="utf-8"), encoding="utf-8")
    for stale in (copy / "sw.js.br", copy / "sw.js.gz"):
        stale.unlink(missing_ok=True)
    return copy


def visit(browser, origin: str, restart: bool) -> list[dict[str, float]]:
    """A first visit, then each of VIEWS: per view, bytes hashed and the first check's time."""
    context = browser.new_context()
    page = context.new_page()
    page.add_init_script(LISTEN)
    cdp = context.new_cdp_session(page)
    cdp.send("ServiceWorker.enable")
    page.goto(f"{origin}/fr/glossary/")
    page.wait_for_function("() => document.documentElement.dataset.offline === 'ready'", timeout=TIMEOUT_MS)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=TIMEOUT_MS)
    figures = []
    for path in VIEWS:
        if restart:
            cdp.send("ServiceWorker.stopAllWorkers")
        before = 0 if restart else page.evaluate(HASHED)
        page.goto(f"{origin}/{path}")
        page.wait_for_function("() => window.__checks.length > 0 && document.documentElement.dataset.offline === 'ready'",
                               timeout=TIMEOUT_MS)
        hashed = page.evaluate(HASHED) - before
        figures.append({"hashed_bytes": hashed, "check_ms": page.evaluate("() => window.__checks[0]")})
    context.close()
    return figures


def run_offline_check(browser, sites: dict[str, Path], rounds: int = 2) -> dict[str, object]:
    """``sites``: label -> built site ("new", and "old" if given). Alternating, ``rounds`` times each."""
    results: dict[str, dict[str, list]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-offline-") as tmp:
        servers = {}
        try:
            for label, site in sites.items():
                servers[label] = serve_in_thread(instrumented(site, Path(tmp) / label))
            for _ in range(rounds):
                for label, server in servers.items():
                    origin = f"http://127.0.0.1:{server.server_address[1]}"
                    for mode in ("running", "restarted"):
                        results.setdefault(label, {}).setdefault(mode, []).extend(visit(browser, origin, mode == "restarted"))
        finally:
            for server in servers.values():
                server.shutdown()
    out: dict[str, object] = {}
    for label, modes in results.items():
        for mode, views in modes.items():
            out[f"{label}_{mode}"] = {key: statistics.median(v[key] for v in views) for key in ("hashed_bytes", "check_ms")}
    if "old" in results:
        for mode in ("running", "restarted"):
            old, new = out[f"old_{mode}"], out[f"new_{mode}"]
            out[f"ratio_{mode}"] = {key: (new[key] / old[key] if old[key] else None) for key in new}
    return out


def rows(figures: dict) -> list[str]:
    """The bench table's rows for (n)."""
    lines = []
    for mode in ("running", "restarted"):
        new = figures.get(f"new_{mode}")
        if not new:
            continue
        value = f"{new['hashed_bytes'] / 1e6:.2f} MB hashed, check {new['check_ms']:.0f} ms"
        ratio, met = "", ""
        if f"old_{mode}" in figures:
            old, r = figures[f"old_{mode}"], figures[f"ratio_{mode}"]
            value += f" (old: {old['hashed_bytes'] / 1e6:.2f} MB, {old['check_ms']:.0f} ms)"
            ratio = f"bytes {r['hashed_bytes']:.2f}, time {r['check_ms']:.2f}" if r["hashed_bytes"] is not None else ""
            met = "yes" if all(x is not None and x <= 0.10 for x in r.values()) else "no"
        lines.append(f"| (n) offline copy's check per repeat page view, service worker {mode} | {value} | {ratio} | "
                     f"≤ 0.10 × old | {met} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.offline_check", description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=Path("site"))
    parser.add_argument("--old-site", type=Path, help="another build to compare with (e.g. main's site/)")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    sites = {"new": args.site, **({"old": args.old_site} if args.old_site else {})}
    chromium = find()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=ARGS)
        figures = run_offline_check(browser, sites, args.rounds)
        browser.close()
    print(figures)
    print("\n".join(rows(figures)))


if __name__ == "__main__":
    main()
