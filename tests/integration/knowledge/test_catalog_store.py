"""The family catalog in the knowledge graph, on every store (SQLite always, TypeDB with TYPEDB_ADDRESS):
proposed, decided and activated like any knowledge, read back from the graph, announced with its events."""

from __future__ import annotations

import pytest

from rcaloop.contracts.catalog import FamilyCatalog
from rcaloop.knowledge import core, graph
from rcaloop.knowledge.snapshot import SnapshotCache, UnreachableStore, runtime_snapshot
from rcaloop.knowledge.workflow import BUNDLED_PROPOSER, DecisionError, KnowledgeWorkflow
from rcaloop.shared.catalog import bundled_catalog
from rcaloop.shared.signatures import match

BUNDLED = bundled_catalog()
NEXT = f"{BUNDLED.version}+sidecar"
"""A proposed version after the bundled one (whatever the bundled one is called)."""
SIDECAR_LINE = "sidecar istio-proxy: upstream connect error or disconnect/reset before headers. reset reason: overflow"


def _with_signature(version: str) -> FamilyCatalog:
    """The bundled catalog with one more supporting signature, as a reviewer would propose it."""
    data = BUNDLED.model_dump(mode="json", exclude_none=True)
    data["version"] = version
    family = next(f for f in data["families"] if f["name"] == "upstream_5xx")
    family["supports"].append({"kind": "log_pattern", "pattern": "reset reason: overflow",
                               "note": "Envoy circuit breaker overflow"})
    return FamilyCatalog.model_validate(data)


@pytest.fixture
def workflow(store, tmp_path):
    published = []

    async def publish(events):
        published.extend(events)

    flow = KnowledgeWorkflow(store, SnapshotCache(tmp_path / "snapshot.json"), publish)
    flow.published = published  # type: ignore[attr-defined]
    return flow


async def test_a_catalog_round_trips_and_its_graph_holds_every_listing(store):
    package = core.propose_catalog(BUNDLED, proposed_by="mira", against=None)
    stored = await store.insert_catalog(package)
    assert stored == package and await store.get_catalog(package.package_id) == package
    again = await store.insert_catalog(package.model_copy(update={"proposed_by": "someone else"}))
    assert again.proposed_by == "mira"  # insert-if-absent by version
    assert [p.package_id for p in await store.list_catalogs("candidate")] == [package.package_id]
    assert await store.list_catalogs("activated") == [] and await store.active_catalog() is None
    held = await store.catalog_graph(package.package_id)
    assert held == graph.catalog_graph(package)
    assert len(held.listings) == sum(len(f.supports) + len(f.refutes) for f in BUNDLED.families)
    assert ("oom_kill", "k8s.pod_status") in held.confirmations
    assert await store.catalog_graph("kc-nope") is None


async def test_catalog_saves_are_compare_and_set_and_the_last_activated_is_active(store):
    first = await store.insert_catalog(core.propose_catalog(BUNDLED, proposed_by="mira", against=None))
    second = await store.insert_catalog(core.propose_catalog(_with_signature(NEXT), proposed_by="mira",
                                                             against=BUNDLED))
    for package in (first, second):
        result = core.decide(package, "approve", "mira")
        assert await store.save_catalog(result.package, package.revision) is True
        assert await store.save_catalog(result.package, package.revision) is False  # the revision moved on
    assert (await store.active_catalog()).package_id == second.package_id
    held = await store.catalog_graph(second.package_id)
    assert held.state == "activated" and [d.decision for d in held.decisions] == ["approve"]
    assert held.activated_at is not None


