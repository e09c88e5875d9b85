"""The judge measured like a classifier: false fails on honest outputs, false passes on dishonest ones.

    .venv/bin/python benchmarks/judge_accuracy.py [--list] [--corpus honest,dishonest,redteam]

Runs every labelled output of the corpora through the parser and the harness — the pure
cores ``rcaloop harness`` calls — and prints the confusion matrix, the false-fail rate on
honest outputs and the false-pass rate on dishonest ones, per shape, per author and per
rule. Two kinds of corpus:

* written apart from the rules (``tests/fixtures/corpus/``): honest outputs by authors who
  had not read the rules, and outputs written to pass with a defect each;
* written against the rules (``tests/fixtures/redteam/``): each rule's bypass cases and the
  controls beside them.

A rule "fires" on an output when its gate or check fails, or when its repair changes the
output. Targets: false-fail ≤ 3 %, false-pass 0. Figures only, no assertion (the corpus
tests assert every case).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.helpers.corpus import Case, accuracy_cases, all_cases, folder_cases  # noqa: E402

TARGET_FALSE_FAIL = 0.03
TARGET_FALSE_PASS = 0.0
SHAPES = ("skill_text", "step_files", "capture")


def fired(verdict) -> list[str]:
    """The rules that fired on a verdict: failed gates and checks, repairs, and the verdict's own reasons."""
    findings = getattr(verdict, "findings", None)
    if findings is not None:
        return sorted({f.rule for f in findings if not f.passed})
    out = {g.gate for g in verdict.hard_gates if not g.passed}
    out |= {c.code for c in verdict.checks if not c.passed}
    out |= {f"repair:{r.kind}" for r in verdict.repairs}
    if verdict.parsed.outcome == "incomplete":
        out.add("incomplete")
    return sorted(out)


def rate(bad: int, n: int) -> str:
    return f"{bad}/{n} = {100 * bad / n:5.1f} %" if n else "    -    "


def judge(cases: list[Case]) -> list[dict]:
    rows = []
    for case in cases:
        parsed, verdict = case.judge()
        rows.append({
            "name": case.name, "corpus": case.corpus, "shape": case.record.kind, "author": case.author or "-",
            "honest": case.honest, "verdict": verdict.verdict, "score": verdict.score,
            "wrong": (verdict.verdict != "pass") if case.honest else (verdict.verdict == "pass"),
            "rules": fired(verdict), "bypass": case.bypass,
            "reasons": list(verdict.reasons)[:3],
        })
    return rows


def table(rows: list[dict], title: str) -> None:
    honest = [r for r in rows if r["honest"]]
    dishonest = [r for r in rows if not r["honest"]]
    ff = sum(r["wrong"] for r in honest)
    fp = sum(r["wrong"] for r in dishonest)
    print(f"\n## {title}: {len(rows)} outputs ({len(honest)} honest, {len(dishonest)} dishonest)")
    print(f"{'':18s}{'verdict pass':>14s}{'not pass':>10s}")
    print(f"{'honest':18s}{len(honest) - ff:14d}{ff:10d}   false-fail {rate(ff, len(honest))}"
          f"  (target ≤ {TARGET_FALSE_FAIL:.0%}: "
          f"{'met' if not honest or ff / len(honest) <= TARGET_FALSE_FAIL else 'NOT met'})")
    print(f"{'dishonest':18s}{fp:14d}{len(dishonest) - fp:10d}   false-pass {rate(fp, len(dishonest))}"
          f"  (target 0: {'met' if fp == 0 else 'NOT met'})")
    print(f"{'per shape':18s}{'false-fail':>22s}{'false-pass':>22s}")
    for shape in SHAPES:
        h = [r for r in honest if r["shape"] == shape]
        d = [r for r in dishonest if r["shape"] == shape]
        print(f"  {shape:16s}{rate(sum(r['wrong'] for r in h), len(h)):>22s}"
              f"{rate(sum(r['wrong'] for r in d), len(d)):>22s}")
    authors = sorted({r["author"] for r in rows if r["author"] != "-"})
    if authors:
        print(f"{'per author':18s}{'false-fail':>22s}{'false-pass':>22s}")
        for a in authors:
            h = [r for r in honest if r["author"] == a]
            d = [r for r in dishonest if r["author"] == a]
            print(f"  {a:16s}{rate(sum(r['wrong'] for r in h), len(h)):>22s}"
                  f"{rate(sum(r['wrong'] for r in d), len(d)):>22s}")
    per_rule: dict[str, Counter] = defaultdict(Counter)
    for r in rows:
        for rule in r["rules"]:
            per_rule[rule]["honest" if r["honest"] else "dishonest"] += 1
            if r["honest"] and r["wrong"]:
                per_rule[rule]["false_fail"] += 1
        if not r["honest"] and not r["wrong"] and len(r["rules"]) == 1:
            per_rule[r["rules"][0]]["only_catch"] += 1
    if per_rule:
        print(f"{'per rule (fired on)':22s}{'honest':>8s}{'in false fails':>16s}{'dishonest':>11s}{'only catch':>12s}")
        for rule in sorted(per_rule):
            c = per_rule[rule]
            print(f"  {rule:20s}{c['honest']:8d}{c['false_fail']:16d}{c['dishonest']:11d}{c['only_catch']:12d}")


def listing(rows: list[dict]) -> None:
    wrong = [r for r in rows if r["wrong"]]
    print(f"\n## wrong verdicts ({len(wrong)}): false passes first")
    for r in sorted(wrong, key=lambda r: (r["honest"], r["corpus"], r["name"])):
        kind = "FALSE FAIL" if r["honest"] else "FALSE PASS"
        print(f"- {kind} {r['corpus']}/{r['name']} ({r['shape']}): {r['verdict']} {r['score']:g}; fired "
              f"{', '.join(r['rules']) or 'nothing'}")
        for reason in r["reasons"]:
            print(f"    {reason[:220]}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--list", action="store_true", help="list every wrong verdict with the rules that fired")
    ap.add_argument("--corpus", default="honest,dishonest,redteam", help="which corpora (comma-separated)")
    ap.add_argument("--json", type=Path, help="also write every verdict row to this JSON file")
    ap.add_argument("--dir", type=Path, action="append", default=[],
                    help="also judge every labelled output of this folder (a held-out set; repeatable)")
    args = ap.parse_args()
    chosen = set(args.corpus.split(","))
    started = time.process_time()
    apart = judge([c for c in accuracy_cases() if c.corpus in chosen])
    against = judge(list(all_cases())) if "redteam" in chosen else []
    extra = {d: judge(list(folder_cases(d))) for d in args.dir}
    cpu = time.process_time() - started
    print(f"machine: {platform.machine()} · {os.cpu_count()} cores · Python {platform.python_version()} · "
          f"load average {os.getloadavg()[0]:.2f} · {len(apart) + len(against)} verdicts in {cpu:.1f} CPU-s")
    if apart:
        table(apart, "written apart from the rules (tests/fixtures/corpus)")
    if against:
        table(against, "written against the rules (tests/fixtures/redteam)")
    if apart and against:
        table(apart + against, "all corpora")
    for d, rows in extra.items():
        table(rows, f"held out ({d})")
    if args.list:
        listing(apart + against + [r for rows in extra.values() for r in rows])
    if args.json:
        args.json.write_text(json.dumps(apart + against + [r for rows in extra.values() for r in rows], indent=1))


if __name__ == "__main__":
    main()
