"""web/venue/input.js, run under Node: the clock's and the blitz timer's links are read with the
calculators' grammar for whole numbers (``calculators.spec.Field.parse`` is the oracle), and no
value of a link is ever taken silently for another: each parameter gives its value or an error."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calculators.spec import MAX_LINE_FIELD, Field
from rules_core import clock
from rules_core.errors import RuleError
from rules_core.naruto import BLITZ_WARNINGS_TO_LOSE
from sitebuild.contract import VIEWS

MODULE = Path(__file__).resolve().parents[2] / "web" / "venue" / "input.js"
MINUTE = 60_000
NOW = 1_795_000_000_000  # an instant in 2026, epoch ms
LIMITS = {
    "games": [g.value for g in clock.Game], "views": list(VIEWS), "maxMinutes": clock.MAX_ROUND_MINUTES,
    "maxExtension": clock.MAX_EXTENSION_MINUTES, "maxTable": clock.MAX_TABLE,
    "maxExtensions": clock.MAX_EXTENSIONS, "maxAheadMinutes": clock.MAX_AHEAD_MINUTES, "maxLength": MAX_LINE_FIELD,
}
#: Reads a JSON list of calls on stdin, answers a JSON list of results.
RUNNER = """
import { parseWhole, readClockLink, readBlitzLink } from %s;
let input = "";
for await (const chunk of process.stdin) input += chunk;
const out = JSON.parse(input).map(([fn, args]) => {
  if (fn === "parseWhole") return parseWhole(...args);
  const params = new URLSearchParams(args[0]);
  return fn === "clock" ? readClockLink(params, args[1], args[2]) : readBlitzLink(params, ...args.slice(1));
});
process.stdout.write(JSON.stringify(out));
"""

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="Node is part of the setup (npm ci)")


def node(calls: list) -> list:
    run = subprocess.run(["node", "--no-warnings", "--input-type=module", "-e", RUNNER % json.dumps(MODULE.as_uri())],
                         input=json.dumps(calls), capture_output=True, text=True, check=True)
    return json.loads(run.stdout)


def python_parse(text: str | None, minimum: int, maximum: int) -> dict:
    """The calculators' reading of ``text``, in parseWhole's shape."""
    try:
        value = Field("x", "integer", minimum=minimum, maximum=maximum).parse(text or "")
    except RuleError as error:
        return {"error": error.code}
    return {"empty": True} if value is None else {"value": value}


#: What links and thumbs bring: digits, signs, spaces of every kind, letters, exponents, long runs.
TEXTS = st.one_of(
    st.text(alphabet="0123456789+-\u2212 .eE,:\t\u00a0\u2003\x1c\x85\ufeffx٣", max_size=24),
    st.from_regex(r"[+\-\u2212]?[0-9]{1,30}", fullmatch=True),
    st.text(max_size=8),
    st.text(alphabet="9", min_size=MAX_LINE_FIELD - 2, max_size=MAX_LINE_FIELD + 2),
)
#: Each example is a batch of cases answered by one Node process (~50 ms to start).
FAST = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
BATCH = 40


@FAST
@given(st.lists(st.tuples(TEXTS, st.integers(-5, 5), st.integers(0, 400)), min_size=BATCH, max_size=BATCH))
def test_whole_numbers_read_as_the_calculators_read_them(cases):
    answers = node([["parseWhole", [text, low, low + span, MAX_LINE_FIELD]] for text, low, span in cases])
    for (text, low, span), answer in zip(cases, answers):
        expected = python_parse(text, low, low + span)
        got = {"error": answer["error"]} if "error" in answer else answer
        assert got == expected, (text, low, low + span)


def test_known_answers():
    """The issue's rows, each with the error it must give (and the values that are fine)."""
    [minus, big, sign, spaced, exp] = node([["parseWhole", [text, 1, 300, MAX_LINE_FIELD]]
                                            for text in ("-5", "99999999999", "\u22123", " +12 ", "1e309")])
    assert minus == {"error": "out_of_range", "params": {"value": "\u22125", "minimum": 1, "maximum": 300}}
    assert big["params"]["value"] == "99999999999" and sign["params"]["value"] == "\u22123"  # the page's minus sign, as Python writes it
    assert spaced == {"value": 12} and exp["error"] == "not_integer"


