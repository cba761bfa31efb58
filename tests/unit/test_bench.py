"""tools.bench's bookkeeping: which of the server's records a first visit's figures count (h), the ratio rows of
(i), (k) and (l), the Lighthouse reading against /glossary/ (g), (j)'s split, and the summary table's new rows."""

from __future__ import annotations

from collections import Counter

from tools.bench.blocking import without_calculators
from tools.bench.lighthouse import lighthouse_met
from tools.bench.report import ratio_row, summary
from tools.bench.transfer import late_search, page_records, tally

# The server's record: (arrival in epoch seconds, path) -> bytes sent. The verdict comes at t = 10.
SENT = {
    (1.0, "/naruto/?naruto-rounds.players=24"): 12_000,
    (1.1, "/assets/javascripts/bundle.js"): 30_000,
    (1.2, "/assets/javascripts/workers/search.js"): 11_000,
    (2.0, "/calc/pyodide-0a/pyodide.asm.wasm"): 2_700_000,
    (10.5, "/sw.js"): 3_000,  # the service worker, after "ready"
    (10.6, "/naruto/"): 12_000,  # its precache: the same page without the query
    (10.7, "/assets/javascripts/bundle.js"): 30_000,
    (11.0, "/search/search_index.json"): 9_000,  # the page's search index, after the verdict
    (12.0, "/search/search_index.json"): 9_000,  # the service worker's copy
}
#: What the page and its workers asked for (the wasm twice: its prefetch, then the worker's read from the cache).
ASKED = Counter(["/naruto/", "/assets/javascripts/bundle.js", "/assets/javascripts/workers/search.js",
                 "/calc/pyodide-0a/pyodide.asm.wasm", "/calc/pyodide-0a/pyodide.asm.wasm", "/search/search_index.json"])


def test_before_the_verdict_counts_the_page_and_its_late_search_files_not_the_service_worker():
    before = tally({**page_records(SENT, ASKED, 10.0), **late_search(SENT, 10.0, ["/search/search_index.json"])})
    assert before["bytes"] == 12_000 + 30_000 + 11_000 + 2_700_000 + 9_000
    assert before["requests"] == 5
    assert list(before["files"])[0] == "/calc/pyodide-0a/pyodide.asm.wasm"  # largest first
    assert before["again"] == {}


def test_the_whole_visit_names_what_was_asked_again_a_query_being_the_same_file():
    whole = tally(SENT)
    assert whole["bytes"] == sum(SENT.values()) and whole["requests"] == len(SENT)
    assert whole["files"]["/assets/javascripts/bundle.js"] == 60_000
    assert whole["again"] == {"/assets/javascripts/bundle.js": 30_000, "/search/search_index.json": 9_000,
                              "/naruto/": 12_000}


def test_a_late_search_file_is_its_first_request_after_the_verdict():
    assert late_search(SENT, 10.0, ["/search/search_index.json"] * 2) == {(11.0, "/search/search_index.json"): 9_000}
    assert late_search(SENT, 20.0, ["/search/search_index.json"]) == {}


def test_lighthouse_is_read_against_the_control_page():
    control = {"score": 0.98, "tbt_ms": 120.0}
    assert lighthouse_met({"score": 0.96, "tbt_ms": 170.0}, control)[0]  # 0.02 below, 50 ms above: met
    assert not lighthouse_met({"score": 0.95, "tbt_ms": 100.0}, control)[0]
    assert not lighthouse_met({"score": 0.99, "tbt_ms": 171.0}, control)[0]
    assert lighthouse_met({"score": 0.97, "tbt_ms": 130.0}, control)[1:] == (0.97 - 0.98, 10.0)


def test_a_ratio_row_gives_medians_spreads_and_the_verdict():
    row = ratio_row("(k) x", [20_000, 22_000, 30_000], [50_000, 55_000, 60_000], 0.40)
    assert "22.0 s / 55.0 s" in row and "0.40 × bare" in row and row.endswith("| yes |")
    assert "page 20.0–30.0 s, bare 50.0–60.0 s, 3 runs each" in row
    assert ratio_row("(l) x", [4_000], [9_000], 0.35, against="warm bare").endswith("0.44 × warm bare | ≤ 0.35 | no |")


