"""What the gates and the rubric read: derived once from a draft and its ledger."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from rcaloop.contracts.verdict import LedgerClaim
from rcaloop.harness import actions, ledger, report
from rcaloop.harness.actions import Violation
from rcaloop.harness.draft import Draft
from rcaloop.harness.evidence import Evidence
from rcaloop.harness.ledger import Ledger

GENERIC_STATUS = re.compile(
    r"\bnon[- ]?ready\b|\bnot[- ]?ready\b|\bnotready\b|\bwaiting\b|\breplicas?\b|\brollout\b|\bunavailable replicas\b|"
    r"\bprogressdeadlineexceeded\b",
    re.I,
)
ERROR_SIGNAL = re.compile(
    r"error\b|exception\b|\bdenied\b|\brefused\b|\bforbidden\b|\bunauthori[sz]ed\b|oomkill|\bexit code\b|\bpanic\b|"
    r"\btraceback\b|\bsegfault\b|\bcertificate\b|\bno such\b|\bnot found\b|\bHTTP [45]\d\d\b|\b[45]\d\d\b",
    re.I,
)
"""An alert carrying one of these names its own failure: it is not a generic status alert."""
NO_FAMILY = frozenset({"", "unknown", "undetermined", "unresolved", "novel", "none", "n/a"})
SIGNATURE_KINDS = frozenset({"signature", "confirmed_signature"})
DEGRADED_KINDS = frozenset({"tool_error", "degraded", "unavailable", "missing", "timeout"})


@dataclass
class Facts:
    draft: Draft
    ledger: Ledger
    by_id: dict[str, Evidence]
    live: list[Evidence]
    root_live: list[Evidence]
    root_groups: list[str]
    signature: list[str]
    confidence: str | None
    violations: list[Violation]
    alert_status: str | None
    family: str | None
    target_verified: list[str]
    early_exit: bool

    @property
    def root(self) -> LedgerClaim | None:
        return self.ledger.root

    @property
    def actions(self) -> list[actions.Action]:
        return [a for seq in self.draft.sequences for a in seq]


@lru_cache(maxsize=1024)
def _generic_status(text: str) -> str | None:
    """The status word of a generic status alert (non-ready / waiting / replicas / rollout without an error)."""
    m = GENERIC_STATUS.search(text)
    return m.group(0) if m and not ERROR_SIGNAL.search(text) else None


def alert_text(draft: Draft) -> str:
    p = draft.parsed
    return p.alert_text or (p.context.body if p.context else "") or ""


def named_family(draft: Draft) -> str | None:
    """The specific root-cause family the report names (capture family, else category)."""
    diag = draft.diagnosis
    if diag is None:
        return None
    for value in (diag.family, diag.root_cause.category if diag.root_cause else None):
        if value and value.strip().lower() not in NO_FAMILY:
            return value.strip()
    return None


def derive(draft: Draft) -> Facts:
    built = ledger.build(draft)
    by_id = {ev.id: ev for ev in draft.evidence}
    live = [ev for ev in draft.evidence if ev.live]
    root_live = [by_id[i] for i in (built.root.supports if built.root else [])]
    signature = [ev.id for ev in root_live if ev.item.kind.lower() in SIGNATURE_KINDS]
    status = _generic_status(alert_text(draft))
    return Facts(
        draft=draft,
        ledger=built,
        by_id=by_id,
        live=live,
        root_live=root_live,
        root_groups=sorted({ev.group for ev in root_live}),
        signature=signature,
        confidence=draft.confidence,
        violations=[v for seq in draft.sequences for v in actions.violations(seq)],
        alert_status=status,
        family=named_family(draft),
        target_verified=[ev.id for ev in live if ev.item.target_verified],
        early_exit=draft.parsed.outcome in ledger.EARLY_EXITS,
    )


def ids(items: list[Evidence]) -> str:
    return ", ".join(f"{ev.id} ({ev.group})" for ev in items) or "none"


def report_text(draft: Draft) -> str:
    p = draft.parsed
    return "\n".join([draft.report, p.chat.markdown if p.chat else ""])


def degraded_sources(draft: Draft) -> list[Evidence]:
    return [ev for ev in draft.evidence if ev.item.kind.lower() in DEGRADED_KINDS]


def summary_present(draft: Draft) -> bool:
    p, diag = draft.parsed, draft.diagnosis
    return bool(
        (p.chat and p.chat.sections.tldr)
        or report.section(p.report_markdown, "summary", "tl;dr")
        or (diag and diag.root_cause and diag.root_cause.summary)
    )
