"""The browser's door into :func:`calculators.evaluate`.

The Web Worker passes JSON strings in and gets a JSON string back, so no
Pyodide proxy objects cross the boundary. Nothing here imports ``js`` or
``pyodide``: the worker calls this module, not the other way round.
"""

from __future__ import annotations

import json

from calculators import evaluate


def evaluate_json(calc_id: str, inputs_json: str, lang: str) -> str:
    """``evaluate`` with JSON in and out (as the worker calls it)."""
    inputs = json.loads(inputs_json)
    return json.dumps(evaluate(calc_id, inputs if isinstance(inputs, dict) else {}, lang), ensure_ascii=False)
