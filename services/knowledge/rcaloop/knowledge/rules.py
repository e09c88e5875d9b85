"""Promotion conditions as small named rules with stable codes.

Three groups:

* ``review`` (KN1xx) — always: what a *passed review* is, in one place — the reviewer
  confirmed the diagnosis (did not reject it, and confirmed something: the family by name,
  or a resolution), judged the hard gates passed, scored every item at or above the floor,
  and reviewed the current analysis (not one a re-analysis superseded); plus the pairing
  with a ``pass`` harness verdict of the same analysis;
* ``ledger`` (KN2xx, KN3xx) — when the capture exported a trace-v3 ledger, the ledger
  path decides: every ledger rule must hold, and a ledger that breaks one is refused
  with its reason (never a fallback);
* ``harness_claim`` (KN4xx) — the auditable fallback, only when no ledger exists. It trusts
  no flag of the verdict for what it rests on: each item tied to the root-cause claim is
  re-checked from the verdict's claim ledger, its evidence and the run's artifacts — it
  resolves, agrees with the claim, is live, lies in the incident window, and the items count
  as independent only when they say different things.

A rule's ``check`` returns ``None`` when the condition holds, else the reason it fails.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from rcaloop.contracts import AnnotationRecord, HarnessVerdict, Issue
from rcaloop.contracts.knowledge import TraceLedger
from rcaloop.contracts.verdict import HISTORICAL_SOURCE_GROUP, PAST_RECORD_KINDS, PAST_RECORD_WORDS, LedgerEvidence
from rcaloop.knowledge.case import (
    CANONICAL_EVIDENCE_ID,
    DEFAULT_MIN_REVIEW_SCORE,
    VERIFIED_OUTCOMES,
    PromotionCase,
    case_for,
    content_key,
    normalize_family,
)

Group = Literal["review", "ledger", "harness_claim"]


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


# -- a passed review ------------------------------------------------------------------------
def _not_rejected(case: PromotionCase) -> str | None:
    review = case.review
    if review.kind == "annotation":
        a = review.annotation
        if a is None:
            return "the annotation record carries no annotation"
        if a.category_correct is not True:
            return "the reviewer did not confirm the root-cause category"
        if a.summary_accurate is not True:
            return "the reviewer did not confirm the summary as accurate"
        return None
    e = review.evaluation
    if e is None:
        return "the operator evaluation record carries no evaluation"
    if e.resolution_outcome == "not_resolved":
        return "the operator reports the incident was not resolved"
    if not case.reviewer_family and e.resolution_outcome not in VERIFIED_OUTCOMES:
        return (f"the evaluation confirms nothing: it names no expected_family and the outcome is "
                f"{e.resolution_outcome!r}, not resolved or mitigated (the agent's family is never its own "
                "confirmation)")
    return None


def _hard_gates_judged_passed(case: PromotionCase) -> str | None:
    e = case.review.evaluation
    if e is None:
        return None  # a CI annotation carries no hard-gate judgement
    judgement = e.hard_gate_judgement
    if judgement.failed_gates:
        return f"the operator judged hard gates failed: {', '.join(judgement.failed_gates)}"
    if judgement.agrees_with_harness is None:
        return "the operator did not judge the hard gates"
    if judgement.agrees_with_harness is False:
        return "the operator disagrees with the harness's hard gates"
    return None


def _scores_at_floor(case: PromotionCase) -> str | None:
    e = case.review.evaluation
    if e is None:
        return None
    below = [f"{item} {score}" for item, score in e.scores.model_dump().items() if score < case.min_review_score]
    return f"scored below the floor of {case.min_review_score}: {', '.join(below)}" if below else None


def _analysis_current(case: PromotionCase) -> str | None:
    e = case.review.evaluation
    if e is not None and e.superseded:
        return "the evaluation is superseded (the RCA was re-analysed); it is history only"
    if case.superseded_by:
        return (f"the analysis was superseded by a re-analysis ({case.superseded_by[:16]}…); its reviews are "
                "history only")
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


# -- the trace-v3 ledger (every rule; an unreadable ledger is reported once, by KN201) ---------
def _ledger_readable(case: PromotionCase) -> str | None:
    return case.ledger_error


def _observations_time_related(case: PromotionCase) -> str | None:
    if case.ledger is None:
        return None
    if not case.ledger.observations:
        return "the ledger records no observations"
    unknown = [o.evidence_id for o in case.ledger.observations if o.time_relation == "unknown"]
    if unknown:
        return f"observations without a time relation to the incident: {', '.join(unknown)}"
    untimed = [
        o.evidence_id
        for o in case.ledger.observations
        if o.time_relation == "before_incident" and (case.incident_started_at is None or case.observed_at(o) is None)
    ]
    return (
        "labelled before the incident, but no time shows it (the incident start or the observation time is missing): "
        f"{', '.join(untimed)}"
        if untimed
        else None
    )


def _later_evidence_not_before_cause(case: PromotionCase) -> str | None:
    ledger = case.ledger
    if ledger is None:
        return None
    start = case.incident_started_at
    wrong = [
        o.evidence_id
        for o in ledger.observations
        if start is not None
        and (at := case.observed_at(o)) is not None
        and at > start
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
        return None
    if not ledger.hypotheses:
        return "the ledger records no hypotheses"
    if len(case.root_hypotheses) != 1:
        return f"expected exactly one root-cause hypothesis, found {len(case.root_hypotheses)}"
    bare = [h.id for h in ledger.hypotheses if not h.supporting_source_groups and not h.refuting_source_groups]
    return f"hypotheses without supporting or refuting source groups: {', '.join(bare)}" if bare else None


def _cited_ids(ledger: TraceLedger) -> set[str]:
    """Evidence ids the ledger's hypotheses and probe executions cite."""
    return ({i for h in ledger.hypotheses for i in h.supporting_evidence_ids}
            | {i for p in ledger.probe_executions for i in p.evidence_ids})


