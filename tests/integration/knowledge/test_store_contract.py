"""The behavioural contract every ``KnowledgeStore`` meets (SQLite always, TypeDB with TYPEDB_ADDRESS)."""

from __future__ import annotations

import asyncio

import pytest

from rcaloop.knowledge import core
from rcaloop.knowledge.snapshot import SnapshotCache, UnreachableStore, typedb_outage_runtime_activation_success
from rcaloop.knowledge.store import KnowledgeStore, revision
from rcaloop.knowledge.workflow import DecisionError, KnowledgeWorkflow, slim_verdict
from tests.unit.knowledge.builders import evaluation, verdict

HASH_B = "b" * 64


async def test_implements_the_protocol(store):
    assert isinstance(store, KnowledgeStore)


async def test_verdicts_are_insert_if_absent_and_round_trip(store):
    v = slim_verdict(verdict())
    assert await store.put_verdict(v) is True
    assert await store.put_verdict(v.model_copy(update={"score": 1})) is False
    stored = await store.get_verdict(v.analysis_hash)
    assert stored == v
    assert await store.get_verdict(HASH_B) is None


async def test_reviews_are_insert_if_absent_and_found_by_analysis_hash(store):
    first, second = evaluation(annotation_id="ev-2"), evaluation(annotation_id="ev-1")
    other = evaluation(annotation_id="ev-3", analysis_hash=HASH_B)
    assert [await store.put_review(r) for r in (first, second, other, first)] == [True, True, True, False]
    found = await store.reviews_for(first.analysis_hash)
    assert [r.annotation_id for r in found] == ["ev-1", "ev-2"]
    assert found[1] == first


async def test_packages_are_insert_if_absent_and_listed_by_state(store):
    package = core.promote(evaluation(), verdict(), created_by="review:ev-4711-1")
    again = package.model_copy(update={"created_by": "verdict:x", "family": "other"})
    assert await store.insert_package(package) == package
    assert await store.insert_package(again) == package  # the first writer wins
    refused = core.promote(
        evaluation(annotation_id="ev-9", analysis_hash=HASH_B),
        verdict(lambda d: d.update(verdict="degraded"), analysis_hash=HASH_B),
    )
    await store.insert_package(refused)
    assert [p.package_id for p in await store.list_packages("candidate")] == [package.package_id]
    assert [p.package_id for p in await store.list_packages("rejected")] == [refused.package_id]
    assert len(await store.list_packages()) == 2
    assert await store.get_package("kp-missing") is None


async def test_save_is_compare_and_set_on_the_revision(store):
    package = await store.insert_package(core.promote(evaluation(), verdict()))
    shadowed = core.decide(package, "shadow", "mira").package
    assert await store.save_package(shadowed, revision(package)) is True
    stale = core.decide(package, "approve", "lee").package
    assert await store.save_package(stale, revision(package)) is False
    assert (await store.get_package(package.package_id)).state == "shadowed"


async def test_concurrent_decisions_on_one_revision_have_one_winner(store):
    package = await store.insert_package(core.promote(evaluation(), verdict()))
    a = core.decide(package, "approve", "mira").package
    b = core.decide(package, "reject", "lee").package
    results = await asyncio.gather(store.save_package(a, revision(package)), store.save_package(b, revision(package)))
    assert sorted(results) == [False, True]
    winner = a if results[0] else b
    assert (await store.get_package(package.package_id)).state == winner.state


async def test_data_survives_reopening_the_store(store_factory):
    first = await store_factory()
    package = await first.insert_package(core.promote(evaluation(), verdict()))
    await first.put_verdict(slim_verdict(verdict()))
    await first.close()
    second = await store_factory()
    assert await second.get_package(package.package_id) == package
    assert await second.get_verdict(package.analysis_hash) is not None


async def test_review_then_verdict_yields_exactly_one_candidate(store, tmp_path):
    workflow = KnowledgeWorkflow(store, SnapshotCache(tmp_path / "snap.json"))
    assert await workflow.on_review(evaluation()) == []
    [event] = await workflow.on_verdict(verdict())
    assert event.kind == "candidate" and event.evidence_source == "ledger"
    assert await workflow.on_review(evaluation()) == []  # a redelivered review creates nothing new
    again = await workflow.on_verdict(verdict())  # the creating message redelivered: same event again
    assert [e.event_id for e in again] == [event.event_id]
    assert len(await store.list_packages()) == 1


