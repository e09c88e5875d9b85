"""Promotion as a careless team or a gaming agent would try it: a broken ledger, ids the run
never had, a review that says no, a superseded analysis — each refused with its reason."""

from __future__ import annotations

import pytest

from rcaloop.knowledge import core
from rcaloop.knowledge.rules import RULES, passed_review
from tests.unit.knowledge.builders import annotation, evaluation, no_ledger, root_claim, trace, verdict


def _trace(fn):
    return lambda data: fn(trace(data))


def _one_group(t):
    t["hypotheses"][0]["supporting_source_groups"] = ["logs"]


def _no_linked_probe(t):
    t["probe_executions"] = [p for p in t["probe_executions"] if p["hypothesis_id"] != "H1"]


def _untimed(t):
    t["observations"][0]["time_relation"] = "unknown"


def _no_groups(t):
    t["hypotheses"][0]["supporting_source_groups"] = []


def _codes(package) -> list[str]:
    return [i.code for i in package.issues]


# -- item: a present ledger that breaks a rule is refused, never a fallback -------------------------
@pytest.mark.parametrize(
    ("edit", "code"),
    [
        (_one_group, "KN301"),
        (_no_linked_probe, "KN302"),
        (_untimed, "KN202"),
        (_no_groups, "KN204"),
        (lambda t: t["probe_executions"][0].update(evidence_ids=["E09"]), "KN205"),
        (lambda t: t.update(observations="not a list"), "KN201"),
    ],
)
def test_a_present_ledger_that_breaks_a_rule_is_refused_with_its_reason(edit, code):
    package = core.promote(evaluation(), verdict(_trace(edit)))
    assert not package.valid and package.state == "rejected"
    assert package.evidence_source == "ledger" and package.provenance.promotion_path == "ledger"
    assert code in _codes(package)
    assert core.promotion_event(package).kind == "rejected"


def test_the_fallback_applies_only_when_no_ledger_exists():
    package = core.promote(evaluation(), verdict(no_ledger))
    assert package.valid and package.evidence_source == "harness_claim"


def test_ledger_evidence_ids_must_exist_in_the_run():
    def ghost(t):
        t["observations"].append({"evidence_id": "E77", "source_group": "traces", "time_relation": "during_incident"})
        t["hypotheses"][0]["supporting_evidence_ids"].append("E77")

    package = core.promote(evaluation(), verdict(_trace(ghost)))
    assert not package.valid and "KN206" in _codes(package)
    assert "E77" in next(i.message for i in package.issues if i.code == "KN206")


def test_ledger_ids_may_name_the_agents_own_evidence_ids():
    def agent_ids(data):
        for ev in data["evidence"]:
            ev["agent_id"] = "ev-" + ev["id"]
        t = trace(data)
        for o in t["observations"]:
            o["evidence_id"] = "ev-" + o["evidence_id"]
        for h in t["hypotheses"]:
            h["supporting_evidence_ids"] = ["ev-" + i for i in h.get("supporting_evidence_ids", [])]
        for p in t["probe_executions"]:
            p["evidence_ids"] = ["ev-" + i for i in p["evidence_ids"]]

    assert core.promote(evaluation(), verdict(agent_ids)).valid


def test_ledger_source_groups_come_from_the_runs_evidence_not_its_labels():
    # the ledger claims two groups, but both supporting items were collected by one source group
    def relabel(data):
        data["evidence"][0]["source_group"] = "logs"

    package = core.promote(evaluation(), verdict(relabel))
    assert not package.valid and "KN301" in _codes(package)


@pytest.mark.parametrize("field", ["supports", "refutes"])
def test_claim_evidence_ids_must_exist_in_the_run(field):
    def ghost(data):
        root_claim(data)[field] = [*root_claim(data)[field], "E42"]

    package = core.promote(evaluation(), verdict(no_ledger, ghost))
    assert not package.valid and "KN406" in _codes(package)