def _ledger_references_resolve(case: PromotionCase) -> str | None:
    ledger = case.ledger
    if ledger is None:
        return None
    missing = sorted(_cited_ids(ledger) - {o.evidence_id for o in ledger.observations})
    return f"evidence ids cited but not observed in the ledger: {', '.join(missing)}" if missing else None


def _ledger_evidence_in_run(case: PromotionCase) -> str | None:
    ledger = case.ledger
    if ledger is None:
        return None
    named = {o.evidence_id for o in ledger.observations} | _cited_ids(ledger)
    missing = sorted(named - set(case.run_evidence))
    return f"evidence ids the run does not hold: {', '.join(missing)}" if missing else None


def _two_source_groups(case: PromotionCase) -> str | None:
    """The ledger must say two groups support the root cause, and the run's evidence must
    show it: groups are counted from the supporting items as the harness derived them
    (from their collectors), never from the labels the ledger gives itself."""
    root = case.root_hypothesis
    if root is None:
        return None  # no ledger, or not exactly one root-cause hypothesis (KN204 reports it)
    declared = set(root.supporting_source_groups)
    if len(declared) < 2:
        return f"the ledger names {len(declared)} supporting source group(s); 2 needed"
    run = case.run_evidence
    groups = sorted(
        {run[i].source_group for i in root.supporting_evidence_ids if i in run and run[i].live and not run[i].symptom})
    if len(groups) >= 2:
        return None
    return (f"the supporting evidence comes from {len(groups)} independent source group(s) of live run evidence "
            f"({', '.join(groups) or 'none'}; the alert or a failed task is the symptom explained and adds none); 2 "
            "needed")


def _linked_probe(case: PromotionCase) -> str | None:
    root, ledger = case.root_hypothesis, case.ledger
    if root is None or ledger is None:
        return None  # KN204 reports a ledger without exactly one root-cause hypothesis
    linked = [
        p for p in ledger.probe_executions if p.hypothesis_id == root.id and p.outcome == "supports" and p.evidence_ids
    ]
    return None if linked else "no probe execution with evidence supports the root-cause hypothesis"


def _refuted_in_run(case: PromotionCase) -> str | None:
    """The run's evidence refutes the root cause: the harness's root-cause claim lists refuting evidence."""
    claim = case.root_claim
    return (f"root-cause claim refuted by the run's evidence {', '.join(claim.refutes)}"
            if claim and claim.refutes else None)


def _root_unrefuted(case: PromotionCase) -> str | None:
    root = case.root_hypothesis
    if root is None:
        return None  # KN204 reports it
    if refuted := _refuted_in_run(case):
        return refuted
    refuting = root.refuting_source_groups
    return f"root cause refuted by source groups: {', '.join(refuting)}" if refuting else None


def _root_family_matches_snapshot(case: PromotionCase) -> str | None:
    root = case.root_hypothesis
    if root is None:
        return None  # KN204 reports it
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
    bad = [i for i in claim.supports if not CANONICAL_EVIDENCE_ID.match(i)]
    return f"supporting evidence ids not assigned by the harness: {', '.join(bad)}" if bad else None


