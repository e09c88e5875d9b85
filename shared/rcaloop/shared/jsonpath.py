"""The one JSON-path dialect of evidence traceability, and the one way a cited value is compared.

An evidence item points into a step file with ``json_path`` and states what is there with
``exact_value`` (the value itself) or ``exact_quote`` (literal text inside it, with an
optional 1-based ``line_number``). The harness (is the root cause grounded?) and the
annotation validator (may this annotation be written?) judge the same item, so both call
this module: a path one accepts and the other refuses would let an agent pick its judge.

Grammar: an optional ``$`` or ``$.``, then key names (``[A-Za-z_][A-Za-z0-9_-]*``) joined
by dots, each followed by any number of subscripts: ``[n]`` (a non-negative list index) or
``["key"]`` / ``['key']`` (any key; ``\\`` escapes the next character). Negative indexes
are refused: a trace names a position that does not move when a list grows.

Values compare as JSON: strings exactly, numbers by value (``1`` equals ``1.0``), booleans
only with booleans, ``null`` only with ``null``, containers element by element. A number
written as a string does not equal the number. Pure.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

Segment = str | int

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]*")
_INDEX = re.compile(r"\[(-?\d+)\]")
_QUOTED = re.compile(r"""\[(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')\]""")
_UNESCAPE = re.compile(r"\\(.)", re.S)
MAX_PATH_CHARS = 1000


class PathSyntaxError(ValueError):
    """The path is not in the dialect; the message says where."""


@lru_cache(maxsize=4096)
def _parse(path: str) -> tuple[Segment, ...]:
    text = path.strip()
    if not text:
        raise PathSyntaxError("empty path")
    if len(text) > MAX_PATH_CHARS:
        raise PathSyntaxError(f"longer than {MAX_PATH_CHARS} characters")
    if text.startswith("$"):
        text = text[1:]
        if text.startswith("."):
            text = text[1:]
    segments: list[Segment] = []
    pos, expect_name = 0, True
    while pos < len(text):
        if text[pos] == "[":
            if m := _INDEX.match(text, pos):
                if m.group(1).startswith("-"):
                    raise PathSyntaxError(f"negative index at position {pos}: name the element's position")
                segments.append(int(m.group(1)))
            elif m := _QUOTED.match(text, pos):
                raw = m.group(1) if m.group(1) is not None else m.group(2)
                segments.append(_UNESCAPE.sub(r"\1", raw))
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
    return tuple(segments)


def parse(path: str) -> list[Segment]:
    """The path's segments; raises ``PathSyntaxError`` when it is not in the dialect."""
    if not isinstance(path, str):
        raise PathSyntaxError("a path is a string")
    return list(_parse(path))


def try_parse(path: str | None) -> list[Segment] | None:
    """The segments, or None for a missing or malformed path."""
    if not path:
        return None
    try:
        return parse(path)
    except PathSyntaxError:
        return None


def render(segments: list[Segment] | tuple[Segment, ...]) -> str:
    """The canonical spelling: ``a.b[0]["odd key"]``."""
    out = ""
    for seg in segments:
        if isinstance(seg, int):
            out += f"[{seg}]"
        elif _NAME.fullmatch(seg):
            out += f".{seg}" if out else seg
        else:
            out += '["' + seg.replace("\\", "\\\\").replace('"', '\\"') + '"]'
    return out


def names_nothing(path: str | None) -> bool:
    """``$`` (or ``$.``): a well-formed path of no step reaches the whole document, no value in it."""
    return try_parse(path) == []


def normalize(path: str | None) -> str | None:
    """The canonical spelling of a valid path; other text is returned stripped (it will not resolve)."""
    if not path:
        return None
    segments = try_parse(path)
    return path.strip() if segments is None else render(segments)


@dataclass(frozen=True)
class Resolved:
    found: bool
    value: Any = None
    failed_at: str = ""
    """The prefix of the path that did resolve, when ``found`` is false (``$`` for none)."""


def resolve(document: Any, path: str | list[Segment] | tuple[Segment, ...]) -> Resolved:
    """Follow ``path`` into ``document``; raises ``PathSyntaxError`` for a malformed path."""
    segments = parse(path) if isinstance(path, str) else path
    current: Any = document
    walked: list[Segment] = []
    for seg in segments:
        if isinstance(seg, int):
            ok = isinstance(current, list) and 0 <= seg < len(current)
        else:
            ok = isinstance(current, dict) and seg in current
        if not ok:
            return Resolved(False, failed_at=render(walked) or "$")
        current = current[seg]
        walked.append(seg)
    return Resolved(True, current)


def find(data: Any, predicate: Callable[[Any], bool], limit: int = 2) -> list[list[Segment]]:
    """Paths (up to ``limit``) of scalar leaves for which ``predicate(value)`` holds, in document order."""
    found: list[list[Segment]] = []
    stack: list[tuple[list[Segment], Any]] = [([], data)]
    while stack and len(found) < limit:
        path, node = stack.pop()
        if isinstance(node, dict):
            stack.extend((path + [k], v) for k, v in reversed(list(node.items())))
        elif isinstance(node, list):
            stack.extend((path + [i], v) for i, v in reversed(list(enumerate(node))))
        elif predicate(node):
            found.append(path)
    return found


def values_equal(expected: Any, actual: Any) -> bool:
    """JSON equality: ``true`` is not ``1``, ``"12"`` is not ``12``, ``1`` equals ``1.0``."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    if isinstance(expected, int | float) and isinstance(actual, int | float):
        return expected == actual
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(values_equal(a, b) for a, b in zip(expected, actual, strict=True))
    if isinstance(expected, dict) and isinstance(actual, dict):
        return expected.keys() == actual.keys() and all(values_equal(expected[k], actual[k]) for k in expected)
    return type(expected) is type(actual) and expected == actual


def as_text(value: Any) -> str | None:
    """The text a quote is searched in: a string as it is, another scalar as its JSON; None for a container."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict | list):
        return None
    return json.dumps(value)


def quote_lines(text: str, quote: str) -> list[int]:
    """1-based line numbers where ``quote`` starts inside ``text``."""
    lines, start = [], text.find(quote) if quote else -1
    while start != -1:
        lines.append(text.count("\n", 0, start) + 1)
        start = text.find(quote, start + 1)
    return lines


MIN_QUOTE_CHARS = 3


def says_something(quote: str) -> bool:
    """A quote ties a value only when it holds at least three letters or digits (``a``, `` `` tie anything),
    or is the whole value."""
    return sum(c.isalnum() for c in quote) >= MIN_QUOTE_CHARS


@dataclass(frozen=True)
class Trace:
    """Whether a cited value is where the item says, and if not, why (``problem`` is a stable word)."""

    problem: str | None
    """None when it traces; else ``malformed_path``, ``unresolved``, ``value_differs``,
    ``quote_missing``, ``wrong_line`` or ``nothing_to_match``."""
    detail: str = ""
    value: Any = None

    @property
    def ok(self) -> bool:
        return self.problem is None


def check(
    document: Any,
    json_path: str | list[Segment],
    exact_value: Any = None,
    exact_quote: str | None = None,
    line_number: int | None = None,
) -> Trace:
    """Does ``json_path`` resolve in ``document`` to the stated value or quote (on the stated line)?

    An ``exact_value`` of None is "not stated": a null can't be cited as evidence.
    """
    try:
        resolved = resolve(document, json_path)
    except PathSyntaxError as exc:
        return Trace("malformed_path", f"json_path {json_path!r} is malformed: {exc}")
    if not isinstance(json_path, str):
        json_path = render(json_path) or "$"
    if not resolved.found:
        return Trace("unresolved", f"json_path {json_path} does not resolve (stops after {resolved.failed_at})")
    value = resolved.value
    if exact_value is not None:
        if not values_equal(exact_value, value):
            return Trace("value_differs", f"the value at {json_path} differs from the cited one", value)
    if exact_quote is not None and not says_something(exact_quote) and exact_quote != as_text(value):
        return Trace("nothing_to_match", "the quote is too short to tie anything (fewer than 3 letters or digits)",
                     value)
    if exact_quote:
        text = as_text(value)
        lines = quote_lines(text, exact_quote) if text is not None else []
        if not lines:
            return Trace("quote_missing", f"the quote is not contained in the value at {json_path}", value)
        if line_number is not None and line_number not in lines:
            return Trace("wrong_line",
                         f"the quote is on line {lines[0]} of the value at {json_path}, not {line_number}", value)
    elif exact_value is None:
        return Trace("nothing_to_match", "neither exact_value nor exact_quote states what is there", value)
    return Trace(None, "", value)
