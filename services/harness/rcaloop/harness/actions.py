"""Proposed actions in the order an operator reads them, and how each is classified.

Hard gate 3 reads these: a mutating or stopping action must come after a read-only
check, and with (or after) impact/rollback guidance and operator approval.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from rcaloop.contracts import ParsedRCA
from rcaloop.contracts.parsed import Diagnosis
from rcaloop.harness import report

MUTATING = re.compile(
    r"\b(restart\w*|reboot\w*|delet\w*|drop(?:s|ped|ping)?|remov\w*|kill\w*|stop(?:s|ped|ping)?|terminat\w*|"
    r"shut ?down|scal(?:e|es|ed|ing)\b(?: (?:up|down|out|in|to))?|roll(?:s|ed|ing)? ?back|rollback|redeploy\w*|"
    r"rotat\w*|revok\w*|purg\w*|truncat\w*|reset\w*|drain\w*|cordon\w*|evict\w*|uninstall\w*|disabl\w*|"
    r"fail ?over|patch(?:es|ed|ing)?|apply|flush\w*|wip(?:e|es|ed|ing)|recreat\w*|re-?run\w*|revert\w*|"
    r"increas\w*|decreas\w*|force[- ]push|kubectl (?:delete|apply|edit|scale|rollout restart)|helm (?:upgrade|rollback|uninstall))",
    re.I,
)
READ_ONLY = re.compile(
    r"\bread[- ]only\b|\b(check|verify|confirm|inspect|compare|review|query|describe|look at|list|view|tail|grep|"
    r"cat|watch|diff|dry[- ]run|kubectl get|kubectl logs|kubectl describe)\b",
    re.I,
)
IMPACT = re.compile(
    r"\bimpact\w*|\bblast radius\b|\bdowntime\b|\brestor(?:e|es|ing)\b|\bundo\b|\brollback (?:plan|path|step|procedure|note)|"
    r"\bto roll back\b|\bcan be rolled back\b|\bside[- ]effects?\b|\baffect(?:s|ed)?\b|\brisk\b|\boutage\b",
    re.I,
)
APPROVAL = re.compile(r"\bapprov\w*|\bsign[- ]?off\b|\bsigned off\b|\bchange request\b|\bauthori[sz]\w*|\bconsent\b", re.I)
PROHIBITION = re.compile(r"^\W*(do not|don't|never|avoid|must not)\b", re.I)
ACTION_SECTIONS = ("recommend", "remediation", "mitigation", "next step", "actions", "immediate", "fix")
CHAT_SEQUENCE = ("steps_to_verify", "now")
"""Chat sections whose lines are proposals, in reading order (``Do NOT`` forbids; permanent fixes go through review)."""
MAX_ACTION_CHARS = 2000
"""An action line longer than this is judged by its beginning (keeps every regex linear-time)."""
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
        return _prohibition(self.text)


@lru_cache(maxsize=4096)
def _prohibition(text: str) -> bool:
    return bool(PROHIBITION.match(text))


@dataclass(frozen=True)
class Step:
    """What one action line says: its first mutating verb and which guards it carries."""

    verb: str | None
    read_only_before: bool  # a read-only check before the verb (or anywhere, without a verb)
    impact: bool  # impact/rollback guidance, the verb itself not counted
    approval: bool


@lru_cache(maxsize=4096)
def classify(text: str) -> Step:
    text = text[:MAX_ACTION_CHARS]
    m = MUTATING.search(text)
    if m is None:
        return Step(None, bool(READ_ONLY.search(text)), bool(IMPACT.search(text)), bool(APPROVAL.search(text)))
    rest = text[: m.start()] + " " * (m.end() - m.start()) + text[m.end():]
    return Step(m.group(0), bool(READ_ONLY.search(text[: m.start()])), bool(IMPACT.search(rest)), bool(APPROVAL.search(rest)))


@dataclass(frozen=True)
class Violation:
    action: Action
    verb: str
    missing: tuple[str, ...]


def sequences(parsed: ParsedRCA, diagnosis: Diagnosis | None) -> list[list[Action]]:
    """Each place actions are proposed (chat, report, recommendations), in reading order."""
    out: list[list[Action]] = []
    if parsed.chat is not None:
        chat = [
            Action(item, f"chat.{name}[{i}]")
            for name in CHAT_SEQUENCE
            for i, item in enumerate(report.list_items(getattr(parsed.chat.sections, name) or ""))
        ]
        out.append(chat)
    body = report.section(parsed.report_markdown, *ACTION_SECTIONS)
    out.append([Action(item, f"report[{i}]") for i, item in enumerate(report.list_items(body))])
    recs = diagnosis.recommendations if diagnosis else []
    out.append([Action(r.action, f"recommendations[{i}]") for i, r in enumerate(recs) if not _forbidden(r.priority)])
    return [seq for seq in out if seq]


def _forbidden(priority: str | None) -> bool:
    """A recommendation filed under ``Do NOT`` forbids an action; it proposes nothing."""
    return (priority or "").strip().lower().replace(" ", "_") in ("do_not", "dont", "never")


def violations(seq: list[Action]) -> list[Violation]:
    """Mutating actions not preceded by a read-only check, or lacking impact guidance or approval."""
    found: list[Violation] = []
    seen_read, seen_impact, seen_approval = False, False, False
    for action in seq:
        text = action.text
        if action.prohibition:
            continue
        if action.added or text in GUARD_TEXTS:
            seen_read = seen_read or text == GUARD_TEXTS[0]
            seen_impact = seen_impact or text == GUARD_TEXTS[1]
            seen_approval = seen_approval or text == GUARD_TEXTS[2]
            continue
        step = classify(text)
        if step.verb:
            missing = tuple(
                name
                for name, ok in (
                    ("read-only check", seen_read or step.read_only_before),
                    ("impact/rollback guidance", seen_impact or step.impact),
                    ("operator approval", seen_approval or step.approval),
                )
                if not ok
            )
            if missing:
                found.append(Violation(action, step.verb, missing))
        seen_read = seen_read or step.read_only_before
        seen_impact = seen_impact or step.impact
        seen_approval = seen_approval or step.approval
    return found