async def test_verdict_then_review_yields_exactly_one_candidate(store, tmp_path):
    workflow = KnowledgeWorkflow(store, SnapshotCache(tmp_path / "snap.json"))
    assert await workflow.on_verdict(verdict()) == []
    [event] = await workflow.on_review(evaluation())
    assert event.kind == "candidate"
    assert await workflow.on_verdict(verdict()) == []


async def test_runtime_snapshot_keeps_serving_when_the_store_fails(store, tmp_path):
    published = []

    async def publish(events):
        published.extend(events)

    cache = SnapshotCache(tmp_path / "snap.json")
    workflow = KnowledgeWorkflow(store, cache, publish)
    await workflow.on_review(evaluation())
    [candidate] = await workflow.on_verdict(verdict())
    package, events = await workflow.decide(candidate.package_id, "approve", "mira")
    assert [e.kind for e in published] == ["approved", "activated"] == [e.kind for e in events]
    live = await workflow.snapshot()
    assert [p.package_id for p in live.packages] == [package.package_id] and live.source == "store"

    outage = KnowledgeWorkflow(UnreachableStore(), cache)  # TypeDB down
    during = await outage.snapshot()
    assert during.stale and during.source == "cache"
    assert [p.package_id for p in during.packages] == [package.package_id]
    check = await typedb_outage_runtime_activation_success(store, cache)
    assert check.typedb_outage_runtime_activation_success and check.active_packages == 1


def _analysed_at(at: str):
    return lambda data: data.update(evaluated_at=at)


async def test_the_latest_analysis_of_a_subject(store):
    first = slim_verdict(verdict(_analysed_at("2026-11-29T10:10:00Z")))
    again = slim_verdict(verdict(_analysed_at("2026-11-29T11:00:00Z"), analysis_hash=HASH_B))
    other = slim_verdict(verdict(lambda d: d.update(result_id="inc-9999"), analysis_hash="c" * 64))
    assert await store.latest_analysis("inc-4711") is None
    for v in (again, first, other):  # arrival order does not matter, evaluated_at does
        await store.put_verdict(v)
    assert await store.latest_analysis("inc-4711") == HASH_B
    assert await store.latest_analysis("inc-9999") == "c" * 64


async def test_a_review_of_a_superseded_analysis_never_promotes(store, tmp_path):
    workflow = KnowledgeWorkflow(store, SnapshotCache(tmp_path / "snap.json"))
    await workflow.on_verdict(verdict(_analysed_at("2026-11-29T10:10:00Z")))
    await workflow.on_verdict(verdict(_analysed_at("2026-11-29T11:00:00Z"), analysis_hash=HASH_B))  # the re-analysis
    [event] = await workflow.on_review(evaluation())  # a review of the first analysis arrives late
    assert event.kind == "rejected" and [i.code for i in event.issues] == ["KN106"]


async def test_a_candidate_superseded_before_approval_is_never_activated(store, tmp_path):
    workflow = KnowledgeWorkflow(store, SnapshotCache(tmp_path / "snap.json"))
    await workflow.on_verdict(verdict(_analysed_at("2026-11-29T10:10:00Z")))
    [candidate] = await workflow.on_review(evaluation())
    assert candidate.kind == "candidate"
    await workflow.on_verdict(verdict(_analysed_at("2026-11-29T11:00:00Z"), analysis_hash=HASH_B))
    with pytest.raises(DecisionError) as refused:
        await workflow.decide(candidate.package_id, "approve", "mira")
    assert refused.value.issue.code == "KD202" and refused.value.status == 422
    assert (await workflow.snapshot()).packages == []
    assert (await store.get_package(candidate.package_id)).history[-1].accepted is False


async def test_the_review_score_floor_comes_from_the_settings(store, tmp_path):
    strict = KnowledgeWorkflow(store, SnapshotCache(tmp_path / "snap.json"), min_review_score=5)
    await strict.on_verdict(verdict())
    [event] = await strict.on_review(evaluation())
    assert event.kind == "rejected" and [i.code for i in event.issues] == ["KN105"]
