"""(g): Lighthouse's mobile performance score and Total Blocking Time per calculator page, read against
/glossary/ (``lighthouse_met``)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from tools.bench.common import ROOT, TARGETS, median
from tools.chromium import ARGS

#: The calculator pages, and /glossary/: the same site without a calculator (Material's own share).
LIGHTHOUSE_PAGES = ("naruto/", "judge-tower/", "pokemon/", "glossary/")


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


def lighthouse_met(page: dict, control: dict) -> tuple[bool, float, float]:
    """(g) against the control page of the same run: the median score at most 0.02 below the control's and the
    median TBT at most 50 ms above it. Returns whether both hold, and the two differences."""
    score_gap, tbt_gap = page["score"] - control["score"], page["tbt_ms"] - control["tbt_ms"]
    met = (score_gap >= -TARGETS["score_below_control"] - 1e-9) and tbt_gap <= TARGETS["tbt_above_control_ms"]
    return met, score_gap, tbt_gap
