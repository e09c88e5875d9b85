"""The chat message between ``RCA_CHAT`` and ``END_RCA_CHAT``.

``**<short title>**``, a line `` `<subjects>` | <context> ``, then the eight optional
sections in a fixed order. Simple Markdown only: headings, tables, HTML and images are
flagged (the chat provider converts only simple Markdown).
"""

from __future__ import annotations

import re

from rcaloop.contracts import Issue
from rcaloop.contracts.parsed import Chat, ChatSections
from rcaloop.parser import codes
from rcaloop.parser.fences import find_fences

SECTION_ORDER = ("tldr", "cause", "steps_to_verify", "now", "do_not", "permanent_fixes", "also", "related")
SECTION_TITLES = {
    "tl;dr": "tldr",
    "cause": "cause",
    "steps to verify": "steps_to_verify",
    "now": "now",
    "do not": "do_not",
    "permanent fixes": "permanent_fixes",
    "also": "also",
    "related": "related",
}
SECTION_HEAD = re.compile(
    r"\*\*(TL;DR|Cause|Steps to verify|Now|Do NOT|Permanent fixes|Also|Related):?\*\*:?(.*)", re.I
)
TITLE = re.compile(r"\*\*([^*\n]{1,300}+)\*\*")
SUBJECTS = re.compile(r"((?:`[^`\n]{1,300}+`[ \t,]*)+)(?:\|[ \t]*(.*))?")
BACKTICKED = re.compile(r"`([^`\n]+)`")
RICH = re.compile(r"^#{1,6}\s|^\s*\|.*\|\s*$|<\/?[A-Za-z][^>\n]{0,200}>|!\[")


def parse_chat(lines: list[str], first_line: int) -> tuple[Chat, list[Issue]]:
    """Parse the block's lines (markers excluded); ``first_line`` numbers the first one."""
    warnings: list[Issue] = []
    values: dict = {"markdown": "\n".join(lines).strip("\n")}
    i, n = 0, len(lines)
    i = _skip_blank(lines, i)
    title = TITLE.fullmatch(lines[i].strip()) if i < n else None
    if title and not SECTION_HEAD.match(lines[i].strip()):
        values["title"] = title.group(1).strip()
        i = _skip_blank(lines, i + 1)
    else:
        warnings.append(codes.NO_CHAT_TITLE.issue(line=first_line + i if i < n else None))
    subjects = SUBJECTS.fullmatch(lines[i].strip()) if i < n else None
    if subjects:
        values["subjects"] = [
            s.strip() for span in BACKTICKED.findall(subjects.group(1)) for s in span.split(",") if s.strip()
        ]
        values["context"] = (subjects.group(2) or "").strip() or None
        i += 1
    else:
        warnings.append(codes.NO_SUBJECTS_LINE.issue(line=first_line + i if i < n else None))
    values["sections"] = _parse_sections(lines, i, first_line, warnings)
    return Chat(**values), warnings


def _maybe_rich(line: str) -> bool:
    """Cheap pre-check: only lines holding one of these characters can be rich Markdown."""
    return "<" in line or "|" in line or "![" in line or line.lstrip().startswith("#")


def _skip_blank(lines: list[str], i: int) -> int:
    while i < len(lines) and not lines[i].strip():
        i += 1
    return i


def _parse_sections(lines: list[str], start: int, first_line: int, warnings: list[Issue]) -> ChatSections:
    current: list[str] | None = None
    repeated: set[str] = set()
    last_index = -1
    fences = find_fences(lines)
    stray_flagged = rich_flagged = False
    found: dict[str, list[str]] = {}
    for offset in range(start, len(lines)):
        line = lines[offset]
        stripped = line.strip()
        lineno = first_line + offset
        if offset not in fences:
            head = SECTION_HEAD.fullmatch(stripped) if stripped.startswith("**") else None
            if head:
                key = SECTION_TITLES[head.group(1).lower()]
                index = SECTION_ORDER.index(key)
                if key in found:  # still posted: its text joins the first one's
                    if key not in repeated:
                        warnings.append(codes.SECTION_REPEATED.issue(key, line=lineno))
                        repeated.add(key)
                    current = found[key]
                    current.append(head.group(2).strip())
                    continue
                if index < last_index:
                    warnings.append(codes.SECTION_ORDER.issue(f"{key} after {SECTION_ORDER[last_index]}", line=lineno))
                last_index = max(last_index, index)
                current = [head.group(2).strip()]
                found[key] = current
                continue
            if not rich_flagged and _maybe_rich(line) and RICH.search(line):
                warnings.append(codes.RICH_MARKDOWN.issue(line=lineno))
                rich_flagged = True
        if current is None:
            if stripped and not stray_flagged:
                warnings.append(codes.STRAY_CHAT_TEXT.issue(line=lineno))
                stray_flagged = True
            continue
        current.append(line)
    return ChatSections(**{key: "\n".join(body).strip() or None for key, body in found.items()})
