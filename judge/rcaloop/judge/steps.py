"""Proposed actions in the order an operator reads them, with the harness's bookkeeping.

Hard gate 3 reads these. Where steps are proposed (``rcaloop.judge.actions.proposals``) and
what a line says (mutating verb, guards: ``rcaloop.judge.actions``) are the readings the
gate's evaluation shares; this module adds what the repair needs (inserted guards).
"""

from __future__ import annotations

from dataclasses import dataclass

from rcaloop.contracts import ParsedRCA
from rcaloop.judge.actions import is_prohibition, unguarded
from rcaloop.judge.actions.proposals import proposals

ACTION_SECTIONS = ("recommend", "remediation", "mitigation", "next step", "actions", "immediate", "fix")
"""Report sections that name proposals (the rubric looks for one); what is read as a proposal
is every section that does not describe (``rcaloop.judge.actions.proposals``)."""
GUARD_TEXTS = (
    "Read-only check first: confirm the current state of the target of the next step (no changes yet).",
    "Impact and undo plan: write down who is affected by the next step and how to undo it before going ahead.",
    "Operator approval: get the on-call operator's explicit approval before the next step.",
)
"""The steps the harness inserts before an unguarded mutating action (the repair's only wording)."""


@dataclass
class Action:
    text: str
    origin: str
    added: bool = False
    reviewed: bool = False  # a change that goes through review (a permanent fix to a repository)

    @property
    def prohibition(self) -> bool:
        return is_prohibition(self.text)


@dataclass(frozen=True)
class Violation:
    action: Action
    verb: str
    missing: tuple[str, ...]


def sequences(parsed: ParsedRCA) -> list[list[Action]]:
    """Each place actions are proposed (chat, report, recommendations, early exit), in reading
    order: the one reading the gate's evaluation shares (``rcaloop.judge.actions.proposals``)."""
    return [[Action(p.text, p.origin, reviewed=p.reviewed) for p in seq] for seq in proposals(parsed)]


def violations(seq: list[Action]) -> list[Violation]:
    """Mutating actions not preceded by a read-only check, or lacking impact guidance or
    approval (the guards the repair inserts are read as the checks they stand for)."""
    found = unguarded([a.text for a in seq], {i for i, a in enumerate(seq) if a.reviewed})
    return [Violation(seq[u.index], u.verb, u.missing) for u in found]
