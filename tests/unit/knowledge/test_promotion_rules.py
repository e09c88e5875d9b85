"""Every promotion rule with a passing and a failing example; path choice and precedence."""

from __future__ import annotations

from pathlib import Path

import pytest

from rcaloop.knowledge import core
from rcaloop.knowledge.case import case_for
from rcaloop.knowledge.rules import RULES
from tests.unit.knowledge.builders import annotation, evaluation, no_ledger, root_claim, trace, verdict


def _set(path: str, value) -> callable:
    def edit(data: dict) -> None:
        *parents, last = path.split(".")
        node = data
        for p in parents:
            node = node[int(p)] if p.isdigit() else node[p]
        node[last] = value

    return edit


def _trace(fn):
    return lambda data: fn(trace(data))


def _claim(fn):
    return lambda data: fn(root_claim(data))


def _later_shown_before(t):
    t["observations"][3]["time_relation"] = "before_incident"  # observed 10:40, incident 10:02


def _two_roots(t):
    t["hypotheses"][1]["is_root_cause"] = True


def _one_group(t):
    t["hypotheses"][0]["supporting_source_groups"] = ["logs"]


def _no_linked_probe(t):
    for p in t["probe_executions"]:
        if p["hypothesis_id"] == "H1":
            p["outcome"] = "inconclusive"


# rule code → (which review/verdict to use, edits that break exactly this rule)
LEDGER = "ledger"
FALLBACK = "harness_claim"
BREAKING: dict[str, tuple[str, list, list]] = {
    "KN101": (LEDGER, [], [_set("evaluation.resolution_outcome", "not_resolved")]),
    "KN102": (LEDGER, [_set("verdict", "degraded")], []),
    "KN103": (LEDGER, [], [_set("evaluation.analysis_hash", "f" * 64)]),
    "KN104": (LEDGER, [], [_set("evaluation.hard_gate_judgement.failed_gates", ["gate_2_traceable_root_cause"])]),
    "KN105": (LEDGER, [], [_set("evaluation.scores.tool_efficiency", 1)]),
    "KN106": (LEDGER, [], [_set("evaluation.superseded", True)]),
    "KN201": (LEDGER, [_set("parsed.diagnosis.confidence_diagnostics.trace_v3", "not an object")], []),
    "KN202": (LEDGER, [_trace(lambda t: t["observations"][0].update(time_relation="unknown"))], []),
    "KN203": (LEDGER, [_trace(_later_shown_before)], []),
    "KN204": (LEDGER, [_trace(_two_roots)], []),
    "KN205": (LEDGER, [_trace(lambda t: t["probe_executions"][0].update(evidence_ids=["E09"]))], []),
    "KN206": (LEDGER, [lambda d: d["evidence"].pop()], []),  # E04 is observed in the ledger, not in the run
    "KN301": (LEDGER, [_trace(_one_group)], []),
    "KN302": (LEDGER, [_trace(_no_linked_probe)], []),
    "KN303": (LEDGER, [_trace(lambda t: t["hypotheses"][0].update(refuting_source_groups=["events"]))], []),
    "KN304": (LEDGER, [_trace(lambda t: t["hypotheses"][0].update(family="slow_query"))], []),
    "KN401": (FALLBACK, [_claim(lambda c: c.update(status="unlinked"))], []),
    "KN402": (FALLBACK, [_set("parsed.diagnosis.family", "slow_query")], []),
    "KN403": (FALLBACK, [_claim(lambda c: c.update(supports=["E01", "log-17"]))], []),
    "KN404": (FALLBACK, [_claim(lambda c: c.update(refutes=["E04"]))], []),
    "KN405": (FALLBACK, [_claim(lambda c: c.update(supports=[]))], []),
    "KN406": (FALLBACK, [lambda d: d["claims"][1].update(refutes=["E99"])], []),
    "KN407": (FALLBACK, [lambda d: d["parsed"]["artifacts"].pop(0)], []),  # E01's artifact is not in the run
    "KN408": (FALLBACK, [_set("confidence_breakdown", {"refuted_by": ["E02"]})], []),
    "KN409": (FALLBACK, [lambda d: d["evidence"][0].update(live=False)], []),
    "KN410": (FALLBACK, [lambda d: d["evidence"][1].update(observed_at="2027-01-01T00:00:00Z")], []),
    "KN411": (FALLBACK, [lambda d: d["evidence"][0].update(text=d["evidence"][1]["text"]),
                         lambda d: d["evidence"][2].update(text=d["evidence"][1]["text"])], []),
}


def test_every_rule_has_a_failing_example():
    assert set(BREAKING) == {r.code for r in RULES}
    assert len({r.code for r in RULES}) == len(RULES)


@pytest.mark.parametrize("code", sorted(BREAKING))
def test_rule_passes_on_the_good_case_and_fails_on_its_breaking_edit(code):
    path, verdict_edits, review_edits = BREAKING[code]
    base_edits = [no_ledger] if path == FALLBACK else []
    rule = next(r for r in RULES if r.code == code)

    good = case_for(evaluation(), verdict(*base_edits))
    assert rule.check(good) is None

    bad = case_for(evaluation(*review_edits), verdict(*base_edits, *verdict_edits))
    issue = rule.issue(bad)
    assert issue is not None and issue.code == code and rule.name in issue.message


def test_complete_ledger_promotes_on_the_ledger_path_with_its_probes():
    package = core.promote(evaluation(), verdict())
    assert package.valid and package.state == "candidate" and package.issues == []
    assert package.evidence_source == "ledger" and package.provenance.promotion_path == "ledger"
    assert package.family == "db_connection_pool_exhaustion"
    assert package.supporting_evidence_ids == ["E01", "E02"]
    assert package.probe_template_ids == ["pt.db.pool_usage", "pt.logs.error_signature", "pt.db.slow_query_log"]
    assert package.verified_actions == ["roll back checkout-api to v2.13"]


