"""What a run reports: its provenance (commit, machine), the heading of bench.md and the summary table of
every measure (``summary``, ``startup_rows``, ``ratio_row`` and their helpers)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

from tools.bench.blocking import BLOCKING_PAGES, WITHOUT_CALCULATORS
from tools.bench.common import CPU_RATE, PHONE, PHONE_LINK, ROOT, TARGETS, median
from tools.bench.lighthouse import lighthouse_met
from tools.bench.offline_check import rows as offline_check_rows
from tools.bench.phone import EARLY_LINKS
from tools.bench.transfer import FIRST_VISIT_PAGE, QUIET_S


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
    rows.extend(offline_check_rows(results.get("offline_check", {})))
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
        bare = results["blocking"].get(WITHOUT_CALCULATORS)
        if bare:  # where (j) goes: each run's three pages, differences of medians of pairs
            text = median([b - p for b, p in zip(bare, plain)])
            forms = median([c - b for c, b in zip(calc, bare)])
            rows.append(f"| (j) split: /{BLOCKING_PAGES[0]} less its calculators' blocks ({median(bare):.0f} ms) − "
                        f"/{BLOCKING_PAGES[1]}: the rules' text; /{BLOCKING_PAGES[0]} − it: the calculators "
                        f"(medians of each run's differences) | {text:+.0f} / {forms:+.0f} ms | | (where (j) goes) | |")
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
