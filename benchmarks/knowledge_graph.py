"""Knowledge graph on the embedded store: write and query figures as the graph grows.

    .venv/bin/python benchmarks/knowledge_graph.py [--incidents 400]

Stores ``--incidents`` past incidents (verdict + review → package; two in three approved,
the rest shadowed) through the knowledge workflow, then times the graph queries: probe
metrics, the probe plan of an open incident, verified actions of a family, similar
incidents. Also prints how many TypeQL queries one run and one package cost the TypeDB
store (one round trip each, in one transaction). No TypeDB server runs here, so only the
embedded store is timed. Targets: a run stored in < 50 ms, each query < 200 ms at 400
incidents.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the incident set lives with the tests

from rcaloop.knowledge import core, graph, typeql  # noqa: E402
from rcaloop.knowledge.snapshot import SnapshotCache  # noqa: E402
from rcaloop.knowledge.sqlite_store import SqliteKnowledgeStore  # noqa: E402
from rcaloop.knowledge.workflow import KnowledgeWorkflow, slim_verdict  # noqa: E402
from tests.unit.knowledge import incident_set  # noqa: E402

TARGET_WRITE_MS, TARGET_QUERY_MS = 50, 200


def _past(n: int) -> incident_set.Incident:
    base = (incident_set.A, incident_set.B, incident_set.C)[n % 3]
    decision = "shadow" if n % 3 == 2 else "approve"
    return replace(base, incident_id=f"inc-{n:05d}", analysis_hash=f"{n:064x}", decision=decision)


async def _timed(label: str, call, repeat: int = 20) -> None:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        await call()
        times.append((time.perf_counter() - start) * 1000)
    print(f"  {label:<32} median {statistics.median(times):7.1f} ms   max {max(times):7.1f} ms")


async def main(incidents: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = SqliteKnowledgeStore(Path(tmp) / "knowledge.sqlite3")
        workflow = KnowledgeWorkflow(store, SnapshotCache(Path(tmp) / "snapshot.json"))
        start = time.perf_counter()
        for n in range(incidents):
            past = _past(n)
            await workflow.on_review(past.evaluation())
            [event] = await workflow.on_verdict(past.verdict())
            await workflow.decide(event.package_id, past.decision, "bench")
        await workflow.on_verdict(incident_set.D.verdict())
        elapsed = time.perf_counter() - start
        print(f"{incidents} incidents stored (review, verdict, package, decision each) in {elapsed:.1f} s: "
              f"{elapsed / incidents * 1000:.1f} ms per incident (target < {TARGET_WRITE_MS} ms per run)")
        print("queries (embedded store):")
        await _timed("probe metrics", workflow.probe_metrics)
        await _timed("probe plan of the open incident", lambda: workflow.probe_plan("inc-D"))
        await _timed("verified actions of a family", lambda: workflow.verified_actions(incident_set.POOL))
        await _timed("similar incidents", lambda: workflow.similar_incidents("inc-D"))
        print(f"  (target: each < {TARGET_QUERY_MS} ms)")
        await store.close()
    run = graph.run_graph(slim_verdict(incident_set.B.verdict()))
    package = graph.package_graph(core.promote(incident_set.B.evaluation(), incident_set.B.verdict()), run, None)
    reads = 11  # inserting a package first reads its body, its run's graph (9 queries) and its review
    print(f"TypeDB round trips: a run of {len(run.evidence)} evidence, {len(run.hypotheses)} hypotheses, "
          f"{len(run.claims)} claims and {len(run.executions)} probe executions = "
          f"{len(typeql.run_queries(run, '{}')) + 1} queries in one write transaction; its package = "
          f"{reads} reads + {len(typeql.package_queries(package, '{}'))} writes")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--incidents", type=int, default=400)
    asyncio.run(main(parser.parse_args().incidents))