def _supporting_evidence_unrefuted(case: PromotionCase) -> str | None:
    claim = case.root_claim
    if claim is None:
        return "no root-cause claim"
    if refuted := _refuted_in_run(case):
        return refuted
    refuting = {i for c in case.verdict.claims for i in c.refutes}
    both = sorted(set(claim.supports) & refuting)
    return f"supporting evidence also refutes a claim: {', '.join(both)}" if both else None


def _has_supporting_evidence(case: PromotionCase) -> str | None:
    claim = case.root_claim
    return None if claim is not None and claim.supports else "the root-cause claim has no supporting evidence id"


def _claim_evidence_in_run(case: PromotionCase) -> str | None:
    named = {i for c in case.verdict.claims for i in (*c.supports, *c.refutes, *c.historical)}
    missing = sorted(named - case.evidence_ids)
    return f"claims name evidence ids the run does not hold: {', '.join(missing)}" if missing else None


def _each_tied(case: PromotionCase, why: Callable[[PromotionCase, LedgerEvidence], str | None]) -> str | None:
    """The tied items ``why`` finds fault with, each named with its reason."""
    if case.root_claim is None:
        return "no root-cause claim"
    bad = [f"{i} ({reason})" for i, item in case.tied if item is not None and (reason := why(case, item))]
    return "; ".join(bad) or None


def _unresolved(case: PromotionCase, item: LedgerEvidence) -> str | None:
    claim = case.root_claim
    if claim is not None and any(u == item.id or u.startswith(f"{item.id} ") for u in claim.untraced):
        return "the harness found it does not trace"
    if item.resolved is False:
        return "it did not resolve in the run"
    if item.resolved is None and case.artifact_of(item) is None:
        return f"the run holds no artifact {item.agent_id!r}" if item.agent_id else "no artifact of the run says it"
    return None


def _disagrees(case: PromotionCase, item: LedgerEvidence) -> str | None:
    refuting = {i for c in case.verdict.claims for i in c.refutes}
    if item.id in refuting:
        return "the claim ledger lists it as refuting evidence"
    if item.id in case.verdict.confidence_breakdown.refuted_by:
        return "the confidence breakdown lists it as contradicting the root cause"
    own = case.diagnosis.claims if case.diagnosis else []
    if any(c.kind == "root_cause" and item.agent_id in c.refuting_evidence_ids for c in own):
        return "the agent itself says it contradicts its root cause"
    return None


def _record_words(text: str) -> set[str]:
    split = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", text)
    return set(re.findall(r"[a-z0-9]+", split.casefold())) | set(re.findall(r"[a-z0-9]+", text.casefold()))


def _not_live(case: PromotionCase, item: LedgerEvidence) -> str | None:
    artifact = case.artifact_of(item)
    if not item.live or (artifact is not None and not artifact.live):
        return "history, not live (the verdict or the run's artifact says so)"
    if item.source_group == HISTORICAL_SOURCE_GROUP:
        return f"filed under {HISTORICAL_SOURCE_GROUP!r}"
    kinds = [item.kind, *([artifact.kind] if artifact else [])]
    past = _record_words(" ".join([*kinds, item.collector or item.source])) & PAST_RECORD_WORDS
    past |= {k for k in kinds if "_".join(sorted(_record_words(k))) in PAST_RECORD_KINDS}
    return f"a written record of the past ({', '.join(sorted(past))}), not an observation of this run" if past else None


def _outside_window(case: PromotionCase, item: LedgerEvidence) -> str | None:
    at = case.item_observed_at(item)
    if at is None:
        return None
    earliest, latest = case.window
    if at > latest:
        return f"observed {at.isoformat()}, after the run was judged"
    if earliest is not None and at < earliest:
        return f"observed {at.isoformat()}, long before the incident started"
    return None


def _tied_evidence_independent(case: PromotionCase) -> str | None:
    """What high confidence relied on (hard gate 1): two independent groups of live evidence —
    items that say the same thing count once, under whatever collectors — or a confirmed
    signature among them. Where the verdict does not record the evidence the harness counted
    as corroborating the cause, only the groups of the tied items can be re-checked: they fail
    when merging one observation filed twice leaves fewer than two."""
    claim = case.root_claim
    if claim is None:
        return "no root-cause claim"
    if case.final_confidence != "high":
        return None
    items = [item for _, item in case.tied if item is not None and item.live and not item.symptom]
    if case.verdict.confidence_breakdown.signature_confirmed and any("signature" in _record_words(i.kind)
                                                                     for i in items):
        return None
    groups: dict[str, set[str]] = {}
    for item in items:
        groups.setdefault(content_key(item), set()).add(item.source_group)
    labelled = set().union(*groups.values()) if groups else set()
    distinct = {min(g) for g in groups.values()}
    if len(distinct) >= 2 or (claim.corroborating is None and len(labelled) < 2):
        return None
    repeated = [k for k, g in groups.items() if len(g) > 1]
    return (f"high confidence on {len(distinct)} independent source group(s) of distinct live evidence"
            + (f" (one observation filed under {', '.join(sorted(groups[repeated[0]]))})" if repeated else "")
            + "; 2 needed, or a confirmed signature")


