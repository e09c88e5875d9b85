"""The behavioural contract every ``KnowledgeStore`` meets (SQLite always, TypeDB with TYPEDB_ADDRESS)."""

from __future__ import annotations

import asyncio

import pytest

from rcaloop.knowledge import core, graph
from rcaloop.knowledge.snapshot import SnapshotCache, UnreachableStore, typedb_outage_runtime_activation_success
from rcaloop.knowledge.store import KnowledgeStore, StoreQueryError, revision
from rcaloop.knowledge.workflow import DecisionError, KnowledgeWorkflow, slim_verdict
from tests.unit.knowledge import incident_set
from tests.unit.knowledge.builders import evaluation, no_ledger, trace, verdict

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


async def test_a_batch_of_verdicts_is_stored_at_once_each_insert_if_absent(store):
    first, second = slim_verdict(verdict()), slim_verdict(verdict(analysis_hash=HASH_B))
    assert await store.put_verdicts([first]) == [True]
    assert await store.put_verdicts([first.model_copy(update={"score": 1}), second]) == [False, True]
    assert await store.get_verdict(first.analysis_hash) == first  # the first copy stored wins
    assert await store.get_verdict(HASH_B) == second


async def test_reviews_of_many_analyses_are_read_at_once(store):
    first, second = evaluation(annotation_id="ev-2"), evaluation(annotation_id="ev-1")
    other = evaluation(annotation_id="ev-3", analysis_hash=HASH_B)
    for review in (first, second, other):
        await store.put_review(review)
    found = await store.reviews_for_many([first.analysis_hash, HASH_B, "c" * 64, HASH_B])
    assert {h: [r.annotation_id for r in rs] for h, rs in found.items()} == {
        first.analysis_hash: ["ev-1", "ev-2"], HASH_B: ["ev-3"]}
    assert await store.reviews_for_many([]) == {}


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


# -- the graph: every relation written is read back from the graph, not from the stored JSON ------------------
async def test_a_run_reads_back_as_the_graph_its_verdict_describes(store):
    v = slim_verdict(verdict(lambda d: d["parsed"].update(alert_text="CheckoutHighLatency service=checkout-api")))
    assert await store.put_verdict(v) is True
    stored = await store.run_graph(v.analysis_hash)
    assert stored == graph.run_graph(v)
    assert stored.incident_id == "inc-4711" and stored.alert_name == "CheckoutHighLatency service=checkout-api"
    by_id = {e.evidence_id: e for e in stored.evidence}
    assert (by_id["E01"].collector, by_id["E01"].plane, by_id["E01"].live) == ("prometheus", "metrics", True)
    assert by_id["E03"].time_relation == "before_incident" and by_id["E04"].time_relation == "after_incident"
    [root] = [h for h in stored.hypotheses if h.is_root_cause]
    assert root.family == "db_connection_pool_exhaustion" and root.rank == 1
    assert root.supported_by == (by_id["E01"].key, by_id["E02"].key)
    claim = next(c for c in stored.claims if c.kind == "root_cause")
    assert claim.supported_by == tuple(by_id[i].key for i in ("E01", "E02", "E03"))
    refuting = next(x for x in stored.executions if x.outcome == "refutes")
    assert (refuting.ordinal, refuting.probe_template_id, refuting.collector, refuting.plane) == (
        3, "pt.db.slow_query_log", "loki", "logs",
    )
    assert refuting.hypothesis_key.endswith("/H2") and refuting.evidence_keys == (by_id["E02"].key,)
    assert await store.run_graph(HASH_B) is None


async def test_claims_read_back_their_refuting_evidence(store):
    v = slim_verdict(verdict(lambda d: d["claims"][1].update(refutes=["E04"], status="refuted")))
    await store.put_verdict(v)
    recommendation = next(c for c in (await store.run_graph(v.analysis_hash)).claims if c.claim_id == "C2")
    assert recommendation.refuted_by == (graph.key(v.analysis_hash, "E04"),) and recommendation.status == "refuted"


async def test_keys_differing_only_in_a_control_character_stay_two_keys(store):
    def twins(d):
        ledger = trace(d)
        ledger["probe_executions"] = [
            {"probe_template_id": "pt.twin\x01", "hypothesis_id": "H1", "evidence_ids": ["E01"], "outcome": "supports"},
            {"probe_template_id": "pt.twin\x02", "hypothesis_id": "H1\n", "evidence_ids": ["E01"],
             "outcome": "supports"},
        ]
        ledger["hypotheses"].append(dict(ledger["hypotheses"][1], id="H1\n", family='quote"and\\slash'))

    v = slim_verdict(verdict(twins))
    await store.put_verdict(v)
    stored = await store.run_graph(v.analysis_hash)
    assert stored == graph.run_graph(v)
    assert stored.templates == ("pt.twin\x01", "pt.twin\x02")
    assert {h.hypothesis_id for h in stored.hypotheses} == {"H1", "H1\n", "H2"}
    assert 'quote"and\\slash' in stored.families


