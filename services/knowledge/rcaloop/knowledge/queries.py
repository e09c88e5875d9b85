"""What the graph queries answer, and the pure steps that turn their rows into answers.

Each store runs the same queries in its own language (TypeQL in ``typeql.py``, SQL in
``sqlite_store.py``) and returns the rows below; everything after the rows happens here,
once, so the two stores cannot answer differently. docs/knowledge.md lists every query.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, TypeVar

from pydantic import BaseModel, Field

from rcaloop.contracts.knowledge import ProbeMetric
from rcaloop.knowledge.ranking import ProbeCandidate, rank_probes

if TYPE_CHECKING:
    from rcaloop.knowledge.store import IncidentFacts

T = TypeVar("T")
CONFIRMING_PLANES = 2
"""A hypothesis is confirmed once live evidence from this many independent planes supports it."""


# -- rows the stores return ----------------------------------------------------------------------
@dataclass(frozen=True, order=True)
class HypothesisFact:
    """One hypothesis of the incident: its family and rank, how many planes support it, whether refuted."""

    key: str
    family: str | None
    rank: int | None
    support_planes: int
    refuted: bool

    @property
    def resolved(self) -> bool:
        return self.refuted or self.support_planes >= CONFIRMING_PLANES


@dataclass(frozen=True, order=True)
class CatalogRow:
    """A probe template as approved snapshots show it: run on a collector and plane, telling a family apart."""

    probe_template_id: str
    collector: str
    plane: str
    family: str


@dataclass(frozen=True, order=True)
class ActionRow:
    action: str
    incident_id: str
    outcome: str
    package_id: str


@dataclass(frozen=True, order=True)
class SimilarRow:
    """Another incident with an activated package, and what it shares: a family or the alert."""

    incident_id: str
    package_id: str
    family: str | None
    shared: Literal["family", "alert"]
    shared_value: str


# -- answers -------------------------------------------------------------------------------------------
class OpenHypothesis(BaseModel):
    family: str | None
    rank: int | None = Field(description="best position of the family among the ranked candidates")
    hypothesis_keys: list[str]


class RankedProbe(BaseModel):
    probe_template_id: str
    collector: str
    plane: str
    new_collector: bool = Field(description="its collector has not been observed in this incident")
    independent_plane: bool = Field(description="no observation of this incident came from its plane")
    discriminates: int = Field(description="open hypotheses (by family) its range told apart in approved cases")
    covers: list[str] = Field(description="the open families it discriminates")
    plan_fit: float = Field(description="1/rank of the best-ranked open family it covers (0 when none is ranked)")


class ProbePlan(BaseModel):
    incident_id: str
    observed_collectors: list[str]
    observed_planes: list[str]
    open_hypotheses: list[OpenHypothesis]
    resolved_families: list[str] = Field(description="refuted, or confirmed by two independent planes")
    probes: list[RankedProbe] = Field(description="best first")


class VerifiedAction(BaseModel):
    family: str
    action: str
    resolved: int = Field(description="incidents it resolved")
    mitigated: int = Field(description="incidents it mitigated")
    incidents: list[str]
    package_ids: list[str]


class SimilarIncident(BaseModel):
    incident_id: str
    history: Literal[True] = Field(
        default=True, description="always true: past knowledge is context, never evidence of the current run"
    )
    shared_families: list[str]
    shared_alert: str | None = None
    families: list[str] = Field(description="the families its activated packages diagnosed")
    package_ids: list[str]


# -- rows → answers -----------------------------------------------------------------------------------
def probe_metrics(outcomes: Iterable[tuple[str, str, int]],
                  contributions: Iterable[tuple[str, int]]) -> list[ProbeMetric]:
    """``outcomes``: (template, outcome, executions); ``contributions``: (template, executions)."""
    metrics: dict[str, ProbeMetric] = {}
    for template, outcome, n in outcomes:
        m = metrics.setdefault(template, ProbeMetric(probe_template_id=template))
        m.executions += n
        m.supports += n if outcome == "supports" else 0
        m.refutes += n if outcome == "refutes" else 0
    for template, n in contributions:
        metrics.setdefault(template, ProbeMetric(probe_template_id=template)).contributions += n
    return sorted(metrics.values(), key=lambda m: m.probe_template_id)


def probe_plan(facts: IncidentFacts) -> ProbePlan:
    """Open hypotheses of the incident, then the catalog's probes ranked for them (``ranking.rank_probes``).

    A family is open when one of the incident's hypotheses names it and none of them is
    resolved (refuted by live evidence of a probe, or supported by live evidence of two
    independent planes). Plan fit follows the investigation's ranked candidates.
    """
    resolved = {h.family for h in facts.hypotheses if h.resolved and h.family}
    open_rows: dict[str | None, list[HypothesisFact]] = defaultdict(list)
    for h in sorted(facts.hypotheses):
        if not h.resolved and h.family not in resolved:
            open_rows[h.family].append(h)
    open_hypotheses = sorted(
        (
            OpenHypothesis(family=family, rank=_best(h.rank for h in rows), hypothesis_keys=[h.key for h in rows])
            for family, rows in open_rows.items()
        ),
        key=lambda o: (o.rank is None, o.rank or 0, o.family is None, o.family or ""),
    )
    rank = {o.family: o.rank for o in open_hypotheses if o.family}
    candidates = []
    grouped: dict[tuple[str, str, str], set[str]] = defaultdict(set)
    for row in facts.catalog:
        grouped[(row.probe_template_id, row.collector, row.plane)].add(row.family)
    for (template, collector, plane), families in sorted(grouped.items()):
        best = _best(rank.get(f) for f in families)
        candidates.append(ProbeCandidate(template, collector, plane, frozenset(families), 1 / best if best else 0.0))
    ranked = rank_probes(candidates, rank, facts.observed_collectors, facts.observed_planes)
    return ProbePlan(
        incident_id=facts.incident_id,
        observed_collectors=sorted(facts.observed_collectors),
        observed_planes=sorted(facts.observed_planes),
        open_hypotheses=open_hypotheses,
        resolved_families=sorted(resolved),
        probes=[
            RankedProbe(
                probe_template_id=r.probe_template_id,
                collector=r.probe.collector,
                plane=r.probe.plane,
                new_collector=r.new_collector,
                independent_plane=r.independent_plane,
                discriminates=r.discriminates,
                covers=sorted(r.probe.covers & rank.keys()),
                plan_fit=r.probe.plan_fit,
            )
            for r in ranked
        ],
    )


def _best(ranks: Iterable[int | None]) -> int | None:
    known = [r for r in ranks if r is not None]
    return min(known) if known else None


def _grouped(rows: Iterable[T], key: Callable[[T], str]) -> dict[str, list[T]]:
    """Distinct rows grouped by ``key``."""
    groups: dict[str, list[T]] = defaultdict(list)
    for row in set(rows):
        groups[key(row)].append(row)
    return groups


def verified_actions(family: str, rows: Iterable[ActionRow]) -> list[VerifiedAction]:
    """One entry per action, most incidents first."""
    answers = [
        VerifiedAction(
            family=family,
            action=action,
            resolved=len({r.incident_id for r in rows if r.outcome == "resolved"}),
            mitigated=len({r.incident_id for r in rows if r.outcome == "mitigated"}),
            incidents=sorted({r.incident_id for r in rows}),
            package_ids=sorted({r.package_id for r in rows}),
        )
        for action, rows in _grouped(rows, lambda r: r.action).items()
    ]
    return sorted(answers, key=lambda a: (-len(a.incidents), a.action))


def similar_incidents(rows: Iterable[SimilarRow]) -> list[SimilarIncident]:
    """One entry per incident, most shared first (each shared family counts one, the alert one)."""
    answers = [
        SimilarIncident(
            incident_id=incident,
            shared_families=sorted({r.shared_value for r in rows if r.shared == "family"}),
            shared_alert=next((r.shared_value for r in sorted(rows) if r.shared == "alert"), None),
            families=sorted({r.family for r in rows if r.family}),
            package_ids=sorted({r.package_id for r in rows}),
        )
        for incident, rows in _grouped(rows, lambda r: r.incident_id).items()
    ]
    return sorted(answers, key=lambda s: (-(len(s.shared_families) + (s.shared_alert is not None)), s.incident_id))
