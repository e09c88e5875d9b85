"""A review revised after it was published: knowledge and gate apply the latest revision.

Records carry their ``revision``; consumers key each revision on its own (a revision is
not a duplicate of the first) and keep the highest one, whatever order they arrive in.
"""

from __future__ import annotations

import asyncio

from rcaloop.contracts import Stream
from rcaloop.gate.app import GateSettings
from rcaloop.gate.app import build as build_gate
from rcaloop.gate.store import GateStore
from rcaloop.knowledge.app import build as build_knowledge
from rcaloop.knowledge.app import open_store
from rcaloop.knowledge.settings import KnowledgeSettings
from rcaloop.knowledge.snapshot import SnapshotCache
from rcaloop.knowledge.workflow import KnowledgeWorkflow
from rcaloop.shared.wire import encode
from tests.conftest import running
from tests.helpers.streams import entries
from tests.unit.knowledge.builders import evaluation, verdict


def revised(n: int, *, passed: bool = True):
    """The fixture's operator evaluation at revision ``n``; ``passed=False`` disagrees with the harness."""

    def edit(d: dict) -> None:
        d["revision"] = n
        d["evaluation"]["memo"] = f"revision {n}"
        if not passed:
            d["evaluation"]["hard_gate_judgement"] = {"agrees_with_harness": False, "failed_gates": ["gate2"]}

    return evaluation(edit)


async def test_the_store_keeps_the_latest_revision_whatever_the_order(store):
    first, second, third = revised(1), revised(2), revised(3)
    stored = [await store.put_review(r) for r in (first, third, second, first, third)]
    assert stored == [True, True, False, False, False]
    [kept] = await store.reviews_for(first.analysis_hash)
    assert kept.revision == 3 and kept.evaluation.memo == "revision 3"


async def test_a_later_revision_supersedes_the_package_and_an_earlier_one_changes_nothing(store, tmp_path):
    published = []

    async def publish(events):
        published.extend(events)

    workflow = KnowledgeWorkflow(store, SnapshotCache(tmp_path / "snapshot.json"), publish)
    await workflow.on_verdict(verdict())
    [candidate] = await workflow.on_review(revised(1))
    assert candidate.kind == "candidate"
    _, events = await workflow.decide(candidate.package_id, "approve", "mira")
    assert [p.package_id for p in (await workflow.snapshot()).packages] == [candidate.package_id]

    [superseded] = await workflow.on_review(revised(2, passed=False))  # the reviewer changed their mind
    assert superseded.kind == "rejected" and superseded.event_id == f"{candidate.package_id}:rejected:r2"
    assert superseded.detail["annotation_revision"] == 2
    package = await workflow.package(candidate.package_id)
    assert package.state == "rejected" and package.provenance.annotation_revision == 2
    assert [h.decision for h in package.history] == ["approve"]  # what was decided on revision 1 stays as history
    assert (await workflow.snapshot()).packages == [], "knowledge from a withdrawn review no longer serves"

    assert await workflow.on_review(revised(2, passed=False)) == [superseded]  # a redelivery emits the same event
    assert await workflow.on_review(revised(1)) == []  # a late, earlier revision changes nothing
    assert (await workflow.package(candidate.package_id)).provenance.annotation_revision == 2

    [again] = await workflow.on_review(revised(3))
    assert again.kind == "candidate" and again.event_id.endswith(":r3")
    assert (await workflow.package(candidate.package_id)).state == "candidate"  # to be decided afresh


async def test_knowledge_and_gate_services_apply_every_revision(redis, prefix, settings_factory, wait):
    knowledge_settings = settings_factory(KnowledgeSettings)
    gate_settings = settings_factory(GateSettings)
    await redis.xadd(Stream.EVALUATED.key(prefix), encode(verdict()))
    for record in (revised(1), revised(2, passed=False), revised(1)):  # a late redelivery of the first, too
        await redis.xadd(Stream.REVIEW_ANNOTATIONS.key(prefix), encode(record))

    async def settled() -> bool:
        infos = await redis.xinfo_groups(Stream.REVIEW_ANNOTATIONS.key(prefix))
        return len(infos) == 2 and all(g["pending"] == 0 and g["lag"] == 0 for g in infos)

    async with running([build_knowledge(knowledge_settings), build_gate(gate_settings)], knowledge_settings):
        await wait(settled)
        await asyncio.sleep(0.3)

    store = open_store(knowledge_settings)  # the store the service used (SQLite, or TypeDB when set)
    [kept] = await store.reviews_for(revised(1).analysis_hash)
    [package] = await store.list_packages()
    await store.close()
    assert kept.revision == 2 and package.state == "rejected" and package.provenance.annotation_revision == 2
    kinds = [(e["kind"], e["event_id"].rsplit(":", 1)[-1])
             for e in await entries(redis, Stream.KNOWLEDGE_EVENTS, prefix)
             if e["package_id"].startswith("kp-")]  # not the bundled catalog's announcement
    # the verdict may pair with revision 1 first (a candidate, then superseded) or only with 2
    assert kinds[-1] == ("rejected", "r2") and set(kinds) <= {("candidate", "candidate"), ("rejected", "r2")}, kinds

    gate = GateStore(gate_settings.store_path())
    try:
        [stored] = gate.reviews(*_forever())
    finally:
        gate.close()
    assert stored.revision == 2 and stored.evaluation.memo == "revision 2"


def _forever():
    from datetime import UTC, datetime  # noqa: PLC0415

    return datetime(2000, 1, 1, tzinfo=UTC), datetime(2100, 1, 1, tzinfo=UTC)
