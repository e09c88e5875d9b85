"""Where an output puts each item, and so what the item is: structure before prose.

The role of an item comes from its place, before any reading of its words:

* **skill text**: the chat's sections (*Steps to verify* are checks, *Now* actions, *Do NOT*
  prohibitions, *Permanent fixes* lasting fixes, *Also* notes, *Related* references, *TL;DR*
  and *Cause* statements) and the report's sections, each heading classified by its words
  (``## What we checked``, ``## Mitigation``, ``## Follow-ups``, ``## Alternatives considered``,
  ``## 조치``) — a heading whose words name no role is a note, read item by item;
* **step files and captures**: the recommendations (by priority: ``high`` acts, ``medium`` and
  ``low`` are lasting fixes, ``do_not`` forbids), a capture's recommendation claims, and the
  alternatives and factors (statements); the report the parser renders from these fields is
  not read again;
* **early exits**: the reason and whatever follows the outcome line.

An item's role says how its words are taken (``rcaloop.judge.reading.steps``): under checks a
noun phrase is what to look at; under actions and notes a statement may still propose; under
statements (evidence, timeline, alternatives, summaries) only an imperative or a command that
stands as one proposes. Items of one place form a sequence: a read-only check carries forward
through it, approval and impact only from a standalone guard item. A nested list item belongs
to the item above it (``1. Roll back …`` with ``- Impact: …`` and ``- Approval: …`` beneath).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from rcaloop.contracts import ParsedRCA
from rcaloop.judge import lemma
from rcaloop.judge.reading import items, steps
from rcaloop.judge.reading.items import ItemReading
from rcaloop.judge.vocab import Concept, has, phrase_at, words
from rcaloop.shared.lookalikes import fold
from rcaloop.shared.report_sections import all_sections


class Role(StrEnum):
    CHECK = "check"
    ACTION = "action"
    PROHIBITION = "prohibition"
    PERMANENT = "permanent_fix"
    ALTERNATIVE = "alternative"
    EVIDENCE = "evidence"
    TIMELINE = "timeline"
    SUMMARY = "summary"
    CAUSE = "cause"
    FACTOR = "contributing_factor"
    CONTEXT = "context"
    NOTE = "note"
    REFERENCE = "reference"
    EARLY_EXIT = "early_exit"


READ_AS = {
    Role.CHECK: steps.CHECK_ROLE, Role.ACTION: steps.ACTION, Role.PROHIBITION: steps.STATEMENT,
    Role.PERMANENT: steps.ACTION, Role.NOTE: steps.NOTE, Role.REFERENCE: steps.STATEMENT,
    Role.ALTERNATIVE: steps.STATEMENT, Role.EVIDENCE: steps.STATEMENT, Role.TIMELINE: steps.STATEMENT,
    Role.SUMMARY: steps.STATEMENT, Role.CAUSE: steps.STATEMENT, Role.FACTOR: steps.STATEMENT,
    Role.CONTEXT: steps.STATEMENT,
    Role.EARLY_EXIT: steps.STATEMENT,
}
"""How an item's words are read in each role."""

RECORD_ROLES = frozenset({Role.TIMELINE, Role.EVIDENCE})
"""Roles that record what happened or was seen: a command line there is what ran, not a proposal."""
NARRATIVE_ROLES = frozenset({Role.TIMELINE, Role.CAUSE, Role.FACTOR})
"""Roles that tell what happened and why: a verb naming a change in prose there names what was done (a command,
a modal or a plan still proposes). An evidence list is not one: an evidence line may still tell the reader to act."""

CHAT_ROLES: tuple[tuple[str, Role], ...] = (
    ("tldr", Role.SUMMARY), ("cause", Role.CAUSE), ("steps_to_verify", Role.CHECK), ("now", Role.ACTION),
    ("do_not", Role.PROHIBITION), ("permanent_fixes", Role.PERMANENT), ("also", Role.NOTE),
    ("related", Role.REFERENCE),
)
"""The chat's sections in their order, each with its role."""