def test_the_summary_has_rows_for_the_new_measures():
    results = {
        "phone_cpu": "page",
        "startup": {"floor_cold": [1000, 1100, 1300], "floor_warm": [600, 700, 800], "npm_cold": [3000, 3100, 3200],
                    "npm_warm": [2000, 2100, 2200], "cold": [1200, 1400, 1500], "repeat": [700, 720, 800],
                    "offline": [650, 700, 900]},
        "startup_4x": {"floor_cold": [4000], "floor_warm": [2500], "npm_cold": [12000], "npm_warm": [8000],
                       "cold": [4700], "repeat": [2600], "offline": [2600]},
        "latency": {"calc-a": {"p50_ms": 2.0, "p95_ms": 5.0, "next_frame_p95_ms": 16.0, "cpu4x_p50_ms": 20.0,
                               "cpu4x_p95_ms": 120.0, "cpu4x_next_frame_p95_ms": 130.0}},
        "first_visit": {"link": "naruto/?x=1", **tally(SENT, end=10.0), "search_s_from_verdict": {},
                        "search_after_verdict": [], "whole": {**tally(SENT), "quiet": True}},
        "phone": {"bare": [50_000, 51_000, 52_000], "page": [20_000, 21_000, 22_000]},
        "bytes": {"(home)": {"html_css_js_kb_gzip": 89.0}, "naruto/": {"html_css_js_kb_gzip": 151.2}},
        "phone_all_threads": {"bare": [50_000, 60_000, 70_000], "page": [20_000, 24_000, 30_000]},
        "phone_repeat": {"bare": [9_000, 10_000, 11_000], "page": [3_000, 3_500, 4_000],
                         "engine_start": ["snapshot"] * 3},
        "lighthouse": {"naruto/": {"score": 0.95, "tbt_ms": 150, "runs": [{"score": 0.95, "tbt_ms": 150}]},
                       "glossary/": {"score": 0.98, "tbt_ms": 120, "runs": [{"score": 0.98, "tbt_ms": 120}]}},
        "blocking": {"naruto/": [100, 130, 90], "naruto-without-calculators/": [70, 80, 75], "glossary/": [40, 30, 50]},
    }
    table = summary(results).splitlines()[2:]

    def row(start: str) -> str:
        (found,) = [line for line in table if line.startswith(start)]
        return found

    # (b)-(d) against npm's Pyodide (our own floor beside it); (b) − (a): the page's own work, each run's pair
    assert row("| (b) calculator page, cold |").endswith("| 0.45 × npm cold (1.27 × our floor) | ≤ 0.55 | yes |")
    assert row("| (c) repeat visit |").endswith("| 0.34 × npm warm (1.03 × our floor) | ≤ 0.35 | yes |")
    assert row("| (b) − (a) cold: ").endswith("| +300 ms | | ≤ 250 ms | no |")
    assert "each run's pair +200 to +300 ms" in row("| (b) − (a) cold: ")
    assert row("| (b) − (a) cold, every renderer thread 4×").endswith("| +700 ms | | ≤ 600 ms | no |")
    assert row("| (e) calc-a: input → verdict").endswith("| p95 ≤ 16 ms; 4×: p95 ≤ 100 ms | yes; 4×: no |")
    assert row("| (f) HTML+CSS+JS besides the engine, gzip, per page: / 89.0, /naruto/ 151.2 KB").endswith(
        "| 151.2 KB at most | | ≤ 150 KB | no |")
    assert row("| (h) the whole first visit, until 3 s without traffic after the snapshot").endswith("| 2.82 MB | | | |")
    assert row("| (k) first verdict on a phone").endswith("0.41 × bare | ≤ 0.47 | yes |")
    assert row("| (k) the same, 4× CPU on all renderer threads").endswith("0.40 × bare | ≤ 0.47 | yes |")
    assert "3 snapshot engine start" in row("| (l) repeat visit on the same phone")
    assert row("| (l) repeat visit on the same phone").endswith("0.35 × warm bare | ≤ 0.25 | no |")
    assert row("| (g) Lighthouse mobile /naruto/").endswith("| no |")  # 0.03 below /glossary/
    assert "(control)" in row("| (g) Lighthouse mobile /glossary/ (no calculator)")
    assert row("| (j) blocking time, 4× CPU").endswith("| +60 ms | ≤ +50 ms | no |")
    # the split, from each run's three pages: text 30, 50, 25 (median 30); calculators 30, 50, 15 (median 30)
    assert row("| (j) split:").startswith("| (j) split: /naruto/ less its calculators' blocks (75 ms)")
    assert "| +30 / +30 ms |" in row("| (j) split:")


def test_the_page_without_calculators_keeps_everything_around_them():
    calc = ('<div class="calc" id="calc-a"><div class="calc-field"><div><input></div></div>'
            '<div class="calc-verdict"></div></div>')
    page = f'<main><h2>Rule</h2><div class="og-pair"><p>one</p></div>{calc}<p>two</p>{calc}<div>three</div></main>'
    assert without_calculators(page) == (
        '<main><h2>Rule</h2><div class="og-pair"><p>one</p></div><p>two</p><div>three</div></main>')
