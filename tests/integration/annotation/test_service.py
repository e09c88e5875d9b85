"""The annotation service on a real Redis: verdict → review task; evaluation → review.annotations once."""

from __future__ import annotations

import asyncio

import httpx

from rcaloop.annotation.app import build
from rcaloop.annotation.outbox import OutboxPublisher
from rcaloop.annotation.settings import AnnotationSettings
from rcaloop.annotation.store import Store, database_url
from rcaloop.contracts import Stream
from rcaloop.contracts.evaluation import EVALUATION_ITEMS
from rcaloop.shared.service import http_app
from rcaloop.shared.wire import encode
from tests.conftest import running
from tests.helpers.streams import entries
from tests.integration.annotation.conftest import verdict

TOKENS = "olga:tok-olga-4Jd8sLq2Zp7Wm3Xc"


def _settings(settings_factory, tmp_path) -> AnnotationSettings:
    return settings_factory(
        AnnotationSettings,
        rcaloop_annotator_tokens=TOKENS,
        outbox_interval_ms=20,
        rcaloop_analysis_root=tmp_path / "analysis",
    )


async def _len(redis, key: str, n: int) -> bool:
    return await redis.xlen(key) >= n


async def test_verdict_becomes_review_task_once_and_evaluation_is_published_once(
    redis, prefix, settings_factory, tmp_path, wait
):
    settings = _settings(settings_factory, tmp_path)
    service = build(settings)
    v = verdict(1, job_id=None, kind="capture", result_id="INC-42", verdict="degraded")
    key = Stream.EVALUATED.key(prefix)
    await redis.xadd(key, encode(v))
    await redis.xadd(key, encode(v))  # redelivered / republished verdict
    async with running([service], settings):
        await wait(lambda: _len(redis, Stream.REVIEW_TASKS.key(prefix), 1))
        async with httpx.AsyncClient(transport=httpx.ASGITransport(http_app([service])), base_url="http://t") as api:
            headers = {"Authorization": "Bearer tok-olga-4Jd8sLq2Zp7Wm3Xc"}
            [row] = (await api.get("/api/v1/review/tasks", headers=headers)).json()
            assert row["task"]["analysis_hash"] == v.analysis_hash
            assert row["task"]["kind"] == "operator_evaluation" and row["task"]["priority"] == 1
            lease = (await api.post("/api/v1/review/tasks/claim", headers=headers)).json()
            form = {
                "case_type": "novel",
                "scores": dict.fromkeys(EVALUATION_ITEMS, 3),
                "resolution_outcome": "mitigated",
                "action_that_worked": "scaled the pool",
                "memo": "ok",
            }
            url = f"/api/v1/review/tasks/{lease['task']['task_id']}/evaluation"
            assert (await api.post(url, json=form, headers=headers)).status_code == 201
            assert (await api.post(url, json=form, headers=headers)).status_code == 200  # client retry
            await wait(lambda: _len(redis, Stream.REVIEW_ANNOTATIONS.key(prefix), 1))
            await asyncio.sleep(0.3)  # several more drain rounds
    tasks = await entries(redis, Stream.REVIEW_TASKS, prefix)
    assert [t["analysis_hash"] for t in tasks] == [v.analysis_hash]
    [record] = await entries(redis, Stream.REVIEW_ANNOTATIONS, prefix)
    assert record["kind"] == "operator_evaluation" and record["annotator"] == "olga"
    assert record["evaluation"]["verified_actions"] == ["scaled the pool"]
    assert record["analysis_hash"] == v.analysis_hash


class _CrashAfterPublish(Store):
    """The process dies after the XADD, before the outbox row is marked published."""

    crashes = 1

    async def mark_published(self, keys):
        if self.crashes:
            self.crashes -= 1
            raise ConnectionError("killed before marking the outbox")
        await super().mark_published(keys)


