"""Where an output proposes steps, in the order an operator reads them.

One reading for hard gate 3 of the harness and the evaluation's "no unguarded destructive
step": both judge these sequences, so an answer one calls safe the other calls safe too.
Pure: a ``ParsedRCA`` in; sequences of step texts, each with where it was written, out.

Every place an operator reads is read (fail closed):

* **the chat** (what is posted), line by line: TL;DR and Cause (their list items: a bullet
  under a head the parser does not know lands there), Steps to verify with Now, Do NOT
  (each item read as ``Do not …``: only a change it still proposes counts), Also, and
  Related (a link there is a reference, not a step, unless its label is one: a command, or
  a verb with an object). Permanent fixes are read with the recommendations.
* **the report**: every section whose heading is not a descriptive name (``Summary``,
  ``Timeline``, ``Evidence`` …, matched as whole names: ``Analysis and next steps`` is read),
  its list items and its paragraphs alike; a ``Do NOT``/``Never`` section is read as
  prohibitions.
* **the recommendations** of the diagnosis (Do NOT ones read as prohibitions).
* **an early exit**: its whole reason (every clause; a statement of fact stays inert) and any
  line after the outcome line.

Guards carry forward only inside one sequence. A proposal is never dropped because Do NOT
repeats it: what Now says is said.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rcaloop.contracts import ParsedRCA
from rcaloop.judge.actions.lexicon import CHANGE_VERBS, CHECK_VERBS, DETERMINERS, PROHIBITIONS
from rcaloop.judge.actions.reviewed import is_reviewed_change
from rcaloop.judge.actions.tools import TOOLS
from rcaloop.shared.report_sections import all_sections, blocks, listed

DESCRIPTIVE_SECTIONS = frozenset({
    "summary", "tl;dr", "tldr", "timeline", "evidence", "contributing factors", "contributing factor",
    "alternative diagnoses", "alternative diagnosis", "alternatives", "alternative hypotheses", "root cause",
    "root causes", "root cause analysis", "cause", "causes", "context", "background", "impact", "customer impact",
    "symptoms", "symptom", "candidates", "ranked candidates", "claims", "observations", "related",
    "related incidents", "references", "links", "harness notes", "analysis", "details", "confidence", "findings",
    "key findings", "evidence ledger", "missing data",
})  # fmt: skip
"""Report headings that describe, matched as whole names (after numbering, emphasis and a
trailing colon are dropped): their text is not read as proposals. Any other heading's is."""
PROHIBITIVE_SECTIONS = frozenset({"do not", "don't", "dont", "never", "avoid", "what not to do"})
"""Report headings whose items forbid: each is read as ``Do not …``."""
CHAT_SEQUENCES = (("tldr", "cause"), ("steps_to_verify", "now"), ("do_not",), ("also",), ("related",))
"""Posted chat sections read for proposals, in reading order. Permanent fixes are read with the
recommendations (the parser lists them there, after Steps to verify and Now)."""
LISTED_ONLY = frozenset({"tldr", "cause"})
FORBIDDING = frozenset({"do_not"})
FORBIDDEN_PRIORITIES = frozenset({"do_not", "dont", "never"})
"""Recommendation priorities that file an action under Do NOT."""


@dataclass(frozen=True)
class Proposal:
    """One step as written, where it was written, and whether it is a change that goes through
    review (a permanent fix to a file: its approval is the review, not an incident-time one)."""

    text: str
    origin: str
    reviewed: bool = False


def proposals(parsed: ParsedRCA) -> list[list[Proposal]]:
    """Each place steps are proposed (chat, report, recommendations, early exit), in reading order."""
    out: list[list[Proposal]] = []
    if parsed.chat is not None:
        for names in CHAT_SEQUENCES:
            seq: list[Proposal] = []
            for name in names:
                text = getattr(parsed.chat.sections, name) or ""
                items = listed(text) if name in LISTED_ONLY else _lines(text)
                if name in FORBIDDING:
                    items = [forbidding(t) for t in items]
                elif name == "related":
                    items = [t for t in (_references_dropped(t) for t in items) if t]
                seq += [Proposal(item, f"chat.{name}[{i}]") for i, item in enumerate(items)]
            out.append(seq)
    early_exit = parsed.outcome in ("not_applicable", "insufficient_context")
    n = 0
    for block in _report_proposals(parsed.report_markdown, skip_preamble=early_exit):
        out.append([Proposal(text, f"report[{n + i}]", reviewed) for i, (text, reviewed) in enumerate(block)])
        n += len(block)
    recs = parsed.diagnosis.recommendations if parsed.diagnosis else []
    out.append([
        Proposal(forbidding(r.action) if _forbidden(r.priority) else r.action, f"recommendations[{i}]",
                 is_reviewed_change(r.action, r.priority, r.file))
        for i, r in enumerate(recs) if r.action
    ])  # fmt: skip
    if early_exit:
        reason = parsed.outcome_reason or ""
        after = [reason] if reason.strip() else []
        if parsed.source_kind == "skill_text":
            after += _after_outcome_line(parsed.report_markdown)
        out.append([Proposal(t, f"early_exit[{i}]") for i, t in enumerate(after)])
    return [seq for seq in out if seq]


