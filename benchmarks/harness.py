"""Harness throughput: verdicts per second on one core over the labelled set.

    .venv/bin/python benchmarks/harness.py [--seconds 3]

Evaluates every fixture of ``tests/fixtures/harness/cases/`` in turn with its own
config — the pure ``rcaloop.judge.core.evaluate`` the service and ``rcaloop harness``
call — and reports (a) verdicts/s for ``evaluate`` alone and (b) verdicts/s including
``model_dump_json`` of the verdict, which is what a worker does before publishing.
One process, one thread: the figures are per core. Target: ≥ 1,000 verdicts/s.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from collections import Counter
from pathlib import Path

from rcaloop.contracts import ParsedRCA
from rcaloop.judge import core
from rcaloop.judge.config import HarnessConfig

CASES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "harness" / "cases"
TARGET_PER_S = 1000


def load() -> list[tuple[ParsedRCA, HarnessConfig]]:
    out = []
    for path in sorted(CASES.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        out.append((ParsedRCA.model_validate(doc["parsed"]), HarnessConfig(**doc.get("config", {}))))
    return out


def rate(cases, seconds: float, serialize: bool) -> tuple[float, float]:
    """(verdicts per wall-clock second, verdicts per CPU second of this process)."""

    def one_pass() -> None:
        for parsed, config in cases:
            verdict = core.evaluate(parsed, config)
            if serialize:
                verdict.model_dump_json()

    one_pass()  # warm caches
    count, start, cpu = 0, time.perf_counter(), time.process_time()
    while (elapsed := time.perf_counter() - start) < seconds:
        one_pass()
        count += len(cases)
    return count / elapsed, count / (time.process_time() - cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="measuring time per figure")
    args = parser.parse_args()
    cases = load()
    verdicts = Counter(core.evaluate(p, c).verdict for p, c in cases)
    cpu = "unknown CPU"
    try:
        cpu = next(ln.split(":", 1)[1].strip() for ln in open("/proc/cpuinfo") if ln.startswith("model name"))
    except (OSError, StopIteration):
        pass
    print(f"machine: {cpu} · {os.cpu_count()} cores · Python {platform.python_version()}")
    print(f"labelled set: {len(cases)} outputs ({', '.join(f'{k} {v}' for k, v in sorted(verdicts.items()))})")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (CPU-time figures are robust to other load)")
    for label, serialize in (("evaluate", False), ("evaluate + verdict JSON", True)):
        wall, cpu = rate(cases, args.seconds, serialize)
        print(f"{label + ':':26s}{cpu:8,.0f} verdicts per CPU-second ({1e3 / cpu:.2f} ms each); {wall:8,.0f}/s "
              "wall-clock")
    print(f"target ≥ {TARGET_PER_S:,}/s per core: {'met' if cpu >= TARGET_PER_S else 'NOT met'} (evaluate + JSON, CPU "
          "time)")


if __name__ == "__main__":
    main()
