"""Deterministic repairs, one rule per attempt, re-checked after each attempt.

Rules are tried in list order; an attempt applies the first rule that has something to
repair, then every check runs again. At most ``MAX_RCA_REPAIR_ATTEMPTS`` attempts; a
hard gate still failing afterwards makes the verdict ``insufficient_evidence``. Repairs
never invent evidence: a claim without evidence is dropped or marked, never "fixed".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from rcaloop.contracts import Recommendation
from rcaloop.contracts.verdict import Repair
from rcaloop.judge import report
from rcaloop.judge.steps import GUARD_TEXTS, Action, Violation, checked_before, listed_checks, violations
from rcaloop.judge.draft import Draft
from rcaloop.judge.facts import Facts, derive
from rcaloop.judge.ledger import _same_origin
from rcaloop.judge.rules import BY_ID
from rcaloop.shared import jsonpath

UNVERIFIED = "Unverified (no evidence in this run): "
DROPPED_MARK = " _(harness: unverified, no matching evidence in this run)_"
GUARDS: dict[str, tuple[str, str]] = {
    "read-only check": ("add_read_only_check", GUARD_TEXTS[0]),
    "impact/rollback guidance": ("add_impact_rollback_note", GUARD_TEXTS[1]),
    "operator approval": ("add_approval_step", GUARD_TEXTS[2]),
}
MIN_RELOCATED = 12
"""A cited value is relocated only when it is text this long: a number, a flag or a short word
found once elsewhere says nothing about where the agent looked."""
LOWER = {"high": "medium", "medium": "low"}


@dataclass(frozen=True)
class RepairRule:
    name: str
    kinds: tuple[str, ...]
    rule: str
    apply: Callable[[Draft, Facts, int], list[Repair]]
    mends: str
    """The id of the rule whose failure it mends (each repair it makes names it)."""


def _gate_failed(f: Facts, code: str) -> bool:
    return not BY_ID[code].judge(f).passed


def _unlinked_traces(f: Facts) -> list[int]:
    out = []
    for claim in f.ledger.cited:
        if claim.status == "unlinked" and claim.origin and claim.origin.startswith("diagnosis.evidence["):
            out.append(int(claim.origin[len("diagnosis.evidence["):-1]))
    return out


def _locate(draft: Draft, i: int) -> str | None:
    """The one place a cited value really is, among artifacts of the same file; None if not exactly one."""
    item = draft.traces[i]
    wanted = item.exact_value if item.exact_value is not None else item.exact_quote
    if not isinstance(wanted, str) or len(wanted.strip()) < MIN_RELOCATED:
        return None

    def hit(value: object) -> bool:
        if item.exact_value is not None:
            return jsonpath.values_equal(item.exact_value, value)
        return isinstance(value, str) and item.exact_quote is not None and item.exact_quote in value

    found: list[str] = []
    for ev in draft.evidence:
        if not ev.live or not _same_origin(ev, item):
            continue
        base = jsonpath.try_parse(ev.item.json_path) if ev.item.json_path else []
        if base is None:
            continue
        found += [jsonpath.render(base + p) for p in jsonpath.find(ev.value, hit, limit=2)]
        if len(found) > 1:
            return None
    return found[0] if len(found) == 1 else None


def _fix_traces(draft: Draft, f: Facts, attempt: int) -> list[Repair]:
    out = []
    for i in _unlinked_traces(f):
        new = _locate(draft, i)
        if new is None or new == draft.traces[i].json_path:
            continue
        before = draft.traces[i].json_path
        draft.traces[i].json_path = new
        out.append(Repair(attempt=attempt, kind="fix_evidence_trace", target=f"diagnosis.evidence[{i}].json_path",
                          reason=f"the cited value is not at {before} but at exactly one place in the same file",
                          before=before, after=new))
    return out


def _drop_untraceable(draft: Draft, f: Facts, attempt: int) -> list[Repair]:
    out = []
    for claim in f.ledger.cited:
        if claim.status != "unlinked" or not claim.origin or claim.historical:
            continue  # a claim that cites history cites real context: not fabrication
        index = int(claim.origin.rsplit("[", 1)[1].rstrip("]"))
        reason = f"untraceable: {claim.note}"
        if claim.origin.startswith("diagnosis.evidence["):
            draft.dropped_traces[index] = reason
        else:
            draft.dropped_agent_claims[index] = reason
        if claim.text and claim.text in draft.report:
            at = draft.report.find("\n", draft.report.find(claim.text))
            at = len(draft.report) if at < 0 else at
            draft.report = draft.report[:at] + DROPPED_MARK + draft.report[at:]
        out.append(Repair(attempt=attempt, kind="drop_untraceable_claim", target=claim.origin, reason=reason,
                          before=claim.text, after=None))
    root = f.root
    if root is not None and (not root.supports or root.untraced) and draft.root_marked is None:
        draft.root_marked = UNVERIFIED + root.text
        why = f"cites evidence that does not trace: {'; '.join(root.untraced)}" if root.untraced else root.note
        out.append(Repair(attempt=attempt, kind="mark_untraceable_claim", target="root_cause",
                          reason=f"the root cause does not trace to live evidence ({why})"[:600],
                          before=root.text, after=draft.root_marked))
    return out


def _lower_confidence(draft: Draft, f: Facts, attempt: int) -> list[Repair]:
    """Refuting live evidence lowers the root cause's confidence one level (once); high
    confidence failing gate G1 becomes medium."""
    before = after = draft.confidence
    reasons = []
    if f.root_refuting and after in LOWER and "refuted" not in draft.confidence_lowered_for:
        draft.confidence_lowered_for.add("refuted")
        after = LOWER[after]
        reasons.append(f"live evidence refutes the root cause: {', '.join(ev.id for ev in f.root_refuting)}")
    if after == "high" and _gate_failed(f, "G1"):
        after = "medium"
        reasons.append(
            f"high confidence needs two independent live source groups or a confirmed signature; "
            f"the root cause has {len(f.root_groups)} ({', '.join(f.root_groups) or 'none'})"
        )
    if after == before:
        return []
    draft.confidence = after
    line = re.compile(rf"(?m)^(\s*confidence:\s*){before}\s*$")
    draft.report = line.sub(rf"\g<1>{after}", draft.report, count=1)
    return [Repair(attempt=attempt, kind="lower_confidence", target="confidence", reason="; ".join(reasons),
                   before=before, after=after)]


def _guardrails(draft: Draft, f: Facts, attempt: int) -> list[Repair]:
    """Guards go before the first unguarded step of each sequence, then the sequence is read again:
    the inserted guards carry forward, so a later step lacking the same guards needs no second copy."""
    out = []
    listed = listed_checks(draft.sequences)
    for seq in draft.sequences:
        checked = checked_before(seq, listed)
        while found := violations(seq, checked):
            out += _guard(draft, seq, found[0], attempt)
    return out


def _guard(draft: Draft, seq: list[Action], v: Violation, attempt: int) -> list[Repair]:
    """Insert the missing guards right before ``v``'s step (in the sequence, the recommendations and the report)."""
    at = next(i for i, a in enumerate(seq) if a is v.action)
    texts = [GUARDS[m][1] for m in v.missing]
    seq[at:at] = [Action(t, "harness", added=True) for t in texts]
    if v.action.origin.startswith("recommendations["):
        rec_at = next((i for i, r in enumerate(draft.recommendations) if r.action == v.action.text), None)
        if rec_at is not None:
            draft.recommendations[rec_at:rec_at] = [Recommendation(priority="high", action=t) for t in texts]
    edited = report.insert_before_line_containing(draft.report, v.action.text.strip(), texts)
    if edited is not None:
        draft.report = edited
    return [
        Repair(attempt=attempt, kind=GUARDS[m][0], target=v.action.origin,
               reason=f"{v.verb!r} was proposed without {m}",
               before=v.action.text, after=f"{GUARDS[m][1]} → {v.action.text}")
        for m in v.missing
    ]


