"""Bytes and the network: (f) the bytes of each page besides the engine, (h) the bytes of a first visit as
the server counted them (``tally``, ``page_records``, ``late_search``, ``wait_quiet``), (i) a first visit
under Slow 4G against the bare npm page."""

from __future__ import annotations

import gzip
import re
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

from tools.bench.common import PHONE_CALC, READY_PROBE, TIMEOUT_MS, Bench, _verdict, left_behind, verdict_probe

PAGES = ("", "naruto/", "fr/naruto/", "judge-tower/", "pokemon/", "glossary/")  # (f)
FIRST_VISIT_PAGE = "naruto/"  # (h), (i)

#: The engine's files: the worker, its modules, Pyodide's runtime and our wheel (sitebuild/engine.py).
ENGINE_FILE = re.compile(r"/calc/(engine/worker\.js|engine/module\.js|engine\.json|pyodide-[0-9a-f]+/|wheel-[0-9a-f]+/)")


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