def test_later_evidence_is_kept_with_its_time_relation():
    package = core.promote(evaluation(), verdict())
    later = next(o for o in package.observations if o.evidence_id == "E04")
    assert later.time_relation == "after_incident"


def test_without_a_ledger_the_auditable_harness_claim_path_promotes():
    package = core.promote(evaluation(), verdict(no_ledger))
    assert package.valid
    assert package.evidence_source == "harness_claim"
    assert package.provenance.promotion_path == "harness_claim"
    assert package.probe_template_ids == [] and package.probe_executions == []
    assert package.supporting_evidence_ids == ["E01", "E02", "E03"]
    event = core.promotion_event(package)
    assert event.kind == "candidate" and event.evidence_source == "harness_claim"
    assert event.provenance.promotion_path == "harness_claim" and event.probe_template_ids == []


@pytest.mark.parametrize(
    ("edit", "code"),
    [
        (_claim(lambda c: c.update(status="refuted")), "KN401"),
        (_set("parsed.diagnosis.family", "network"), "KN402"),
        (_claim(lambda c: c.update(supports=["ev-local-1"])), "KN403"),
        (lambda d: d["evidence"][0].update(live=False), "KN409"),
        (_claim(lambda c: c.update(refutes=["E04"])), "KN404"),
        (lambda d: d["claims"][1].update(refutes=["E03"]), "KN404"),
        (_claim(lambda c: c.update(supports=[])), "KN405"),
    ],
)
def test_harness_claim_fallback_conditions_one_by_one(edit, code):
    package = core.promote(evaluation(), verdict(no_ledger, edit))
    assert not package.valid and package.state == "rejected"
    assert code in [i.code for i in package.issues]
    event = core.promotion_event(package)
    assert event.kind == "rejected" and code in [i.code for i in event.issues]


def test_ledger_takes_precedence_and_keeps_its_gates_without_fallback():
    # the ledger is complete but only one source group supports the root cause; the
    # harness claim would pass on its own, yet the ledger path decides: refused.
    package = core.promote(evaluation(), verdict(_trace(_one_group)))
    assert package.evidence_source == "ledger"
    assert not package.valid and [i.code for i in package.issues] == ["KN301"]


def test_ledger_path_preferred_when_both_paths_would_pass():
    package = core.promote(evaluation(), verdict())
    fallback = core.promote(evaluation(), verdict(no_ledger))
    assert package.evidence_source == "ledger" and fallback.evidence_source == "harness_claim"
    assert package.valid and fallback.valid


@pytest.mark.parametrize(
    ("outcome", "expected"), [("resolved", True), ("mitigated", True), ("not_resolved", False), ("unknown", False)]
)
def test_only_resolved_or_mitigated_outcomes_give_verified_actions(outcome, expected):
    package = core.promote(evaluation(_set("evaluation.resolution_outcome", outcome)), verdict())
    assert package.verified_actions == (["roll back checkout-api to v2.13"] if expected else [])


def test_annotation_review_confirming_the_category_promotes_and_a_rejecting_one_is_refused():
    assert core.promote(annotation(True), verdict()).valid
    refused = core.promote(annotation(False), verdict())
    assert not refused.valid and [i.code for i in refused.issues] == ["KN101"]
    assert refused.verified_actions == []  # annotations carry no resolution outcome


def test_superseded_evaluation_is_refused():
    package = core.promote(evaluation(_set("evaluation.superseded", True)), verdict())
    assert [i.code for i in package.issues] == ["KN106"]


def test_a_malformed_ledger_is_refused_not_a_crash_nor_a_fallback():
    bad = verdict(_trace(lambda t: t.update(observations="not a list")))
    package = core.promote(evaluation(), bad)
    assert package.evidence_source == "ledger" and not package.valid
    assert [i.code for i in package.issues] == ["KN201"]


def test_package_id_is_stable_per_analysis_and_review():
    a = core.promote(evaluation(), verdict())
    b = core.promote(evaluation(), verdict())
    c = core.promote(evaluation(annotation_id="ev-4711-2"), verdict())
    assert a.package_id == b.package_id != c.package_id


def test_the_docs_table_lists_every_rule():
    docs = (Path(__file__).resolve().parents[3] / "docs" / "knowledge.md").read_text()
    missing = [r.code for r in RULES if f"| `{r.code}` | `{r.name}` | {r.group} | {r.description} |" not in docs]
    assert missing == []


def test_the_docs_table_lists_every_decision_code_and_the_source_uses_no_other():
    import re

    from rcaloop.knowledge.core import CATALOG_ISSUES, DECISION_ISSUES
    from rcaloop.knowledge.rules import JUDGEMENT_RULES

    root = Path(__file__).resolve().parents[3]
    docs = (root / "docs" / "knowledge.md").read_text()
    assert [c for c, text in DECISION_ISSUES.items() if f"| `{c}` | {text} |" not in docs] == []
    source = "\n".join(p.read_text() for p in (root / "services" / "knowledge" / "rcaloop" / "knowledge").glob("*.py"))
    assert set(re.findall(r'"(KD\d{3})"', source)) == set(DECISION_ISSUES)
    assert [c for c, text in CATALOG_ISSUES.items() if f"| `{c}` | {text} |" not in docs] == []
    assert set(re.findall(r'"(KC\d{3})"', source)) == set(CATALOG_ISSUES)
    assert set(JUDGEMENT_RULES) <= {r.code for r in RULES} and all(f"`{c}`" in docs for c in JUDGEMENT_RULES)
