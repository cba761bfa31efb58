"""(e): input -> verdict latency per calculator, at full speed and with the CPU 4x slower."""

from __future__ import annotations

from tools.bench.common import CPU_RATE, TIMEOUT_MS, Bench, percentile

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
