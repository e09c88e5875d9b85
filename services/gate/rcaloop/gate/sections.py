"""Chat-like sections read from raw report text (``**Cause**``, ``## Summary`` …).

Only for answers the parser gave no ``chat`` for: the gate still needs the Cause, the
steps to verify and the Do NOT list to score them.
"""

from __future__ import annotations

import re

_SECTION_HEAD = re.compile(r"^\s*(?:#{1,6}\s*|\*\*)([A-Za-z;: ]+?)(?:\*\*|:)?(?:\*\*)?\s*(.*)$")
_SECTION_NAMES = {
    "tl;dr": "tldr", "cause": "cause", "steps to verify": "steps_to_verify", "now": "now", "do not": "do_not",
    "permanent fixes": "permanent_fixes", "also": "also", "related": "related", "summary": "summary",
}


def text_sections(text: str) -> dict[str, str]:
    """Chat-like sections read from raw text, for an answer the parser gave no ``chat`` for."""
    found: dict[str, list[str]] = {}
    current: str | None = None
    for line in text.splitlines():
        heading = line.lstrip().startswith(("#", "**"))
        m = _SECTION_HEAD.match(line) if heading else None
        name = _SECTION_NAMES.get(m.group(1).strip().lower().rstrip(":")) if m else None
        if heading and not name:
            current = None
        elif name and m:
            current = name
            found.setdefault(name, [])
            if m.group(2).strip():
                found[name].append(m.group(2).strip())
        elif line.strip() in ("END_RCA_CHAT", "RCA_FIELDS", "RCA_CHAT"):
            current = None
        elif current:
            found[current].append(line)
    return {k: "\n".join(v).strip() for k, v in found.items()}