# -- item: a passed review is defined once ----------------------------------------------------------
def _set(path, value):
    def edit(data):
        *parents, last = path.split(".")
        node = data
        for p in parents:
            node = node[p]
        node[last] = value

    return edit


ZEROS = {k: 0 for k in ("evidence_grounding", "diagnostic_reasoning", "investigation_plan", "uncertainty_calibration",
                        "operational_usefulness", "safety", "tool_efficiency")}


def test_a_useless_review_never_promotes():
    review = evaluation(_set("evaluation.scores", ZEROS), _set("evaluation.resolution_outcome", "not_resolved"),
                        _set("evaluation.memo", "useless and wrong"), _set("evaluation.action_that_worked", None),
                        _set("evaluation.verified_actions", []))
    package = core.promote(review, verdict())
    assert not package.valid and {"KN101", "KN105"} <= set(_codes(package))
    result = core.decide(package, "approve", "mira")
    assert result.refused and core.active([result.package]) == []


@pytest.mark.parametrize(
    ("edit", "code"),
    [
        (_set("evaluation.resolution_outcome", "not_resolved"), "KN101"),
        (_set("evaluation.hard_gate_judgement.agrees_with_harness", None), "KN104"),
        (_set("evaluation.hard_gate_judgement.agrees_with_harness", False), "KN104"),
        (_set("evaluation.hard_gate_judgement.failed_gates", ["G2"]), "KN104"),
        (_set("evaluation.scores.safety", 2), "KN105"),
        (_set("evaluation.superseded", True), "KN106"),
    ],
)
def test_each_part_of_a_passed_review(edit, code):
    issues = passed_review(evaluation(edit), verdict())
    assert [i.code for i in issues] == [code]
    assert passed_review(evaluation(), verdict()) == []


def test_the_score_floor_is_configurable():
    review = evaluation(_set("evaluation.scores.tool_efficiency", 2))
    assert [i.code for i in passed_review(review, verdict())] == ["KN105"]
    assert passed_review(review, verdict(), min_review_score=2) == []
    assert "KN105" not in _codes(core.promote(review, verdict(), min_review_score=2))
    assert "KN105" in _codes(core.promote(review, verdict(), min_review_score=5))


def test_an_annotation_passes_only_when_it_confirms_category_and_summary():
    assert passed_review(annotation(True), verdict()) == []
    assert [i.code for i in passed_review(annotation(False), verdict())] == ["KN101"]
    unsure = annotation(True)
    unsure.annotation.summary_accurate = None
    assert [i.code for i in passed_review(unsure, verdict())] == ["KN101"]


def test_the_review_rules_are_the_documented_definition():
    review_codes = [r.code for r in RULES if r.group == "review"]
    assert review_codes == ["KN101", "KN102", "KN103", "KN104", "KN105", "KN106"]


# -- item: a superseded analysis is history only ------------------------------------------------------
def test_an_evaluation_of_a_superseded_analysis_never_promotes():
    package = core.promote(evaluation(), verdict(), superseded_by="b" * 64)
    assert not package.valid and _codes(package) == ["KN106"]
    assert "b" * 16 in package.issues[0].message


def test_a_candidate_whose_analysis_was_superseded_since_cannot_be_activated():
    candidate = core.promote(evaluation(), verdict())
    assert candidate.valid
    for decision in ("approve", "shadow"):
        result = core.decide(candidate, decision, "mira", superseded_by="b" * 64)
        assert result.refused and result.error.code == "KD202" and result.package.state == "candidate"
        assert result.events[0].kind == "rejected" and result.events[0].inadmissible is (decision == "approve")
    shadowed = core.decide(candidate, "shadow", "mira").package
    assert core.decide(shadowed, "activate", "mira", superseded_by="b" * 64).error.code == "KD202"
    # history stays readable and a reject (taking it out) is still allowed
    assert core.decide(shadowed, "reject", "mira", superseded_by="b" * 64).package.state == "rejected"
