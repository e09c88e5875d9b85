"""What the gates and the rubric read: derived once from a draft and its ledger."""

from __future__ import annotations

from dataclasses import dataclass

from rcaloop.judge.reading import places
from rcaloop.judge.reading.places import Role

from rcaloop.contracts.verdict import LedgerClaim
from rcaloop.judge import steps as actions, alert, families, ledger
from rcaloop.judge.steps import Action, Violation
from rcaloop.judge.draft import Draft, named_family, stated_confidence
from rcaloop.judge.evidence import SIGNATURE_GROUP, UNCOUNTED_GROUPS, Evidence, kind_of, kinds
from rcaloop.judge.ledger import SIGNATURE_KINDS, Ledger

NO_CAUSE = "the output names no cause and says so: there is no cause to hold to this rule"
DEGRADED_KINDS = kinds("tool_error", "degraded", "unavailable", "missing", "timeout")


@dataclass
class Facts:
    draft: Draft
    ledger: Ledger
    by_id: dict[str, Evidence]
    live: list[Evidence]
    root_live: list[Evidence]
    """Live evidence supporting the root cause (only what the agent tied to it and that traced)."""
    root_refuting: list[Evidence]
    root_groups: list[str]
    """Independent source groups of the root cause's support: never a symptom's, never ``unrecognized``."""
    signature: list[str]
    confidence: str | None
    violations: list[Violation]
    alert_status: str | None
    family: str | None
    target_verified: list[str]
    """Root-cause support observed on the alert's own target."""

    @property
    def root(self) -> LedgerClaim | None:
        return self.ledger.root

    @property
    def actions(self) -> list[actions.Action]:
        return [a for seq in self.draft.sequences for a in seq]

    @property
    def no_cause(self) -> bool:
        """The output names no cause and says so (an early exit, or "cause unknown"): the rules that judge a
        cause do not apply, and high confidence cannot stand."""
        return self.root is None and self.ledger.cause_unknown

    @property
    def proposed(self) -> list[Action]:
        """The steps the agent proposed (not the guards a repair added, not what it forbids)."""
        return [a for a in self.actions if not a.added and not a.prohibition]

    @property
    def stated(self) -> str | None:
        """The confidence as the agent wrote it (before any repair)."""
        return stated_confidence(self.draft.parsed)


def alert_text(draft: Draft) -> str:
    p = draft.parsed
    return p.alert_text or (p.context.body if p.context else "") or ""


def derive(draft: Draft) -> Facts:
    built = ledger.build(draft)
    by_id = {ev.id: ev for ev in draft.evidence}
    live = [ev for ev in draft.evidence if ev.live]
    root_live = [by_id[i] for i in (built.root.supports if built.root else [])]
    refuting = [by_id[i] for i in (built.root.refutes if built.root else [])]
    grounds = root_live + [by_id[i] for i in built.corroborating]
    return Facts(
        draft=draft,
        ledger=built,
        by_id=by_id,
        live=live,
        root_live=root_live,
        root_refuting=refuting,
        root_groups=_groups(grounds, by_id, draft.provenance.duplicates),
        signature=_signatures(draft, built, root_live, grounds),
        confidence=draft.confidence,
        violations=actions.all_violations(draft.sequences),
        alert_status=alert.generic_status(alert_text(draft)),
        family=named_family(draft),
        target_verified=_on_target(draft, built, grounds),
    )


def _groups(grounds: list[Evidence], by_id: dict[str, Evidence], duplicates: dict[str, str]) -> list[str]:
    """The independent source groups of the grounds: never a symptom's, never an uncounted group, and a copy
    of an observation counts under the collector of the first (one log line in two backends is one group)."""
    out = set()
    for ev in grounds:
        first = by_id.get(duplicates.get(ev.id, ev.id), ev)
        if not ev.item.symptom and not first.item.symptom and first.group not in UNCOUNTED_GROUPS:
            out.add(first.group)
    return sorted(out)


def _signatures(draft: Draft, built: Ledger, root_live: list[Evidence], grounds: list[Evidence]) -> list[str]:
    """The root cause's confirmed signatures: a matcher's finding tied to it, or a ground showing a signature
    of the family the cause is about (``rcaloop.judge.families``)."""
    found = [ev.id for ev in root_live if confirmed_signature(ev)]
    if built.root is None:
        return found
    catalog = draft.catalog or families.default()
    about = families.of_cause(catalog, named_family(draft), built.root.text)
    found += [ev_id for ev_id, _ in families.confirming(catalog, about, grounds) if ev_id not in found]
    return found


def _on_target(draft: Draft, built: Ledger, grounds: list[Evidence]) -> list[str]:
    """The grounds that observe the alert's own target and support the cause there: live, naming the target,
    not restating the alert, and — when the cause is a family the catalog knows — showing a supporting
    signature of that family and no refuting one (an OOM kill does not verify an image-pull failure)."""
    on_target = [ev for ev in grounds if ev.item.target_verified and not ev.item.symptom]
    if built.root is None:
        return [ev.id for ev in on_target]
    catalog = draft.catalog or families.default()
    about = families.known(catalog, named_family(draft))
    if not about:
        return [ev.id for ev in on_target]
    return [ev_id for ev_id, _ in families.confirming(catalog, about, on_target)]


def confirmed_signature(ev: Evidence) -> bool:
    """A signature is confirmed by the signature matcher that found it, not by an item's ``kind`` label."""
    return ev.live and ev.group == SIGNATURE_GROUP and kind_of(ev.item.kind) in SIGNATURE_KINDS


def ids(items: list[Evidence]) -> str:
    return ", ".join(f"{ev.id} ({ev.group})" for ev in items) or "none"


def report_text(draft: Draft) -> str:
    p = draft.parsed
    return "\n".join([draft.report, p.chat.markdown if p.chat else ""])


def degraded_sources(draft: Draft) -> list[Evidence]:
    return [ev for ev in draft.evidence if kind_of(ev.item.kind) in DEGRADED_KINDS]


def summary_present(draft: Draft) -> bool:
    p, diag = draft.parsed, draft.diagnosis
    return bool(
        (p.chat and p.chat.sections.tldr)
        or places.section_of(p.report_markdown, Role.SUMMARY)
        or (diag and diag.root_cause and diag.root_cause.summary)
    )
