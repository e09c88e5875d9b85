"""The input context block: the only instruction rcaloop puts in an agent's input.

::

    RCA context (from the RCA service):
    - Analyze only these subjects: <subject>, <subject>
    - Already analyzed, do not re-analyze: <subject> (earlier RCA #<id>)
    - History SQL: <path>/nimi-sql "<one SQL statement>"
    ---
    <the alert / log text>

The eval runner builds it, the parser reads it back; ``parse(build(x)) == x``. Pure.
"""

from __future__ import annotations

from collections.abc import Iterable

from rcaloop.contracts import Issue
from rcaloop.contracts.parsed import AlreadyAnalyzed, InputContext

HEADER = "RCA context (from the RCA service):"
SEPARATOR = "---"
SUBJECTS_PREFIX = "- Analyze only these subjects:"
ANALYZED_PREFIX = "- Already analyzed, do not re-analyze:"
SQL_PREFIX = "- History SQL:"
ANALYZED_MARK = "(earlier RCA #"
NO_SEPARATOR = "RCA401"
BAD_LINE = "RCA402"


def build_context_block(
    body: str,
    *,
    subjects: Iterable[str] = (),
    already_analyzed: Iterable[AlreadyAnalyzed | tuple[str, str]] = (),
    history_sql: str | None = None,
) -> str:
    """The agent input: the block, then ``body``. Raises ``ValueError`` on values it cannot hold."""
    lines = [HEADER]
    subjects = [_item(s, "subject") for s in subjects]
    if subjects:
        lines.append(f"{SUBJECTS_PREFIX} {', '.join(subjects)}")
    done = [
        a if isinstance(a, AlreadyAnalyzed) else AlreadyAnalyzed(subject=a[0], rca_id=a[1]) for a in already_analyzed
    ]
    if done:
        items = (f"{_item(a.subject, 'subject')} (earlier RCA #{_rca_id(a.rca_id)})" for a in done)
        lines.append(f"{ANALYZED_PREFIX} {', '.join(items)}")
    if history_sql is not None:
        if "\n" in history_sql or not history_sql.strip():
            raise ValueError("history_sql must be one non-empty line")
        lines.append(f"{SQL_PREFIX} {history_sql.strip()}")
    lines.append(SEPARATOR)
    return "\n".join(lines) + "\n" + body


def _item(value: str, what: str) -> str:
    value = value.strip()
    if not value or any(c in value for c in ",()\n#"):
        raise ValueError(f"a {what} must be non-empty without ',', '(', ')', '#' or newlines: {value!r}")
    return value


def _rca_id(value: str) -> str:
    if not value or any(c.isspace() or c in ",()" for c in value):
        raise ValueError(f"an RCA id must be non-empty without spaces, ',' or parentheses: {value!r}")
    return value


def parse_context_block(text: str | None) -> tuple[InputContext | None, list[Issue]]:
    """The block at the start of ``text`` (None when there is none) and warnings about it."""
    if not text:
        return None, []
    text = text.lstrip("\ufeff")
    start = len(text) - len(text.lstrip("\n"))
    if not text.startswith(HEADER, start):
        return None, []
    context = InputContext()
    issues: list[Issue] = []
    lines = text[start:].split("\n")
    for index in range(1, len(lines)):
        line = lines[index].rstrip("\r")
        lineno = index + 1 + text.count("\n", 0, start)
        if line.strip() == SEPARATOR:
            context.body = "\n".join(lines[index + 1 :])
            return context, issues
        if not line.strip():
            continue
        if not _read_line(line.strip(), context):
            issues.append(Issue(code=BAD_LINE, message="unrecognised context block line", line=lineno))
    issues.append(Issue(code=NO_SEPARATOR, message="context block has no '---' line; no alert text follows it"))
    return context, issues


def _analyzed(item: str) -> AlreadyAnalyzed | None:
    """``<subject> (earlier RCA #<id>)`` without a regex (linear on any line)."""
    item = item.strip()
    at = item.rfind(ANALYZED_MARK)
    subject, rca_id = item[:at].strip(), item[at + len(ANALYZED_MARK) : -1]
    if at <= 0 or not item.endswith(")") or not subject or "(" in subject or ")" in subject:
        return None
    if not rca_id or any(c.isspace() or c in "()" for c in rca_id):
        return None
    return AlreadyAnalyzed(subject=subject, rca_id=rca_id)


def _read_line(line: str, context: InputContext) -> bool:
    if line.startswith(SUBJECTS_PREFIX):
        context.subjects += [s.strip() for s in line[len(SUBJECTS_PREFIX) :].split(",") if s.strip()]
        return True
    if line.startswith(ANALYZED_PREFIX):
        items = [_analyzed(item) for item in line[len(ANALYZED_PREFIX) :].split(",")]
        found = [i for i in items if i is not None]
        if not items or len(found) < len(items):
            return False
        context.already_analyzed += found
        return True
    if line.startswith(SQL_PREFIX):
        sql = line[len(SQL_PREFIX) :].strip()
        context.history_sql = sql or None
        return bool(sql)
    return False
