"""The small JSON-path dialect of traceability items: ``timeline[1].event``, ``$.a.b[0]``."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

_STEP = re.compile(r"\.?([A-Za-z_][\w-]*)|\[(\d+)\]|\[['\"]([^'\"]+)['\"]\]")
MISSING = object()
"""Returned by ``resolve`` when the path does not lead anywhere."""


def parse(path: str) -> list[str | int] | None:
    """The path's steps (keys and indexes), or None when it is not in the dialect."""
    steps = _parse(path)
    return None if steps is None else list(steps)


@lru_cache(maxsize=4096)
def _parse(path: str) -> tuple[str | int, ...] | None:
    text = path.strip()
    if text.startswith("$"):
        text = text[1:]
    steps: list[str | int] = []
    pos = 0
    while pos < len(text):
        m = _STEP.match(text, pos)
        if not m or m.end() == pos:
            return None
        key, index, quoted = m.groups()
        steps.append(int(index) if index is not None else (key if key is not None else quoted))
        pos = m.end()
    return tuple(steps)


def normalize(path: str | None) -> str | None:
    if not path:
        return None
    steps = parse(path)
    if steps is None:
        return path.strip()
    return join(steps)


def join(steps: list[str | int]) -> str:
    out = ""
    for step in steps:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else step)
    return out


def resolve(data: Any, steps: list[str | int]) -> Any:
    for step in steps:
        if isinstance(step, int) and isinstance(data, list) and 0 <= step < len(data):
            data = data[step]
        elif isinstance(step, str) and isinstance(data, dict) and step in data:
            data = data[step]
        else:
            return MISSING
    return data


def find(data: Any, predicate, prefix: list[str | int] | None = None, limit: int = 2) -> list[list[str | int]]:
    """Paths (up to ``limit``) of leaves for which ``predicate(value)`` holds, in document order."""
    found: list[list[str | int]] = []
    stack: list[tuple[list[str | int], Any]] = [(list(prefix or []), data)]
    while stack and len(found) < limit:
        path, node = stack.pop()
        if isinstance(node, dict):
            stack.extend((path + [k], v) for k, v in reversed(list(node.items())))
        elif isinstance(node, list):
            stack.extend((path + [i], v) for i, v in reversed(list(enumerate(node))))
        elif predicate(node):
            found.append(path)
    return found


def values_match(expected: Any, actual: Any) -> bool:
    """``exact_value`` matches: equal, or equal as text (numbers written as strings), or a float within 1e-9."""
    if actual is MISSING:
        return False
    if expected == actual:
        return True
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        return abs(float(expected) - float(actual)) <= 1e-9
    return isinstance(actual, (str, int, float)) and str(expected).strip() == str(actual).strip()
