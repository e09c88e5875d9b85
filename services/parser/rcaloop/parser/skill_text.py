"""The skill text output contract: early exits, report, chat block, fields block.

The text is scanned once for its marker lines; the report, chat and fields parts are
then handled by their own small parsers. Nothing here raises on bad input: every
violation is an ``Issue`` and errors make the outcome ``incomplete``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rcaloop.judge.reading.places import Role, heading_role

from rcaloop.contracts import Issue, RedFlag
from rcaloop.contracts.parsed import Chat, Citation, Fields
from rcaloop.parser import codes
from rcaloop.parser.chat import parse_chat
from rcaloop.parser.citations import Resolver, find_citations, render
from rcaloop.parser.fences import Fences, find_fences, indented_code
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
    red_flags: list[RedFlag] = field(default_factory=list)
    errors: list[Issue] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)
    carries_report: bool = False
    """An early exit followed by more text: that text is parsed and judged too."""
    parts: list[tuple[int, str]] = field(default_factory=lambda: [(1, "report")])
    """(first line, name) of each part of the output: ``report``, ``chat``, ``fields``"""

    def part_of(self, line: int) -> str:
        return next(name for first, name in reversed(self.parts) if first <= line)


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
    fences = find_fences(lines, html=True)
    markers = _markers(lines, fences, result)
    first = next(i for i, ln in enumerate(lines) if ln.strip())
    if lines[first].lstrip().startswith("RCA_OUTCOME:"):
        return _early_exit(result, lines, first, resolver)
    late_outcome = next((m for m in markers if m.kind == "RCA_OUTCOME:"), None)
    if late_outcome:
        result.warnings.append(codes.OUTCOME_NOT_FIRST.issue(line=late_outcome.index + 1))
    fields_at = next((m.index for m in reversed(markers) if m.kind == "RCA_FIELDS"), None)
    chat_at, chat_end = _chat_bounds(markers, fields_at, len(lines), result)
    report_end = chat_at if chat_at is not None else (fields_at if fields_at is not None else len(lines))
    if chat_at is not None:
        result.parts.append((chat_at + 1, "chat"))
    if fields_at is not None:
        result.parts.append((fields_at + 1, "fields"))
    _report(result, lines[:report_end], resolver, fences)
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
        result.errors += parsed.errors
        result.warnings += parsed.warnings
        if parsed.errors:
            result.outcome = "incomplete"
    return result


def _markers(lines: list[str], fences: Fences, result: SkillText) -> list[_Marker]:
    """Marker lines (alone on their line; ``RCA_OUTCOME:`` starts its line). One cheap pass.

    A marker in a code block (a fence, an HTML ``<pre>`` block, or indented four spaces)
    is a quoted example: it does not count, so a fenced ``RCA_FIELDS`` cannot stand in for
    a missing block.
    """
    out: list[_Marker] = []
    for index, line in enumerate(lines):
        if "RCA_" not in line:
            continue
        stripped = line.strip()
        kind = stripped if stripped in MARKERS else ("RCA_OUTCOME:" if stripped.startswith("RCA_OUTCOME:") else None)
        if kind is None:
            continue
        if index in fences or indented_code(line):
            result.warnings.append(codes.FENCED_MARKER.issue(kind.rstrip(":"), line=index + 1))
        else:
            out.append(_Marker(kind, index, stripped))
    if fences.unclosed is not None:
        result.warnings.append(codes.UNCLOSED_FENCE.issue(line=fences.unclosed + 1))
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
    placed: tuple[Issue | Citation | RedFlag, ...] = (*tail.warnings, *tail.citations, *tail.red_flags)
    for found in placed:
        if found.line is not None:
            found.line += offset
    result.parts += [(first + offset, name) for first, name in tail.parts]
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


def _report(result: SkillText, lines: list[str], resolver: Resolver, fences: Fences) -> None:
    report = "\n".join(lines).strip("\n")
    result.report_markdown = report
    first_line = 1 + _leading_blank(lines, 0)
    structure = _unfenced(lines, fences).strip("\n") if fences.ranges else report
    title = TITLE.search("\n" + structure)
    if title:
        result.title = title.group(1).strip().rstrip("#").strip() or None
    if result.title is None:
        result.warnings.append(codes.NO_TITLE.issue())
    result.report_sections = _sections(report, structure)
    result.summary = section_by_role(result.report_sections, Role.SUMMARY)
    if result.summary is None:
        result.warnings.append(codes.NO_SUMMARY.issue())
    found = find_citations(report, resolver, part="report", first_line=first_line)
    result.citations += found.citations
    result.warnings += found.warnings


def _unfenced(lines: list[str], fences: Fences) -> str:
    """The lines with each fenced ``#`` made a space (same length): headings in code blocks
    are not the report's own, and every offset still points into the report."""
    return "\n".join(ln.replace("#", " ") if i in fences else ln for i, ln in enumerate(lines))


def _sections(report: str, structure: str) -> dict[str, str]:
    """Level 2+ sections of the report by lower-cased heading (the first of a name wins);
    headings are found in ``structure`` (the report with fenced headings blanked)."""
    report = "\n" + report
    heads = [m for m in HEADING.finditer("\n" + structure) if len(m.group(1)) >= 2]
    sections: dict[str, str] = {}
    for i, m in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(report)
        sections.setdefault(m.group(2).strip(" \t#").lower(), report[m.end() : end].strip())
    return sections


def section_by_role(sections: dict[str, str], *roles: Role) -> str | None:
    """The first section whose heading names one of ``roles`` (``## Summary``, ``## 요약``, ``## TL;DR``)."""
    for role in roles:
        for heading, body in sections.items():
            if heading_role(heading) is role:
                return body
    return None


def _fallback_post(result: SkillText, resolver: Resolver) -> str:
    parts = [f"**{result.title}**"] if result.title else []
    if result.summary:
        parts.append(result.summary)
    return render("\n\n".join(parts), resolver, part="chat").text if parts else ""
