"""Code fences: text inside them is content, never structure.

A fence opens on a line whose first non-blank characters are three or more backticks or
tildes (at any indentation, so fences in list items count) and closes on a line holding
only the same character, at least as many times. A fence never closed runs to the end
of the text. Marker lines, headings and chat section heads inside a fence are quoted
examples, not the output's own structure.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass


@dataclass(frozen=True)
class Fences:
    """The fenced line ranges of a text (0-based, both ends included) and the first
    fence that is never closed."""

    ranges: tuple[tuple[int, int], ...] = ()
    unclosed: int | None = None

    def __contains__(self, index: int) -> bool:
        i = bisect_right(self.ranges, (index, float("inf"))) - 1
        return i >= 0 and self.ranges[i][0] <= index <= self.ranges[i][1]


NONE = Fences()


def _opening(line: str) -> str | None:
    stripped = line.lstrip()
    for ch in "`~":
        if stripped.startswith(ch * 3):
            run = len(stripped) - len(stripped.lstrip(ch))
            if ch == "`" and "`" in stripped[run:]:
                return None  # an inline code span, not a fence
            return ch * run
    return None


def find_fences(lines: list[str]) -> Fences:
    """One pass; lines holding neither ``` nor ~~~ are skipped with a substring test."""
    ranges: list[tuple[int, int]] = []
    fence: str | None = None
    start = 0
    for index, line in enumerate(lines):
        if "```" not in line and "~~~" not in line:
            continue
        if fence is None:
            fence = _opening(line)
            start = index
        else:
            stripped = line.strip()
            if stripped.startswith(fence) and not stripped.strip(fence[0]):
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
