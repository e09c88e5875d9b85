"""Reading and editing the report text: sections (``rcaloop.shared.report_sections``), citation
links, quoted spans."""

from __future__ import annotations

import re
from functools import lru_cache

from rcaloop.shared.report_sections import TRAILER_MARKERS, sections

_LINK = re.compile(r"\[([^\]\n]*)\]\(\s*(msg|rca|code):([^)\s]+)\s*\)")
_QUOTE = re.compile(r"`([^`\n]{6,})`|\"([^\"\n]{8,})\"|“([^”\n]{8,})”")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(.*\S)\s*$")


def section(markdown: str, *names: str) -> str:
    """The first section whose heading starts with one of ``names``."""
    found = sections(markdown)
    for want in names:
        for heading, body in found.items():
            if heading.startswith(want):
                return body
    return ""


@lru_cache(maxsize=2048)
def citation_refs(text: str) -> tuple[str, ...]:
    """``msg:m-1``, ``code:shop@abc/x.py#L3`` … in order of appearance."""
    return tuple(f"{kind}:{target}" for _label, kind, target in _LINK.findall(text or ""))


@lru_cache(maxsize=2048)
def quotes(text: str) -> tuple[str, ...]:
    """Spans the author quoted: backticks (≥ 6 chars) and double quotes (≥ 8 chars)."""
    return tuple(next(g for g in m.groups() if g) for m in _QUOTE.finditer(text or ""))


def body_end(markdown: str) -> int:
    """Index of the first trailer line (RCA_CHAT / RCA_FIELDS), or the line count."""
    lines = markdown.splitlines()
    for i, line in enumerate(lines):
        if line.strip() in TRAILER_MARKERS:
            return i
    return len(lines)


def insert_before_line_containing(markdown: str, needle: str, new_lines: list[str]) -> str | None:
    """Insert list items before the first line containing ``needle`` (same bullet style); None if absent.

    Idempotent: items already right above that line are not inserted again.
    """
    if not needle:
        return None
    lines = markdown.splitlines()
    for i, line in enumerate(lines):
        if needle in line:
            above = [m.group(1) if (m := _LIST_ITEM.match(ln)) else ln.strip()
                     for ln in lines[max(0, i - len(new_lines)) : i]]
            if above == new_lines:
                return markdown
            m = re.match(r"^(\s*)(?:([-*+])|(\d+)([.)]))\s+", line)
            bullet = f"{m.group(1)}{m.group(2)} " if m and m.group(2) else (f"{m.group(1)}- " if m else "- ")
            lines[i:i] = [bullet + text for text in new_lines]
            return "\n".join(lines) + ("\n" if markdown.endswith("\n") else "")
    return None


def append_notes(markdown: str, heading: str, notes: list[str]) -> str:
    """Add a section of notes at the end of the report body (before RCA_CHAT / RCA_FIELDS)."""
    lines = markdown.splitlines()
    at = body_end(markdown)
    block = ["", f"## {heading}", *[f"- {n}" for n in notes], ""]
    if at < len(lines) and at > 0 and not lines[at - 1].strip():
        block = block[1:]
    lines[at:at] = block
    return "\n".join(lines).strip("\n") + "\n"
