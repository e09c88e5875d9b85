"""The knowledge graph as plain values, derived from the contracts (pure).

Both stores write exactly these facts — TypeDB as entities and relations, the embedded
store as rows — and read them back into the same values, so the contract suite can compare
what a store holds with what the contracts say. JSON bodies are kept beside the graph for
display only; no query reads them.

Provenance comes from the harness, not from the agent's labels: an evidence node's
collector, source group (its telemetry plane) and liveness are the harness verdict's;
a trace-v3 observation the harness never saw becomes a node without collector or group,
not live. A probe execution's collector and plane are those of the evidence it yielded.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from rcaloop.contracts import AnnotationRecord, HarnessVerdict
from rcaloop.contracts.knowledge import CatalogPackage, KnowledgePackage, TraceLedger, TraceObservation
from rcaloop.knowledge.case import VERIFIED_OUTCOMES, normalize_family, trace_ledger
from rcaloop.shared.analysis_subject import subject_of

MAX_ALERT_NAME = 200


@dataclass(frozen=True)
class EvidenceNode:
    key: str
    evidence_id: str
    collector: str | None
    plane: str | None
    """The source group: the telemetry plane of the collector, as the harness derived it."""
    live: bool
    target_verified: bool
    observed_at: datetime | None
    time_relation: str


@dataclass(frozen=True)
class HypothesisNode:
    key: str
    hypothesis_id: str
    family: str | None
    is_root_cause: bool
    rank: int | None
    """1-based position of its family in the diagnosis's ranked candidates; None when unranked."""
    supported_by: tuple[str, ...]


@dataclass(frozen=True)
class ClaimNode:
    key: str
    claim_id: str
    kind: str
    status: str
    text: str
    supported_by: tuple[str, ...]
    refuted_by: tuple[str, ...]


@dataclass(frozen=True)
class ExecutionNode:
    key: str
    ordinal: int
    probe_template_id: str
    outcome: str
    collector: str | None
    plane: str | None
    hypothesis_key: str | None
    evidence_keys: tuple[str, ...]


@dataclass(frozen=True)
class RunGraph:
    analysis_hash: str
    incident_id: str
    alert_name: str | None
    incident_started_at: datetime | None
    verdict: str
    score: float
    evaluated_at: datetime
    evidence: tuple[EvidenceNode, ...]
    hypotheses: tuple[HypothesisNode, ...]
    claims: tuple[ClaimNode, ...]
    executions: tuple[ExecutionNode, ...]

    @property
    def planes(self) -> tuple[str, ...]:
        return tuple(sorted({p for p in (*(e.plane for e in self.evidence), *(x.plane for x in self.executions)) if p}))

    @property
    def families(self) -> tuple[str, ...]:
        return tuple(sorted({h.family for h in self.hypotheses if h.family}))

    @property
    def templates(self) -> tuple[str, ...]:
        return tuple(sorted({x.probe_template_id for x in self.executions}))


@dataclass(frozen=True)
class DecisionNode:
    key: str
    ordinal: int
    decision: str
    reviewer: str
    decided_at: datetime
    accepted: bool
    from_state: str
    to_state: str


@dataclass(frozen=True, order=True)  # a package's remediations are stored and compared sorted
class Remediation:
    action: str
    incident_id: str
    outcome: str


@dataclass(frozen=True)
class PackageGraph:
    package_id: str
    analysis_hash: str
    annotation_id: str
    state: str
    evidence_source: str
    valid: bool
    revision: int
    family: str | None
    promoted_run: str | None
    """The run it promotes; None when the run was not stored when the package was."""
    grounding: tuple[str, ...]
    decisions: tuple[DecisionNode, ...]
    remediations: tuple[Remediation, ...]


@dataclass(frozen=True, order=True)
class Listing:
    """A signature listed by a catalog under a family, supporting or refuting it."""

    family: str
    stance: str
    signature_key: str
    signature_kind: str


@dataclass(frozen=True)
class CatalogGraph:
    """A family catalog as the graph holds it: its state, its listings, its confirming probes, its decisions."""

    package_id: str
    version: str
    state: str
    valid: bool
    revision: int
    activated_at: datetime | None
    listings: tuple[Listing, ...]
    confirmations: tuple[tuple[str, str], ...]
    """(family, probe template id), sorted."""
    decisions: tuple[DecisionNode, ...]

    @property
    def families(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(listing.family for listing in self.listings))


@dataclass(frozen=True)
class ReviewNode:
    annotation_id: str
    analysis_hash: str
    kind: str
    resolution_outcome: str | None