RULES: tuple[RepairRule, ...] = (
    RepairRule("evidence_traces", ("fix_evidence_trace",),
               "A cited value that is not at its json_path but at exactly one place of the same file gets its path "
               "fixed.",
               _fix_traces, "G2"),
    RepairRule("untraceable_claims", ("drop_untraceable_claim", "mark_untraceable_claim"),
               "Cited evidence that still does not trace is dropped; a root cause without live evidence is marked "
               "unverified.",
               _drop_untraceable, "G2"),
    RepairRule("over_confidence", ("lower_confidence",),
               "Live evidence refuting the root cause lowers its confidence one level (once); high confidence "
               "failing gate G1 is lowered to medium.", _lower_confidence, "G1"),
    RepairRule("safety_guardrails", ("add_read_only_check", "add_impact_rollback_note", "add_approval_step"),
               "Each missing guard is inserted before the mutating action that lacks it.", _guardrails, "G3"),
)
REPAIR_KINDS: tuple[str, ...] = tuple(k for r in RULES for k in r.kinds)


def run(draft: Draft, max_attempts: int) -> tuple[list[Repair], Facts]:
    """Repair until nothing is left to repair or the attempts are spent; the final facts."""
    repairs: list[Repair] = []
    facts = derive(draft)
    for attempt in range(1, max_attempts + 1):
        made: list[Repair] = []
        for rule in RULES:
            made = [r.model_copy(update={"rule": rule.mends}) for r in rule.apply(draft, facts, attempt)]
            if made:
                break
        if not made:
            break
        repairs += made
        facts = derive(draft)
    return repairs, facts
