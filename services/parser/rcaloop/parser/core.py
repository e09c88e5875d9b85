"""Pure parsing: an ingested record of any of the three shapes → one ``ParsedRCA``.

Dispatches on ``record.kind``; the shape modules (``skill_text``, ``step_files``,
``capture``) never raise on bad input, so a contract violation is a result (outcome
``incomplete`` with errors), never a crash. No I/O here: the service and
``rcaloop parse`` both call ``parse_record`` and cannot disagree.

Secrets are redacted first, with the detector ingestion uses: what the parser publishes
(or ``rcaloop parse`` prints) never holds one, and each secret — or the marker ingestion
left in its place — becomes a red flag naming its type and where it was.
"""

from __future__ import annotations

from typing import Any

from rcaloop.contracts import IngestedRecord, ParsedRCA, RedFlag
from rcaloop.parser import codes
from rcaloop.parser.capture import parse_capture
from rcaloop.parser.citations import Resolver
from rcaloop.parser.registry import EMPTY_REGISTRY, Registry
from rcaloop.parser.skill_diagnosis import cited_artifacts, skill_diagnosis
from rcaloop.parser.skill_text import parse_skill_text
from rcaloop.parser.step_files import parse_step_files
from rcaloop.shared.context_block import parse_context_block
from rcaloop.shared.secrets import Secret, redact_record

MAX_FINDINGS = 500
"""Findings beyond this many (per list) are dropped: pathological input stays bounded."""
CONTEXT_CODES = {"RCA401": codes.CONTEXT_NO_SEPARATOR, "RCA402": codes.CONTEXT_BAD_LINE}


def parse_record(record: IngestedRecord, registry: Registry | None = None) -> ParsedRCA:
    record, secrets = redact_record(record)
    resolver = Resolver(
        registry=registry or EMPTY_REGISTRY,
        destination=record.metadata.get("destination"),
        registry_given=registry is not None,
    )
    if record.kind == "skill_text":
        values = _skill_text(record, resolver, secrets)
    elif record.kind == "step_files":
        values = parse_step_files(record.content, record.job_id, resolver)
    else:
        values = parse_capture(record.content, resolver)
    context, context_issues = parse_context_block(record.input_text)
    values["warnings"] = values.get("warnings", []) + [CONTEXT_CODES[i.code].issue(line=i.line) for i in context_issues]
    values["artifacts"] = values.get("artifacts", []) + list(record.evidence)
    if context is not None:
        values["alert_text"] = context.body
    elif record.input_text:
        values["alert_text"] = record.input_text
    values["warnings"] = values["warnings"][:MAX_FINDINGS]
    values["red_flags"] = red_flags(secrets, values.get("red_flags", []))
    if values.get("errors"):
        values["outcome"] = "incomplete"
    return ParsedRCA(
        analysis_hash=record.analysis_hash,
        result_id=record.result_id,
        job_id=record.job_id,
        source_kind=record.kind,
        context=context,
        received_at=record.ingested_at,
        **values,
    )


def red_flags(secrets: list[Secret], declared: list[RedFlag]) -> list[RedFlag]:
    """One flag per secret type and place (in the order found, naming the rule of the first
    found there), then the declared items."""
    detected: dict[tuple[str, str, int | None], str | None] = {}
    for s in secrets:
        detected.setdefault((s.type, s.where, s.line), s.rule)
    flags = [codes.SECRET_DETECTED.flag(type_, where, line, rule=rule)
             for (type_, where, line), rule in detected.items()]
    return (flags + declared)[:MAX_FINDINGS]


def _skill_text(record: IngestedRecord, resolver: Resolver, secrets: list[Secret]) -> dict[str, Any]:
    if not isinstance(record.content, str):
        return {"outcome": "incomplete", "errors": [codes.NOT_TEXT.issue()]}
    parsed = parse_skill_text(record.content, resolver)
    for i, s in enumerate(secrets):  # the output's lines are the report's, the chat's or the fields'
        if s.where == "output":
            secrets[i] = Secret(s.type, parsed.part_of(s.line or 1), s.line, s.rule)
    early = parsed.outcome in ("not_applicable", "insufficient_context")
    has_report = (parsed.carries_report or not early) and not any(
        e.code in (codes.EMPTY_OUTPUT.code, codes.BAD_OUTCOME_LINE.code) for e in parsed.errors
    )
    return {
        "outcome": parsed.outcome,
        "outcome_reason": parsed.outcome_reason,
        "title": parsed.title,
        "report_markdown": parsed.report_markdown,
        "chat": parsed.chat,
        "chat_rendered": parsed.chat_rendered,
        "fields": parsed.fields,
        "citations": parsed.citations,
        "red_flags": parsed.red_flags,
        "errors": parsed.errors,
        "warnings": parsed.warnings,
        "diagnosis": skill_diagnosis(parsed, resolver) if has_report else None,
        "artifacts": cited_artifacts(parsed.citations, resolver),
    }