# -- derivation --------------------------------------------------------------------------------
def incident_id(verdict: HarnessVerdict) -> str:
    """What every run of one incident shares: its analysis subject (the job, else the result id, else itself)."""
    return subject_of(verdict)


def alert_name(verdict: HarnessVerdict) -> str | None:
    """The alert's first line (its name and summary), when the run says which alert it analysed."""
    for line in (verdict.parsed.alert_text or "").splitlines():
        if line.strip():
            return line.strip()[:MAX_ALERT_NAME]
    return None


def utc(moment: datetime | None) -> datetime | None:
    """Times are stored in UTC; a time without a zone is read as UTC."""
    if moment is None:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def time_relation(label: str, observed_at: datetime | None, started_at: datetime | None) -> str:
    """An observation is before the incident only when its time shows it; a later one never is."""
    if observed_at is not None and started_at is not None:
        if observed_at < started_at:
            return "before_incident"
        return label if label in ("during_incident", "after_incident") else "during_incident"
    return "unknown" if label == "before_incident" else label


def key(analysis_hash: str, local_id: str) -> str:
    return f"{analysis_hash}/{local_id}"


def run_graph(verdict: HarnessVerdict) -> RunGraph:
    h = verdict.analysis_hash
    ledger, _ = trace_ledger(verdict)
    started = utc((ledger.incident_started_at if ledger else None) or verdict.parsed.incident_started_at)
    evidence = _evidence(verdict, ledger, started)
    known = {e.key for e in evidence}
    hypotheses = _hypotheses(verdict, ledger, known)
    by_id = {e.evidence_id: e for e in evidence}
    return RunGraph(
        analysis_hash=h,
        incident_id=incident_id(verdict),
        alert_name=alert_name(verdict),
        incident_started_at=started,
        verdict=verdict.verdict,
        score=float(verdict.score),
        evaluated_at=utc(verdict.evaluated_at),  # type: ignore[arg-type]
        evidence=evidence,
        hypotheses=hypotheses,
        claims=_claims(verdict, known),
        executions=_executions(h, ledger, by_id, {x.hypothesis_id for x in hypotheses}),
    )


def _evidence(
    verdict: HarnessVerdict, ledger: TraceLedger | None, started: datetime | None
) -> tuple[EvidenceNode, ...]:
    h = verdict.analysis_hash
    observed: dict[str, TraceObservation] = {}
    for observation in ledger.observations if ledger else []:
        observed.setdefault(observation.evidence_id, observation)
    nodes: dict[str, EvidenceNode] = {}
    for item in verdict.evidence:
        o = observed.get(item.id)
        seen = utc(o.observed_at) if o else None
        nodes.setdefault(item.id, EvidenceNode(
            key=key(h, item.id),
            evidence_id=item.id,
            collector=(item.collector or item.source).strip() or None,
            plane=item.source_group or None,
            live=item.live,
            target_verified=item.target_verified,
            observed_at=seen,
            time_relation=time_relation(o.time_relation if o else "unknown", seen, started),
        ))
    for evidence_id, o in observed.items():
        if evidence_id not in nodes:  # the harness never saw it: no provenance can be shown
            seen = utc(o.observed_at)
            nodes[evidence_id] = EvidenceNode(
                key(h, evidence_id), evidence_id, None, None, False, False, seen,
                time_relation(o.time_relation, seen, started),
            )
    return tuple(sorted(nodes.values(), key=lambda e: e.key))


def _hypotheses(verdict: HarnessVerdict, ledger: TraceLedger | None, known: set[str]) -> tuple[HypothesisNode, ...]:
    h = verdict.analysis_hash
    diagnosis = verdict.parsed.diagnosis
    ranked = [normalize_family(c) for c in (diagnosis.candidates if diagnosis else [])]
    chosen = normalize_family(diagnosis.family) if diagnosis else None
    ranked = list(dict.fromkeys(f for f in [*ranked, chosen] if f))
    rank = {family: n for n, family in enumerate(ranked, start=1)}
    nodes: dict[str, HypothesisNode] = {}
    if ledger is not None and ledger.hypotheses:
        for hyp in ledger.hypotheses:
            family = normalize_family(hyp.family)
            supported = tuple(sorted({key(h, i) for i in hyp.supporting_evidence_ids} & known))
            nodes.setdefault(hyp.id, HypothesisNode(
                key(h, hyp.id), hyp.id, family, hyp.is_root_cause, rank.get(family or ""), supported
            ))
    else:
        for family, n in rank.items():
            hid = f"candidate-{n}"
            nodes[hid] = HypothesisNode(key(h, hid), hid, family, family == chosen, n, ())
    return tuple(sorted(nodes.values(), key=lambda x: x.key))


