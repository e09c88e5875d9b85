"""A small incident set for the knowledge graph's queries, built from the realistic fixture.

Three past incidents and one open one. Every answer the graph should give about them is
worked out in ``EXPECTED_*`` below, by hand, from these tables — not by running the code.

| incident | alert | diagnosed family | decision | outcome (action) |
|---|---|---|---|---|
| inc-A | CheckoutHighLatency service=checkout-api | db_connection_pool_exhaustion | approve | resolved (roll back checkout-api to v2.13) |
| inc-B | CheckoutHighLatency service=checkout-api | dns_resolution | approve | mitigated (flush the DNS cache on worker-2) |
| inc-C | DiskPressure node=worker-3 | disk_pressure | shadow only | resolved (cordon worker-3) |
| inc-D | CheckoutHighLatency service=checkout-api | (open: no review yet) | — | — |
"""  # noqa: E501 - a table's rows stay whole

from __future__ import annotations

import copy
import json
from dataclasses import dataclass

from rcaloop.contracts import AnnotationRecord, HarnessVerdict
from tests.unit.knowledge.builders import FIXTURES

POOL, SLOW, DNS, DISK, DRIFT = (
    "db_connection_pool_exhaustion", "slow_query", "dns_resolution", "disk_pressure", "config_drift",
)
CHECKOUT_ALERT = "CheckoutHighLatency service=checkout-api"
_BASE = json.loads((FIXTURES / "verdict_with_trace_v3.json").read_text())
_EVALUATION = json.loads((FIXTURES / "operator_evaluation.json").read_text())
# collector → the source group (telemetry plane) the harness derives for it
PLANE = {"prometheus": "metrics", "loki": "log search", "journald": "log search", "blackbox": "network",
         "kubectl": "cluster", "git": "code host"}


@dataclass(frozen=True)
class Incident:
    incident_id: str
    analysis_hash: str
    family: str
    candidates: tuple[str, ...]
    alert: str
    evidence: tuple[tuple[str, str, str], ...]
    """(evidence id, collector, observed at)"""
    hypotheses: tuple[tuple[str, str, bool, tuple[str, ...], tuple[str, ...]], ...]
    """(id, family, is root cause, supporting evidence ids, refuting source groups)"""
    executions: tuple[tuple[str, str, str, tuple[str, ...], str], ...]
    """(probe template, hypothesis, collector, evidence ids, outcome)"""
    decision: str | None = None
    outcome: str | None = None
    action: str | None = None

    def verdict(self) -> HarnessVerdict:
        data = copy.deepcopy(_BASE)
        data["analysis_hash"] = data["parsed"]["analysis_hash"] = self.analysis_hash
        data["result_id"] = data["parsed"]["result_id"] = self.incident_id
        data["parsed"]["alert_text"] = f"{self.alert}\nfiring since 10:02"
        data["evidence"] = [
            {"id": i, "source": c, "collector": c, "source_group": PLANE[c], "live": True, "title": f"{c} {i}"}
            for i, c, _ in self.evidence
        ]
        root = next(h for h in self.hypotheses if h[2])
        data["claims"] = [{"id": "C1", "kind": "root_cause", "text": f"{self.family} is the cause",
                           "supports": list(root[3]), "refutes": [], "status": "supported"}]
        diagnosis = data["parsed"]["diagnosis"]
        diagnosis.update(family=self.family, candidates=list(self.candidates))
        ledger = diagnosis["confidence_diagnostics"]["trace_v3"]
        ledger["observations"] = [
            {"evidence_id": i, "source_group": PLANE[c], "collector": c, "plane": PLANE[c],
             "time_relation": "during_incident", "observed_at": at}
            for i, c, at in self.evidence
        ]
        collector = {i: c for i, c, _ in self.evidence}
        ledger["hypotheses"] = [
            {"id": h, "family": f, "is_root_cause": root_cause,
             "supporting_source_groups": sorted({PLANE[collector[e]] for e in ids}),
             "refuting_source_groups": list(refuting), "supporting_evidence_ids": list(ids)}
            for h, f, root_cause, ids, refuting in self.hypotheses
        ]
        ledger["probe_executions"] = [
            {"probe_template_id": t, "hypothesis_id": h, "collector": c, "evidence_ids": list(ids), "outcome": o}
            for t, h, c, ids, o in self.executions
        ]
        return HarnessVerdict.model_validate(data)

    def evaluation(self) -> AnnotationRecord:
        data = copy.deepcopy(_EVALUATION)
        data["annotation_id"] = data["evaluation"]["evaluation_id"] = f"ev-{self.incident_id}"
        data["analysis_hash"] = data["evaluation"]["analysis_hash"] = self.analysis_hash
        data["evaluation"].update(incident_id=self.incident_id, expected_family=self.family,
                                  resolution_outcome=self.outcome, action_that_worked=self.action,
                                  verified_actions=[self.action])
        return AnnotationRecord.model_validate(data)


