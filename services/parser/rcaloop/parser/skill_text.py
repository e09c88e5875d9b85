"""The skill text output contract (SPEC §3a): early exits, report, chat block, fields block.

The text is scanned once for its marker lines; the report, chat and fields parts are
then handled by their own small parsers. Nothing here raises on bad input: every
violation is an ``Issue`` and errors make the outcome ``incomplete``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rcaloop.contracts import Issue
from rcaloop.contracts.parsed import Chat, Citation, Fields
from rcaloop.parser import codes
from rcaloop.parser.chat import parse_chat
from rcaloop.parser.citations import Resolver, find_citations, render
from rcaloop.parser.fields import parse_fields

MARKERS = frozenset({"RCA_CHAT", "END_RCA_CHAT", "RCA_FIELDS"})
OUTCOME_LINE = re.compile(r"RCA_OUTCOME:[ \t]*(not_applicable|insufficient_context)[ \t]*[-–—][ \t]*(\S.*)")
# Searched in "\n" + report: a literal first character keeps the scan fast.
TITLE = re.compile(r"\n#[ \t]+(\S[^\n]*)")
HEADING = re.compile(r"\n(#{1,6})[ \t]+([^\n]*)")


@dataclass
class SkillText:
    """What the text contract yields; ``core`` turns it into a ``ParsedRCA``."""

    outcome: str = "report"
    outcome_reason: str | None = None
    title: str | None = None
    report_markdown: str = ""
    summary: str | None = None
    report_sections: dict[str, str] = field(default_factory=dict)
    chat: Chat | None = None
    chat_rendered: str = ""
    fields: Fields = field(default_factory=Fields)
    citations: list[Citation] = field(default_factory=list)
    red_flags: list[str] = field(default_factory=list)
    errors: list[Issue] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)
    carries_report: bool = False
    """An early exit followed by more text: that text is parsed and judged too."""


@dataclass(frozen=True)
class _Marker:
    kind: str
    index: int  # 0-based line index
    text: str


def parse_skill_text(text: str, resolver: Resolver) -> SkillText:
    result = SkillText()
    text = text.lstrip("\ufeff").replace("\r\n", "\n")
    if not text.strip():
        result.outcome = "incomplete"
        result.errors.append(codes.EMPTY_OUTPUT.issue())
        return result
    lines = text.split("\n")
    markers = _markers(lines)
    first = next(i for i, ln in enumerate(lines) if ln.strip())
    if lines[first].lstrip().startswith("RCA_OUTCOME:"):
        return _early_exit(result, lines, first, resolver)
    late_outcome = next((m for m in markers if m.kind == "RCA_OUTCOME:"), None)
    if late_outcome:
        result.warnings.append(codes.OUTCOME_NOT_FIRST.issue(line=late_outcome.index + 1))
    fields_at = next((m.index for m in reversed(markers) if m.kind == "RCA_FIELDS"), None)
    chat_at, chat_end = _chat_bounds(markers, fields_at, len(lines), result)
    report_end = chat_at if chat_at is not None else (fields_at if fields_at is not None else len(lines))
    _report(result, lines[:report_end], resolver)
    if chat_at is not None:
        chat, warnings = parse_chat(lines[chat_at + 1 : chat_end], chat_at + 2)
        result.chat = chat
        result.warnings += warnings
        rendered = render(
            chat.markdown, resolver, part="chat", first_line=chat_at + 2 + _leading_blank(lines, chat_at + 1)
        )
        result.chat_rendered = rendered.text
        result.citations += rendered.citations
        result.warnings += rendered.warnings
    else:
        result.warnings.append(codes.NO_CHAT.issue())
        result.chat_rendered = _fallback_post(result, resolver)
    if fields_at is None:
        result.outcome = "incomplete"
        result.errors.append(codes.MISSING_FIELDS.issue())
    else:
        parsed = parse_fields(
            lines[fields_at + 1 :], fields_at + 2, resolver.registry if resolver.registry_given else None
        )
        result.fields = parsed.fields
        result.red_flags += parsed.red_flags
        result.warnings += parsed.warnings
    return result


def _markers(lines: list[str]) -> list[_Marker]:
    """Marker lines (alone on their line; ``RCA_OUTCOME:`` starts its line). One cheap pass."""
    out: list[_Marker] = []
    for index, line in enumerate(lines):
        if "RCA_" not in line:
            continue
        stripped = line.strip()
        if stripped in MARKERS:
            out.append(_Marker(stripped, index, stripped))
        elif stripped.startswith("RCA_OUTCOME:"):
            out.append(_Marker("RCA_OUTCOME:", index, stripped))
    return out


def _early_exit(result: SkillText, lines: list[str], first: int, resolver: Resolver) -> SkillText:
    line = lines[first].strip()
    result.report_markdown = "\n".join(lines).strip("\n")
    m = OUTCOME_LINE.fullmatch(line)
    if m is None:
        result.outcome = "incomplete"
        result.errors.append(
            codes.BAD_OUTCOME_LINE.issue(
                "expected 'RCA_OUTCOME: not_applicable|insufficient_context - <reason>'", line=first + 1
            )
        )
    else:
        result.outcome, result.outcome_reason = m.group(1), m.group(2).strip()
    rest = next((i for i in range(first + 1, len(lines)) if lines[i].strip()), None)
    if rest is not None:
        result.warnings.append(codes.TEXT_AFTER_EARLY_EXIT.issue(line=rest + 1))
        _tail(result, lines[rest:], rest, resolver)
    return result


def _tail(result: SkillText, lines: list[str], offset: int, resolver: Resolver) -> None:
    """Text after an early exit is kept and parsed like a report, so what it names or
    proposes is judged; its own contract findings are not errors of the early exit."""
    tail = parse_skill_text("\n".join(lines), resolver)
    for found in (*tail.warnings, *tail.citations):
        if found.line is not None:
            found.line += offset
    result.carries_report = True
    result.title, result.summary, result.report_sections = tail.title, tail.summary, tail.report_sections
    result.chat, result.chat_rendered, result.citations = tail.chat, tail.chat_rendered, tail.citations
    result.fields, result.red_flags = tail.fields, result.red_flags + tail.red_flags
    skipped = {codes.MISSING_FIELDS.code, codes.NO_CHAT.code, codes.NO_TITLE.code, codes.NO_SUMMARY.code}
    result.warnings += [w for w in tail.warnings if w.code not in skipped]


def _chat_bounds(markers: list[_Marker], fields_at: int | None, n_lines: int, result: SkillText):
    limit = fields_at if fields_at is not None else n_lines
    starts = [m.index for m in markers if m.kind == "RCA_CHAT" and m.index < limit]
    if not starts:
        return None, None
    start = starts[0]
    end = next((m.index for m in markers if m.kind == "END_RCA_CHAT" and start < m.index < limit), None)
    if end is None:
        result.warnings.append(codes.UNTERMINATED_CHAT.issue(line=start + 1))
        end = limit
    extra = next((i for i in starts[1:] if i > end), None)
    if extra is not None:
        result.warnings.append(codes.EXTRA_CHAT_BLOCK.issue(line=extra + 1))
    return start, end


def _leading_blank(lines: list[str], i: int) -> int:
    n = 0
    while i + n < len(lines) and not lines[i + n].strip():
        n += 1
    return n


def _report(result: SkillText, lines: list[str], resolver: Resolver) -> None:
    report = "\n".join(lines).strip("\n")
    result.report_markdown = report
    first_line = 1 + _leading_blank(lines, 0)
    title = TITLE.search("\n" + report)
    if title:
        result.title = title.group(1).strip().rstrip("#").strip() or None
    if result.title is None:
        result.warnings.append(codes.NO_TITLE.issue())
    result.report_sections = _sections(report)
    result.summary = result.report_sections.get("summary")
    if result.summary is None:
        result.warnings.append(codes.NO_SUMMARY.issue())
    found = find_citations(report, resolver, part="report", first_line=first_line)
    result.citations += found.citations
    result.warnings += found.warnings


def _sections(report: str) -> dict[str, str]:
    """Level 2+ sections of the report by lower-cased heading (the first of a name wins)."""
    report = "\n" + report
    heads = [m for m in HEADING.finditer(report) if len(m.group(1)) >= 2]
    sections: dict[str, str] = {}
    for i, m in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(report)
        sections.setdefault(m.group(2).strip(" \t#").lower(), report[m.end() : end].strip())
    return sections


def _fallback_post(result: SkillText, resolver: Resolver) -> str:
    parts = [f"**{result.title}**"] if result.title else []
    if result.summary:
        parts.append(result.summary)
    return render("\n\n".join(parts), resolver, part="chat").text if parts else ""
