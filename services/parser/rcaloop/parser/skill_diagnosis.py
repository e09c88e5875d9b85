"""The diagnosis a skill text report states, in the ``step5_summary.json`` shape.

Cause → root-cause summary (TL;DR, then the report's Summary when there is no Cause),
``fields.confidence`` → its confidence. Recommendations keep the chat's order and carry
the section as their priority: Steps to verify and Now → ``high``, Permanent fixes →
``medium``, Do NOT → ``do_not`` (never an action to take). Claims get stable ids
(``cause``, ``steps_to_verify-1`` …) and cite the ``msg:``/``code:`` targets written next to them.
"""

from __future__ import annotations

import re

from rcaloop.contracts import EvidenceArtifact
from rcaloop.contracts.parsed import Citation, Diagnosis
from rcaloop.parser.citations import CODE, LINK, Resolver, labels_only
from rcaloop.judge.reading.places import Role
from rcaloop.parser.skill_text import SkillText, section_by_role

RECOMMENDATION_SECTIONS = (
    ("steps_to_verify", "high"),
    ("now", "high"),
    ("permanent_fixes", "medium"),
    ("do_not", "do_not"),
)
BULLET = re.compile(r"(?:[-*+]|\d{1,3}[.)])[ \t]+(.*)")
QUALIFIER = re.compile(r"^\(([^()\n]{1,80})\)[ \t]*")
CODE_SPAN = re.compile(r"`([^`\n]{1,500})`")
MAX_ITEMS = 200


def plain(text: str, resolver: Resolver) -> str:
    """Links reduced to their labels, checkout paths rewritten: text for a diagnosis field."""
    return labels_only(text, resolver.checkouts).strip()


def bullets(text: str | None) -> list[str]:
    """List items of a section (continuation lines joined); prose is one item."""
    items: list[str] = []
    for line in (text or "").split("\n"):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped[0] in "-*+" and stripped[1:2] in (" ", "\t"):  # the common case, without a regex
            items.append(stripped[2:].strip())
        elif stripped[0].isdigit() and (m := BULLET.fullmatch(stripped)):
            items.append(m.group(1).strip())
        elif items:
            items[-1] += " " + stripped
        else:
            items.append(stripped)
        if len(items) > MAX_ITEMS:
            break
    return items[:MAX_ITEMS]


def _cited(text: str) -> list[str]:
    """The ``msg:``/``code:``/``rca:`` targets linked in ``text``, as written."""
    if "](" not in text:
        return []
    return [m.group(2).strip("<>") for m in LINK.finditer(text) if m.group(2).startswith(("msg:", "code:", "rca:"))]


def _code_file(cited: list[str]) -> str | None:
    """The path of the first ``code:`` citation."""
    for target in cited:
        m = CODE.fullmatch(target)
        if m:
            return m.group(3)
    return None


def skill_diagnosis(parsed: SkillText, resolver: Resolver) -> Diagnosis:
    """Lists are built as plain dicts and validated once, in one pydantic call (cheaper)."""
    sections = parsed.chat.sections if parsed.chat else None
    cause_raw = (sections.cause if sections else None) or (sections.tldr if sections else None) or parsed.summary
    summary = None
    if cause_raw:
        summary = QUALIFIER.sub("", plain(cause_raw, resolver), count=1) or None
    claims: list[dict] = []
    recommendations: list[dict] = []
    if summary:
        claims.append({"id": "cause", "kind": "root_cause", "text": summary, "evidence_ids": _cited(cause_raw or "")})
    for key, priority in RECOMMENDATION_SECTIONS:
        raw_items, actions = _bullet_pairs(getattr(sections, key) if sections else None, resolver)
        for n, (item, action) in enumerate(zip(raw_items, actions, strict=True), start=1):
            if not action:
                continue
            cited = _cited(item)
            recommendations.append({"priority": priority, "action": action, "file": _code_file(cited)})
            claims.append({"id": f"{key}-{n}", "kind": "recommendation", "text": action, "evidence_ids": cited})
    report = parsed.report_sections
    factors = _bullet_pairs(section_by_role(report, Role.FACTOR), resolver)[1]
    for n, text in enumerate(factors, start=1):
        claims.append({"id": f"contributing_factor-{n}", "kind": "contributing_factor", "text": text})
    alternatives = section_by_role(report, Role.ALTERNATIVE)
    evidence = section_by_role(report, Role.EVIDENCE)
    return Diagnosis.model_validate(
        {
            "root_cause": {"summary": summary, "confidence": parsed.fields.confidence} if summary else None,
            "evidence": [_trace(message) for message in (bullets(plain(evidence, resolver)) if evidence else ())],
            "recommendations": recommendations,
            "contributing_factors": factors,
            "alternative_diagnoses": [{"summary": b} for b in _bullet_pairs(alternatives, resolver)[1]],
            "claims": claims,
        }
    )


def _trace(message: str) -> dict:
    """An evidence item (``TraceItem`` fields) from one Evidence bullet."""
    quote = CODE_SPAN.search(message)
    return {"source": "report", "message": message, "exact_quote": quote.group(1) if quote else None}


def _bullet_pairs(section: str | None, resolver: Resolver) -> tuple[list[str], list[str]]:
    """Bullets as written and as plain text; one ``plain`` pass over the section, not one per item."""
    raw = bullets(section)
    if not section:
        return raw, []
    reduced_text = plain(section, resolver)
    reduced = raw if reduced_text == section.strip() else bullets(reduced_text)
    if len(reduced) != len(raw):  # a label spanning lines: fall back to item by item
        reduced = [plain(item, resolver) for item in raw]
    return raw, reduced


def cited_artifacts(citations: list[Citation], resolver: Resolver) -> list[EvidenceArtifact]:
    """Messages the registry knows and code it can link: evidence the report relied on."""
    seen: set[str] = set()
    out: list[EvidenceArtifact] = []
    for c in citations:
        if c.target in seen:
            continue
        if c.kind == "msg" and c.target[4:] in resolver.registry.messages:
            entry = resolver.registry.messages[c.target[4:]]
            author = entry.author
            relayed = entry.source if author == "bot" and entry.source else None
            out.append(
                EvidenceArtifact(
                    id=c.target,
                    source=relayed or "chat",
                    source_group=relayed or "chat",
                    kind=f"{author}_message",
                    title=c.label,
                    value=c.target[4:],
                )
            )
        elif c.kind == "code" and c.resolved:
            out.append(
                EvidenceArtifact(
                    id=c.target, source="code", source_group="code", kind="code", title=c.label, value=c.target[5:]
                )
            )
        else:
            continue
        seen.add(c.target)
    return out
