"""CPU seconds per test, browsers included: a pytest plugin for finding where a run's time goes.

    python -m pytest -n 2 -p tools.cpu_per_test            # writes build/cpu-per-test/<worker>.jsonl
    python -m tools.cpu_per_test                           # sums them by file, the 30 dearest tests

The suite is CPU-bound on two cores, so a test's cost is its CPU, not its wall time (which another
worker's load stretches). Chromium's processes are not the test process's children in the kernel's
accounting (`time` misses them), so each worker moves itself into a cgroup of its own (cgroup v1
`cpuacct`, root needed) before it starts a browser: everything it starts is counted there. A
session fixture's set-up is counted in the first test that needs it. Without a writable cgroup the
plugin says so and counts nothing.
"""

from __future__ import annotations

import collections
import json
import os
import sys
import time
from pathlib import Path

import pytest

CGROUPS = Path("/sys/fs/cgroup/cpuacct")
OUT = Path(__file__).resolve().parents[1] / "build" / "cpu-per-test"


class _Counter:
    def __init__(self, name: str) -> None:
        self.group = CGROUPS / name
        self.group.mkdir(exist_ok=True)
        (self.group / "cgroup.procs").write_text(str(os.getpid()))

    def seconds(self) -> float:
        return int((self.group / "cpuacct.usage").read_text()) / 1e9


_counter: _Counter | None = None
_out = None


def pytest_configure(config):
    global _counter, _out
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    try:
        _counter = _Counter(f"tests-{worker}-{os.getpid()}")
    except OSError as error:
        print(f"cpu_per_test: no cgroup to count in ({error}); nothing counted", file=sys.stderr)
        return
    OUT.mkdir(parents=True, exist_ok=True)
    _out = (OUT / f"{worker}.jsonl").open("w", encoding="utf-8")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if _counter is None:
        yield
        return
    cpu, wall = _counter.seconds(), time.perf_counter()
    yield
    _out.write(json.dumps({"test": item.nodeid, "cpu": _counter.seconds() - cpu, "wall": time.perf_counter() - wall}) + "\n")
    _out.flush()


def main() -> None:
    rows = [json.loads(line) for path in sorted(OUT.glob("*.jsonl")) for line in path.open(encoding="utf-8")]
    by_file, count = collections.Counter(), collections.Counter()
    for row in rows:
        by_file[row["test"].split("::")[0]] += row["cpu"]
        count[row["test"].split("::")[0]] += 1
    print(f"{len(rows)} tests, {sum(by_file.values()):.0f} CPU-s (browsers included)\n\nCPU-s  tests  file")
    for file, cpu in by_file.most_common():
        print(f"{cpu:6.1f} {count[file]:5d}  {file}")
    print("\nthe dearest tests")
    for row in sorted(rows, key=lambda r: -r["cpu"])[:30]:
        print(f"{row['cpu']:6.1f}  {row['test']}")


if __name__ == "__main__":
    main()