async def test_a_package_reads_back_its_classification_grounding_actions_and_decisions(store, tmp_path):
    workflow = KnowledgeWorkflow(store, SnapshotCache(tmp_path / "snap.json"))
    review = evaluation()
    await workflow.on_review(review)
    [candidate] = await workflow.on_verdict(verdict())
    run = await store.run_graph(candidate.analysis_hash)
    package, _ = await workflow.decide(candidate.package_id, "shadow", "mira", "check the rollback first")
    package, _ = await workflow.decide(candidate.package_id, "activate", "lee")
    stored = await store.package_graph(package.package_id)
    assert stored == graph.package_graph(package, run, graph.review_node(review))
    assert stored.family == "db_connection_pool_exhaustion" and stored.promoted_run == run.analysis_hash
    assert stored.grounding == tuple(graph.key(run.analysis_hash, i) for i in ("E01", "E02"))
    assert stored.remediations == (graph.Remediation("roll back checkout-api to v2.13", "inc-4711", "resolved"),)
    assert [(d.ordinal, d.decision, d.reviewer, d.to_state) for d in stored.decisions] == [
        (1, "shadow", "mira", "shadowed"), (2, "activate", "lee", "activated"),
    ]
    assert stored.state == "activated" and stored.revision == package.revision and stored.revision >= 4
    assert await store.package_graph("kp-missing") is None


async def test_actions_become_verified_only_when_the_review_says_resolved_or_mitigated(store):
    await store.put_verdict(slim_verdict(verdict()))
    for outcome, annotation_id in (("not_resolved", "ev-nr"), ("unknown", "ev-unk"), ("mitigated", "ev-mit")):
        review = evaluation(lambda d, o=outcome: d["evaluation"].update(resolution_outcome=o),
                            annotation_id=annotation_id)
        await store.put_review(review)
        # a package claiming a verified action whatever the review said: the store still asks the review
        package = core.promote(review, verdict()).model_copy(update={"verified_actions": ["restart everything"]})
        await store.insert_package(package)
        stored = await store.package_graph(package.package_id)
        expected = (graph.Remediation("restart everything", "inc-4711", "mitigated"),) if outcome == "mitigated" else ()
        assert stored.remediations == expected


async def test_integer_attributes_round_trip(store):
    v = slim_verdict(verdict(lambda d: d["parsed"]["diagnosis"].update(
        candidates=[f"family_{n}" for n in range(11)] + ["slow_query", "db_connection_pool_exhaustion"]
    )))
    await store.put_verdict(v)
    ranks = {h.family: h.rank for h in (await store.run_graph(v.analysis_hash)).hypotheses}
    assert ranks == {"db_connection_pool_exhaustion": 13, "slow_query": 12}
    big = 2**40 + 7
    package = core.promote(evaluation(), v).model_copy(update={"revision": big})
    await store.insert_package(package)
    assert (await store.package_graph(package.package_id)).revision == big
    moved = core.decide(package, "approve", "mira").package
    assert await store.save_package(moved, big) is True
    stored = await store.package_graph(package.package_id)
    assert stored.revision == big + 1 and [d.ordinal for d in stored.decisions] == [1]


async def test_one_package_id_written_from_two_threads_at_once(store_factory):
    first, second = await store_factory(), await store_factory()
    await first.put_verdict(slim_verdict(verdict()))
    await first.put_review(evaluation())
    mine = core.promote(evaluation(), verdict(), created_by="review:ev-4711-1")
    theirs = mine.model_copy(update={"created_by": "verdict:x", "summary": "another writer's copy"})
    results = await asyncio.gather(first.insert_package(mine), second.insert_package(theirs))
    assert results[0] == results[1] and results[0] in (mine, theirs)
    assert [p.package_id for p in await first.list_packages()] == [mine.package_id]
    run = await first.run_graph(mine.analysis_hash)
    stored = await second.package_graph(mine.package_id)
    assert stored == graph.package_graph(results[0], run, graph.review_node(evaluation()))  # no edge twice