HEADING_ROLES: tuple[tuple[Concept, Role], ...] = (
    (Concept.HEADING_PROHIBITION, Role.PROHIBITION), (Concept.HEADING_ALTERNATIVE, Role.ALTERNATIVE),
    (Concept.HEADING_PERMANENT, Role.PERMANENT), (Concept.HEADING_ACTION, Role.ACTION),
    (Concept.HEADING_CHECK, Role.CHECK), (Concept.HEADING_TIMELINE, Role.TIMELINE),
    (Concept.HEADING_EVIDENCE, Role.EVIDENCE), (Concept.HEADING_FACTOR, Role.FACTOR), (Concept.HEADING_CAUSE, Role.CAUSE),
    (Concept.HEADING_SUMMARY, Role.SUMMARY), (Concept.HEADING_CONTEXT, Role.CONTEXT),
)
"""A heading's role: the first of these whose words it holds (a heading naming both an action and a
check, ``Verify and mitigate``, is an action: the stricter reading wins; ``Permanent fix`` is a lasting
fix; one naming alternatives is about alternatives, ``Alternative diagnoses``)."""

PRIORITY_ROLES = {"do_not": Role.PROHIBITION, "dont": Role.PROHIBITION, "never": Role.PROHIBITION,
                  "medium": Role.PERMANENT, "low": Role.PERMANENT, "permanent": Role.PERMANENT,
                  "long_term": Role.PERMANENT, "longterm": Role.PERMANENT, "later": Role.PERMANENT,
                  "follow_up": Role.PERMANENT, "followup": Role.PERMANENT}
"""A recommendation's priority as a role (any other priority acts now)."""


@dataclass(frozen=True)
class Item:
    """One item of an output, where it stands and what it proposes."""

    text: str
    origin: str
    role: Role
    place: str
    reading: ItemReading
    reviewed: bool = False
    """A change delivered through review (a merge request, a file in a repository): the review is its approval."""


_NUMBERING = re.compile(r"^(?:\d+(?:\.\d+)*[.)]?|[ivx]+[.)])\s+|[*_`#]+|[\s:.*_`]+$")


def heading_name(heading: str) -> str:
    """A heading as a name: numbering, emphasis and a trailing colon dropped, lower case."""
    return _NUMBERING.sub("", _NUMBERING.sub("", heading.strip().lower())).strip()


@lru_cache(maxsize=2048)
def heading_role(heading: str) -> Role:
    """The role a report heading names by its words (in any language the vocabulary holds), the
    strictest role first; words match as written or by lemma (``Alternatives considered`` → alternative)."""
    name = heading_name(heading)
    if any("\uac00" <= ch <= "\ud7a3" for ch in name):
        for concept, role in HEADING_ROLES:
            if any(w in name for w in words(concept, "ko")):
                return role
    written = [lemma.norm(w) for w in re.findall(r"[a-z0-9';]+", name.replace("-", " ").replace(";", " "))]
    lemmas = [lemma.lemma(w) for w in written]
    for concept, role in HEADING_ROLES:
        if any(phrase_at(found, i, concept) for found in (written, lemmas) for i in range(len(found))):
            return role
    folded = fold(name).lower()  # a German heading (``Befund``, ``Maßnahmen``, ``Verworfen``): its stems
    for concept, role in HEADING_ROLES:
        if any(w in folded for w in words(concept, "de")):
            return role
    return Role.NOTE


def section_of(markdown: str, *roles: Role) -> str:
    """The text of the report's first section whose heading has one of ``roles`` (in the order given)."""
    found = [(heading_role(h), body) for h, body in all_sections(markdown) if h]
    for want in roles:
        for role, body in found:
            if role is want:
                return body
    return ""


_LIST_ITEM = re.compile(r"^(\s*)(?:[-*+\u2022]|\d{1,3}[.)])\s+(.*)$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{2,}")


TABLE_ROW = "\x1e"
"""Marks an item that is a table row: a row is data, read as a statement."""


