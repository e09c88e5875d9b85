"""The gate service on a real Redis: records verdicts, reviews and events once each;
``rcaloop gate promote`` lands its decision on ``gate.decisions`` and in the store."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import redis as sync_redis

from rcaloop.contracts import AnnotationRecord, KnowledgeEvent, Stream
from rcaloop.contracts.evaluation import EvaluationScores, OperatorEvaluation
from rcaloop.contracts.knowledge import Provenance
from rcaloop.gate.app import GateSettings, build
from rcaloop.gate.store import GateStore
from rcaloop.shared.wire import encode
from tests.conftest import running
from tests.unit.gate.builders import judged
from tests.unit.gate.test_release_gate import PASSING, PROVENANCE

SCORES = EvaluationScores(**{k: 4 for k in EvaluationScores.model_fields})


def _review(analysis_hash: str) -> AnnotationRecord:
    return AnnotationRecord(
        annotation_id="ann-1", analysis_hash=analysis_hash, annotator="ops", kind="operator_evaluation",
        evaluation=OperatorEvaluation(analysis_hash=analysis_hash, case_type="known", expected_family="configuration",
                                      scores=SCORES),
    )


def _event(i: int, kind: str = "activated") -> KnowledgeEvent:
    return KnowledgeEvent(event_id=f"ev-{i}", kind=kind, package_id="p1", analysis_hash="h1",
                          evidence_source="harness_claim",
                          provenance=Provenance(promotion_path="harness_claim"), activation_latency_seconds=4.0)


async def test_service_records_each_fact_once(redis, prefix, settings_factory, wait):
    settings = settings_factory(GateSettings)
    verdict = judged()
    for _ in range(2):  # at-least-once delivery: every message twice
        await redis.xadd(Stream.EVALUATED.key(prefix), encode(verdict))
        await redis.xadd(Stream.REVIEW_ANNOTATIONS.key(prefix), encode(_review(verdict.analysis_hash)))
        await redis.xadd(Stream.KNOWLEDGE_EVENTS.key(prefix), encode(_event(1)))
    await redis.xadd(Stream.KNOWLEDGE_EVENTS.key(prefix), encode(_event(2, "approved")))
    await redis.xadd(Stream.KNOWLEDGE_EVENTS.key(prefix), {"payload": "{not json"})  # poison: DLQ, not a crash

    async def drained() -> bool:
        groups = {}
        for stream in (Stream.EVALUATED, Stream.REVIEW_ANNOTATIONS, Stream.KNOWLEDGE_EVENTS):
            info = await redis.xinfo_groups(stream.key(prefix))
            groups[stream] = info and info[0]["pending"] == 0 and info[0].get("lag") == 0
        return all(groups.values())

    async with running([build(settings)], settings):
        await wait(drained)
    store = GateStore(settings.store_path())
    try:
        assert store.counts() == {"verdicts": 1, "reviews": 1, "knowledge_events": 2, "decisions": 0}
        far = (datetime(2000, 1, 1, tzinfo=UTC), datetime(2100, 1, 1, tzinfo=UTC))
        assert store.verdicts(*far)[0].analysis_hash == verdict.analysis_hash
        assert store.last_material_change() is not None
    finally:
        store.close()
    assert await redis.xlen(Stream.KNOWLEDGE_EVENTS.dlq_key(prefix)) == 1


def test_a_batch_of_verdicts_is_stored_at_once_each_once(tmp_path):
    store = GateStore(tmp_path / "gate.db")
    first, second = judged(), judged(family="dependency", cause="the payments API timed out")
    try:
        assert store.record_verdicts([first]) == [True]
        assert store.record_verdicts([first, second]) == [False, True]
        assert store.counts()["verdicts"] == 2
    finally:
        store.close()


def test_store_inserts_are_idempotent_without_redis_keys(tmp_path):
    store = GateStore(tmp_path / "gate.db")
    verdict = judged()
    assert store.record_verdict(verdict) is True
    assert store.record_verdict(verdict) is False
    assert store.record_event(_event(1)) and not store.record_event(_event(1))
    assert store.counts()["verdicts"] == 1
    store.close()


def _artifact(path: Path, measured_at: datetime, window: str = PROVENANCE["incident_window"], **metrics) -> Path:
    doc = {**PASSING, **metrics,
           "provenance": {**PROVENANCE, "incident_window": window, "measured_at": measured_at.isoformat()}}
    path.write_text(json.dumps(doc))
    return path


def _after_promotion(tmp_path: Path, name: str, ms: int, **metrics) -> Path:
    """An artifact of the next stage: incidents from now (after the last promotion) for ``ms`` ms, measured at their
    end."""
    start = datetime.now(UTC)
    end = start + timedelta(milliseconds=ms)
    return _artifact(tmp_path / name, end, f"{start.isoformat()}/{end.isoformat()}", **metrics)


def _cli(args: list[str], env: dict[str, str]):
    """The ``rcaloop`` CLI in-process (its startup imports every service; once is enough)."""
    from typer.testing import CliRunner

    from rcaloop.cli.main import app

    return CliRunner().invoke(app, args, env=env)


def test_promotions_land_on_gate_decisions_and_in_the_store(redis_url, prefix, tmp_path):
    env = {"REDIS_URL": redis_url, "RCALOOP_STREAM_PREFIX": prefix, "RCALOOP_DATA_DIR": str(tmp_path / "data")}
    now = datetime.now(UTC) - timedelta(minutes=5)  # every measurement lies in the past
    first = _cli(
        ["gate", "promote", "staging", "--artifact", str(_artifact(tmp_path / "a1.json", now)), "--decided-by",
         "rel-owner"], env)
    assert first.exit_code == 0, first.output
    # same artifact: not fresh
    again = _cli(["gate", "promote", "shadow", "--artifact", str(tmp_path / "a1.json")], env)
    assert again.exit_code == 1 and "ROLL103" in again.stdout
    stale_artifact = _after_promotion(tmp_path, "a2.json", 1)
    measured = datetime.fromisoformat(json.loads(stale_artifact.read_text())["provenance"]["measured_at"])
    store = GateStore(tmp_path / "data" / "gate.db")
    store.record_event(_event(7, "activated").model_copy(update={"created_at": measured + timedelta(milliseconds=1)}))
    store.close()
    stale = _cli(["gate", "promote", "shadow", "--artifact", str(stale_artifact)], env)
    assert stale.exit_code == 1 and "ROLL104" in stale.stdout
    fresh = _cli(["gate", "promote", "shadow", "--artifact", str(_after_promotion(tmp_path, "a3.json", 2))], env)
    assert fresh.exit_code == 0, fresh.stdout

    client = sync_redis.Redis.from_url(redis_url)
    try:
        entries = client.xrange(Stream.GATE_DECISIONS.key(prefix))
        decisions = [json.loads(fields[b"payload"]) for _, fields in entries]
    finally:
        client.delete(Stream.GATE_DECISIONS.key(prefix))
        client.close()
    assert [(d["stage"], d["passed"]) for d in decisions] == [("staging", True), ("shadow", False), ("shadow", False),
                                                              ("shadow", True)]
    assert decisions[0]["decided_by"] == "rel-owner" and decisions[0]["artifact_hash"].startswith("sha256:")

    status = _cli(["gate", "status", "--json"], env)
    doc = json.loads(status.stdout)
    assert doc["current_stage"] == "shadow" and doc["next_stage"] == "assist" and doc["counts"]["decisions"] == 4
    assert doc["needs_rerun"] is False


def test_rejecting_an_active_package_is_a_material_change(tmp_path):
    store = GateStore(tmp_path / "gate.db")
    t0 = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
    try:
        store.record_event(_event(1, "activated").model_copy(update={"created_at": t0}))
        rejected_candidate = _event(2,
                                    "rejected").model_copy(
                                        update={"created_at": t0 + timedelta(hours=1),
                                                "detail": {"from_state": "candidate"}})
        store.record_event(rejected_candidate)
        assert store.last_material_change() == t0
        retired = _event(3,
                         "rejected").model_copy(
                             update={"created_at": t0 + timedelta(hours=2), "detail": {"from_state": "activated"}})
        store.record_event(retired)
        assert store.last_material_change() == t0 + timedelta(hours=2)
    finally:
        store.close()


def test_a_whitespace_copy_is_not_a_fresh_artifact_and_assist_is_compared_with_staging(tmp_path):
    env = {"RCALOOP_DATA_DIR": str(tmp_path / "data")}
    now = datetime.now(UTC) - timedelta(minutes=10)
    staging = _artifact(tmp_path / "staging.json", now, known_top1=0.97)
    assert _cli(["gate", "promote", "staging", "--artifact", str(staging), "--no-publish"], env).exit_code == 0
    copy = tmp_path / "copy.json"
    copy.write_text(json.dumps(json.loads(staging.read_text()), indent=2) + "\n\n")
    reused = _cli(["gate", "promote", "shadow", "--artifact", str(copy), "--no-publish"], env)
    assert reused.exit_code == 1 and "ROLL103" in reused.stdout
    shadow = _after_promotion(tmp_path, "shadow.json", 1, known_top1=0.97)
    assert _cli(["gate", "promote", "shadow", "--artifact", str(shadow), "--no-publish"], env).exit_code == 0
    worse = _after_promotion(tmp_path, "assist.json", 1, known_top1=0.96)  # inside its gate, below staging
    refused = _cli(["gate", "promote", "assist", "--artifact", str(worse), "--no-publish", "--json"], env)
    assert refused.exit_code == 1
    decision = json.loads(refused.stdout)
    assert [r.split()[0] for r in decision["reasons"]] == ["ROLL107"]
    assert decision["comparison"]["regressed"] == ["known_top1"]
    assert decision["comparison"]["deltas"]["known_top1"]["delta"] == -0.01
    tolerated = _cli(["gate", "promote", "assist", "--artifact", str(worse), "--no-publish"],
                     {**env, "GATE_SHADOW_MAX_REGRESSION": "0.02"})
    assert tolerated.exit_code == 0, tolerated.stdout


def test_the_gate_store_readiness_check_writes_nothing_and_fails_while_writes_are_refused(tmp_path):
    import sqlite3  # noqa: PLC0415

    import pytest  # noqa: PLC0415

    from rcaloop.gate.store import GateStore  # noqa: PLC0415

    store = GateStore(tmp_path / "gate.db")
    try:
        store.check_writable()
        assert store._one("SELECT COUNT(*) FROM store_probe")[0] == 0
        store._db.execute("PRAGMA query_only = ON")  # as a read-only file or a full disk would
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            store.check_writable()
        assert not store._db.in_transaction
    finally:
        store.close()