def _family_match(claimed: str | None, snapshot: str | None) -> str | None:
    if not claimed or claimed == "unknown":
        return "the root cause names no family"
    if not snapshot:
        return "the case snapshot has no family"
    return None if claimed == snapshot else f"root cause family {claimed!r} differs from snapshot family {snapshot!r}"


RULES: list[Rule] = [
    Rule("KN101", "review_not_rejected", "review",
         "The reviewer confirmed the diagnosis: an annotation confirms the root-cause category and the summary "
         "(`category_correct` and `summary_accurate` true); an evaluation's `resolution_outcome` is not "
         "`not_resolved`, "
         "and it confirms something — it names the `expected_family` or the outcome is `resolved`/`mitigated` "
         "(the agent's own family never confirms itself).",
         _not_rejected),
    Rule("KN102", "harness_passed", "review", "The harness verdict of this analysis is `pass`.", _harness_passed),
    Rule("KN103", "bound_to_analysis", "review", "Review, evaluation and verdict share one `analysis_hash`.",
         _bound_to_analysis),
    Rule("KN104", "hard_gates_judged_passed", "review",
         "An evaluation's hard-gate judgement passed: `agrees_with_harness` is true and `failed_gates` is empty.",
         _hard_gates_judged_passed),
    Rule("KN105", "scores_at_floor", "review",
         "Every one of an evaluation's seven scores is at or above `KNOWLEDGE_MIN_REVIEW_SCORE` (default 3 of 5).",
         _scores_at_floor),
    Rule("KN106", "analysis_current", "review",
         "The review is of the current analysis: not marked superseded, and no later analysis of the same subject "
         "(job, else result/incident id) exists. Superseded reviews are history only.",
         _analysis_current),
    Rule("KN201", "ledger_readable", "ledger",
         "The exported trace-v3 ledger (`confidence_diagnostics.trace_v3`) is readable.", _ledger_readable),
    Rule("KN202", "observations_time_related", "ledger",
         "Every observation records its time relation to the incident, and a `before_incident` one has the times that "
         "show it: the incident start and the observation time (the run's own, else the ledger's).",
         _observations_time_related),
    Rule("KN203", "later_evidence_not_before_cause", "ledger",
         "Evidence collected after the incident start is never labelled as observed before it; the run's times (the "
         "parsed output's `incident_started_at`, its artifacts' `observed_at`) win over the ledger's.",
         _later_evidence_not_before_cause),
    Rule("KN204", "hypotheses_have_source_groups", "ledger",
         "One root-cause hypothesis; every hypothesis lists the source groups supporting/refuting it.",
         _hypotheses_have_source_groups),
    Rule("KN205", "ledger_references_resolve", "ledger",
         "Evidence ids cited by hypotheses and probe executions are observations of the ledger.",
         _ledger_references_resolve),
    Rule("KN206", "ledger_evidence_in_run", "ledger",
         "Every evidence id the ledger names is evidence of this run (its harness id or the agent's own id).",
         _ledger_evidence_in_run),
    Rule("KN301", "two_source_groups", "ledger",
         "The ledger names two source groups supporting the root cause, and its supporting evidence is live run "
         "evidence "
         "from two independent source groups (as the harness derived them, not as labelled); a symptom item "
         "(the alert, "
         "a failed task: `symptom` on the verdict's evidence) adds no group.",
         _two_source_groups),
    Rule("KN302", "linked_probe", "ledger",
         "A probe execution with evidence supports the root-cause hypothesis.", _linked_probe),
    Rule("KN303", "root_unrefuted", "ledger",
         "Nothing refutes the root cause: the run's evidence (the harness root-cause claim's `refutes`) nor a source "
         "group the ledger names.", _root_unrefuted),
    Rule("KN304", "root_family_matches_snapshot", "ledger",
         "The root-cause hypothesis names the snapshot family.", _root_family_matches_snapshot),
    Rule("KN401", "diagnosis_supported", "harness_claim",
         "The harness root-cause claim has status `supported`.", _diagnosis_supported),
    Rule("KN402", "claim_matches_snapshot_family", "harness_claim",
         "The root-cause claim's family is the snapshot family.", _claim_matches_snapshot_family),
    Rule("KN403", "supporting_evidence_canonical", "harness_claim",
         "Supporting evidence ids are canonical: assigned by the harness (`E01` …).", _supporting_evidence_canonical),
    Rule("KN404", "supporting_evidence_unrefuted", "harness_claim",
         "No evidence refutes the root-cause claim or doubles as refuting evidence.", _supporting_evidence_unrefuted),
    Rule("KN405", "has_supporting_evidence", "harness_claim",
         "At least one supporting evidence id.", _has_supporting_evidence),
    Rule("KN406", "claim_evidence_in_run", "harness_claim",
         "Every evidence id the harness claims name (supporting, refuting, historical) is evidence of this run.",
         _claim_evidence_in_run),
    Rule("KN407", "tied_evidence_resolves", "harness_claim",
         "Every item tied to the root-cause claim (its support, and what the harness counted as corroborating it) "
         "traces to the run: the claim does not list it as untraced, it is not recorded as unresolved, and the "
         "artifact "
         "it was read from (by its `agent_id`, else its collector and text) is an artifact of the run.",
         lambda case: _each_tied(case, _unresolved)),
    Rule("KN408", "tied_evidence_agrees", "harness_claim",
         "No item tied to the root-cause claim contradicts it: no claim lists it as refuting, the confidence "
         "breakdown does not (`refuted_by`), and the agent's own root-cause claim does not (`refuting_evidence_ids`).",
         lambda case: _each_tied(case, _disagrees)),
    Rule("KN409", "tied_evidence_live", "harness_claim",
         "Every item tied to the root-cause claim is live evidence of this run: live in the verdict and in the run's "
         "artifact, not filed under the history group, and its kind or collector names no written record of the past "
         "(a word such as postmortem, runbook, wiki, knowledge, similar, rca; or a kind that is history, ticket, "
         "document or memory as a whole).",
         lambda case: _each_tied(case, _not_live)),
    Rule("KN410", "tied_evidence_in_window", "harness_claim",
         "Every item tied to the root-cause claim with a known time was observed in the incident window: not after "
         "the run was judged (60 s of clock skew allowed) and not more than 7 days before the incident started.",
         lambda case: _each_tied(case, _outside_window)),
    Rule("KN411", "tied_evidence_independent", "harness_claim",
         "A root cause passed at high confidence rests on live evidence from two independent source groups — its "
         "tied and corroborating items, where items that say the same thing (one text, or one file and path) count "
         "once, under whatever collectors — or on a confirmed signature among them. A verdict that does not record "
         "its corroborating evidence is re-checked on the tied items alone: it fails when one observation filed "
         "under two collectors is what made two groups.", _tied_evidence_independent),
]


