"""The RCA_FIELDS block that ends every report.

One ``key: value`` per line. Every field has a value that says nothing is known
(``undetermined``, ``unknown``, ``none``), so a run that finished writes all six: a missing
field is an error (the output was cut short, or it ignores the contract — either way the
declaration of sensitive data cannot be read as ``none``). An invalid value leaves the
field unset with a warning (the contract: invalid values are ignored); an unreadable
``confidence`` is ``RCA308``; a ``sensitive_data`` item that is not a plain ``where:type``
is dropped and its text is never repeated (it may be the secret itself) — findings point
at it by position only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rcaloop.contracts import Issue, RedFlag
from rcaloop.contracts.parsed import Fields, SensitiveItem
from rcaloop.parser import codes
from rcaloop.parser.registry import Registry

FIELD_NAMES = ("origin", "confidence", "self_healing", "repo", "commit", "sensitive_data")
CHOICES: dict[str, tuple[str, ...]] = {
    "origin": ("internal", "upstream", "undetermined"),
    "confidence": ("high", "medium", "low"),
    "self_healing": ("yes", "no", "unknown"),
}
SENSITIVE_WHERE = frozenset({"input", "code", "config", "logs", "docs", "history"})
SENSITIVE_ITEM = re.compile(r"([a-z]+):([a-z][a-z0-9_-]{0,39})")
REPO = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
COMMIT = re.compile(r"[0-9a-f]{7,40}")
FIELD_LINE = re.compile(r"([A-Za-z_]+)[ \t]*:[ \t]*(.*)")


@dataclass
class FieldsResult:
    fields: Fields
    red_flags: list[RedFlag] = field(default_factory=list)
    errors: list[Issue] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)


def parse_fields(lines: list[str], first_line: int, registry: Registry | None = None) -> FieldsResult:
    """Parse the lines after the ``RCA_FIELDS`` marker (``first_line`` is the first one's number)."""
    values: dict[str, str] = {}
    value_lines: dict[str, int] = {}
    warnings: list[Issue] = []
    trailing_from: int | None = None
    for offset, raw in enumerate(lines):
        lineno = first_line + offset
        line = raw.strip()
        if not line:
            if len(values) == len(FIELD_NAMES):
                trailing_from = offset
                break
            continue
        m = FIELD_LINE.fullmatch(line)
        key = m.group(1).lower() if m else None
        if m is None or key not in FIELD_NAMES:
            if len(values) == len(FIELD_NAMES) or (values and m is None):
                trailing_from = offset
                break
            warnings.append(codes.FIELD_UNKNOWN.issue(line=lineno))
            continue
        if key in values:
            warnings.append(codes.FIELD_REPEATED.issue(key, line=lineno))
            continue
        values[key], value_lines[key] = m.group(2).strip(), lineno
    if trailing_from is not None and any(ln.strip() for ln in lines[trailing_from:]):
        after = next(i for i in range(trailing_from, len(lines)) if lines[i].strip())
        warnings.append(codes.TEXT_AFTER_FIELDS.issue(line=first_line + after))
    result = FieldsResult(fields=Fields(), warnings=warnings)
    accepted: dict[str, object] = {"sensitive_data": []}
    for name in FIELD_NAMES:
        if name not in values:
            result.errors.append(codes.FIELD_MISSING.issue(name))
            continue
        _set_field(result, accepted, name, values[name], value_lines[name], registry)
    result.fields = Fields(**accepted)
    return result


def _set_field(
    result: FieldsResult, accepted: dict, name: str, value: str, lineno: int, registry: Registry | None
) -> None:
    lowered = value.lower()
    if name == "sensitive_data":
        _set_sensitive(result, accepted["sensitive_data"], lowered, lineno)
        return
    if name in CHOICES:
        if lowered in CHOICES[name]:
            accepted[name] = lowered
        else:  # ignored, as the contract says; an unreadable confidence has a code of its own (the harness reads it)
            invalid = codes.CONFIDENCE_UNREADABLE if name == "confidence" else codes.FIELD_INVALID
            result.warnings.append(invalid.issue(f"{name} must be one of {_choices(name)}", line=lineno))
        return
    if lowered == "none":
        return
    if name == "repo":
        if not REPO.fullmatch(value):
            result.warnings.append(codes.FIELD_INVALID.issue("repo must be a project name or none", line=lineno))
        elif registry is not None and value not in registry.projects:
            result.warnings.append(codes.FIELD_INVALID.issue("repo is not a project in the registry", line=lineno))
        else:
            accepted["repo"] = value
    elif name == "commit":
        if COMMIT.fullmatch(lowered):
            accepted["commit"] = lowered
        else:
            result.warnings.append(
                codes.FIELD_INVALID.issue("commit must be a 7-40 digit hex sha or none", line=lineno)
            )


def _choices(name: str) -> str:
    return " | ".join(CHOICES[name])


def _set_sensitive(result: FieldsResult, items: list, value: str, lineno: int) -> None:
    if value == "none":
        return
    if not value:
        result.warnings.append(
            codes.FIELD_INVALID.issue("sensitive_data must be none or where:type items", line=lineno)
        )
        return
    seen: set[tuple[str, str]] = set()
    for position, raw in enumerate(value.split(","), start=1):
        item = raw.strip()
        m = SENSITIVE_ITEM.fullmatch(item)
        if m is None or m.group(1) not in SENSITIVE_WHERE:
            result.warnings.append(codes.SENSITIVE_MALFORMED.issue(f"item {position}", line=lineno))
            result.red_flags.append(codes.SENSITIVE_MALFORMED.flag("unreadable", "fields", lineno, declared=True))
            continue
        where, kind = m.groups()
        if (where, kind) in seen:
            continue
        seen.add((where, kind))
        items.append(SensitiveItem(where=where, type=kind))
        result.red_flags.append(codes.SENSITIVE_DECLARED.flag(kind, where, lineno, declared=True))