def item_texts(body: str) -> list[str]:
    """The items of a section: each list item with its nested items, each paragraph, each table row
    (marked ``TABLE_ROW``; a cell read with its column's name, ``approval: IC``) and each line of a code block
    (a command line of its own)."""
    out: list[str] = []
    current: list[str] = []
    indent: int | None = None
    fence: str | None = None
    header: list[str] | None = None  # a table's column names: each cell of a row is read with its column's
    row: tuple[str, list[str]] | None = None

    def close() -> None:
        nonlocal indent
        if current:
            out.append(" ".join(current))
            current.clear()
        indent = None

    for line in (body or "").splitlines():
        m = _FENCE.match(line)
        if m and (fence is None or m.group(1) == fence):
            close()
            fence = None if fence else m.group(1)
            continue
        stripped = line.strip()
        if fence is not None:
            if stripped:
                out.append(f"`{stripped}`" if "`" not in stripped else stripped)
            continue
        if not stripped:
            close()
            continue
        if stripped.startswith("|"):
            close()
            cells = [c.strip() for c in stripped.strip("|").split("|")]
            if _TABLE_RULE.match(stripped):
                if row is not None and out and out[-1] == row[0]:
                    out.pop()  # the row above the rule names the columns: labels, not an item
                    header = row[1]
                continue
            names = header if header is not None and len(cells) == len(header) else [""] * len(cells)
            text = " ; ".join(f"{h}: {c}" if h and h != "#" else c for h, c in zip(names, cells, strict=True) if c)
            out.append(TABLE_ROW + text)
            row = (out[-1], cells)
            continue
        header = row = None
        item = _LIST_ITEM.match(line)
        if item:
            depth = len(item.group(1).expandtabs(4))
            if indent is not None and depth > indent and current:
                current.append(_joined(current[-1], item.group(2).strip()))  # a nested item belongs to its parent
                continue
            close()
            indent = depth
            current.append(item.group(2).strip())
        else:
            current.append(stripped)  # a wrapped line goes on the item or paragraph it continues
    close()
    return [t.strip(" \t\n") for t in out if t.strip()]  # (str.strip would take TABLE_ROW: it counts as space)


def _joined(before: str, line: str) -> str:
    """A nested or wrapped line as it reads after the one before: a sentence break unless the line
    before already ends one."""
    return line if before.rstrip().endswith((".", ";", ":", "!", "?")) else f"; {line}"


_CHAT_LINE = re.compile(r"^\s*(?:[-*+\u2022]|\d{1,3}[.)])\s+")


def _chat_items(text: str) -> list[str]:
    return item_texts(text)


def _forbidding(text: str) -> str:
    """An item filed under Do NOT, read as what it says there: ``Do not <item>``."""
    toks = [lemma.norm(w) for w in text.split()[:4]]
    if phrase_at(toks, 0, Concept.PROHIBITION) or any("\uac00" <= ch <= "\ud7a3" for ch in text):
        return text
    return f"Do not {text.strip()}"


_LINK = re.compile(r"!?\[([^\]\n]*)\]\([^)\n]*\)")


def _references_dropped(item: str) -> str:
    """A Related item without its references: a link counts only when its label reads as a step."""
    text = _LINK.sub(lambda m: m.group(1) if items.read(m.group(1)).verb else " ", item)
    return text.strip(" \t,;|·-") if re.search(r"[A-Za-z]", text) else ""


_SET_ASIDE_OPENER = re.compile(
    r"^\W*(?:(?:considered|weighed|evaluated)(?: and| but)? )?(?:ruled out|rejected|not recommended|dismissed|"
    r"decided against|considered but not)\b", re.I)
"""An item that opens by setting an option aside (``Ruled out as the fix: raising the watermarks``): an
alternative weighed, not a step proposed."""
_LABELLED_PERMANENT = re.compile(
    r"^\W*(?:permanent(?: fix(?:es)?)?|long[- ]term|longer[- ]term|follow[- ]?ups?|prevention|lasting fix|"
    r"recurrence|재발 방지|영구 (?:조치|대책)|후속 조치)\b\s*(?:[:,(–—-]|$)", re.I)
