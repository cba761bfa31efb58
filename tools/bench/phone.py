"""The phone of (k), (l) and (m): (k) its first verdict on a first visit, (m) the answer before the engine
(the build's tables) for each link of ``EARLY_LINKS``, (l) its repeat visit; each against the bare npm page."""

from __future__ import annotations

from tools.bench.common import (PHONE_CALC, PHONE_LINK, PHONE_TIMEOUT_MS, Bench, _until, _verdict, left_behind,
                                verdict_probe)

#: (m): shared links whose values the build's tables hold (calculator element id, link).
EARLY_LINKS = (
    (PHONE_CALC, PHONE_LINK),
    ("calc-pokemon-time-limit", "it/pokemon/?pokemon-time-limit.late_a=no&pokemon-time-limit.late_b=no"
                                "&pokemon-time-limit.prizes_a=2&pokemon-time-limit.prizes_b=2"
                                "#calc-pokemon-time-limit"),
)
#: (k), (l): the bare page's answer (``window.__floor``, set by FLOOR_HTML) said on the console too.
FLOOR_MESSAGE = "bench: floor"
FLOOR_CONSOLE = """
let floorAt;
Object.defineProperty(window, "__floor", { configurable: true, get: () => floorAt,
  set: (value) => { floorAt = value; console.log(%r); } });
""" % FLOOR_MESSAGE


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
