"""Proposed actions in the order an operator reads them (chat, report, recommendations).

Hard gate 3 reads these; what a line says (mutating verb, guards) is decided by
``rcaloop.shared.actions``, the vocabulary the gate's eval shares.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rcaloop.contracts import ParsedRCA
from rcaloop.contracts.parsed import Diagnosis
from rcaloop.harness import report
from rcaloop.shared.actions import is_prohibition, unguarded

ACTION_SECTIONS = ("recommend", "remediation", "mitigation", "next step", "actions", "immediate", "fix")
"""Report sections that are all proposals (their lines, listed or not)."""
DESCRIPTIVE_SECTIONS = (
    "summary", "tl;dr", "tldr", "timeline", "evidence", "contributing", "alternative", "root cause", "cause",
    "context", "background", "impact", "symptom", "candidate", "claim", "observation", "related", "reference",
    "link", "do not", "don't", "dont", "never", "harness notes", "analysis", "detail", "confidence", "finding",
)  # fmt: skip
"""Report sections that describe; a list under any other heading is read as proposals (fail closed)."""
CHAT_SEQUENCES = (("tldr", "cause"), ("steps_to_verify", "now"), ("also",))
"""Posted chat sections read for proposals, in reading order: every one but ``Do NOT`` (it forbids),
``Related`` (links) and ``Permanent fixes`` (read as recommendations). In TL;DR and Cause only list
items count (a bullet under a head the parser does not know lands there). Guards carry forward only
inside one sequence: Steps to verify guard Now, but the approval of a Now step guards nothing in Also."""
LISTED_ONLY = frozenset({"tldr", "cause"})
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

    @property
    def prohibition(self) -> bool:
        return is_prohibition(self.text)


@dataclass(frozen=True)
class Violation:
    action: Action
    verb: str
    missing: tuple[str, ...]


def sequences(parsed: ParsedRCA, diagnosis: Diagnosis | None) -> list[list[Action]]:
    """Each place actions are proposed (chat, report, recommendations), in reading order."""
    out: list[list[Action]] = []
    if parsed.chat is not None:
        for names in CHAT_SEQUENCES:
            chat = []
            for name in names:
                text = getattr(parsed.chat.sections, name) or ""
                items = report.listed(text) if name in LISTED_ONLY else report.list_items(text)
                chat += [Action(item, f"chat.{name}[{i}]") for i, item in enumerate(items)]
            out.append(chat)
    n = 0
    for items in _report_proposals(parsed.report_markdown):
        out.append([Action(item, f"report[{n + i}]") for i, item in enumerate(items)])
        n += len(items)
    recs = diagnosis.recommendations if diagnosis else []
    out.append([Action(r.action, f"recommendations[{i}]") for i, r in enumerate(recs) if not _forbidden(r.priority)])
    if parsed.outcome in ("not_applicable", "insufficient_context"):
        after = _after_reason(parsed.outcome_reason or "")
        if parsed.source_kind == "skill_text":
            after += _after_outcome_line(parsed.report_markdown)
        out.append([Action(t, f"after_early_exit[{i}]") for i, t in enumerate(after)])
    return [seq for seq in out if seq]


def _report_proposals(markdown: str) -> list[list[str]]:
    """Per section: every line of an action section, every list item under a heading that does not describe."""
    out: list[list[str]] = []
    for heading, body in report.sections(markdown).items():
        if heading.startswith(ACTION_SECTIONS):
            out.append(report.list_items(body))
        elif not heading.startswith(DESCRIPTIVE_SECTIONS):
            out.append(report.listed(body))
    return out


_CLAUSE = re.compile(r"(?<=[;.])\s+")


def _after_reason(reason: str) -> list[str]:
    """An early exit's reason says why; anything after its first clause is output like any other."""
    return [c.strip() for c in _CLAUSE.split(reason)[1:] if c.strip()]


_LABEL = re.compile(r"^\s*(?:#{1,6}\s+.*|[*_]{1,3}[^*_]+[*_]{1,3}:?|[A-Z_]+)\s*$")


def _after_outcome_line(text: str) -> list[str]:
    """Every line an early exit carries after its outcome line is read as a proposal (fail closed):
    a list item, or any other line that is not a heading, a bold label or a marker."""
    lines = (text or "").split("\n")[1:]
    return [t for t in report.list_items("\n".join(ln for ln in lines if not _LABEL.match(ln)))]


def _forbidden(priority: str | None) -> bool:
    """A recommendation filed under ``Do NOT`` forbids an action; it proposes nothing."""
    return (priority or "").strip().lower().replace(" ", "_") in ("do_not", "dont", "never")


def violations(seq: list[Action]) -> list[Violation]:
    """Mutating actions not preceded by a read-only check, or lacking impact guidance or
    approval (the guards the repair inserts are read as the checks they stand for)."""
    return [Violation(seq[u.index], u.verb, u.missing) for u in unguarded([a.text for a in seq])]