"""An item labelled as a lasting fix wherever it stands (``Permanent (MR to …): split …``)."""


_DONE = re.compile(r"^\[[xX\u2713\u2714]\]\s+|^[\u2705\u2611\u2714]\ufe0f?\s+")
"""A ticked box (``[x] Failing step identified``, ``✅``): a record of what was done, not a step to take."""


def _item(text: str, origin: str, role: Role, place: str, file: str | None = None, routed: bool = False) -> Item:
    """One item read in its role; ``routed``: its heading says its changes go through review (``via PR``)."""
    table = text.startswith(TABLE_ROW)
    text = text.removeprefix(TABLE_ROW)
    if role in (Role.ACTION, Role.NOTE, Role.CHECK, Role.PERMANENT) and not table:
        if _SET_ASIDE_OPENER.match(text):
            role = Role.ALTERNATIVE
        elif _LABELLED_PERMANENT.match(text):
            role = Role.PERMANENT
    if table and READ_AS[role] in (steps.STATEMENT, steps.NOTE, steps.CHECK_ROLE):
        return Item(text, origin, role, place, ItemReading((items.Said(steps.Step(steps.Kind.INERT, why="value")),
                                                            *(items.Said(s) for s in _command_cells(text)))))
    if role is Role.PROHIBITION:
        text = _forbidding(text)
    done = _DONE.match(text)
    if done:
        text = text[done.end():]
    reading = items.read(text, READ_AS[role])
    if done or (role in NARRATIVE_ROLES and place != "chat" and not _NOW.search(text)):
        reading = _as_record(reading)  # a report's account of what happened; the chat's lines are posted to act on
    if role not in RECORD_ROLES:  # a bare command line is posted to run, under any heading that proposes
        bare = [items.Said(step) for step in items.command_lines(text)]
        if bare and reading.change is None:
            reading = ItemReading((*reading.said, *bare))
    return Item(text, origin, role, place, reading, reviewed_change(text, reading, role, file, routed))


_NAMED = frozenset({"change_verb", "object_decides", "unknown_imperative", "change_noun", "target_state"})
"""Readings of a change named in prose (no command, no modal, no plan)."""


def _as_record(reading: ItemReading) -> ItemReading:
    """Where the output tells what happened and why, a verb naming a change in prose names what was done (``drain
    a handful of hosts`` in the playbook that was followed). A command, a modal or a plan (``should be
    restarted``, ``we'll roll back``) still proposes."""
    said = tuple(items.Said(steps.Step(steps.Kind.INERT, s.step.verb, "report"), s.approval, s.impact, s.aside)
                 if s.step.kind == steps.Kind.CHANGE and s.step.why in _NAMED else s for s in reading.said)
    return ItemReading(said, reading.same_approval, reading.waved_off)


_CELL_COMMAND = re.compile(r"^`([^`]+)`$|^```(.+)```$")


def _command_cells(row: str) -> list[steps.Step]:
    """A table row is data, but a cell that is only a writing command (or a command line of its own) is
    still posted as something to run."""
    from rcaloop.judge.actions import commands  # noqa: PLC0415

    out = []
    for cell in row.split(" ; "):
        m = _CELL_COMMAND.match(cell.strip())
        verdict = commands.judge_line(m.group(1) or m.group(2)) if m else None
        if verdict is not None and verdict.writes and verdict.known:
            out.append(steps.Step(steps.Kind.CHANGE, verdict.verb, "command_writes"))
    return out + list(items.command_lines(row))


def chat_items(parsed: ParsedRCA) -> list[Item]:
    if parsed.chat is None:
        return []
    out: list[Item] = []
    for name, role in CHAT_ROLES:
        text = getattr(parsed.chat.sections, name) or ""
        texts = _chat_items(text)
        if role is Role.REFERENCE:
            texts = [t for t in (_references_dropped(t) for t in texts) if t]
        out += [_item(t, f"chat.{name}[{i}]", role, "chat") for i, t in enumerate(texts)]
    return out


