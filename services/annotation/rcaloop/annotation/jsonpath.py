"""The small JSON-path dialect of the seed's traceability items (``failed_tasks[0].duration``).

Grammar: an optional ``$`` / ``$.``, then names separated by dots, each followed by any
number of ``[index]`` or ``["key"]`` subscripts. Pure: resolving reads no file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]*")
_INDEX = re.compile(r"\[(-?\d+)\]")
_QUOTED = re.compile(r"""\[(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')\]""")

_UNESCAPE = re.compile(r"\\(.)")

Segment = str | int


class PathSyntaxError(ValueError):
    """The path is not in the dialect; the message says where."""


@dataclass(frozen=True)
class Resolved:
    found: bool
    value: Any = None
    failed_at: str = ""
    """The prefix of the path that did resolve, when ``found`` is false."""


def parse(path: str) -> list[Segment]:
    text = path.strip()
    if not text:
        raise PathSyntaxError("empty path")
    if text.startswith("$"):
        text = text[1:].lstrip(".")
    segments: list[Segment] = []
    pos, expect_name = 0, True
    while pos < len(text):
        if text[pos] == "[":
            if m := _INDEX.match(text, pos):
                segments.append(int(m.group(1)))
            elif m := _QUOTED.match(text, pos):
                segments.append(_UNESCAPE.sub(r"\1", m.group(1) if m.group(1) is not None else m.group(2)))
            else:
                raise PathSyntaxError(f"bad subscript at position {pos}")
            pos, expect_name = m.end(), False
            continue
        if not expect_name:
            if text[pos] != ".":
                raise PathSyntaxError(f"expected '.' or '[' at position {pos}")
            pos += 1
        m = _NAME.match(text, pos)
        if not m:
            raise PathSyntaxError(f"expected a key name at position {pos}")
        segments.append(m.group(0))
        pos, expect_name = m.end(), False
    return segments


def render(segments: list[Segment]) -> str:
    out = ""
    for seg in segments:
        if isinstance(seg, int):
            out += f"[{seg}]"
        elif _NAME.fullmatch(seg):
            out += f".{seg}" if out else seg
        else:
            out += '["' + seg.replace("\\", "\\\\").replace('"', '\\"') + '"]'
    return out


def resolve(document: Any, path: str) -> Resolved:
    """Follow ``path`` into ``document``; raises ``PathSyntaxError`` for a malformed path."""
    current, walked = document, []
    for seg in parse(path):
        if isinstance(seg, int):
            ok = isinstance(current, list) and -len(current) <= seg < len(current)
        else:
            ok = isinstance(current, dict) and seg in current
        if not ok:
            return Resolved(False, failed_at=render(walked) or "$")
        current = current[seg]
        walked.append(seg)
    return Resolved(True, current)
