"""Red team, second round: reviews and ledgers written to get knowledge promoted.

Each test starts from the realistic fixtures (a passed evaluation of a verdict with a complete
trace-v3 ledger, which promotes), changes one thing a careless reviewer or a gaming agent
would, and asserts what promotion should then do. They fail until promotion refuses.
"""

from __future__ import annotations

from rcaloop.knowledge import core
from rcaloop.knowledge.snapshot import SnapshotCache
from rcaloop.knowledge.sqlite_store import SqliteKnowledgeStore
from rcaloop.knowledge.workflow import DecisionError, KnowledgeWorkflow
from tests.unit.knowledge.builders import evaluation, no_ledger, root_claim, trace, verdict


def _codes(package) -> list[str]:
    return [i.code for i in package.issues]


def test_the_fixtures_promote():
    """Control: the unchanged pair promotes on the ledger path."""
    package = core.promote(evaluation(), verdict())
    assert package.valid and package.state == "candidate" and package.evidence_source == "ledger"


def _unconfirmed(data: dict) -> None:
    """The operator names no family and does not know whether anything worked."""
    ev = data["evaluation"]
    ev.update(expected_family=None, resolution_outcome="unknown", action_that_worked=None, verified_actions=[])


def test_redteam_an_evaluation_that_confirms_no_family_is_not_a_passed_review():
    """Bypass: for an operator evaluation, "the reviewer did not reject the diagnosis" only means
    the outcome is not ``not_resolved``. With no ``expected_family`` the snapshot family falls
    back to the agent's own, so KN304/KN402 compare the agent's family with itself. An
    evaluation that names no family and reports the outcome ``unknown`` — nobody confirmed
    anything — promotes the agent's family as knowledge, on both paths. An annotation must
    confirm category and summary; an evaluation must at least confirm the family (name it) or
    a resolution."""
    for pair in ((evaluation(_unconfirmed), verdict()), (evaluation(_unconfirmed), verdict(no_ledger))):
        package = core.promote(*pair)
        assert not package.valid, f"promoted {package.family!r} that no reviewer confirmed ({package.evidence_source})"
        assert "KN101" in _codes(package)


def test_redteam_the_ledger_path_heeds_the_runs_refuting_evidence():
    """Bypass: the harness found live evidence of the run refuting the root cause (E04 under
    the root claim's ``refutes``), but the ledger says no source group refutes it. KN303 reads
    only the ledger's own ``refuting_source_groups``, so the package is a candidate; the
    ``harness_claim`` path refuses the same verdict (KN404). Refutation, like support, comes
    from the run's evidence, not the ledger's labels."""

    def refuted(data: dict) -> None:
        root_claim(data)["refutes"] = ["E04"]

    assert "KN404" in _codes(core.promote(evaluation(), verdict(refuted, no_ledger))), "precondition: the fallback refuses"
    package = core.promote(evaluation(), verdict(refuted))
    assert not package.valid, "the run's evidence refutes the root cause; the ledger hides it"


def test_redteam_a_before_incident_label_needs_times_that_show_it():
    """Bypass: KN203 checks "later evidence is never labelled as observed before the cause" only
    when the ledger itself gives both ``incident_started_at`` and the observation's
    ``observed_at``. A ledger that drops both can label everything ``before_incident`` — the
    graph then stores those labels as ``unknown`` — while the run's own artifacts show E04 was
    observed 38 minutes after the incident started. A before_incident label no time shows is
    not a time relation (KN202), and the run's times are the ones to check it against (KN203)."""

    def untimed(data: dict) -> None:
        t = trace(data)
        t.pop("incident_started_at")
        for o in t["observations"]:
            o.pop("observed_at")
            o["time_relation"] = "before_incident"
        data["parsed"]["incident_started_at"] = "2026-11-29T10:02:00Z"
        data["parsed"]["artifacts"] = [
            {"id": "E04", "source": "loki", "kind": "log", "text": "pool exhausted", "observed_at": "2026-11-29T10:40:00Z"},
        ]
        for ev in data["evidence"]:
            if ev["id"] == "E04":
                ev["agent_id"] = "E04"

    package = core.promote(evaluation(), verdict(untimed))
    assert not package.valid, "every observation is labelled before the incident and nothing shows it"
    assert {"KN202", "KN203"} & set(_codes(package))


def test_redteam_the_alert_is_not_a_second_source_group():
    """Bypass: KN301 counts the groups of whatever evidence the ledger cites for the root cause,
    as the harness derived them. The harness itself never counts the alert as an independent
    group (it is the failure being explained), but KN301 does: one log line plus the firing
    alert (alertmanager, kind ``alert``) are "two independent source groups" for promotion."""

    def alert_as_group(data: dict) -> None:
        data["evidence"].append({"id": "E05", "source": "alertmanager", "source_group": "metrics", "live": True,
                                 "kind": "alert", "title": "HighErrorRate", "collector": "alertmanager",
                                 "text": "FIRING: HighErrorRate service=checkout-api"})
        t = trace(data)
        t["observations"] = [o for o in t["observations"] if o["evidence_id"] != "E01"] + [
            {"evidence_id": "E05", "source_group": "alerts", "collector": "alertmanager", "plane": "metrics",
             "time_relation": "during_incident", "observed_at": "2026-11-29T10:03:00Z"}]
        t["hypotheses"][0]["supporting_evidence_ids"] = ["E02", "E05"]
        t["probe_executions"][0]["evidence_ids"] = ["E05"]
        root_claim(data)["supports"] = ["E02", "E05"]

    package = core.promote(evaluation(), verdict(alert_as_group))
    assert not package.valid and "KN301" in _codes(package), "a log line and the alert are one group of evidence"


async def test_redteam_one_friendly_reviewer_does_not_outvote_a_rejection(tmp_path):
    """Bypass: with overlap, every review of an analysis builds its own package. Mira judges the
    family wrong (she names dns_resolution, her package is refused); Jo confirms the agent's
    family. Jo's package is a candidate and a knowledge reviewer activates it: the agent then
    reads, as verified knowledge, a diagnosis one of its two reviewers rejected. A review that
    a current review of the same analysis contradicts is not a passed review (or at least not
    activatable) until the reviewers agree."""
    def rejects(data: dict) -> None:
        data["evaluation"]["expected_family"] = "dns_resolution"

    def by_jo(data: dict) -> None:
        data["annotator"] = data["evaluation"]["annotator"] = "jo"

    store = SqliteKnowledgeStore(tmp_path / "k.sqlite3")
    workflow = KnowledgeWorkflow(store, SnapshotCache(tmp_path / "snapshot.json"))
    try:
        await workflow.on_verdict(verdict())
        [refused] = await workflow.on_review(evaluation(rejects, annotation_id="ev-mira"))
        assert refused.kind == "rejected", "precondition: Mira's review names another family"
        [candidate] = await workflow.on_review(evaluation(by_jo, annotation_id="ev-jo"))
        activated = True
        if candidate.kind == "candidate":
            try:
                await workflow.decide(candidate.package_id, "approve", "lead")
            except DecisionError:
                activated = False
        else:
            activated = False
        assert not activated, "a diagnosis one reviewer of the same analysis rejected became active knowledge"
    finally:
        await store.close()