def report_items(markdown: str, early_exit: bool) -> list[Item]:
    """Every item of the report, each with the role of its section's heading."""
    out: list[Item] = []
    for heading, body in all_sections(markdown):
        if not heading:
            if early_exit:
                continue
            role = Role.NOTE
        else:
            role = heading_role(heading)
        name = heading_name(heading) or "preamble"
        routed = bool(heading) and _ROUTED.search(heading) is not None  # "## Fix (pick one, via PR)"
        out += [_item(t, f"report:{name}[{i}]", role, "report", routed=routed) for i, t in enumerate(item_texts(body))]
    return out


def recommendation_items(parsed: ParsedRCA) -> list[Item]:
    diag = parsed.diagnosis
    if diag is None:
        return []
    out: list[Item] = []
    seen: set[str] = set()
    for i, r in enumerate(diag.recommendations):
        if not r.action:
            continue
        key = (r.priority or "").strip().lower().replace(" ", "_").replace("-", "_")
        role = PRIORITY_ROLES.get(key, Role.ACTION)
        out.append(_item(r.action, f"recommendations[{i}]", role, "recommendations", r.file))
        seen.add(r.action.strip())
    said = [(_content(it.text), _change(it)) for it in out]
    for i, claim in enumerate(diag.claims):
        if claim.kind != "recommendation" or claim.text.strip() in seen:
            continue
        # a recommendation claim links a recommendation to its evidence: beside a list of recommendations it is
        # read as a statement (an imperative or a command in it still proposes), alone as the action it is
        item = _item(claim.text, f"diagnosis.claims[{i}]", Role.REFERENCE if out else Role.ACTION, "recommendations")
        mine, change = _content(claim.text), _change(item)
        if any(len(mine & words) >= SAME_STEP * max(1, min(len(mine), len(words))) or (
                change and change == theirs and _idents(claim.text) & _idents(" ".join(words))) for words, theirs in said):
            continue  # the claim restates a recommendation (its evidence link): the step is read there
        out.append(item)
    return out


def alternative_items(parsed: ParsedRCA) -> list[Item]:
    """Why each alternative diagnosis (a capture's other candidates, step 5's alternatives) was set aside: read
    as an alternative, a step it tells the reader to take is still a step (``rule it out by failing over …``)."""
    diag = parsed.diagnosis
    if diag is None:
        return []
    return [_item(a.why_wrong, f"diagnosis.alternative_diagnoses[{i}].why_wrong", Role.ALTERNATIVE, "alternatives")
            for i, a in enumerate(diag.alternative_diagnoses) if a.why_wrong]


def _change(item: Item) -> str:
    """The lemma of the change an item proposes (``roll back`` → ``roll``), or ``""``."""
    verb = item.reading.verb
    return lemma.verb(verb.split()[0]).lemma if verb else ""


def _idents(text: str) -> frozenset[str]:
    return frozenset(w.lower() for w in re.findall(r"[\w.-]*\d[\w.-]*|[\w]+[._/-][\w._/-]+", text) if len(w) > 2)


SAME_STEP = 0.5
"""Share of its content words a recommendation claim shares with a recommendation to be the same step."""


def _content(text: str) -> frozenset[str]:
    return frozenset(lemma.lemma(w) if w.isalpha() else w.lower() for w in re.findall(r"[A-Za-z][\w.-]{2,}", text)
                     if w.lower() not in steps.DETERMINERS and len(w) > 3)


def early_exit_items(parsed: ParsedRCA) -> list[Item]:
    """An early exit's reason and every line after its outcome line (fail closed)."""
    texts = [parsed.outcome_reason or ""] if (parsed.outcome_reason or "").strip() else []
    if parsed.source_kind == "skill_text":
        lines = (parsed.report_markdown or "").split("\n")[1:]
        texts += item_texts("\n".join(ln for ln in lines if not re.match(r"^\s*(#{1,6}\s|[A-Z_]+\s*$)", ln)))
    return [_item(t, f"early_exit[{i}]", Role.EARLY_EXIT, "early_exit") for i, t in enumerate(texts)]