# -- queries on the worked incident set (answers worked out in tests/unit/knowledge/incident_set.py) -------------
@pytest.fixture
async def incidents(store, tmp_path):
    workflow = KnowledgeWorkflow(store, SnapshotCache(tmp_path / "snap.json"))
    return workflow, await incident_set.load(workflow)


async def test_probe_metrics_count_approved_trace_v3_cases_only(incidents):
    workflow, _ = incidents
    metrics = {m.probe_template_id: (m.executions, m.supports, m.refutes, m.contributions)
               for m in await workflow.probe_metrics()}
    assert metrics == incident_set.EXPECTED_METRICS


async def test_probes_for_the_open_incident_come_in_the_worked_out_order(incidents):
    workflow, _ = incidents
    plan = await workflow.probe_plan("inc-D")
    assert [p.probe_template_id for p in plan.probes] == incident_set.EXPECTED_PROBES_FOR_D
    assert [o.family for o in plan.open_hypotheses] == incident_set.EXPECTED_OPEN_FOR_D
    assert plan.resolved_families == incident_set.EXPECTED_RESOLVED_FOR_D
    assert (plan.observed_collectors, plan.observed_planes) == (["git", "loki"], ["code host", "log search"])
    first = plan.probes[0]
    assert (first.new_collector, first.independent_plane, first.discriminates, first.plan_fit) == (True, True, 2, 1.0)
    assert await workflow.probe_plan("inc-unknown") is None


async def test_verified_actions_for_a_family_come_from_activated_packages_only(incidents):
    workflow, packages = incidents
    [pool] = await workflow.verified_actions("DB Connection Pool Exhaustion")  # names are normalised
    assert (pool.action, pool.resolved, pool.mitigated, pool.incidents) == (
        "roll back checkout-api to v2.13", 1, 0, ["inc-A"],
    )
    [dns] = await workflow.verified_actions(incident_set.DNS)
    assert (dns.mitigated, dns.package_ids) == (1, [packages["inc-B"]])
    assert await workflow.verified_actions(incident_set.DISK) == []  # inc-C is only shadowed


async def test_similar_incidents_are_history_with_what_they_share(incidents):
    workflow, _ = incidents
    similar = await workflow.similar_incidents("inc-D")
    assert [(s.incident_id, s.shared_families, s.shared_alert) for s in similar] == incident_set.EXPECTED_SIMILAR_TO_D
    assert all(s.history is True for s in similar)
    assert [s.incident_id for s in await workflow.similar_incidents("inc-A")] == ["inc-B"]  # the alert only


async def test_an_activated_harness_claim_package_adds_no_probe_metrics(store, tmp_path):
    workflow = KnowledgeWorkflow(store, SnapshotCache(tmp_path / "snap.json"))
    await workflow.on_review(evaluation())
    [candidate] = await workflow.on_verdict(verdict(no_ledger))
    assert candidate.evidence_source == "harness_claim"
    await workflow.decide(candidate.package_id, "approve", "mira")
    assert (await store.package_graph(candidate.package_id)).state == "activated"
    assert await workflow.probe_metrics() == []  # only approved trace-v3 cases count


async def test_the_store_is_writable_and_leaves_nothing_behind(store):
    await store.check_writable()
    await store.check_writable()
    assert store.writes.problem() is None and await store.list_packages() == []


async def test_a_relation_to_a_node_the_graph_lacks_fails_the_write_and_stores_nothing(store):
    """TypeDB's ``match … insert`` that matches nothing inserts nothing and says nothing; SQLite leaves
    foreign keys unchecked unless told. Both stores must refuse, so neither reports it stored."""
    await store.put_verdict(slim_verdict(verdict()))
    run = await store.run_graph(verdict().analysis_hash)
    evidence = run.evidence[0].key
    with pytest.raises(StoreQueryError):
        await _write_yield(store, "no-such-execution", evidence)
    assert await store.run_graph(verdict().analysis_hash) == run


async def _write_yield(store, execution_key: str, evidence_key: str) -> None:
    """The ``yield`` edge of an execution to an evidence node, written as each store writes its edges."""
    if store.name == "sqlite":
        await store._write(lambda c: c.execute("INSERT INTO yields (execution_key, evidence_key) VALUES (?, ?)",
                                               (execution_key, evidence_key)))
        return
    from rcaloop.knowledge import typedb_store, typeql  # noqa: PLC0415

    await asyncio.to_thread(store._write,
                            lambda tx: typedb_store._run_all(tx, [typeql.link_yield(execution_key, evidence_key)]))
