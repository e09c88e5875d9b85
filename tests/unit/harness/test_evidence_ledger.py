"""Evidence ids, source groups and the claim ledger's links."""

from __future__ import annotations

from rcaloop.contracts import EvidenceArtifact, ParsedRCA, TraceItem
from rcaloop.contracts.parsed import Citation, Claim, Diagnosis
from rcaloop.judge import core
from rcaloop.judge.config import HarnessConfig
from rcaloop.judge.evidence import collect, source_group
from tests.unit.harness.cases import case

STEP3 = {
    "timeline": [{"source": "aap", "event": "task start"},
                 {"source": "splunk", "event": "login denied: secret_id expired"}]}


def _parsed(**kw) -> ParsedRCA:
    return ParsedRCA(analysis_hash="h", outcome="report", **kw)


def test_ids_follow_artifact_order_then_citations_and_groups_are_canonical():
    parsed = _parsed(
        artifacts=[
            EvidenceArtifact(source="step3", source_file="step3_correlation.json", value=STEP3),
            EvidenceArtifact(source="typedb", text="INC-1 same symptom"),
            EvidenceArtifact(source="grafana-prod", text="latency p99 3 s", live=True),
        ],
        citations=[Citation(kind="msg", label="log", target="msg:m-1", resolved=True),
                   Citation(kind="msg", label="human", target="msg:m-2", resolved=False),
                   Citation(kind="rca", label="earlier", target="rca:r-7", resolved=True)],
    )
    items = [ev.item for ev in collect(parsed)]
    assert [(e.id, e.source, e.source_group, e.live, e.json_path) for e in items] == [
        ("E01", "aap", "automation platform", True, "timeline[0]"),
        ("E02", "splunk", "log search", True, "timeline[1]"),
        ("E03", "typedb", "knowledge graph", False, None),
        ("E04", "grafana-prod", "metrics", True, None),
        ("E05", "chat", "chat", True, None),
        ("E06", "rca", "knowledge graph", False, None),
    ]


def test_groups_come_from_the_collector_and_unknown_collectors_share_one_group():
    assert source_group("splunk-prod") == "log search"
    assert source_group("code host") == "code host"
    assert source_group("weird-tool") == source_group("other-tool") == "unrecognized"
    assert source_group("typedb-logs") == "knowledge graph"  # history wins over any other word
    assert source_group("pypi") == "package registry"  # a release on a registry is a plane of its own
    assert source_group("ssh-readonly") == "host"
    assert source_group("blackbox probes") == "network"  # a plural names its plane like the singular
    assert source_group("news") == "unrecognized"  # "new" is no plane word


def test_agent_labels_never_make_provenance():
    parsed = _parsed(artifacts=[
        EvidenceArtifact(id="a", source="loki", source_group="logs", text="error 1"),
        EvidenceArtifact(id="b", source="loki", source_group="metrics", text="error 2"),
        EvidenceArtifact(id="c", source="typedb", source_group="logs", live=True, kind="log", text="inc-1877"),
        EvidenceArtifact(id="d", source="prometheus", kind="history", live=True, text="last month"),
    ])
    a, b, c, d = (ev.item for ev in collect(parsed))
    assert a.source_group == b.source_group == "log search" and "labelled source_group 'metrics'" in b.provenance_note
    assert not c.live and "knowledge store" in c.provenance_note
    assert not d.live


def test_items_observed_long_before_the_incident_are_history():
    from datetime import UTC, datetime

    parsed = _parsed(
        incident_started_at=datetime(2026, 3, 19, 14, 0, tzinfo=UTC),
        artifacts=[EvidenceArtifact(source="loki", text="x", observed_at=datetime(2026, 3, 1, tzinfo=UTC)),
                   EvidenceArtifact(source="loki", text="y", observed_at=datetime(2026, 3, 19, 13, 0, tzinfo=UTC))],
    )
    old, new = (ev.item for ev in collect(parsed))
    assert not old.live and "days before the incident" in old.provenance_note
    assert new.live


def test_knowledge_graph_items_are_never_live_or_target_verified():
    [ev] = collect(_parsed(artifacts=[EvidenceArtifact(source="knowledge", live=True, target_verified=True)]))
    assert not ev.live and not ev.item.target_verified