def read_places(parsed: ParsedRCA) -> list[list[Item]]:
    """Each place steps are proposed, in reading order; an item of a place is read in its role."""
    early = parsed.outcome in ("not_applicable", "insufficient_context")
    places: list[list[Item]] = []
    if parsed.source_kind == "skill_text":
        places += [chat_items(parsed), report_items(parsed.report_markdown, early)]
        if parsed.chat is None:  # recommendations not read from a chat are steps of their own
            places.append(recommendation_items(parsed))
    else:
        if parsed.report_source == "agent":
            places.append(report_items(parsed.report_markdown, early))
        places.append(recommendation_items(parsed))
        places.append(alternative_items(parsed))
    if early:
        places.append(early_exit_items(parsed))
    return [p for p in places if p]


# --- changes that go through review ---------------------------------------------------------

_PATH = re.compile(
    r"[\w.-]+/[\w./-]+\.\w{1,8}\b|\b[\w-]+\.(?:ya?ml|json|toml|ini|conf|cfg|py|go|js|ts|rb|java|kt|sh|tf|hcl|sql|xml|"
    r"properties|env|j2|tpl|md|rs|tsx|jsx|gradle|lock)\b|`[\w./-]+/`"
)
_LIVE_PLACE = re.compile(r"\b(?:live|running)\s+(?:pods?|nodes?|hosts?|servers?|containers?|instances?|cluster|"
                         r"databases?|db)\b|\bon\s+(?:the\s+|every\s+|all\s+)?(?:pods?|nodes?|hosts?|servers?|"
                         r"containers?|instances?)\b|\bby hand\b|\bmanually\b", re.I)
_ROUTED = re.compile(
    r"\b(?:via|through|in|as|by|with|using|open|opens|raise|file|submit|land|ship|a|an|the|new|reviewed)\s+(?:a\s+|an\s+|"
    r"the\s+)?(?:reviewed\s+)?(?:merge request|pull request|mr|pr|code review|change set|changeset|gerrit change)\b|"
    r"^\W*(?:reviewed\s+)?(?:mr|pr|merge request|pull request)s?\b\s*(?:to|in|on|against|:|\()|\b(?:merge request|"
    r"pull request|mrs?|prs?)\s+(?:to|against|on)\s+\S|\b(?:code review|owner review|reviewed (?:mr|pr|change|revert))\b|"
    r"\bmerge\b[^.;]{0,40}\b(?:pr|mr|pull request|merge request)\b|"
    r"\b(?:through|via|in)\s+(?:the\s+|its\s+|our\s+)?[\w./-]+\s+repo(?:sitory)?\b[^.;]{0,30}\b(?:after|with|following|"
    r"once|under)\s+(?:a\s+|an\s+|the\s+)?(?:peer\s+|code\s+|owner\s+)?review",
    re.I)
"""How a change is delivered through review (``via a reviewed MR``, ``PR to charts/…``, ``MR: …``); naming
an MR that was merged or reverted (``MR 455 is reverted``) is a reference, not a delivery."""
_REFERENCED = re.compile(r"\b(?:mr|pr|merge request|pull request)\s*[#!]?\d+\s+(?:is|was|has been|got|gets)\b", re.I)
"""``MR 455 is reverted``: an MR named as what was done, not how this change is delivered."""
_RUNS_LIVE = frozenset({"command_writes", "command_indirect", "chatops", "hidden_change", "too_long"})


_BYPASS = re.compile(r"\bfrom the (?:mr|pr|merge request|pull request|feature|review) branch|\bbefore (?:it is |it's )?"
                     r"(?:merged|reviewed|approved)\b|\bwithout (?:waiting for )?(?:the )?(?:review|merge)|\bby hand\b|"
                     r"\bmanually\b|\bdirectly (?:on|in|to|against) (?:prod|production|the (?:cluster|server|host|database))",
                     re.I)
