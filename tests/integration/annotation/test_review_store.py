"""What the web UI asks of the store, on SQLite and PostgreSQL: kept files, drafts, picked
claims within the overlap, queue filters and progress."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rcaloop.annotation import core
from rcaloop.annotation.artifacts import artifacts_of
from rcaloop.annotation.store import StoreError
from rcaloop.annotation.validation import Unreadable
from rcaloop.contracts import IngestedRecord, OperatorEvaluation
from rcaloop.contracts.parsed import RedFlag
from rcaloop.contracts.evaluation import EVALUATION_ITEMS
from tests.integration.annotation.conftest import verdict

JOB_DIR = Path(__file__).resolve().parents[3] / "examples" / "jobs" / "1234567"
CONTENT = {p.name: json.loads(p.read_text()) for p in JOB_DIR.glob("*.json")}


def _record(analysis_hash: str, content=CONTENT, job_id="1234567") -> IngestedRecord:
    return IngestedRecord(
        result_id=f"r-{analysis_hash[:6]}", kind="step_files", job_id=job_id, content=content,
        analysis_hash=analysis_hash
    )


async def test_files_are_kept_once_per_content_and_read_back_as_written(store):
    first, second = _record("a" * 64), _record("b" * 64)
    assert await store.add_artifacts(first.analysis_hash, "1234567", artifacts_of(first)) == 4
    assert await store.add_artifacts(first.analysis_hash, "1234567", artifacts_of(first)) == 0  # redelivery
    await store.add_artifacts(second.analysis_hash, "1234567", artifacts_of(second))
    assert await store.artifact_files("a" * 64) == CONTENT
    assert await store.latest_job_analysis("1234567") in ("a" * 64, "b" * 64)
    async with store.engine.connect() as conn:
        import sqlalchemy as sa

        from rcaloop.annotation.tables import artifact_blobs

        assert await conn.scalar(sa.select(sa.func.count()).select_from(artifact_blobs)) == 4  # shared blobs


async def test_a_batch_of_results_keeps_each_file_once_and_shared_content_once(store):
    first, second = _record("d" * 64), _record("e" * 64)
    batch = [(r.analysis_hash, r.job_id, artifacts_of(r)) for r in (first, second, first)]  # one delivered twice
    assert await store.add_artifacts_batch(batch) == [4, 4, 0]
    assert await store.add_artifacts_batch(batch[:1]) == [0]  # the batch redelivered
    assert await store.artifact_files("d" * 64) == CONTENT == await store.artifact_files("e" * 64)
    async with store.engine.connect() as conn:
        import sqlalchemy as sa

        from rcaloop.annotation.tables import analysis_artifacts, artifact_blobs

        assert await conn.scalar(sa.select(sa.func.count()).select_from(artifact_blobs)) == 4
        assert await conn.scalar(sa.select(sa.func.count()).select_from(analysis_artifacts)) == 8


async def test_a_file_over_the_bound_is_listed_not_kept(store):
    big = dict(CONTENT, **{"step3_correlation.json": {"timeline": ["x" * 5000]}})
    record = _record("c" * 64, big)
    await store.add_artifacts(record.analysis_hash, "1234567", artifacts_of(record, max_file_bytes=4000))
    kept = await store.artifact_files("c" * 64)
    assert isinstance(kept["step3_correlation.json"], Unreadable)
    assert "larger than 4000 bytes" in kept["step3_correlation.json"].reason
    assert kept["step1_job_context.json"] == CONTENT["step1_job_context.json"]


async def test_drafts_are_per_task_and_annotator(store):
    v = verdict(1)
    task = core.review_task_for(v)
    await store.add_verdict(v, task)
    assert await store.draft(task.task_id, "alice") is None
    await store.save_draft(task.task_id, "alice", {"answers": {"category_correct": "yes"}})
    await store.save_draft(task.task_id, "alice", {"answers": {"category_correct": "no"}})
    await store.save_draft(task.task_id, "bob", {"answers": {}})
    assert await store.draft(task.task_id, "alice") == {"answers": {"category_correct": "no"}}
    await store.drop_draft(task.task_id, "alice")
    assert await store.draft(task.task_id, "alice") is None
    assert await store.draft(task.task_id, "bob") == {"answers": {}}


async def test_a_picked_task_is_refused_past_its_overlap(store):
    v = verdict(2)
    task = core.review_task_for(v, overlap=2)
    await store.add_verdict(v, task)
    await store.claim_task(task.task_id, "alice", 60)
    await store.claim_task(task.task_id, "alice", 60)  # taking your own again only renews it
    await store.claim_task(task.task_id, "bob", 60)
    with pytest.raises(StoreError) as refused:
        await store.claim_task(task.task_id, "carol", 60)
    assert refused.value.code == "task_full" and "overlap" in refused.value.message
    with pytest.raises(StoreError) as missing:
        await store.claim_task("task-nope", "carol", 60)
    assert missing.value.status == 404
    await store.release(task.task_id, "bob")
    assert (await store.lease_of(task.task_id, "bob"))["status"] == "released"
    assert (await store.claim_task(task.task_id, "carol", 60)).annotator == "carol"  # bob's slot, free again
    assert {p["annotator"]: p["leased"] for p in await store.progress()} == {"alice": 1, "carol": 1}


async def test_queue_filters_red_flags_case_type_and_id(store):
    flagged = verdict(3, job_id="5550003")
    flagged.parsed.red_flags = [RedFlag(code="RCA701", type="api-key", where="logs", line=3, source="detected")]
    alert = verdict(4, job_id=None, kind="capture", result_id="INC-9")
    for v in (flagged, alert):
        await store.add_verdict(v, core.review_task_for(v))
    evaluation = OperatorEvaluation(
        analysis_hash=alert.analysis_hash, case_type="novel", scores=dict.fromkeys(EVALUATION_ITEMS, 3)
    )
    await store.save_evaluation(evaluation, annotator="alice", lease_required=False)

    def jobs(rows):
        return [r["task"]["job_id"] or r["task"]["result_id"] for r in rows]

    assert jobs(await store.list_tasks(red_flags=True)) == ["5550003"]
    assert jobs(await store.list_tasks(red_flags=False)) == ["INC-9"]
    assert jobs(await store.list_tasks(case_type="novel")) == ["INC-9"]
    assert jobs(await store.list_tasks(search="INC-9")) == ["INC-9"]
    assert jobs(await store.list_tasks(search="5550003")) == ["5550003"]
    [row] = await store.list_tasks(search="INC-9")
    assert row["case_type"] == "novel" and row["red_flags"] == 0
