"""(j): main-thread blocking under a 4x CPU slowdown, /naruto/ against /glossary/ (no calculator), and the same
/naruto/ without its calculators' blocks, which splits the difference into the rules' text and the calculators."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

from tools.bench.common import READY_PROBE, TIMEOUT_MS, Bench

#: (j): a calculator page and a plain page of the same site.
BLOCKING_PAGES = ("naruto/", "glossary/")
#: (j)'s split: /naruto/ as built less its calculators' blocks, at the same depth (its relative links hold).
WITHOUT_CALCULATORS = "naruto-without-calculators/"
LONG_TASKS = """
window.__longTasks = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); })
  .observe({ type: "longtask", buffered: true });
"""
#: (j): READY_PROBE, also said on the console, so that waiting for it needs no Playwright query of the page.
READY_MESSAGE = "bench: calculator ready"
READY_CONSOLE = READY_PROBE.replace("observer.disconnect();", f"observer.disconnect(); console.log({READY_MESSAGE!r});")


DIV_TAG = re.compile(r"<div[\s>]|</div>")


def without_calculators(html: str) -> str:
    """The page less each ``div.calc`` block (the build writes balanced ``div``s: counting them finds its end)."""
    kept, pos = [], 0
    for start in re.finditer(r'<div class="calc" ', html):
        if start.start() < pos:  # inside the block just taken out
            continue
        depth = 0
        for tag in DIV_TAG.finditer(html, start.start()):
            depth += 1 if tag.group().startswith("<div") else -1
            if depth == 0:
                break
        kept.append(html[pos:start.start()])
        pos = tag.end()
    return "".join(kept) + html[pos:]


def add_page_without_calculators(served: Path) -> None:
    page = (served / BLOCKING_PAGES[0] / "index.html").read_text(encoding="utf-8")
    bare = without_calculators(page)
    if bare.count('class="calc"') or len(bare) == len(page):
        raise SystemExit(f"(j): could not take the calculators out of /{BLOCKING_PAGES[0]}")
    (served / WITHOUT_CALCULATORS).mkdir()
    (served / WITHOUT_CALCULATORS / "index.html").write_text(bare, encoding="utf-8")


def run_blocking(bench: Bench, runs: int) -> dict[str, list[float]]:
    """(j): total blocking time under 4x CPU throttling, first visits, the three pages in turn."""
    paths = (BLOCKING_PAGES[0], WITHOUT_CALCULATORS, BLOCKING_PAGES[1])
    out: dict[str, list[float]] = {path: [] for path in paths}
    for i in range(runs):
        for path in paths:
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
        print(f"  run {i + 1}: " + ", ".join(f"/{p} {out[p][-1]:.0f} ms" for p in paths), flush=True)
    return out
