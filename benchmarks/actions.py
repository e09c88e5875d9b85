"""Action vocabulary cost: steps read per second with cold caches, and harness verdicts when
every action line is new.

    .venv/bin/python benchmarks/actions.py [--seconds 3]

``benchmarks/harness.py`` re-evaluates the same 41 outputs, so after the first pass every
action line is answered from ``lru_cache``; a live worker mostly sees new lines. This script
clears the vocabulary's caches before every step (and before every verdict), so the figures
are what an unseen step costs. One process, one thread: per core. Figures only, no assertion.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

from harness import load  # the labelled set, as benchmarks/harness.py loads it
from rcaloop.judge import core
from rcaloop.judge.draft import Draft
from rcaloop.judge import actions, report_sections
from rcaloop.judge.actions import commands, reviewed, sql, text

CACHED = (actions.classify, actions.said, actions.is_prohibition, text.set_aside, commands.judge_line, sql.judge,
          reviewed.is_reviewed_change, report_sections.all_sections)
"""Caches keyed by a step's or a report's text (cleared: a new one misses them); the word-level
cache of verb forms stays warm, as it does in a running worker."""


def clear() -> None:
    for fn in CACHED:
        fn.cache_clear()


def steps(cases) -> list[str]:
    """Every action line of the labelled set, plus command-heavy lines."""
    lines = {a.text for parsed, _ in cases for seq in Draft.start(parsed).sequences for a in seq}
    lines |= {
        "Check balances with `kubectl exec pg-0 -- psql -c 'SELECT * FROM accounts'`, then run UPDATE accounts SET "
        "balance = 0 WHERE id = 7 after approval from the DB owner; impact: one account, undo from the audit log",
        "Run `kubectl get pods -n prod -o wide | grep -v Running` and `helm history checkout-api` (read-only)",
        "After verifying the replica lag with `patronictl list`, fail over to db-2 once the on-call lead approves",
        "ssh db-1 'sudo systemctl restart postgresql' && curl -s http://db-1:8008/health",
    }
    return sorted(lines)


def per_second(fn, seconds: float) -> float:
    count, cpu = 0, time.process_time()
    while (elapsed := time.process_time() - cpu) < seconds:
        count += fn()
    return count / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="measuring time per figure")
    args = parser.parse_args()
    cases = load()
    lines = steps(cases)

    def cold_steps() -> int:
        for line in lines:
            clear()
            actions.classify(line)
        return len(lines)

    def cold_verdicts() -> int:
        for parsed, config in cases:
            clear()
            core.evaluate(parsed, config).model_dump_json()
        return len(cases)

    print(f"machine: {platform.processor() or platform.machine()} · {os.cpu_count()} cores · "
          f"Python {platform.python_version()} · load average {os.getloadavg()[0]:.2f}")
    rate = per_second(cold_steps, args.seconds)
    print(f"classify, cold caches:       {rate:8,.0f} steps per CPU-second ({1e6 / rate:.0f} µs each, "
          f"{len(lines)} distinct steps)")
    rate = per_second(cold_verdicts, args.seconds)
    print(f"evaluate + JSON, cold steps: {rate:8,.0f} verdicts per CPU-second ({1e3 / rate:.2f} ms each)")


if __name__ == "__main__":
    main()
