"""Command line: ``python -m calculators ID key=value ... [--lang fr|it|en] [--json]``.

Prints the summary (or the whole verdict as JSON with ``--json``). Exit status
0 for a verdict, 2 for invalid input, with the localized errors on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys

from calculators import CALCULATORS, LANGUAGES, evaluate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m calculators", description=__doc__.splitlines()[0])
    parser.add_argument("id", help="calculator id: " + ", ".join(sorted(CALCULATORS)))
    parser.add_argument("fields", nargs="*", metavar="key=value", help="field values")
    parser.add_argument("--lang", default="en", help="language of the wording: " + ", ".join(LANGUAGES))
    parser.add_argument("--json", action="store_true", help="print the whole verdict as JSON")
    args = parser.parse_args(argv)
    inputs: dict[str, str] = {}
    for item in args.fields:
        key, sep, value = item.partition("=")
        if not sep:
            parser.error(f"expected key=value, got {item!r}")
        inputs[key] = value
    verdict = evaluate(args.id, inputs, args.lang)
    if args.json:
        print(json.dumps(verdict, ensure_ascii=False, indent=2))
    elif verdict["ok"]:
        print(verdict["summary"])
        for line in verdict["details"]:
            print(f"- {line}")
    for error in verdict["errors"]:
        print(error["message"], file=sys.stderr)
    return 0 if verdict["ok"] else 2


if __name__ == "__main__":
    sys.exit(main())
