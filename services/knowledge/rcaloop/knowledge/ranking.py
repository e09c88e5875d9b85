"""Investigation feedback loop: which probe to run next, as a pure function.

Among the valid probes for the open hypothesis set, rank first those whose collector
has not been observed yet, then those on an independent telemetry plane (one no
observation came from), then those whose range discriminates more unresolved
hypotheses, then by plan fit. Ties keep a stable order by template id. A template known
on several collectors is listed once, at its best place.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class ProbeCandidate:
    probe_template_id: str
    collector: str
    plane: str
    covers: frozenset[str] = field(default_factory=frozenset)
    """Hypothesis ids whose outcome this probe's range can tell apart."""
    plan_fit: float = 0.0
    """0–1: how well the probe fits the current investigation plan."""
    valid: bool = True


@dataclass(frozen=True)
class RankedProbe:
    probe: ProbeCandidate
    new_collector: bool
    independent_plane: bool
    discriminates: int

    @property
    def probe_template_id(self) -> str:
        return self.probe.probe_template_id


def rank_probes(
    probes: Iterable[ProbeCandidate],
    open_hypotheses: Iterable[str],
    observed_collectors: Iterable[str] = (),
    observed_planes: Iterable[str] = (),
) -> list[RankedProbe]:
    """Valid probes touching an open hypothesis, best first (see the module docstring)."""
    open_set = set(open_hypotheses)
    collectors, planes = set(observed_collectors), set(observed_planes)
    ranked = [
        RankedProbe(
            probe=p,
            new_collector=p.collector not in collectors,
            independent_plane=p.plane not in planes,
            discriminates=len(p.covers & open_set),
        )
        for p in probes
        if p.valid and p.covers & open_set
    ]
    ordered = sorted(
        ranked,
        key=lambda r: (
            not r.new_collector,
            not r.independent_plane,
            -r.discriminates,
            -r.probe.plan_fit,
            r.probe_template_id,
            r.probe.collector,
            r.probe.plane,
        ),
    )
    best: dict[str, RankedProbe] = {}
    for r in ordered:  # each template once, at its best place
        best.setdefault(r.probe_template_id, r)
    return list(best.values())