async def test_a_new_installation_activates_the_bundled_catalog_once(workflow):
    events = await workflow.offer_bundled_catalog()
    assert [e.kind for e in events] == ["candidate", "approved", "activated"]
    assert events[-1].catalog == BUNDLED and events[-1].detail["catalog_version"] == BUNDLED.version
    assert events[-1].analysis_hash is None and events[-1].provenance is None
    assert await workflow.offer_bundled_catalog() == []
    package = await workflow.store.get_catalog(core.catalog_package_id(BUNDLED.version))
    assert package.state == "activated" and package.history[0].reviewer == BUNDLED_PROPOSER
    assert package.outbox == []  # published, then dropped from the outbox
    snapshot = await workflow.snapshot()
    assert snapshot.catalog == BUNDLED and snapshot.catalog_package_id == package.package_id


async def test_a_new_signature_arrives_by_proposal_and_approval_and_leaves_by_rejection(workflow):
    await workflow.offer_bundled_catalog()
    proposed = _with_signature(NEXT)
    assert not any(m.family == "upstream_5xx" and "overflow" in m.signature for m in match(BUNDLED, SIDECAR_LINE))
    package, events = await workflow.propose_catalog(proposed, "mira")
    assert [e.kind for e in events] == ["candidate"] and events[0].catalog is None
    assert package.changes.added_signatures == ["upstream_5xx/supports/log_pattern:reset reason: overflow"]
    assert package.changes.against == BUNDLED.version and package.changes.removed_signatures == []
    assert (await workflow.snapshot()).catalog == BUNDLED  # a candidate serves nothing

    shadowed, _ = await workflow.decide_catalog(package.package_id, "shadow", "mira")
    assert shadowed.state == "shadowed" and (await workflow.snapshot()).catalog == BUNDLED
    _, activated = await workflow.decide_catalog(package.package_id, "activate", "mira")
    assert [e.kind for e in activated] == ["activated"] and activated[0].catalog == proposed
    assert activated[0].detail["typedb_outage_runtime_activation_success"] is True
    assert (await workflow.snapshot()).catalog == proposed
    assert any(m.family == "upstream_5xx" and m.stance == "supports" for m in match(proposed, SIDECAR_LINE))

    _, rejected = await workflow.decide_catalog(package.package_id, "reject", "mira", "too broad")
    assert [e.kind for e in rejected] == ["rejected"] and rejected[0].catalog == BUNDLED  # the one active again
    assert (await workflow.snapshot()).catalog == BUNDLED


async def test_a_version_is_one_content(workflow):
    await workflow.offer_bundled_catalog()
    proposed = _with_signature(NEXT)
    await workflow.propose_catalog(proposed, "mira")
    assert await workflow.propose_catalog(proposed, "mira") == (await workflow.store.get_catalog(f"kc-{NEXT}"), [])
    other = _with_signature(NEXT).model_copy(update={"families": proposed.families[:-1]})
    with pytest.raises(DecisionError) as refused:
        await workflow.propose_catalog(FamilyCatalog.model_validate(other.model_dump()), "mira")
    assert refused.value.issue.code == "KC409" and refused.value.status == 409
    with pytest.raises(DecisionError) as unknown:
        await workflow.decide_catalog("kc-nope", "approve", "mira")
    assert unknown.value.issue.code == "KD404"


async def test_a_release_with_a_newer_bundled_catalog_offers_it_to_reviewers(workflow, monkeypatch):
    await workflow.offer_bundled_catalog()
    newer = _with_signature("2027.01.1")
    monkeypatch.setattr("rcaloop.knowledge.workflow.bundled_catalog", lambda: newer)
    events = await workflow.offer_bundled_catalog()
    assert [e.kind for e in events] == ["candidate"]  # not activated: a catalog is active, reviewers decide
    assert (await workflow.snapshot()).catalog == BUNDLED


async def test_the_snapshot_serves_the_active_catalog_while_the_store_is_down(workflow):
    await workflow.offer_bundled_catalog()
    package, _ = await workflow.propose_catalog(_with_signature(NEXT), "mira")
    await workflow.decide_catalog(package.package_id, "approve", "mira")
    served = await runtime_snapshot(UnreachableStore(), workflow.cache)  # type: ignore[arg-type]
    assert served.stale and served.catalog.version == NEXT and served.catalog_package_id == package.package_id
