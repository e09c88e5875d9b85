"""Action vocabulary cost: steps read per second with cold caches, and harness verdicts when
every action line is new; then the command classifier against the labelled tldr-pages commands.

    .venv/bin/python benchmarks/actions.py [--seconds 3] [--tldr PATH] [--corpus-only]

``benchmarks/harness.py`` re-evaluates the same 41 outputs, so after the first pass every
action line is answered from ``lru_cache``; a live worker mostly sees new lines. This script
clears the vocabulary's caches before every step (and before every verdict), so the figures
are what an unseen step costs. One process, one thread: per core.

The tldr corpus (``../shared/corpora/actions/tldr-labelled.json`` from the repository root,
kept outside it; see its README) labels each example command ``MUT``, ``RO`` or ``AMB``; each
is judged with ``commands.judge_line`` and counted for mutating precision and recall (``AMB``
neither way). False negatives, a mutating command read as read-only, are listed first: they
are the misses that matter. Figures only, no assertion.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

from harness import load  # the labelled set, as benchmarks/harness.py loads it
from rcaloop.judge import core
from rcaloop.judge.draft import Draft
from rcaloop.judge import actions
from rcaloop.shared import report_sections
from rcaloop.judge import text
from rcaloop.judge.actions import commands, sql
from rcaloop.judge.reading import items


def cached() -> tuple:
    """Caches keyed by a step's or a report's text (cleared: a new one misses them); the word-level
    cache of verb forms stays warm, as it does in a running worker. Looked up when the timing
    runs, so ``--corpus-only`` does not depend on the vocabulary's internals."""
    return (actions.classify, items.read, text.set_aside, commands.judge_line, sql.judge, report_sections.all_sections)


def clear() -> None:
    for fn in cached():
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


ROOT = Path(__file__).resolve().parents[1]
TLDR = ROOT / ".." / "shared" / "corpora" / "actions" / "tldr-labelled.json"


def tldr(path: Path) -> None:
    """Mutating precision and recall of ``judge_line`` on the labelled tldr-pages commands; a
    command with no verdict counts as read-only (it is not shown to write)."""
    if not path.is_file():
        print(f"tldr corpus: {path} is missing; skipped")
        return
    cases = json.loads(path.read_text(encoding="utf-8"))
    missed, flagged = [], []
    counts = {"MUT": 0, "RO": 0, "AMB": 0}
    for case in cases:
        counts[case["label"]] = counts.get(case["label"], 0) + 1
        verdict = commands.judge_line(case["command"])
        mutating = verdict is not None and verdict.writes
        if case["label"] == "MUT" and not mutating:
            missed.append((case, verdict))
        elif case["label"] == "RO" and mutating:
            flagged.append((case, verdict))
    tp = counts["MUT"] - len(missed)
    precision = tp / (tp + len(flagged)) if tp + len(flagged) else 0.0
    recall = tp / counts["MUT"] if counts["MUT"] else 0.0
    print(f"tldr commands ({path.name}): {len(cases)}: {counts['MUT']} MUT, {counts['RO']} RO, "
          f"{counts['AMB']} AMB (not counted)")
    print(f"  mutating: {tp} true positives, {len(flagged)} false positives, {len(missed)} false negatives; "
          f"precision {precision:.1%}, recall {recall:.1%}")
    for title, found in (("false negatives (mutating read as read-only)", missed),
                         ("false positives (read-only read as mutating)", flagged)):
        print(f"  {title}: {len(found) or 'none'}")
        for case, verdict in found:
            verb = verdict.verb if verdict is not None else "no verdict"
            print(f"    {case['command']}  [{verb}]  ({case['page']}: {case['description']})")


def per_second(fn, seconds: float) -> float:
    count, cpu = 0, time.process_time()
    while (elapsed := time.process_time() - cpu) < seconds:
        count += fn()
    return count / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="measuring time per figure")
    parser.add_argument("--tldr", type=Path, default=TLDR, help="the labelled tldr-pages commands")
    parser.add_argument("--corpus-only", action="store_true", help="only the tldr figures, no timing")
    args = parser.parse_args()
    if args.corpus_only:
        tldr(args.tldr)
        return
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
    tldr(args.tldr)


if __name__ == "__main__":
    main()