JUDGEMENT_RULES = ("KN101", "KN104", "KN105")
"""The review rules that hold a reviewer's own judgement of the diagnosis (confirmed it, judged
the hard gates passed, scored it at the floor): a review breaking one disagrees with it."""


def broken(group: Group, case: PromotionCase) -> list[Issue]:
    """The issues of every rule of ``group`` that ``case`` breaks, in list order."""
    return [issue for rule in RULES if rule.group == group and (issue := rule.issue(case)) is not None]


def passed_review(
    review: AnnotationRecord,
    verdict: HarnessVerdict,
    *,
    min_review_score: int = DEFAULT_MIN_REVIEW_SCORE,
    superseded_by: str | None = None,
) -> list[Issue]:
    """Why this review is not a passed review of this verdict (empty: it passed)."""
    case = case_for(review, verdict, min_review_score=min_review_score, superseded_by=superseded_by)
    return broken("review", case)


def disagreement(review: AnnotationRecord, verdict: HarnessVerdict, family: str | None, *,
                 min_review_score: int = DEFAULT_MIN_REVIEW_SCORE) -> str | None:
    """Why ``review`` disagrees with a package of ``family`` built from another review of the
    same analysis — it judges the diagnosis failed (``JUDGEMENT_RULES``) or names another
    family — or ``None``. A superseded evaluation is history and disagrees with nothing."""
    if review.evaluation is not None and review.evaluation.superseded:
        return None
    case = case_for(review, verdict, min_review_score=min_review_score)
    judged = [i.message for i in broken("review", case) if i.code in JUDGEMENT_RULES]
    if judged:
        return "; ".join(judged)
    named = case.reviewer_family
    return f"names the family {named!r}, not {family!r}" if named and named != family else None