A = Incident(
    "inc-A", "a" * 64, POOL, (POOL, SLOW), CHECKOUT_ALERT,
    evidence=(("E01", "prometheus", "2026-11-29T10:03:00Z"), ("E02", "loki", "2026-11-29T10:04:00Z")),
    hypotheses=(("H1", POOL, True, ("E01", "E02"), ()), ("H2", SLOW, False, (), ("log search",))),
    executions=(
        ("pt.db.pool_usage", "H1", "prometheus", ("E01",), "supports"),
        ("pt.logs.error_signature", "H1", "loki", ("E02",), "supports"),
        ("pt.db.slow_query_log", "H2", "loki", ("E02",), "refutes"),
    ),
    decision="approve", outcome="resolved", action="roll back checkout-api to v2.13",
)
B = Incident(
    "inc-B", "b" * 64, DNS, (DNS, POOL, SLOW), CHECKOUT_ALERT,
    evidence=(("E01", "blackbox", "2026-11-30T08:01:00Z"), ("E02", "prometheus", "2026-11-30T08:02:00Z"),
              ("E03", "journald", "2026-11-30T08:03:00Z")),
    hypotheses=(("H1", DNS, True, ("E01", "E03"), ()), ("H2", POOL, False, (), ("metrics",)),
                ("H3", SLOW, False, (), ("metrics",))),
    executions=(
        ("pt.dns.lookup", "H1", "blackbox", ("E01",), "supports"),
        ("pt.logs.journal", "H1", "journald", ("E03",), "supports"),
        ("pt.db.pool_usage", "H2", "prometheus", ("E02",), "refutes"),
        ("pt.db.query_latency", "H3", "prometheus", ("E02",), "refutes"),
        ("pt.db.query_latency", "H2", "prometheus", ("E02",), "refutes"),
    ),
    decision="approve", outcome="mitigated", action="flush the DNS cache on worker-2",
)
C = Incident(
    "inc-C", "c" * 64, DISK, (DISK, SLOW), "DiskPressure node=worker-3",
    evidence=(("E01", "kubectl", "2026-11-28T07:00:00Z"), ("E02", "prometheus", "2026-11-28T07:01:00Z")),
    hypotheses=(("H1", DISK, True, ("E01", "E02"), ()), ("H2", SLOW, False, (), ("cluster",))),
    executions=(
        ("pt.k8s.events", "H1", "kubectl", ("E01",), "supports"),
        ("pt.k8s.events", "H2", "kubectl", ("E01",), "refutes"),
    ),
    decision="shadow", outcome="resolved", action="cordon worker-3",
)
D = Incident(
    "inc-D", "d" * 64, SLOW, (SLOW, POOL, DNS, DRIFT), CHECKOUT_ALERT,
    evidence=(("E01", "loki", "2026-12-01T09:01:00Z"), ("E02", "git", "2026-12-01T09:02:00Z")),
    hypotheses=(("H1", SLOW, True, ("E01",), ()), ("H2", POOL, False, (), ()), ("H3", DNS, False, (), ()),
                ("H4", DRIFT, False, (), ("code host",))),
    executions=(("pt.cfg.diff", "H4", "git", ("E02",), "refutes"),),
)
PAST = (A, B, C)

# -- the answers, worked out by hand --------------------------------------------------------------------------
EXPECTED_METRICS = {
    # template: (executions, supports, refutes, contributions) over the approved cases A and B only
    "pt.db.pool_usage": (2, 1, 1, 1),          # A supports (E01 grounds A's cause), B refutes
    "pt.logs.error_signature": (1, 1, 0, 1),   # A, E02 grounds A's cause
    "pt.db.slow_query_log": (1, 0, 1, 0),      # A refutes slow_query
    "pt.dns.lookup": (1, 1, 0, 1),             # B, E01 grounds B's cause
    "pt.logs.journal": (1, 1, 0, 1),           # B, E03 grounds B's cause
    "pt.db.query_latency": (2, 0, 2, 0),       # B refutes slow_query and pool exhaustion
}  # pt.k8s.events (C is only shadowed) and pt.cfg.diff (D is open) count nowhere

# inc-D observed loki (log search) and git (code host); config_drift is refuted by pt.cfg.diff's live
# evidence; slow_query (rank 1), pool exhaustion (2) and dns (3) stay open. The approved catalog:
#   probe                    collector/plane          covers            new collector  new plane  discr.  plan fit
#   pt.db.query_latency      prometheus/metrics       slow_query, pool  yes            yes        2       1/1
#   pt.db.pool_usage         prometheus/metrics       pool              yes            yes        1       1/2
#   pt.dns.lookup            blackbox/network         dns               yes            yes        1       1/3
#   pt.logs.journal          journald/log search      dns               yes            no         1       1/3
#   pt.db.slow_query_log     loki/log search          slow_query        no             no         1       1/1
#   pt.logs.error_signature  loki/log search          pool              no             no         1       1/2
EXPECTED_PROBES_FOR_D = [
    "pt.db.query_latency", "pt.db.pool_usage", "pt.dns.lookup", "pt.logs.journal",
    "pt.db.slow_query_log", "pt.logs.error_signature",
]
EXPECTED_OPEN_FOR_D = [SLOW, POOL, DNS]  # by rank
EXPECTED_RESOLVED_FOR_D = [DRIFT]
# inc-A and inc-B share the alert with inc-D and each diagnosed a family inc-D still considers; inc-C is
# not activated. Both share two things, so they are listed by id.
EXPECTED_SIMILAR_TO_D = [("inc-A", [POOL], CHECKOUT_ALERT), ("inc-B", [DNS], CHECKOUT_ALERT)]


async def load(workflow) -> dict[str, str]:
    """Store the set as the service would (review, verdict, reviewer decision); returns incident → package id."""
    packages = {}
    for incident in PAST:
        await workflow.on_review(incident.evaluation())
        [event] = await workflow.on_verdict(incident.verdict())
        assert event.kind == "candidate", event.issues
        await workflow.decide(event.package_id, incident.decision, "mira")
        packages[incident.incident_id] = event.package_id
    assert await workflow.on_verdict(D.verdict()) == []
    return packages
