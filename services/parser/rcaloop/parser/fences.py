"""Code blocks: text inside them is content, never structure.

A fence opens on a line whose first non-blank characters are three or more backticks or
tildes (at any indentation, so fences in list items count) and closes on a line holding
only the same character, at least as many times, indented at most three columns more than
the fence opened (CommonMark: a line indented further is code inside the fence). With
``html``, a raw HTML block is code too, as Markdown renders it: a line starting with
``<pre``, ``<script``, ``<style``, ``<textarea`` or ``<!--`` opens one, which runs to the
first line holding its end (``</pre>`` …, ``-->``), that line included. A block never
closed runs to the end of the text. Marker lines, headings and chat section heads inside a
block are quoted examples, not the output's own structure.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

HTML_BLOCK = re.compile(r"[ \t]*<(?:(pre|script|style|textarea)(?![^\s>])|(!--))", re.I)
"""The start of a raw HTML block whose lines are not Markdown; group 1 or 2 names its end."""
CLOSING_INDENT = 3
"""A closing fence may be indented this many columns more than its opening fence."""


@dataclass(frozen=True)
class Fences:
    """The code blocks' line ranges of a text (0-based, both ends included) and the first
    block that is never closed."""

    ranges: tuple[tuple[int, int], ...] = ()
    unclosed: int | None = None

    def __contains__(self, index: int) -> bool:
        i = bisect_right(self.ranges, (index, float("inf"))) - 1
        return i >= 0 and self.ranges[i][0] <= index <= self.ranges[i][1]


NONE = Fences()


def _indent(line: str) -> int:
    """Columns of leading blanks (a tab advances to the next multiple of four)."""
    return len(line[: len(line) - len(line.lstrip(" \t"))].expandtabs(4))


def _opening(line: str) -> str | None:
    stripped = line.lstrip()
    for ch in "`~":
        if stripped.startswith(ch * 3):
            run = len(stripped) - len(stripped.lstrip(ch))
            if ch == "`" and "`" in stripped[run:]:
                return None  # an inline code span, not a fence
            return ch * run
    return None


def _html_end(line: str) -> str | None:
    m = HTML_BLOCK.match(line)
    if m is None:
        return None
    return "-->" if m.group(2) else f"</{m.group(1).lower()}>"


def find_fences(lines: list[str], *, html: bool = False) -> Fences:
    """One pass; outside a block, lines holding neither ``` nor ~~~ (nor ``<``, with
    ``html``) are skipped with a substring test."""
    ranges: list[tuple[int, int]] = []
    fence: str | None = None  # the open fence, or the end of the open HTML block
    html_block = False
    start = indent = 0
    for index, line in enumerate(lines):
        if fence is None:
            if "```" in line or "~~~" in line:
                fence = _opening(line)
                start, indent, html_block = index, _indent(line), False
            elif html and "<" in line and (end := _html_end(line)) is not None:
                fence, start, html_block = end, index, True
            if fence is None or not html_block:
                continue
        if html_block:
            if fence in line.lower():
                ranges.append((start, index))
                fence = None
        elif "```" in line or "~~~" in line:
            stripped = line.strip()
            if stripped.startswith(fence) and not stripped.strip(fence[0]) and _indent(line) <= indent + CLOSING_INDENT:
                ranges.append((start, index))
                fence = None
    if fence is not None:
        ranges.append((start, len(lines) - 1))
        return Fences(tuple(ranges), start)
    return Fences(tuple(ranges)) if ranges else NONE


def indented_code(line: str) -> bool:
    """A line indented four spaces or a tab: code in Markdown, not a marker."""
    head = line[: len(line) - len(line.lstrip())]
    return "\t" in head or len(head) >= 4