def test_traceability_needs_the_path_to_resolve_and_the_value_to_match():
    parsed = _parsed(
        artifacts=[EvidenceArtifact(source="step3", source_file=".analysis/1/step3_correlation.json", value=STEP3)],
        diagnosis=Diagnosis(evidence=[
            TraceItem(source_file="step3_correlation.json", json_path="timeline[1].event",
                      exact_value="login denied: secret_id expired", is_root_cause=True, message="ok"),
            TraceItem(source_file="step3_correlation.json", json_path="$.timeline[0].event", exact_quote="start",
                      message="quote"),
            TraceItem(source_file="step3_correlation.json", json_path="timeline[1].event", exact_value="other",
                      message="wrong"),
            TraceItem(source_file="step3_correlation.json", json_path="timeline[9].event", exact_value="x",
                      message="missing"),
            TraceItem(source_file="step1_job_context.json", json_path="a", exact_value="x", message="no file"),
        ]),
    )
    claims = {c.text: c for c in core.evaluate(parsed, _no_repairs()).claims}
    assert claims["ok"].supports == ["E02"] and claims["ok"].linked_by == ["traceability"]
    assert claims["quote"].supports == ["E01"]
    assert "differs" in claims["wrong"].note
    assert "does not resolve" in claims["missing"].note
    assert "no artifact from step1_job_context.json" in claims["no file"].note


def test_citation_agent_and_quote_links():
    parsed = _parsed(
        report_markdown="# t\n\n## Summary\nPool exhausted, see [log](msg:m-1) and `PoolTimeoutError: timed out`.\n",
        citations=[Citation(kind="msg", label="log", target="msg:m-1", resolved=True)],
        artifacts=[EvidenceArtifact(id="A7", source="splunk", text="ERROR PoolTimeoutError: timed out waiting"),
                   EvidenceArtifact(id="A8", source="prometheus", text="pool at 5/5")],
        diagnosis=Diagnosis(claims=[Claim(kind="root_cause", text="Pool exhausted", evidence_ids=["A8"])]),
    )
    # the root-cause claim's own evidence_ids tie it, and so does a long verbatim quote its statement makes;
    # a citation beside them in the statement adds nothing once the agent tied evidence itself
    verdict = core.evaluate(parsed)
    root = verdict.claims[0]
    assert root.kind == "root_cause" and root.supports == ["E01", "E02"] and root.linked_by == ["agent", "quote"]
    assert verdict.confidence_breakdown.independent_source_groups == ["log search", "metrics"]
    short = parsed.model_copy(deep=True)
    short.report_markdown = short.report_markdown.replace("`PoolTimeoutError: timed out`", "`PoolTimeout`")
    assert core.evaluate(short).claims[0].supports == ["E02"]  # a short quote is not specific enough to tie
    # with no ids of its own, the citations and quotes of the root-cause statement are read
    untied = parsed.model_copy(deep=True)
    untied.diagnosis.claims[0].evidence_ids = []
    root = core.evaluate(untied).claims[0]
    assert root.supports == ["E01", "E03"] and root.linked_by == ["citation", "quote"]


def test_evidence_elsewhere_in_the_report_does_not_ground_the_root_cause():
    parsed = _parsed(
        report_markdown="# t\n\n## Summary\nThe pool is exhausted.\n\n## Evidence\n- see [log](msg:m-1)\n",
        citations=[Citation(kind="msg", label="log", target="msg:m-1", resolved=True)],
    )
    root = core.evaluate(parsed, _no_repairs()).claims[0]
    assert root.supports == [] and root.status == "unlinked"


def test_refuting_evidence_is_recorded_as_refutes():
    verdict = core.evaluate(case("refuting-evidence-only").parsed)
    root = verdict.claims[0]
    assert root.refutes == ["E01"] and root.supports == [] and root.status == "refuted"


def test_confidence_breakdown_carries_the_capture_diagnostics_when_present():
    b = core.evaluate(case("good-capture-oom").parsed).confidence_breakdown
    assert b.ranker_deltas == {"memory_limit": 0.42, "memory_leak": -0.18, "node_pressure": -0.31}
    assert b.self_check_adjustment == 0 and b.signature_confirmed is True  # OOMKilled: a catalog signature of oom_kill
    assert b.independent_source_groups == ["cluster", "metrics"] and b.harness_score == 100
    old = core.evaluate(case("good-capture-old-no-diagnostics").parsed).confidence_breakdown
    assert old.ranker_deltas is None and old.diagnostics is None and old.harness_score == 100


def _no_repairs() -> HarnessConfig:
    return HarnessConfig(max_repair_attempts=0)


def test_a_matcher_signature_supports_a_skill_reports_cause_it_speaks_of():
    parsed = _parsed(
        source_kind="skill_text",
        report_markdown="# t\n\n## Summary\nThe JVM heap overflows: `OOM-JVM-HEAP-001 matched` on payments.\n",
        diagnosis=Diagnosis(root_cause={"summary": "The JVM heap overflows: `OOM-JVM-HEAP-001 matched` on payments."}),
        artifacts=[EvidenceArtifact(source="signature-matcher", kind="signature",
                                    text="signature OOM-JVM-HEAP-001 matched pod payments-7f9c (JVM heap)")],
    )
    root = core.evaluate(parsed, _no_repairs()).claims[0]
    assert root.supports == ["E01"] and root.linked_by == ["quote"]
