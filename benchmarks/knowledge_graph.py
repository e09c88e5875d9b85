"""Knowledge graph: write and query figures as the graph grows, on the embedded store and on TypeDB.

    .venv/bin/python benchmarks/knowledge_graph.py [--incidents 400] [--typedb 127.0.0.1:1729]

Stores ``--incidents`` past incidents (verdict + review → package; two in three approved,
the rest shadowed) through the knowledge workflow, then times the graph queries: probe
metrics, the probe plan of an open incident, verified actions of a family, similar
incidents, the runtime snapshot, and the family catalog (proposed, approved, read back from
the graph). The embedded store is always timed; with ``--typedb`` (or ``TYPEDB_ADDRESS``)
the same on a TypeDB server, in a database of its own deleted afterwards, and both side by
side. Also prints how many TypeQL queries one run and one package cost the TypeDB store (one
round trip each, in one transaction). Targets: a run stored in < 50 ms, each query < 200 ms
at 400 incidents.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import uuid
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the incident set lives with the tests

from rcaloop.knowledge import core, graph, typeql  # noqa: E402
from rcaloop.knowledge.snapshot import SnapshotCache  # noqa: E402
from rcaloop.contracts.catalog import FamilyCatalog  # noqa: E402
from rcaloop.knowledge.sqlite_store import SqliteKnowledgeStore  # noqa: E402
from rcaloop.knowledge.typedb_store import TypeDBKnowledgeStore  # noqa: E402
from rcaloop.shared.catalog import bundled_catalog  # noqa: E402
from rcaloop.knowledge.workflow import KnowledgeWorkflow, slim_verdict  # noqa: E402
from tests.unit.knowledge import incident_set  # noqa: E402

TARGET_WRITE_MS, TARGET_QUERY_MS = 50, 200


def _past(n: int) -> incident_set.Incident:
    base = (incident_set.A, incident_set.B, incident_set.C)[n % 3]
    decision = "shadow" if n % 3 == 2 else "approve"
    return replace(base, incident_id=f"inc-{n:05d}", analysis_hash=f"{n:064x}", decision=decision)


async def _timed(call, repeat: int = 20) -> tuple[float, float]:
    """(median, max) milliseconds of ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        await call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


def _catalog(version: str) -> FamilyCatalog:
    data = bundled_catalog().model_dump(mode="json", exclude_none=True)
    data["version"] = version
    return FamilyCatalog.model_validate(data)


async def measure(store, tmp: Path, incidents: int) -> dict[str, tuple[float, float]]:
    """Every figure of one store: label → (median, max) ms."""
    workflow = KnowledgeWorkflow(store, SnapshotCache(tmp / f"snapshot-{store.name}.json"))
    await store.open()
    figures: dict[str, tuple[float, float]] = {}
    per_incident = []
    for n in range(incidents):
        past = _past(n)
        start = time.perf_counter()
        await workflow.on_review(past.evaluation())
        [event] = await workflow.on_verdict(past.verdict())
        await workflow.decide(event.package_id, past.decision, "bench")
        per_incident.append((time.perf_counter() - start) * 1000)
    await workflow.on_verdict(incident_set.D.verdict())
    figures["store an incident (review, run, package, decision)"] = (statistics.median(per_incident), max(per_incident))
    figures["probe metrics"] = await _timed(workflow.probe_metrics)
    figures["probe plan of the open incident"] = await _timed(lambda: workflow.probe_plan("inc-D"))
    figures["verified actions of a family"] = await _timed(lambda: workflow.verified_actions(incident_set.POOL))
    figures["similar incidents"] = await _timed(lambda: workflow.similar_incidents("inc-D"))
    figures["runtime snapshot (packages + catalog)"] = await _timed(workflow.snapshot, repeat=5)
    start = time.perf_counter()
    await workflow.offer_bundled_catalog()
    figures["bundled catalog stored and activated"] = ((time.perf_counter() - start) * 1000,) * 2  # type: ignore[assignment]
    versions = iter(range(1000))

    async def propose_and_approve() -> None:
        package, _ = await workflow.propose_catalog(_catalog(f"bench.{next(versions)}"), "bench")
        await workflow.decide_catalog(package.package_id, "approve", "bench")

    figures["catalog proposed and approved"] = await _timed(propose_and_approve, repeat=3)
    active = await store.active_catalog()
    figures["catalog read back from the graph"] = await _timed(lambda: store.catalog_graph(active.package_id), repeat=5)
    await store.close()
    return figures


async def main(incidents: int, typedb: str | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        stores = {"embedded (SQLite)": SqliteKnowledgeStore(Path(tmp) / "knowledge.sqlite3")}
        database = f"rcaloop_bench_{uuid.uuid4().hex[:8]}"
        if typedb:
            stores["TypeDB"] = TypeDBKnowledgeStore(typedb, os.environ.get("TYPEDB_USERNAME", "admin"),
                                                    os.environ.get("TYPEDB_PASSWORD", "password"), database,
                                                    timeout_ms=30_000)
        results = {}
        try:
            for name, store in stores.items():
                print(f"{name}: storing {incidents} incidents …", flush=True)
                results[name] = await measure(store, Path(tmp), incidents)
        finally:
            if typedb:
                _drop(typedb, database)
    labels = list(next(iter(results.values())))
    print(f"\nmedian (max) ms at {incidents} incidents")
    header = f"| {'':<52} | " + " | ".join(f"{n:>22}" for n in results) + " |"
    print(header)
    print("|" + "-" * 54 + "|" + "|".join("-" * 24 for _ in results) + "|")
    for label in labels:
        cells = " | ".join(f"{results[n][label][0]:9.1f} ({results[n][label][1]:9.1f})" for n in results)
        print(f"| {label:<52} | {cells} |")
    print(f"(targets: a run stored in < {TARGET_WRITE_MS} ms, each query < {TARGET_QUERY_MS} ms)")
    run = graph.run_graph(slim_verdict(incident_set.B.verdict()))
    package = graph.package_graph(core.promote(incident_set.B.evaluation(), incident_set.B.verdict()), run, None)
    reads = 11  # inserting a package first reads its body, its run's graph (9 queries) and its review
    print(f"TypeDB round trips: a run of {len(run.evidence)} evidence, {len(run.hypotheses)} hypotheses, "
          f"{len(run.claims)} claims and {len(run.executions)} probe executions = "
          f"{len(typeql.run_queries(run, '{}')) + 1} queries in one write transaction; its package = "
          f"{reads} reads + {len(typeql.package_queries(package, '{}'))} writes")


def _drop(address: str, database: str) -> None:
    from typedb.driver import Credentials, DriverOptions, DriverTlsConfig, TypeDB  # noqa: PLC0415

    driver = TypeDB.driver(address, Credentials(os.environ.get("TYPEDB_USERNAME", "admin"),
                                                os.environ.get("TYPEDB_PASSWORD", "password")),
                           DriverOptions(DriverTlsConfig.disabled()))
    try:
        if driver.databases.contains(database):
            driver.databases.get(database).delete()
    finally:
        driver.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--incidents", type=int, default=400)
    parser.add_argument("--typedb", default=os.environ.get("TYPEDB_ADDRESS"),
                        help="host:port of a TypeDB server to time beside the embedded store")
    args = parser.parse_args()
    asyncio.run(main(args.incidents, args.typedb))
