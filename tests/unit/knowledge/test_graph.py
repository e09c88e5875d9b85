"""The graph a verdict, a review and a package describe: provenance from the harness, not the agent."""

from __future__ import annotations

from rcaloop.knowledge import core, graph
from tests.unit.knowledge.builders import evaluation, no_ledger, trace, verdict


def _evidence(run, evidence_id):
    return next(e for e in run.evidence if e.evidence_id == evidence_id)


def test_collector_plane_and_liveness_come_from_the_harness_not_the_ledger_labels():
    def relabel(d):
        trace(d)["observations"][2].update(collector="prometheus", plane="metrics", source_group="metrics")
        d["evidence"][1].update(live=False)

    run = graph.run_graph(verdict(relabel))
    loki = _evidence(run, "E02")
    assert (loki.collector, loki.plane, loki.live) == ("loki", "logs", False)


def test_an_observation_the_harness_never_saw_has_no_provenance_and_is_not_live():
    run = graph.run_graph(verdict(lambda d: trace(d)["observations"].append(
        {"evidence_id": "E99", "collector": "prometheus", "plane": "metrics", "time_relation": "during_incident"}
    )))
    ghost = _evidence(run, "E99")
    assert (ghost.collector, ghost.plane, ghost.live) == (None, None, False)


def test_evidence_is_before_the_incident_only_when_its_time_shows_it():
    later = lambda d: trace(d)["observations"][1].update(time_relation="before_incident")  # noqa: E731 - E01 10:03
    untimed = lambda d: trace(d)["observations"][0].update(observed_at=None)  # noqa: E731 - E03 says before
    run = graph.run_graph(verdict(later, untimed))
    assert _evidence(run, "E01").time_relation == "during_incident"
    assert _evidence(run, "E03").time_relation == "unknown"
    assert graph.time_relation("during_incident", None, None) == "during_incident"


def test_a_probe_execution_runs_on_the_collector_and_plane_of_the_evidence_it_yielded():
    def executions(d):
        trace(d)["probe_executions"] = [
            {"probe_template_id": "pt.a", "hypothesis_id": "H1", "collector": "splunk", "evidence_ids": ["E02"],
             "outcome": "supports"},
            {"probe_template_id": "pt.b", "hypothesis_id": "H9", "collector": "prometheus", "evidence_ids": [],
             "outcome": "inconclusive"},
        ]

    first, second = graph.run_graph(verdict(executions)).executions
    assert (first.collector, first.plane) == ("loki", "logs")  # the label "splunk" is not what the artifact says
    assert first.hypothesis_key.endswith("/H1") and first.ordinal == 1
    assert (second.collector, second.plane, second.hypothesis_key) == (None, None, None)  # nothing to show


def test_the_incident_is_the_job_else_the_result_else_the_analysis():
    assert graph.incident_id(verdict()) == "inc-4711"
    assert graph.incident_id(verdict(lambda d: d.update(job_id="job-9"))) == "job-9"
    bare = verdict(lambda d: d.update(result_id=None) or d["parsed"].update(result_id=None))
    assert graph.incident_id(bare) == bare.analysis_hash


def test_without_a_ledger_the_ranked_candidates_are_the_hypotheses():
    run = graph.run_graph(verdict(no_ledger))
    assert [(h.family, h.rank, h.is_root_cause) for h in run.hypotheses] == [
        ("db_connection_pool_exhaustion", 1, True), ("slow_query", 2, False),
    ]
    assert run.executions == ()


def test_a_package_links_only_to_what_its_run_holds_and_verified_actions_need_the_review_outcome():
    review, v = evaluation(), verdict()
    package = core.promote(review, v)
    run = graph.run_graph(v)
    linked = graph.package_graph(package, run, graph.review_node(review))
    assert linked.promoted_run == v.analysis_hash and len(linked.grounding) == 2
    assert [m.outcome for m in linked.remediations] == ["resolved"]
    unresolved = graph.review_node(evaluation(lambda d: d["evaluation"].update(resolution_outcome="not_resolved")))
    assert graph.package_graph(package, run, unresolved).remediations == ()
    alone = graph.package_graph(package, None, graph.review_node(review))
    assert (alone.promoted_run, alone.grounding, alone.remediations) == (None, (), ())


def test_several_verified_actions_become_remediations_in_a_stable_order():
    review, v = evaluation(), verdict()
    package = core.promote(review, v).model_copy(
        update={"verified_actions": ["scale the pool to 50", "roll back checkout-api to v2.13"]})
    linked = graph.package_graph(package, graph.run_graph(v), graph.review_node(review))
    assert [m.action for m in linked.remediations] == ["roll back checkout-api to v2.13", "scale the pool to 50"]
