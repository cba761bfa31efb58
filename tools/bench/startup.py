"""(a)-(d): start-up, the floor pages (bare Pyodide, ours and npm's) and the calculator page cold, on a
repeat visit and offline, alternating (the visits themselves: ``Bench.floor`` and ``Bench.calculator``)."""

from __future__ import annotations

import contextlib

from tools.bench.common import Bench


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
