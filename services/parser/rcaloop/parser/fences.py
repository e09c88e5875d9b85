"""Code blocks: text inside them is content, never structure.

A fence opens on a line whose first characters after blanks, block quote markers (``>``)
and list item markers (``-``, ``*``, ``+``, ``1.``) are three or more backticks or tildes
(at any indentation, so fences in list items count) and closes on a line holding only the
same character, at least as many times (after blanks and ``>``), no more than three columns
to the right of the opening fence (CommonMark: a line indented further is code inside the
fence). With ``html``, a raw HTML block is code too, as Markdown renders it: a line
starting (after the same markers) with ``<pre``, ``<script``, ``<style``, ``<textarea`` or
``<!--`` opens one, which runs to the first line holding its end (``</pre>`` …, ``-->``),
that line included. A block never
closed runs to the end of the text. Marker lines, headings and chat section heads inside a
block are quoted examples, not the output's own structure.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

CONTAINER = re.compile(r"[ \t]*(?:(?:>|[-*+]|[0-9]{1,9}[.)])(?=[ \t])[ \t]*|>)*")
"""Block quote markers and list item markers before a block (``> ```…``, ``- <pre>``)."""
QUOTE = re.compile(r"[ \t]*(?:>[ \t]*)*")
HTML_BLOCK = re.compile(r"<(?:(pre|script|style|textarea)(?![^\s>])|(!--))", re.I)
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


def _column(line: str, pos: int) -> int:
    """The column of ``line[pos]`` (a tab advances to the next multiple of four)."""
    return len(line[:pos].expandtabs(4))


@dataclass(frozen=True)
class _Fence:
    marker: str  # the run of backticks or tildes
    column: int
    quotes: int  # block quote depth: a closing fence sits at the same depth


def _opening(line: str) -> _Fence | None:
    """The fence a line opens (after any block quote or list item markers)."""
    start = CONTAINER.match(line).end()  # type: ignore[union-attr]
    rest = line[start:]
    for ch in "`~":
        if rest.startswith(ch * 3):
            run = len(rest) - len(rest.lstrip(ch))
            if ch == "`" and "`" in rest[run:]:
                return None  # an inline code span, not a fence
            return _Fence(ch * run, _column(line, start), line.count(">", 0, start))
    return None


def _closes(line: str, fence: _Fence) -> bool:
    start = QUOTE.match(line).end()  # type: ignore[union-attr]
    rest = line[start:].rstrip()
    return (
        rest.startswith(fence.marker)
        and not rest.strip(fence.marker[0])
        and line.count(">", 0, start) == fence.quotes
        and _column(line, start) <= fence.column + CLOSING_INDENT
    )


def _html_end(line: str) -> str | None:
    m = HTML_BLOCK.match(line, CONTAINER.match(line).end())  # type: ignore[union-attr]
    if m is None:
        return None
    return "-->" if m.group(2) else f"</{m.group(1).lower()}>"


def find_fences(lines: list[str], *, html: bool = False) -> Fences:
    """One pass; outside a block, lines holding neither ``` nor ~~~ (nor ``<``, with
    ``html``) are skipped with a substring test."""
    ranges: list[tuple[int, int]] = []
    fence: _Fence | None = None
    html_end: str | None = None  # the end of the open HTML block
    start = 0
    for index, line in enumerate(lines):
        if fence is None and html_end is None:
            if "```" in line or "~~~" in line:
                fence, start = _opening(line), index
                continue
            if not html or "<" not in line or (html_end := _html_end(line)) is None:
                continue
            start = index
        if html_end is not None:
            if html_end in line.lower():
                ranges.append((start, index))
                html_end = None
        elif fence is not None and ("```" in line or "~~~" in line) and _closes(line, fence):
            ranges.append((start, index))
            fence = None
    if fence is not None or html_end is not None:
        ranges.append((start, len(lines) - 1))
        return Fences(tuple(ranges), start)
    return Fences(tuple(ranges)) if ranges else NONE


def indented_code(line: str) -> bool:
    """A line indented four spaces or a tab: code in Markdown, not a marker."""
    head = line[: len(line) - len(line.lstrip())]
    return "\t" in head or len(head) >= 4
