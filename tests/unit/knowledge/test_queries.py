"""Rows → answers: what makes a hypothesis open, how a probe plan and the context answers are shaped."""

from __future__ import annotations

from rcaloop.knowledge import queries
from rcaloop.knowledge.queries import ActionRow, CatalogRow, HypothesisFact, SimilarRow
from rcaloop.knowledge.store import FAILURES_BEFORE_NOT_READY, IncidentFacts, WriteRecord


def _facts(hypotheses, catalog, collectors=(), planes=()):
    return IncidentFacts("inc-1", frozenset(collectors), frozenset(planes), tuple(hypotheses), tuple(catalog))


def test_a_family_is_resolved_when_any_of_its_hypotheses_is_refuted_or_confirmed_by_two_planes():
    plan = queries.probe_plan(_facts(
        [
            HypothesisFact("r1/H1", "dns", 1, 0, False),
            HypothesisFact("r2/H1", "dns", 1, 0, True),       # refuted in a later run
            HypothesisFact("r1/H2", "pool", 2, 2, False),     # two independent planes: confirmed
            HypothesisFact("r1/H3", "disk", 3, 1, False),     # one plane: still open
            HypothesisFact("r1/H4", None, None, 0, False),    # open, but no probe range can name it
        ],
        [CatalogRow("pt.dns", "blackbox", "network", "dns"), CatalogRow("pt.disk", "node-exporter", "metrics", "disk")],
    ))
    assert [o.family for o in plan.open_hypotheses] == ["disk", None]
    assert plan.resolved_families == ["dns", "pool"]
    assert [p.probe_template_id for p in plan.probes] == ["pt.disk"]  # a probe for closed hypotheses is not ranked


def test_a_template_seen_on_several_collectors_is_listed_once_at_its_best_place():
    plan = queries.probe_plan(_facts(
        [HypothesisFact("r/H1", "dns", 2, 0, False)],
        [CatalogRow("pt.dns", "loki", "log search", "dns"), CatalogRow("pt.dns", "blackbox", "network", "dns")],
        collectors={"loki"}, planes={"log search"},
    ))
    [probe] = plan.probes
    assert (probe.collector, probe.new_collector, probe.independent_plane, probe.plan_fit) == (
        "blackbox", True, True, 0.5,
    )


def test_probe_metrics_add_outcomes_and_contributions_per_template():
    metrics = queries.probe_metrics([("pt.a", "supports", 2), ("pt.a", "refutes", 1), ("pt.a", "inconclusive", 1)],
                                    [("pt.a", 2)])
    [m] = metrics
    assert (m.executions, m.supports, m.refutes, m.contributions) == (4, 2, 1, 2)


def test_context_answers_are_grouped_and_marked_as_history():
    actions = queries.verified_actions("dns", [
        ActionRow("flush cache", "inc-1", "mitigated", "kp-1"), ActionRow("flush cache", "inc-2", "resolved", "kp-2"),
        ActionRow("restart coredns", "inc-3", "resolved", "kp-3"),
    ])
    assert [(a.action, a.resolved, a.mitigated) for a in actions] == [("flush cache", 1, 1), ("restart coredns", 1, 0)]
    similar = queries.similar_incidents([
        SimilarRow("inc-2", "kp-2", "dns", "alert", "HighLatency"), SimilarRow("inc-1", "kp-1", "dns", "family", "dns"),
        SimilarRow("inc-2", "kp-2", "dns", "family", "dns"),
    ])
    assert [(s.incident_id, s.shared_families, s.shared_alert, s.history) for s in similar] == [
        ("inc-2", ["dns"], "HighLatency", True), ("inc-1", ["dns"], None, True),
    ]


def test_a_store_refusing_every_write_is_not_ready_until_a_write_succeeds():
    record = WriteRecord()
    for _ in range(FAILURES_BEFORE_NOT_READY - 1):
        record.failed(RuntimeError("refused"))
    assert record.problem() is None  # a few failures can be a blip
    record.failed(RuntimeError("refused again"))
    assert "refused again" in record.problem()
    record.ok()
    assert record.problem() is None