def _claims(verdict: HarnessVerdict, known: set[str]) -> tuple[ClaimNode, ...]:
    h = verdict.analysis_hash
    nodes: dict[str, ClaimNode] = {}
    for c in verdict.claims:
        nodes.setdefault(c.id, ClaimNode(
            key(h, c.id), c.id, c.kind, c.status, c.text,
            tuple(sorted({key(h, i) for i in c.supports} & known)),
            tuple(sorted({key(h, i) for i in c.refutes} & known)),
        ))
    return tuple(sorted(nodes.values(), key=lambda c: c.key))


def _executions(
    h: str, ledger: TraceLedger | None, evidence: dict[str, EvidenceNode], hypothesis_ids: set[str]
) -> tuple[ExecutionNode, ...]:
    nodes = []
    for n, run in enumerate(ledger.probe_executions if ledger else [], start=1):
        yielded = [evidence[i] for i in dict.fromkeys(run.evidence_ids) if i in evidence]
        sources = [e for e in yielded if e.collector and e.plane]
        declared = (run.collector or "").strip()
        source = next((e for e in sources if e.collector == declared), sources[0] if sources else None)
        nodes.append(ExecutionNode(
            key=key(h, f"probe-{n}"),
            ordinal=n,
            probe_template_id=run.probe_template_id,
            outcome=run.outcome,
            collector=source.collector if source else None,
            plane=source.plane if source else None,
            hypothesis_key=key(h, run.hypothesis_id) if run.hypothesis_id in hypothesis_ids else None,
            evidence_keys=tuple(sorted(e.key for e in yielded)),
        ))
    return tuple(nodes)


def review_node(review: AnnotationRecord) -> ReviewNode:
    outcome = review.evaluation.resolution_outcome if review.evaluation else None
    return ReviewNode(review.annotation_id, review.analysis_hash, review.kind, outcome)


def package_graph(
    package: KnowledgePackage, run: RunGraph | None, review: ReviewNode | None
) -> PackageGraph:
    """The package's edges as a store writes them: only to nodes that exist when it is stored.

    Verified actions become remediation edges only when the stored review confirms the
    incident was resolved or mitigated — a recommendation alone proves nothing.
    """
    grounding: tuple[str, ...] = ()
    remediations: tuple[Remediation, ...] = ()
    if run is not None:
        known = {e.evidence_id for e in run.evidence}
        grounding = tuple(sorted(key(run.analysis_hash, i) for i in set(package.supporting_evidence_ids) & known))
        outcome = review.resolution_outcome if review is not None else None
        if outcome in VERIFIED_OUTCOMES:
            actions = dict.fromkeys(a.strip() for a in package.verified_actions if a.strip())
            remediations = tuple(sorted(Remediation(a, run.incident_id, outcome) for a in actions))
    return PackageGraph(
        package_id=package.package_id,
        analysis_hash=package.analysis_hash,
        annotation_id=package.annotation_id,
        state=package.state,
        evidence_source=package.evidence_source,
        valid=package.valid,
        revision=package.revision,
        family=normalize_family(package.family),
        promoted_run=run.analysis_hash if run is not None else None,
        grounding=grounding,
        decisions=decisions(package),
        remediations=remediations,
    )


def catalog_graph(package: CatalogPackage) -> CatalogGraph:
    """The catalog's families, signatures and probes as listings and confirmations (sorted, deduplicated)."""
    listings = sorted({
        Listing(family.name, stance, signature.key, signature.kind)
        for family in package.catalog.families
        for stance, signatures in (("supports", family.supports), ("refutes", family.refutes))
        for signature in signatures
    })
    confirmations = sorted({(f.name, t) for f in package.catalog.families for t in f.probe_template_ids})
    return CatalogGraph(
        package_id=package.package_id,
        version=package.catalog.version,
        state=package.state,
        valid=package.valid,
        revision=package.revision,
        activated_at=utc(package.activated_at),
        listings=tuple(listings),
        confirmations=tuple(confirmations),
        decisions=decisions(package),
    )


def decisions(package: KnowledgePackage | CatalogPackage) -> tuple[DecisionNode, ...]:
    return tuple(
        DecisionNode(
            key=f"{package.package_id}/decision-{n}",
            ordinal=n,
            decision=d.decision,
            reviewer=d.reviewer,
            decided_at=utc(d.at),  # type: ignore[arg-type]
            accepted=d.accepted,
            from_state=d.from_state,
            to_state=d.to_state,
        )
        for n, d in enumerate(package.history, start=1)
    )
