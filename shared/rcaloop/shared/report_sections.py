"""A Markdown report read as an operator reads it: its ``#`` sections, and the list items and
paragraphs of a section, each as one line of text.

Every section counts, a repeated heading included (a second ``## Remediation`` is rendered
like the first); the report ends at its trailer (``RCA_CHAT`` / ``RCA_FIELDS``). A list
item or a paragraph wrapped over several lines is one text; the lines of a code block are
read one by one (each is a command line).
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(.*\S)\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
TRAILER_MARKERS = ("RCA_CHAT", "RCA_FIELDS")


@lru_cache(maxsize=512)
def all_sections(markdown: str) -> tuple[tuple[str, str], ...]:
    """(heading in lower case, the text under it) for every ``#`` heading, in order (a ``#``
    line inside a code block is code); the text before the first heading has the heading
    ``""`` (when there is any)."""
    out: list[tuple[str, str]] = []
    name = ""
    lines: list[str] = []
    fence: str | None = None
    for line in markdown.splitlines():
        if line.strip() in TRAILER_MARKERS:
            break
        opens = _FENCE.match(line)
        if opens and (fence is None or opens.group(1) == fence):
            fence = None if fence else opens.group(1)
        m = _HEADING.match(line) if fence is None else None
        if m:
            if name or any(ln.strip() for ln in lines):
                out.append((name, "\n".join(lines).strip()))
            name, lines = m.group(2).strip().lower(), []
        else:
            lines.append(line)
    if name or any(ln.strip() for ln in lines):
        out.append((name, "\n".join(lines).strip()))
    return tuple(out)


def sections(markdown: str) -> dict[str, str]:
    """Heading (lower-case) → the text under it, for every ``#`` heading; the first of a repeated one."""
    out: dict[str, str] = {}
    for name, body in all_sections(markdown):
        if name:
            out.setdefault(name, body)
    return out


def listed(text: str) -> list[str]:
    """Only the list items of a block (prose lines are not items)."""
    return [m.group(1) for ln in (text or "").splitlines() if (m := _LIST_ITEM.match(ln))]


def list_items(text: str) -> list[str]:
    """The list items of a block; a block without list markers gives its non-empty lines."""
    lines = [ln for ln in (text or "").splitlines() if ln.strip()]
    items = [m.group(1) for ln in lines if (m := _LIST_ITEM.match(ln))]
    return items or [ln.strip() for ln in lines]


def _joined(before: str, line: str) -> str:
    """How a wrapped line reads after the one before it: a space, or a sentence break when the
    line before ends without punctuation and this one starts a sentence (``no logs`` /
    ``Restart the database`` reads as two sentences, not one run-on)."""
    ends_bare = before[-1:].isalnum() or before[-1:] in "`)"
    return (". " if ends_bare and line[:1].isupper() else " ") + line


def blocks(text: str) -> list[str]:
    """Every list item and paragraph of a block, in order, each as one line (wrapped lines
    joined); a blank line or a new item ends one; each line of a code block is its own."""
    out: list[str] = []
    current: list[str] = []
    fence: str | None = None

    def close() -> None:
        if current:
            out.append(current[0] + "".join(_joined(a, b) for a, b in pairwise(current)))
            current.clear()

    for line in (text or "").splitlines():
        m = _FENCE.match(line)
        if m and (fence is None or m.group(1) == fence):
            close()
            fence = None if fence else m.group(1)
            continue
        stripped = line.strip()
        if fence is not None:
            if stripped:
                out.append(stripped)
            continue
        if not stripped:
            close()
            continue
        item = _LIST_ITEM.match(line)
        if item:
            close()
            current.append(item.group(1).strip())
        else:
            current.append(stripped)
    close()
    return out