async def test_outbox_survives_a_crash_between_publish_and_mark(redis, prefix, settings_factory, tmp_path):
    settings = _settings(settings_factory, tmp_path)
    store = _CrashAfterPublish(database_url(None, tmp_path / "db"))
    await store.migrate()
    v = verdict(3, job_id=None, kind="capture", result_id="INC-9")
    from rcaloop.annotation import core  # noqa: PLC0415
    from rcaloop.contracts import OperatorEvaluation  # noqa: PLC0415

    await store.add_verdict(v, core.review_task_for(v))
    form = OperatorEvaluation.model_validate(
        {
            "analysis_hash": v.analysis_hash,
            "case_type": "known",
            "scores": dict.fromkeys(EVALUATION_ITEMS, 5),
        }
    )
    await store.save_evaluation(form, annotator="olga")
    publisher = OutboxPublisher(store, redis, settings)
    try:
        await publisher.drain_once()
    except ConnectionError:
        pass
    assert len(await store.pending_outbox()) == 1  # not lost: still pending
    assert await publisher.drain_once() == 0  # re-run: the key guards the stream
    assert await store.pending_outbox() == []
    assert len(await entries(redis, Stream.REVIEW_ANNOTATIONS, prefix)) == 1
    await store.close()


async def test_a_result_from_the_stream_is_annotated_over_http_without_a_job_directory(
    redis, prefix, settings_factory, tmp_path, wait
):
    """The files travel with the task: validation reads them from the store, not .analysis/."""
    import json
    from pathlib import Path

    from rcaloop.contracts import IngestedRecord

    root = Path(__file__).resolve().parents[3]
    content = {p.name: json.loads(p.read_text()) for p in (root / "examples" / "jobs" / "1234567").glob("*.json")}
    valid = json.loads((root / "tests" / "fixtures" / "annotation" / "valid_1234567.json").read_text())
    settings = _settings(settings_factory, tmp_path)
    service = build(settings)
    v = verdict(7, job_id="1234567", kind="step_files")
    record = IngestedRecord(
        result_id="job-1234567", kind="step_files", job_id="1234567", content=content, analysis_hash=v.analysis_hash
    )
    await redis.xadd(Stream.INGESTED.key(prefix), encode(record))
    await redis.xadd(Stream.INGESTED.key(prefix), encode(record))  # redelivered: kept once
    await redis.xadd(Stream.EVALUATED.key(prefix), encode(v))
    assert not (tmp_path / "analysis" / "1234567").exists()
    async with running([service], settings):
        await wait(lambda: _len(redis, Stream.REVIEW_TASKS.key(prefix), 1))
        async with httpx.AsyncClient(transport=httpx.ASGITransport(http_app([service])), base_url="http://t") as api:
            headers = {"Authorization": "Bearer tok-olga-4Jd8sLq2Zp7Wm3Xc"}

            async def kept() -> bool:
                check = await api.post("/api/v1/annotation/validate", json=valid, headers=headers)
                return check.json() == {"valid": True, "errors": []}

            await wait(kept)  # the job's newest kept files, for a check without a task
            lease = (await api.post("/api/v1/review/tasks/claim", headers=headers)).json()
            url = f"/api/v1/review/tasks/{lease['task']['task_id']}/annotation"
            wrong = {**valid,
                     "evidence": [{**valid["evidence"][0], "exact_value": "vault reachable"}, *valid["evidence"][1:]]}
            refused = await api.post(url, json=wrong, headers=headers)
            assert refused.status_code == 422 and [e["code"] for e in refused.json()["errors"]] == ["ANN127"]
            assert (await api.post(url, json=valid, headers=headers)).status_code == 201
            await wait(lambda: _len(redis, Stream.REVIEW_ANNOTATIONS.key(prefix), 1))
    [stored] = await entries(redis, Stream.REVIEW_ANNOTATIONS, prefix)
    assert stored["annotation"]["job_id"] == "1234567" and stored["annotator"] == "olga"
