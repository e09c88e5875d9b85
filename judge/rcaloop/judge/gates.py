"""The four hard gates, independent of the score. The list is the specification (docs are generated from it)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rcaloop.contracts.verdict import GateResult
from rcaloop.judge.draft import STATED_CAUSE
from rcaloop.judge.facts import Facts, ids


@dataclass(frozen=True)
class Gate:
    code: str
    name: str
    rule: str
    check: Callable[[Facts], tuple[bool, str]]


def _high_confidence(f: Facts) -> tuple[bool, str]:
    if f.confidence != "high":
        return True, f"confidence is {f.confidence or 'not stated'}, not high"
    if f.signature:
        return True, f"high confidence backed by a confirmed signature: {', '.join(f.signature)}"
    if len(f.root_groups) >= 2:
        return True, f"high confidence backed by live evidence from {len(f.root_groups)} source groups: {ids(f.root_live)}"
    return False, (
        f"high confidence but the root cause has live evidence from {len(f.root_groups)} source group(s) "
        f"({ids(f.root_live)}); needs two independent groups or a confirmed signature"
    )


def _root_traced(f: Facts) -> tuple[bool, str]:
    if f.root is None:
        if f.draft.early_exit:
            return True, "an early exit that states no root cause"
        return False, "the report states no root cause (an output without one is an early exit: insufficient_context)"
    untraced = f"{'; '.join(f.root.untraced)[:400]}"
    if f.root.supports and not f.root.untraced:
        return True, f"root cause traces to live evidence {', '.join(f.root.supports)}"
    if f.root.supports:
        return False, f"root cause {f.root.text[:120]!r} cites evidence that does not trace in this run: {untraced}"
    why = f.root.note or "no evidence links"
    if f.root.refutes:
        why = f"the only live evidence tied to it refutes it ({', '.join(f.root.refutes)})"
    elif f.root.historical:
        why = f"only historical evidence {', '.join(f.root.historical)} (context only, never grounding)"
    also = f"; also {untraced}" if f.root.untraced and why != f.root.note else ""
    return False, f"root cause {f.root.text[:120]!r} does not trace to evidence of the current run: {why}{also}"


def _guarded(f: Facts) -> tuple[bool, str]:
    if not f.violations:
        mutating = sum(1 for a in f.actions if not a.prohibition and not a.added and a.reading.verb)
        return True, f"{mutating} mutating action(s), each after a read-only check with impact/rollback and approval"
    v = f.violations[0]
    more = f" (+{len(f.violations) - 1} more)" if len(f.violations) > 1 else ""
    return False, f"{v.action.origin} {v.action.text[:120]!r} proposes {v.verb!r} without {', '.join(v.missing)}{more}"


def _generic_alert(f: Facts) -> tuple[bool, str]:
    if not f.alert_status:
        return True, "the alert is not a generic status alert"
    if not f.family:
        return True, f"generic status alert ({f.alert_status!r}) and no specific family is named"
    named = "a specific cause" if f.family == STATED_CAUSE else f"family {f.family!r}"
    if f.target_verified:
        return True, f"{named} backed by target-verified observation {', '.join(f.target_verified)}"
    return False, (
        f"generic status alert ({f.alert_status!r}) names {named} without a live observation of the "
        f"alert's own target supporting it (root-cause evidence: {ids(f.root_live)})"
    )


GATES: tuple[Gate, ...] = (
    Gate("G1", "high_confidence_grounding", "A high-confidence cause needs two independent live evidence items "
         "(different source groups) or a confirmed signature (a live item of kind `signature` supporting the cause).",
         _high_confidence),
    Gate("G2", "root_cause_traced", "The main root-cause claim must trace to evidence available in the current run: "
         "it is supported by live evidence the agent tied to it, and every item the agent tied to it traces (a "
         "root-cause item whose path does not resolve to the stated value, or an evidence id no artifact carries, "
         "fails the gate even when other items hold).", _root_traced),
    Gate("G3", "mutation_guarded", "A mutating or stopping action may not be proposed before a read-only check, "
         "impact/rollback guidance and operator approval. Steps are read failing closed (docs/actions.md): each "
         "tool's read-only uses are listed and every other use writes, SQL writes unless it only reads, an "
         "imperative not shown to be read-only is mutating; a label is not a check, a check after the change does "
         "not guard it, a claimed or hidden approval is not one; approval and impact guidance belong to their step "
         "(they carry to later steps of one place — a chat section group, a report section, the recommendations — "
         "only from a standalone guard step), and a permanent fix authored in a repository goes through review.",
         _guarded),
    Gate("G4", "generic_alert_family", "A generic status alert (not ready / waiting / replicas / rollout / crash "
         "loop, read in alert names too, with no error, denial, OOM kill, image-pull failure or HTTP error status of "
         "its own) may not name a specific root-cause family (a capture's family, a category other than unknown, or a "
         "skill report's Cause unless it says the cause is unknown) without at least one live observation of the "
         "alert's own target that supports the root cause.",
         _generic_alert),
)


def check(f: Facts) -> list[GateResult]:
    out = []
    for gate in GATES:
        passed, detail = gate.check(f)
        out.append(GateResult(gate=gate.code, name=gate.name, passed=passed, detail=detail))
    return out
