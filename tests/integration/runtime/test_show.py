"""``rcaloop show`` on a real pipeline: every service in-process on real Redis, the annotation store on
SQLite and on PostgreSQL, one result followed from submission to the gate's records."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rcaloop.annotation.settings import AnnotationSettings
from rcaloop.annotation.store import Store
from rcaloop.cli import pipeline, streams
from rcaloop.cli.main import app
from rcaloop.contracts import Annotation, Stream
from rcaloop.shared.redis_conn import connect
from rcaloop.shared.settings import RuntimeSettings
from tests.conftest import running, wait_for
from tests.helpers.deployment import deployment

ROOT = Path(__file__).resolve().parents[3]
JOB = ROOT / "examples" / "jobs" / "1234567"
VALID = json.loads((ROOT / "tests" / "fixtures" / "annotation" / "valid_1234567.json").read_text())


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def environment(request, monkeypatch, redis_url, prefix, tmp_path):
    """The deployment's environment, as the services and the CLI read it."""
    with deployment(request, monkeypatch, redis_url, prefix, tmp_path / "data") as env:
        yield env


async def _one_result_reviewed(env: dict[str, str]) -> str:
    """Run the pipeline on one job, review it as alice, and a bad copy of it for the DLQ; its analysis_hash."""
    url, prefix = env["REDIS_URL"], env["RCALOOP_STREAM_PREFIX"]
    redis = connect(url)
    settings = RuntimeSettings()
    try:
        async with running(pipeline.all_services(), settings):
            await streams.submit_paths(url, [JOB], prefix)
            bad = json.dumps({"result_id": "job-1234567", "kind": "bogus", "content": "x"})
            await redis.xadd(Stream.RESULTS.key(prefix), {"payload": bad, "producer": "agent-7"})
            assert await streams.wait_until_drained(url, prefix, timeout_s=90)
            [(_id, fields)] = await redis.xrange(Stream.EVALUATED.key(prefix))
            analysis = json.loads(fields[b"payload"])["analysis_hash"]

            ann = AnnotationSettings()
            store = Store(ann.store_url(), schema=ann.rcaloop_db_schema)
            try:
                task = (await store.review_of(analysis))["task"]
                await store.claim_task(task.task_id, "alice", 60)
                await store.save_annotation(Annotation.model_validate(VALID), annotator="alice",
                                            analysis_hash=analysis, task_id=task.task_id)
            finally:
                await store.close()

            async def reviewed() -> bool:
                return await redis.xlen(Stream.REVIEW_ANNOTATIONS.key(prefix)) == 1

            await wait_for(reviewed, timeout=30)
            assert await streams.wait_until_drained(url, prefix, timeout_s=90)
        return analysis
    finally:
        await redis.aclose()


def test_show_follows_one_result_through_streams_and_stores(environment):
    analysis = asyncio.run(_one_result_reviewed(environment))
    cli = CliRunner()

    by_job = cli.invoke(app, ["show", "1234567", "--json"])
    assert by_job.exit_code == 0, by_job.output
    found = json.loads(by_job.output)
    assert found["analyses"] == [analysis]
    s = found["streams"]
    assert [r["result_id"] for r in s["rca.results"]] == ["job-1234567"]
    assert [r["analysis_hash"] for r in s["rca.ingested"]] == [analysis]
    assert s["rca.parsed"][0]["outcome"] == "report"
    [verdict] = s["rca.evaluated"]
    assert verdict["verdict"] in ("pass", "degraded", "insufficient_evidence")
    assert {g["gate"] for g in verdict["hard_gates"]} >= {"G1", "G2", "G3", "G4"}
    assert isinstance(verdict["repairs"], list)
    assert [t["analysis_hash"] for t in s["review.tasks"]] == [analysis]
    assert [(r["annotator"], r["kind"]) for r in s["review.annotations"]] == [("alice", "annotation")]

    stores = found["stores"]
    review = stores["annotation"][analysis]
    assert review["task"]["analysis_hash"] == analysis
    assert review["slots"] == [{"annotator": "alice", "state": "submitted"}]
    assert [(r["annotator"], r["revision"]) for r in review["reviews"]] == [("alice", 1)]
    assert stores["knowledge"][analysis]["run_stored"] is True
    assert [r["annotator"] for r in stores["knowledge"][analysis]["reviews"]] == ["alice"]
    assert stores["gate"][analysis]["verdict_recorded"] is True
    assert [r["annotator"] for r in stores["gate"][analysis]["reviews"]] == ["alice"]
    assert [(d["error_code"], d["group"]) for d in found["dead_letters"]] == [("contract_violation", "ingestion")]

    by_hash = json.loads(cli.invoke(app, ["show", analysis, "--json"]).output)
    by_result = json.loads(cli.invoke(app, ["show", "job-1234567", "--json"]).output)
    assert by_hash["analyses"] == by_result["analyses"] == [analysis]
    assert by_hash["streams"]["rca.evaluated"] == s["rca.evaluated"]

    text = cli.invoke(app, ["show", "job-1234567"]).output
    for part in ("submitted", "ingested", "parsed", "verdict", "review task", "review store", "alice: submitted",
                 "knowledge", "gate", "dead letter"):
        assert part in text, text
    assert "by agent-7" in text and "by None" not in text, text  # a producer named in the XADD's header field

    nothing = cli.invoke(app, ["show", "no-such-result"])
    assert nothing.exit_code == 1 and "(none found)" in nothing.output
    assert cli.invoke(app, ["show", "bad\x1bid"]).exit_code == 2