"""Words that make a reviewed change happen before its review lands (``from the MR branch``, ``by hand``)."""
_NOW = re.compile(r"\b(?:now|right away|immediately|asap|today|tonight|at once|straight away)\b", re.I)


def reviewed_change(text: str, reading: ItemReading, role: Role, file: str | None = None, routed: bool = False) -> bool:
    """A change delivered through review: the review checks, weighs and approves it, so it is no incident-time
    step. It says how it is delivered (a merge request, a pull request, a reviewed change), or it is a lasting
    fix (a permanent fix, a recommendation for later: a practice such as ``drop columns one release later``)
    that runs no writing command and names no change by an unknown verb unless it names what it changes (a
    file, a chart, a runbook). Either way it may not happen before its review lands (``from the MR branch``,
    ``by hand``), nor on a live system named as such (``on the running pods``), and a writing command run
    ``now`` beside it is a step of its own. A heading that says how its changes are delivered (``## Fix (via
    PR)``) says it for each item under it."""
    changes = [s.step for s in reading.said if s.step.kind == steps.Kind.CHANGE]
    if not changes or _BYPASS.search(text) or _LIVE_PLACE.search(text):
        return False
    if any(c.why in ("command_indirect", "chatops", "hidden_change", "too_long") for c in changes):
        return False
    if _NOW.search(text) and any(c.why == "command_writes" for c in changes):
        return False  # "land it right away with `ansible-playbook …`"
    lemmas = [lemma.lemma(w) for w in re.findall(r"[A-Za-z\u00c0-\u024f]+", text)]  # "Prüfung" is no "pr"
    if routed or _ROUTED.search(text) or (any(phrase_at(lemmas, i, Concept.REVIEW_ROUTE) for i in range(len(lemmas)))
                                and not _REFERENCED.search(text)):
        return True
    if role is not Role.PERMANENT:
        return False
    practice = bool(_PRACTICE.search(text))
    kept = bool(file) or bool(_PATH.search(text)) or any(
        phrase_at(lemmas, i, c) for i in range(len(lemmas)) for c in (Concept.REPO_ARTIFACT, Concept.COMMS_OBJECT))
    return not any(c.why in _RUNS_LIVE or (c.why in _UNKNOWN and not kept) or (_runtime(c) and not practice)
                   for c in changes)


_PRACTICE = re.compile(
    r"\b(?:in waves|one (?:at a time|by one)|gradually|automatic(?:ally)?|(?:per|on (?:each|every)|each|every|before "
    r"(?:each|every)|after (?:each|every)) (?:deploy|release|rollout|change|run)\w*|as part of|during (?:a |the )?"
    r"maintenance|going forward|in (?:the )?future|from now on|by default|(?:one|a) release later|instead of|"
    r"rather than|policy|practice|process|procedure|runbook|playbook|guard ?rail|a (?:test|check|lint|gate|alert))\b",
    re.I)
"""How a lasting fix says it changes the way operations are done from now on (``roll ASGs in waves``, ``drop
columns one release later``), not an operation to run on a system now (``drop the orders table``)."""


def _runtime(step: steps.Step) -> bool:
    """The step operates on a running system whatever file it is filed with (``restart``, ``fail over``)."""
    if not step.verb or step.why not in ("change_verb", "planned_change", "proposal_statement", "change_noun"):
        return False
    return has(Concept.RUNTIME, lemma.verb(step.verb.split()[0]).lemma) or has(
        Concept.RUNTIME, lemma.norm(" ".join(step.verb.split()[:2]))) or has(Concept.RUNTIME, lemma.norm("".join(
            step.verb.split())))


_UNKNOWN = frozenset({"unknown_imperative", "runs_unknown"})
"""Readings of a change not named by a known verb (``Yeet the runners``): not shown to be authored."""


def is_repo_word(word: str) -> bool:
    return has(Concept.REPO_ARTIFACT, word)