CLOCK_LINKS = st.tuples(
    st.one_of(st.none(), st.sampled_from(LIMITS["games"]), TEXTS), st.one_of(st.none(), TEXTS),
    st.one_of(st.none(), TEXTS), st.lists(TEXTS, max_size=4), st.integers(-10**6, 10**15))


@FAST
@given(st.lists(CLOCK_LINKS, min_size=BATCH, max_size=BATCH))
def test_every_clock_parameter_gives_its_value_or_an_error(links):
    queries = []
    for game, end, left, ext, ahead in links:
        params = [("clock.game", game), ("clock.end", end), ("clock.left", left)]
        if end is not None and not end.strip():  # an end well formed, near or far: what a link usually carries
            params[1] = ("clock.end", str(NOW + ahead))
        queries.append([(k, v) for k, v in params if v is not None] + [("clock.ext", e) for e in ext])
    answers = node([["clock", [query_string(query), LIMITS, NOW]] for query in queries])
    for query, link in zip(queries, answers):
        check_clock_link(query, link)


def check_clock_link(query, link):
    ext = [v for k, v in query if k == "clock.ext"]
    keys = [e.get("key") for e in link["errors"]]
    game_errors = [e for e in link["errors"] if e.get("field") == "game"]

    values = dict(query)
    if "clock.game" in values:
        valid = values["clock.game"] in LIMITS["games"]
        assert link["game"] == (values["clock.game"] if valid else None) and bool(game_errors) != valid
    elif "clock.end" in values or "clock.left" in values:
        assert link["game"] is None and [e["error"] for e in game_errors] == ["required"]
    ahead_ms = clock.MAX_AHEAD_MINUTES * MINUTE
    if "clock.end" in values:
        expected = python_parse(values["clock.end"], 0, NOW + ahead_ms)
        assert link["end"] == expected.get("value")
        assert ("value" in expected) == (not {"end", "end_far"} & set(keys))
    if "clock.left" in values and "clock.end" in values:
        assert link["left"] is None and "both" in keys
    elif "clock.left" in values:
        expected = python_parse(values["clock.left"], 0, ahead_ms)
        assert link["left"] == expected.get("value")
        assert ("value" in expected) == (not {"left", "left_far"} & set(keys))
    kept = []
    for text in ext:
        table, _, minutes = text.partition(":")
        t, m = python_parse(table, 1, clock.MAX_TABLE), python_parse(minutes, 1, clock.MAX_EXTENSION_MINUTES)
        if text.count(":") == 1 and "value" in t and "value" in m and t["value"] not in [k["table"] for k in kept]:
            kept.append({"table": t["value"], "minutes": m["value"]})
    assert link["extensions"] == kept
    assert keys.count("ext") + keys.count("ext_twice") == len(ext) - len(kept)  # each one not kept is said


def query_string(pairs) -> str:
    from urllib.parse import urlencode

    return urlencode(pairs)


def test_a_link_carries_at_most_the_hall_s_extensions():
    query = query_string([("clock.ext", f"{n}:5") for n in range(1, clock.MAX_EXTENSIONS + 6)])
    [link] = node([["clock", [query, LIMITS, NOW]]])
    assert len(link["extensions"]) == clock.MAX_EXTENSIONS
    assert link["errors"] == [{"key": "ext_many", "params": {"count": clock.MAX_EXTENSIONS + 5,
                                                             "maximum": clock.MAX_EXTENSIONS}}]


@FAST
@given(st.lists(st.tuples(st.one_of(st.none(), TEXTS), st.one_of(st.none(), TEXTS)), min_size=BATCH, max_size=BATCH))
def test_blitz_warnings_are_counted_or_refused_never_clamped(pairs):
    queries = [query_string([(f"blitz.{k}", v) for k, v in (("a", a), ("b", b)) if v is not None]) for a, b in pairs]
    answers = node([["blitz", [query, ["a", "b"], BLITZ_WARNINGS_TO_LOSE, MAX_LINE_FIELD]] for query in queries])
    for (a, b), read in zip(pairs, answers):
        check_blitz(a, b, read)


def check_blitz(a, b, read):
    for player, text in (("a", a), ("b", b)):
        expected = python_parse(text, 0, BLITZ_WARNINGS_TO_LOSE)
        refused = [e for e in read["errors"] if e["player"] == player]
        assert read["warnings"][player] == expected.get("value", 0)
        assert [e["error"] for e in refused] == ([expected["error"]] if "error" in expected else [])
