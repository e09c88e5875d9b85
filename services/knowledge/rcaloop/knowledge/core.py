"""Pure knowledge promotion: passed review + verdict → package; reviewer decisions → events.

No I/O here: the worker handlers, the HTTP routes and the CLI all call these functions
with what they loaded from the store, and persist/publish what comes back.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from rcaloop.contracts import AnnotationRecord, HarnessVerdict, Issue, KnowledgeEvent
from rcaloop.contracts.common import utcnow
from rcaloop.contracts.catalog import FamilyCatalog
from rcaloop.contracts.knowledge import (
    CatalogChanges,
    CatalogPackage,
    Decision,
    KnowledgePackage,
    PackageDecision,
    PackageState,
    Provenance,
)
from rcaloop.knowledge.case import DEFAULT_MIN_REVIEW_SCORE, PromotionCase, case_for
from rcaloop.knowledge.rules import broken, disagreement
from rcaloop.shared.signatures import problems

Package = KnowledgePackage | CatalogPackage


def package_id_for(analysis_hash: str, annotation_id: str) -> str:
    """One package per (analysis, review): a redelivered review maps to the same id."""
    digest = hashlib.sha256(f"{analysis_hash}\x00{annotation_id}".encode()).hexdigest()
    return f"kp-{digest[:20]}"


# -- promotion ------------------------------------------------------------------------------
def promote(
    review: AnnotationRecord,
    verdict: HarnessVerdict,
    *,
    created_by: str = "",
    now: datetime | None = None,
    min_review_score: int = DEFAULT_MIN_REVIEW_SCORE,
    superseded_by: str | None = None,
) -> KnowledgePackage:
    """The candidate package of a review, or a refused (``rejected``, ``valid=False``) one with its reasons.

    The review must be a passed review (``rules`` group ``review``). A capture that
    exported a trace-v3 ledger is judged by every ledger rule — a ledger that breaks one
    is refused, never sent down the fallback. Only when no ledger exists does the
    auditable ``harness_claim`` path apply; it records no probe executions.
    """
    case = case_for(review, verdict, min_review_score=min_review_score, superseded_by=superseded_by)
    path: Literal["ledger", "harness_claim"] = "ledger" if case.ledger_present else "harness_claim"
    return _package(case, path, broken("review", case) + broken(path, case), created_by, now)


def _package(case: PromotionCase, path: str, issues: list[Issue], created_by: str,
             now: datetime | None) -> KnowledgePackage:
    review, now = case.review, now or utcnow()
    root = case.root_hypothesis
    if path == "ledger" and case.ledger is not None:
        supporting = list(root.supporting_evidence_ids) if root else []
        executions = list(case.ledger.probe_executions)
        observations = list(case.ledger.observations)
    elif path == "ledger":
        supporting, executions, observations = [], [], []
    else:
        supporting = list(case.root_claim.supports) if case.root_claim else []
        executions, observations = [], []
    provenance = Provenance(
        promotion_path=path,
        annotation_id=review.annotation_id,
        reviewer=review.annotator,
        review_decision=review.decision.how if review.decision else None,
        harness_verdict=case.verdict.verdict,
        harness_score=case.verdict.score,
    )
    return KnowledgePackage(
        package_id=package_id_for(review.analysis_hash, review.annotation_id),
        analysis_hash=review.analysis_hash,
        annotation_id=review.annotation_id,
        state="candidate" if not issues else "rejected",
        valid=not issues,
        issues=issues,
        family=case.snapshot_family,
        evidence_source=path,
        supporting_evidence_ids=supporting,
        probe_template_ids=list(dict.fromkeys(p.probe_template_id for p in executions)),
        probe_executions=executions,
        observations=observations,
        verified_actions=case.verified_actions,
        summary=_summary(case),
        provenance=provenance,
        created_by=created_by,
        candidate_at=now,
        updated_at=now,
    )


def _summary(case: PromotionCase) -> str | None:
    diagnosis = case.diagnosis
    if diagnosis is not None and diagnosis.root_cause is not None and diagnosis.root_cause.summary:
        return diagnosis.root_cause.summary
    return case.root_claim.text if case.root_claim else case.verdict.parsed.title


def promotion_event(package: KnowledgePackage) -> KnowledgeEvent:
    """``candidate`` for a valid package, ``rejected`` with the reasons for a refused one."""
    kind: PackageState = "candidate" if package.valid else "rejected"
    return _event(package, kind, f"{package.package_id}:{kind}", issues=package.issues, at=package.candidate_at)


# -- decisions --------------------------------------------------------------------------------
DECISION_ISSUES: dict[str, str] = {
    "KD101": "the package's state does not allow the decision; nothing changes",
    "KD201": "approve, shadow or activate of a package that failed validation: refused and recorded",
    "KD202": "approve, shadow or activate of a package whose analysis a re-analysis superseded: refused and recorded",
    "KD203": "approve or activate while another current review of the same analysis disagrees: refused and recorded",
    "KD404": "no package with that id",
    "KD409": "the package changed meanwhile (compare-and-set lost); reload and decide again",
}
"""Every code a decision can answer with; ``docs/knowledge.md`` has a row for each."""


def dissenting_reviews(
    package: KnowledgePackage,
    reviews: list[AnnotationRecord],
    verdict: HarnessVerdict,
    *,
    min_review_score: int = DEFAULT_MIN_REVIEW_SCORE,
) -> list[str]:
    """The other current reviews of the package's analysis that disagree with it (``rules.disagreement``).

    With overlap every reviewer's review builds its own package; one reviewer's confirmation
    does not outvote another's rejection: the package is not activated until they agree.
    """
    found = []
    for review in reviews:
        if review.annotation_id == package.annotation_id or review.analysis_hash != package.analysis_hash:
            continue
        why = disagreement(review, verdict, package.family, min_review_score=min_review_score)
        if why:
            found.append(f"{review.annotation_id} ({review.annotator or 'unknown reviewer'}): {why}")
    return found


DECISION_ROLES: dict[Decision, str] = {"approve": "lead", "shadow": "lead", "activate": "lead", "reject": "reviewer"}
"""Who may make each decision: bringing a package toward the agent's runtime (approve, shadow,
activate) needs a lead; taking one out (reject) any knowledge reviewer."""


def may_decide(decision: Decision, roles: frozenset[str] | set[str]) -> bool:
    return DECISION_ROLES[decision] in roles


_TRANSITIONS: dict[Decision, tuple[tuple[PackageState, ...], PackageState]] = {
    "approve": (("candidate", "shadowed"), "activated"),
    "shadow": (("candidate",), "shadowed"),
    "activate": (("shadowed",), "activated"),
    "reject": (("candidate", "shadowed", "activated"), "rejected"),
}
_NEEDS_VALID = ("approve", "shadow", "activate")
_ACTIVATING = ("approve", "activate")


@dataclass
class DecisionResult:
    """The package after the decision, the events to publish, and an error when nothing changed."""

    package: Package
    events: list[KnowledgeEvent] = field(default_factory=list)
    error: Issue | None = None
    refused: bool = False

    @property
    def changed(self) -> bool:
        return bool(self.events)


def decide(
    package: Package,
    decision: Decision,
    reviewer: str,
    *,
    comment: str | None = None,
    now: datetime | None = None,
    superseded_by: str | None = None,
    dissent: list[str] | None = None,
) -> DecisionResult:
    """Apply one reviewer decision.

    * an activation (``approve``/``activate``) or ``shadow`` of a package that failed
      validation (``KD201``), or whose analysis a re-analysis has superseded since
      (``KD202``: its review is history only), and an activation while another current
      review of the same analysis disagrees (``dissent``, from ``dissenting_reviews``:
      ``KD203``), is refused, recorded in its history and published as a ``rejected``
      event (``inadmissible`` for activations);
    * a decision the state does not allow is an error (``KD101``), nothing changes;
    * ``approve`` activates at once (events ``approved`` + ``activated``), ``shadow``
      keeps it out of the runtime snapshot until an explicit ``activate``.
    """
    now = now or utcnow()
    allowed, target = _TRANSITIONS[decision]
    refusal = None
    if decision in _NEEDS_VALID and not package.valid:
        refusal = Issue(code="KD201", message=f"{decision} refused: the package failed validation ({_codes(package)})")
    elif decision in _NEEDS_VALID and superseded_by:
        refusal = Issue(
            code="KD202",
            message=f"{decision} refused: the analysis was superseded by a re-analysis ({superseded_by[:16]}…); its "
                    "review is history only",
        )
    elif decision in _ACTIVATING and dissent:
        refusal = Issue(
            code="KD203",
            message=f"{decision} refused: another review of the same analysis disagrees — {'; '.join(dissent)}; "
            "activate once the reviewers agree",
        )
    if refusal is not None:
        return _refused(package, decision, reviewer, refusal, comment, now)
    if package.state not in allowed:
        message = f"cannot {decision} a {package.state} package (allowed from: {', '.join(allowed)})"
        if decision == "activate" and package.state == "candidate":
            message += "; approve it, or shadow it first"
        return DecisionResult(package, error=Issue(code="KD101", message=message))

    updated = package.model_copy(deep=True)
    updated.state, updated.updated_at, updated.revision = target, now, package.revision + 1
    updated.history.append(PackageDecision(decision=decision, reviewer=reviewer, at=now, accepted=True,
                                           from_state=package.state, to_state=target, comment=comment))
    n = len(updated.history)
    detail = {"reviewer": reviewer, "from_state": package.state} | ({"comment": comment} if comment else {})
    events: list[KnowledgeEvent] = []
    if decision == "approve":
        events.append(
            _event(updated, "approved", f"{package.package_id}:{n}:approved", decision=decision, at=now, detail=detail)
        )
    if target == "activated":
        updated.activated_at = now
        latency = max(0.0, (now - package.candidate_at).total_seconds())
        events.append(
            _event(
                updated,
                "activated",
                f"{package.package_id}:{n}:activated",
                decision=decision,
                latency=latency,
                at=now,
                detail=detail | {"activation_latency_seconds": latency, "inadmissible": False},
            )
        )
    elif target == "shadowed":
        events.append(
            _event(updated, "shadowed", f"{package.package_id}:{n}:shadowed", decision=decision, at=now, detail=detail)
        )
    else:
        events.append(
            _event(updated, "rejected", f"{package.package_id}:{n}:rejected", decision=decision, at=now, detail=detail)
        )
    updated.outbox.extend(events)
    return DecisionResult(updated, events)


def _refused(
    package: Package, decision: Decision, reviewer: str, issue: Issue, comment: str | None, now: datetime
) -> DecisionResult:
    """A refused decision: the state stays, the refusal is recorded in the history and published."""
    refused = package.model_copy(deep=True)
    refused.history.append(PackageDecision(decision=decision, reviewer=reviewer, at=now, accepted=False,
                                           from_state=package.state, to_state=package.state, comment=comment,
                                           issues=[issue]))
    refused.updated_at, refused.revision = now, package.revision + 1
    event = _event(
        refused,
        "rejected",
        f"{package.package_id}:{len(refused.history)}:refused",
        decision=decision,
        issues=[issue, *package.issues],
        inadmissible=decision in _ACTIVATING,
        at=now,
        detail={"refused": decision, "reviewer": reviewer},
    )
    refused.outbox.append(event)
    return DecisionResult(refused, [event], error=issue, refused=True)


def _codes(package: Package) -> str:
    return ", ".join(i.code for i in package.issues) or "not valid"


def _event(
    package: Package,
    kind: PackageState,
    event_id: str,
    *,
    decision: Decision | None = None,
    issues: list[Issue] | None = None,
    latency: float | None = None,
    inadmissible: bool = False,
    at: datetime | None = None,
    detail: dict | None = None,
) -> KnowledgeEvent:
    if isinstance(package, CatalogPackage):
        return KnowledgeEvent(
            event_id=event_id,
            kind=kind,
            package_id=package.package_id,
            detail={"catalog_version": package.catalog.version, **(detail or {})},
            created_at=at or utcnow(),
            decision=decision,
            activation_latency_seconds=latency,
            inadmissible=inadmissible,
            issues=issues or [],
            catalog=package.catalog if kind == "activated" else None,
        )
    return KnowledgeEvent(
        event_id=event_id,
        kind=kind,
        package_id=package.package_id,
        analysis_hash=package.analysis_hash,
        family=package.family,
        evidence_source=package.evidence_source,
        supporting_evidence_ids=package.supporting_evidence_ids,
        probe_template_ids=package.probe_template_ids,
        verified_actions=package.verified_actions,
        provenance=package.provenance,
        detail=detail or {},
        created_at=at or utcnow(),
        decision=decision,
        activation_latency_seconds=latency,
        inadmissible=inadmissible,
        issues=issues or [],
    )


# -- family catalogs --------------------------------------------------------------------------
CATALOG_ISSUES: dict[str, str] = {  # docs/knowledge.md has a row for each
    "KC409": "a catalog of that version with other content is stored; give the change a new version",
    "KC422": "the catalog's signatures include an expression RE2 refuses (stored `rejected`, never activated)",
}


def catalog_package_id(version: str) -> str:
    """One package per catalog version."""
    return f"kc-{version}"


def catalog_changes(catalog: FamilyCatalog, against: FamilyCatalog | None) -> CatalogChanges:
    """Families and signatures added and removed against the catalog active when proposed."""

    def listed(c: FamilyCatalog | None) -> set[str]:
        if c is None:
            return set()
        return {f"{f.name}/{stance}/{s.key}" for f in c.families
                for stance, sigs in (("supports", f.supports), ("refutes", f.refutes)) for s in sigs}

    old_families = {f.name for f in against.families} if against else set()
    new_families = {f.name for f in catalog.families}
    return CatalogChanges(
        against=against.version if against else None,
        added_families=sorted(new_families - old_families),
        removed_families=sorted(old_families - new_families),
        added_signatures=sorted(listed(catalog) - listed(against)),
        removed_signatures=sorted(listed(against) - listed(catalog)),
    )


def propose_catalog(
    catalog: FamilyCatalog, *, proposed_by: str, against: FamilyCatalog | None, now: datetime | None = None
) -> CatalogPackage:
    """A catalog as a candidate package, with what it changes and its ``candidate`` event in the outbox.

    A catalog whose signatures the matcher cannot compile is refused (``rejected``, ``KC422``), as a
    promotion that breaks a rule is: it can never be activated.
    """
    now = now or utcnow()
    issues = [Issue(code="KC422", message=p) for p in problems(catalog)]
    package = CatalogPackage(
        package_id=catalog_package_id(catalog.version),
        catalog=catalog,
        state="rejected" if issues else "candidate",
        valid=not issues,
        issues=issues,
        changes=catalog_changes(catalog, against),
        proposed_by=proposed_by,
        candidate_at=now,
        updated_at=now,
    )
    kind: PackageState = "candidate" if package.valid else "rejected"
    package.outbox.append(_event(package, kind, f"{package.package_id}:{kind}", issues=issues, at=now,
                                 detail={"proposed_by": proposed_by}))
    return package


# -- read models -------------------------------------------------------------------------------
def active(packages: list[KnowledgePackage]) -> list[KnowledgePackage]:
    """The runtime snapshot's content: activated packages only (never shadowed/candidates)."""
    return sorted((p for p in packages if p.state == "activated"), key=lambda p: p.package_id)