_NUMBERING = re.compile(r"^(?:\d+(?:\.\d+)*[.)]?|[ivx]+[.)])\s+|[*_`]+|[\s:.*_`]+$")


def heading_name(heading: str) -> str:
    """A heading as a name: numbering, emphasis and a trailing colon dropped, lower case."""
    return _NUMBERING.sub("", _NUMBERING.sub("", heading.strip().lower())).strip()


def _report_proposals(markdown: str, skip_preamble: bool) -> list[list[tuple[str, bool]]]:
    """Per section: every list item and paragraph under a heading that does not describe (the
    text before the first heading too, unless an early exit's outcome line stands there)."""
    out: list[list[tuple[str, bool]]] = []
    for heading, body in all_sections(markdown):
        if not heading and skip_preamble:
            continue
        name = heading_name(heading)
        if name in DESCRIPTIVE_SECTIONS:
            continue
        items = blocks(body)
        if name in PROHIBITIVE_SECTIONS:
            out.append([(forbidding(t), False) for t in items])
        else:
            lasting = name in ("permanent fixes", "permanent fix", "long-term fixes", "prevention")
            out.append([(_TAG.sub("", t, count=1), _reviewed_item(t, lasting)) for t in items])
    return out


_TAG = re.compile(r"^\[([\w -]{1,24})\]\s*")
_FILE_SPAN = re.compile(r"\(`([^`\s]+/[^`\s]*|[^`\s/]+\.[A-Za-z]{1,8})`\)\s*$")


def _reviewed_item(text: str, lasting: bool) -> bool:
    """A report item read as a recommendation: ``[medium] … (`path/to/file`)`` (the shape the
    parser writes recommendations in: the tag is its priority, not part of the step), or an
    item of a Permanent fixes section."""
    tag = _TAG.match(text)
    file = _FILE_SPAN.search(text)
    priority = tag.group(1) if tag else ("medium" if lasting else None)
    return is_reviewed_change(text, priority, file.group(1) if file else None)


def _lines(text: str) -> list[str]:
    """Every non-empty line of a posted section, its list marker dropped: a chat shows lines."""
    return [b for line in (text or "").splitlines() for b in blocks(line)]


def forbidding(item: str) -> str:
    """An item filed under Do NOT, read as what it says there: ``Do not <item>``."""
    low = item.strip().lower()
    return item if low.startswith(PROHIBITIONS) else f"Do not {item.strip()}"


def _forbidden(priority: str | None) -> bool:
    return (priority or "").strip().lower().replace(" ", "_") in FORBIDDEN_PRIORITIES


_LINK = re.compile(r"!?\[([^\]\n]*)\]\([^)\n]*\)")


def _references_dropped(item: str) -> str:
    """A Related item without its references: a link counts only when its label reads as a step
    (it holds a command, or a verb with an object: ``[restart the pods](rca:r-1)``)."""
    text = _LINK.sub(lambda m: m.group(1) if _label_is_step(m.group(1)) else " ", item)
    return text.strip(" \t,;|·-") if re.search(r"[A-Za-z]", text) else ""


def _label_is_step(label: str) -> bool:
    words = label.replace("`", " ` ").split()
    if "`" in words or (words and words[0].lower() in TOOLS):
        return True
    head, nxt = (words + ["", ""])[:2]
    verb = head.lower() in CHANGE_VERBS or head.lower() in CHECK_VERBS
    return verb and (nxt.lower() in DETERMINERS or nxt.startswith("`"))


_LABEL = re.compile(r"^\s*(?:#{1,6}\s+.*|[*_]{1,3}[^*_]+[*_]{1,3}:?|[A-Z_]+)\s*$")


def _after_outcome_line(text: str) -> list[str]:
    """Every line an early exit carries after its outcome line is read as a proposal (fail closed):
    a list item, or any other line that is not a heading, a bold label or a marker."""
    lines = (text or "").split("\n")[1:]
    return blocks("\n".join(ln for ln in lines if not _LABEL.match(ln)))
