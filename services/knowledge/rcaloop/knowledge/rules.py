"""Promotion conditions as small named rules with stable codes (SPEC §7, STYLE §3).

Three groups, checked in this order:

* ``REVIEW_RULES`` (KN1xx) — always: the review passed and is bound to this analysis;
* ``LEDGER_COMPLETE_RULES`` (KN2xx) — is the trace-v3 ledger complete? If yes, the
  ledger path is taken and ``LEDGER_GATES`` (KN3xx) must pass — it never falls back;
* ``HARNESS_CLAIM_RULES`` (KN4xx) — the auditable fallback when the ledger is incomplete.

A rule's ``check`` returns ``None`` when the condition holds, else the reason it fails.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from rcaloop.contracts import Issue
from rcaloop.knowledge.case import CANONICAL_EVIDENCE_ID, PromotionCase, normalize_family

Group = Literal["review", "ledger_complete", "ledger_gate", "harness_claim"]


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    group: Group
    description: str
    check: Callable[[PromotionCase], str | None]

    def issue(self, case: PromotionCase) -> Issue | None:
        reason = self.check(case)
        return None if reason is None else Issue(code=self.code, message=f"{self.name}: {reason}", path=None)


# -- review ---------------------------------------------------------------------------------
def _review_passed(case: PromotionCase) -> str | None:
    review = case.review
    if review.kind == "annotation":
        a = review.annotation
        if a is None:
            return "the annotation record carries no annotation"
        if a.category_correct is not True:
            return "the reviewer did not confirm the root-cause category"
        if a.summary_accurate is False:
            return "the reviewer marked the summary inaccurate"
        return None
    e = review.evaluation
    if e is None:
        return "the operator evaluation record carries no evaluation"
    if e.superseded:
        return "the evaluation is superseded (the RCA was re-analysed)"
    if e.hard_gate_judgement.agrees_with_harness is False or e.hard_gate_judgement.failed_gates:
        return "the operator judged a hard gate failed"
    return None


def _harness_passed(case: PromotionCase) -> str | None:
    v = case.verdict.verdict
    return None if v == "pass" else f"harness verdict is {v!r}, not 'pass'"


def _bound_to_analysis(case: PromotionCase) -> str | None:
    e = case.review.evaluation
    if e is not None and e.analysis_hash != case.review.analysis_hash:
        return "the evaluation belongs to another analysis_hash"
    if case.verdict.analysis_hash != case.review.analysis_hash:
        return "the verdict belongs to another analysis_hash"
    return None


# -- trace-v3 ledger completeness -------------------------------------------------------------
def _ledger_present(case: PromotionCase) -> str | None:
    if case.ledger_error:
        return case.ledger_error
    return None if case.ledger is not None else "no trace-v3 ledger in the capture"


def _observations_time_related(case: PromotionCase) -> str | None:
    if case.ledger is None:
        return "no ledger"
    if not case.ledger.observations:
        return "the ledger records no observations"
    unknown = [o.evidence_id for o in case.ledger.observations if o.time_relation == "unknown"]
    return f"observations without a time relation to the incident: {', '.join(unknown)}" if unknown else None


def _later_evidence_not_before_cause(case: PromotionCase) -> str | None:
    ledger = case.ledger
    if ledger is None:
        return "no ledger"
    start = ledger.incident_started_at
    wrong = [
        o.evidence_id
        for o in ledger.observations
        if start is not None
        and o.observed_at is not None
        and o.observed_at > start
        and o.time_relation == "before_incident"
    ]
    return (
        f"evidence collected after the incident start is shown as observed before it: {', '.join(wrong)}"
        if wrong
        else None
    )


def _hypotheses_have_source_groups(case: PromotionCase) -> str | None:
    ledger = case.ledger
    if ledger is None:
        return "no ledger"
    if not ledger.hypotheses:
        return "the ledger records no hypotheses"
    if len(case.root_hypotheses) != 1:
        return f"expected exactly one root-cause hypothesis, found {len(case.root_hypotheses)}"
    bare = [h.id for h in ledger.hypotheses if not h.supporting_source_groups and not h.refuting_source_groups]
    return f"hypotheses without supporting or refuting source groups: {', '.join(bare)}" if bare else None


def _ledger_references_resolve(case: PromotionCase) -> str | None:
    ledger = case.ledger
    if ledger is None:
        return "no ledger"
    observed = {o.evidence_id for o in ledger.observations}
    cited = {i for h in ledger.hypotheses for i in h.supporting_evidence_ids}
    cited |= {i for p in ledger.probe_executions for i in p.evidence_ids}
    missing = sorted(cited - observed)
    return f"evidence ids cited but not observed in the ledger: {', '.join(missing)}" if missing else None


# -- ledger path gates ---------------------------------------------------------------------
def _two_source_groups(case: PromotionCase) -> str | None:
    root = case.root_hypothesis
    if root is None:
        return "no root-cause hypothesis"
    groups = set(root.supporting_source_groups)
    return None if len(groups) >= 2 else f"root cause supported by {len(groups)} independent source group(s); 2 needed"


def _linked_probe(case: PromotionCase) -> str | None:
    root, ledger = case.root_hypothesis, case.ledger
    if root is None or ledger is None:
        return "no root-cause hypothesis"
    linked = [
        p for p in ledger.probe_executions if p.hypothesis_id == root.id and p.outcome == "supports" and p.evidence_ids
    ]
    return None if linked else "no probe execution with evidence supports the root-cause hypothesis"


def _root_unrefuted(case: PromotionCase) -> str | None:
    root = case.root_hypothesis
    if root is None:
        return "no root-cause hypothesis"
    refuting = root.refuting_source_groups
    return f"root cause refuted by source groups: {', '.join(refuting)}" if refuting else None


def _root_family_matches_snapshot(case: PromotionCase) -> str | None:
    root = case.root_hypothesis
    if root is None:
        return "no root-cause hypothesis"
    return _family_match(normalize_family(root.family), case.snapshot_family)


# -- harness_claim fallback ------------------------------------------------------------------
def _diagnosis_supported(case: PromotionCase) -> str | None:
    claim = case.root_claim
    if claim is None:
        return "the verdict's claim ledger has no root-cause claim"
    return None if claim.status == "supported" else f"root-cause claim status is {claim.status!r}, not 'supported'"


def _claim_matches_snapshot_family(case: PromotionCase) -> str | None:
    if case.root_claim is None:
        return "no root-cause claim"
    return _family_match(case.claim_family, case.snapshot_family)


def _supporting_evidence_canonical(case: PromotionCase) -> str | None:
    claim = case.root_claim
    if claim is None:
        return "no root-cause claim"
    live = {e.id for e in case.verdict.evidence if e.live}
    bad = [i for i in claim.supports if not CANONICAL_EVIDENCE_ID.match(i) or i not in live]
    return f"supporting evidence not canonical live harness evidence: {', '.join(bad)}" if bad else None


def _supporting_evidence_unrefuted(case: PromotionCase) -> str | None:
    claim = case.root_claim
    if claim is None:
        return "no root-cause claim"
    if claim.refutes:
        return f"root-cause claim refuted by {', '.join(claim.refutes)}"
    refuting = {i for c in case.verdict.claims for i in c.refutes}
    both = sorted(set(claim.supports) & refuting)
    return f"supporting evidence also refutes a claim: {', '.join(both)}" if both else None


def _has_supporting_evidence(case: PromotionCase) -> str | None:
    claim = case.root_claim
    return None if claim is not None and claim.supports else "the root-cause claim has no supporting evidence id"


def _family_match(claimed: str | None, snapshot: str | None) -> str | None:
    if not claimed or claimed == "unknown":
        return "the root cause names no family"
    if not snapshot:
        return "the case snapshot has no family"
    return None if claimed == snapshot else f"root cause family {claimed!r} differs from snapshot family {snapshot!r}"


RULES: list[Rule] = [
    Rule(
        "KN101",
        "review_passed",
        "review",
        "The reviewer confirmed the diagnosis (annotation) or judged no hard gate failed (evaluation, not superseded).",
        _review_passed,
    ),
    Rule(
        "KN102",
        "harness_passed",
        "review",
        "The harness verdict of this analysis is `pass`.",
        _harness_passed,
    ),
    Rule(
        "KN103",
        "bound_to_analysis",
        "review",
        "Review, evaluation and verdict share one `analysis_hash`.",
        _bound_to_analysis,
    ),
    Rule(
        "KN201",
        "ledger_present",
        "ledger_complete",
        "The capture carries a readable trace-v3 ledger (`confidence_diagnostics.trace_v3`).",
        _ledger_present,
    ),
    Rule(
        "KN202",
        "observations_time_related",
        "ledger_complete",
        "Every observation records its time relation to the incident.",
        _observations_time_related,
    ),
    Rule(
        "KN203",
        "later_evidence_not_before_cause",
        "ledger_complete",
        "Evidence collected after the incident start is never labelled as observed before it.",
        _later_evidence_not_before_cause,
    ),
    Rule(
        "KN204",
        "hypotheses_have_source_groups",
        "ledger_complete",
        "One root-cause hypothesis; every hypothesis lists the source groups supporting/refuting it.",
        _hypotheses_have_source_groups,
    ),
    Rule(
        "KN205",
        "ledger_references_resolve",
        "ledger_complete",
        "Evidence ids cited by hypotheses and probe executions are observations of the ledger.",
        _ledger_references_resolve,
    ),
    Rule(
        "KN301",
        "two_source_groups",
        "ledger_gate",
        "The root cause is supported by two independent source groups.",
        _two_source_groups,
    ),
    Rule(
        "KN302",
        "linked_probe",
        "ledger_gate",
        "A probe execution with evidence supports the root-cause hypothesis.",
        _linked_probe,
    ),
    Rule(
        "KN303",
        "root_unrefuted",
        "ledger_gate",
        "No source group refutes the root-cause hypothesis.",
        _root_unrefuted,
    ),
    Rule(
        "KN304",
        "root_family_matches_snapshot",
        "ledger_gate",
        "The root-cause hypothesis names the snapshot family.",
        _root_family_matches_snapshot,
    ),
    Rule(
        "KN401",
        "diagnosis_supported",
        "harness_claim",
        "The harness root-cause claim has status `supported`.",
        _diagnosis_supported,
    ),
    Rule(
        "KN402",
        "claim_matches_snapshot_family",
        "harness_claim",
        "The root-cause claim's family is the snapshot family.",
        _claim_matches_snapshot_family,
    ),
    Rule(
        "KN403",
        "supporting_evidence_canonical",
        "harness_claim",
        "Supporting evidence ids are canonical (`E01` …) live evidence of this run.",
        _supporting_evidence_canonical,
    ),
    Rule(
        "KN404",
        "supporting_evidence_unrefuted",
        "harness_claim",
        "No evidence refutes the root-cause claim or doubles as refuting evidence.",
        _supporting_evidence_unrefuted,
    ),
    Rule(
        "KN405",
        "has_supporting_evidence",
        "harness_claim",
        "At least one supporting evidence id.",
        _has_supporting_evidence,
    ),
]


def broken(group: Group, case: PromotionCase) -> list[Issue]:
    """The issues of every rule of ``group`` that ``case`` breaks, in list order."""
    return [issue for rule in RULES if rule.group == group and (issue := rule.issue(case)) is not None]
