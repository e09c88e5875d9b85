"""A release-gate metrics file read strictly: one reading, whatever the spelling.

1. The bytes are UTF-8 JSON text holding one object (``GATE001``, ``GATE002``).
2. Every key appears once in its object (``GATE005``), and no key differs from another key
   of its object, or from a name the schema gives that object, only by case, Unicode form or
   invisible characters (``GATE006``): such a document can be read two ways, so it is not read.
3. Every text, keys and values, is read after NFKC normalisation with the format characters
   (Unicode category Cf: zero-width spaces, word joiners, soft hyphens, byte-order marks,
   bidirectional controls) removed — a value made of invisible characters is blank.
4. The normalised document is validated against the published JSON Schema
   (``metrics_schema``, printed by ``rcaloop gate schema``); each violation is a finding with
   the code of the rule it breaks.

A number keeps the precision it was written with (``Written.places``): a rate is a share of
its population to that precision.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from jsonschema import Draft202012Validator, ValidationError, validators

from rcaloop.contracts import Issue
from rcaloop.gate.thresholds import MERGEABLE_METRICS, METRIC_NAMES, PROVENANCE_FIELDS, RATE_METRICS, THRESHOLDS, Kind
from rcaloop.shared.jsonpath import render

LEGACY_INCIDENTS = "harness_verdicts"
"""A population written by an earlier ``rcaloop gate measure`` counts incidents under this name."""
_TEXT = {"type": "string", "pattern": r"\S"}
_COUNT = {"type": "integer", "minimum": 0}
_KIND_SCHEMA: dict[Kind, dict[str, Any]] = {
    "rate": {"type": "number", "minimum": 0, "maximum": 1},
    "count": _COUNT,
    "seconds": {"type": "number", "minimum": 0},
    "flag": {"type": "boolean"},
}


def metrics_schema() -> dict[str, Any]:
    """The JSON Schema of a metrics file (as the file reads after normalisation).

    Stricter than plain JSON Schema in two ways the validator enforces: a ``number`` is finite
    (no NaN or Infinity) and an ``integer`` is written without a fraction (``0``, not ``0.0``).
    """
    metrics = {
        t.metric: {**_KIND_SCHEMA[t.kind], "description": f"{t.code}: {t.description}; gate {t.text}"}
        for t in THRESHOLDS
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:rcaloop:release-gate-metrics:1",
        "title": "rcaloop release-gate metrics",
        "description": "One externally measured metrics object for `rcaloop gate check`. Text is read after NFKC "
        "normalisation with format characters (Unicode Cf) removed; a number is finite and an integer has no fraction.",
        "type": "object",
        "required": [*METRIC_NAMES, "provenance"],
        "properties": {
            **metrics,
            "provenance": {"$ref": "#/$defs/provenance"},
            "synthetic": {"type": "boolean",
                          "description": "true: made up to test thresholds and schema, never a release"},
            "missing": {"type": "object", "additionalProperties": {"type": "string"},
                        "description": "why a metric could not be measured (written by `rcaloop gate measure`)"},
        },
        "patternProperties": {"^_": {"description": "a comment, never read as data"}},
        "additionalProperties": False,
        "$defs": {
            "text": _TEXT,
            "provenance": {
                "type": "object",
                "required": list(PROVENANCE_FIELDS),
                "properties": {
                    "incident_window": {"$ref": "#/$defs/text", "description": "ISO-8601 interval START/END, closed"},
                    "population": {"$ref": "#/$defs/population"},
                    "job_revision": {"$ref": "#/$defs/text", "description": "the measurement job's revision"},
                    "artifact": {"$ref": "#/$defs/text", "description": "where the measurement's output is kept"},
                    "measured_at": {"type": "string", "description": "ISO-8601 date-time of the measurement"},
                    "merged": {
                        "type": "object",
                        "required": ["from", "metrics"],
                        "properties": {"from": {"$ref": "#/$defs/text"},
                                       "metrics": {"type": "array", "items": {"enum": list(MERGEABLE_METRICS)}}},
                        "description": "metrics another measurement supplied (only those rcaloop keeps no record of)",
                    },
                },
            },
            "population": {
                "type": "object",
                "minProperties": 1,
                "properties": {
                    "incidents": {**_COUNT, "description": "how many incidents were measured"},
                    "denominators": {
                        "type": "object",
                        "propertyNames": {"enum": list(RATE_METRICS)},
                        "additionalProperties": {"type": "integer", "minimum": 1},
                        "description": "per rate: how many items it is a share of",
                    },
                },
                "additionalProperties": {**_COUNT, "description": "other counts of the measurement"},
                "anyOf": [{"required": ["incidents"]}, {"required": [LEGACY_INCIDENTS]}],
            },
        },
    }


def _finite_number(_checker: Any, value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return isinstance(value, int) or math.isfinite(value)


def _whole_integer(_checker: Any, value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_Strict = validators.extend(
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine_many({"number": _finite_number, "integer": _whole_integer}),
)
SCHEMA = metrics_schema()
_VALIDATOR = _Strict(SCHEMA)


class Written(float):
    """A JSON number written with a fraction or an exponent, and how many decimal places it shows."""

    places: int


def _number(text: str) -> Written:
    value = Written(text)
    exponent = Decimal(text).as_tuple().exponent
    value.places = max(0, -exponent) if isinstance(exponent, int) else 0
    return value


class _Object(dict):
    """A JSON object that remembers its pairs as written (duplicates included)."""

    pairs: list[tuple[str, Any]]


def _object(pairs: list[tuple[str, Any]]) -> _Object:
    obj = _Object(pairs)
    obj.pairs = pairs
    return obj


def clean(text: str) -> str:
    """``text`` as the gate reads it: format characters removed, NFKC-normalised."""
    bare = "".join(c for c in text if unicodedata.category(c) != "Cf")
    return "".join(c for c in unicodedata.normalize("NFKC", bare) if unicodedata.category(c) != "Cf")


def identity(key: str) -> str:
    """What a key names: keys with one identity differ only by case, Unicode form or invisible characters."""
    return clean(key).casefold()


def path_text(segments: list[str | int] | tuple[str | int, ...]) -> str:
    rendered = render(list(segments))
    return "$" if not rendered else "$" + ("" if rendered.startswith("[") else ".") + rendered


@dataclass
class Reading:
    """The document as read: ``doc`` is normalised; ``unusable`` findings mean it was not read."""

    doc: dict[str, Any] | None = None
    unusable: list[Issue] = field(default_factory=list)


def _names_at(path: list[str | int]) -> set[str]:
    """The names the schema gives the object at ``path`` (none where it gives none)."""
    node: Any = SCHEMA
    for seg in path:
        while isinstance(node, dict) and "$ref" in node:
            node = SCHEMA["$defs"][node["$ref"].rsplit("/", 1)[1]]
        props = node.get("properties", {}) if isinstance(node, dict) else {}
        if not isinstance(seg, str) or seg not in props:
            return set()
        node = props[seg]
    while isinstance(node, dict) and "$ref" in node:
        node = SCHEMA["$defs"][node["$ref"].rsplit("/", 1)[1]]
    return set(node.get("properties", {})) if isinstance(node, dict) else set()


def _key_issues(value: Any, path: list[str | int]) -> Iterator[Issue]:
    if isinstance(value, list):
        for i, item in enumerate(value):
            yield from _key_issues(item, [*path, i])
        return
    if not isinstance(value, _Object):
        return
    known = {identity(n): n for n in _names_at(path)}
    seen: dict[str, str] = {}
    for key, item in value.pairs:
        where = path_text([*path, key])
        ident = identity(key)
        if key in seen.values():
            yield Issue(code="GATE005", message=f"{where} appears twice in one object: a duplicate key is read "
                        "differently by different readers, so the file is not read", path=where)
        elif ident in seen:
            yield Issue(code="GATE006", message=f"{where} and {path_text([*path, seen[ident]])} differ only by case, "
                        "Unicode form or invisible characters", path=where)
        elif ident in known and key != known[ident]:
            yield Issue(code="GATE006", message=f"{where} is {known[ident]!r} spelled with other case, Unicode form or "
                        f"invisible characters; write it exactly {known[ident]!r}", path=where)
        seen.setdefault(ident, key)
        yield from _key_issues(item, [*path, key])


def _normalised(value: Any) -> Any:
    if isinstance(value, dict):
        return {clean(k): _normalised(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_normalised(v) for v in value]
    if isinstance(value, str):
        return clean(value)
    return value


def _constant(name: str) -> float:
    return float(name)  # NaN, Infinity, -Infinity: read, then refused as "not a number"


def read_metrics(data: bytes) -> Reading:
    """The strict reading of a metrics file's bytes."""
    try:
        raw = json.loads(data.decode("utf-8"), object_pairs_hook=_object, parse_float=_number, parse_constant=_constant)
    except UnicodeDecodeError:
        return Reading(unusable=[Issue(code="GATE001", message="the metrics file is not UTF-8 text")])
    except json.JSONDecodeError as exc:
        return Reading(unusable=[Issue(code="GATE001", message=f"the metrics file is not JSON: {exc.msg} at line "
                                       f"{exc.lineno} column {exc.colno}")])
    except RecursionError:
        return Reading(
            unusable=[Issue(code="GATE001", message="the metrics file nests too deeply to be a metrics object")])
    if not isinstance(raw, dict):
        return Reading(unusable=[Issue(code="GATE002", message=f"the metrics file must hold one JSON object, "
                                       f"got {type(raw).__name__}")])
    keys = list(_key_issues(raw, []))
    if keys:
        return Reading(unusable=keys)
    return Reading(doc=_normalised(raw))


# -- schema violations as findings with their codes ------------------------------------------------
_METRIC_KIND = {t.metric: t.kind for t in THRESHOLDS}
_RANGE = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")


def metric_reason(kind: Kind, error: ValidationError) -> tuple[str, str]:
    """``(code, reason)`` of a metric's schema violation: the row of ``gate check``'s table."""
    value = error.instance
    if error.validator == "type":
        if value is None:
            return "GATE301", "missing"
        if kind == "flag":
            return "GATE302", "not a boolean"
        if kind == "count" and _finite_number(None, value):
            return "GATE302", "not an integer"
        return "GATE302", "not a number"
    return "GATE303", "out of range [0, 1]" if kind == "rate" else "out of range: negative"


def _provenance_finding(error: ValidationError) -> Issue:
    path = list(error.absolute_path)
    where = path_text(path)
    name = path[1] if len(path) > 1 else None
    if name == "population":
        if len(path) == 2 and (not isinstance(error.instance, dict) or not error.instance):
            return Issue(code="GATE202", message="provenance.population missing, empty or not an object of counts",
                         path=where)
        return Issue(code="GATE209", message=f"{where[2:]} is not a structured population: an object with `incidents` "
                     "(a non-negative integer), other counts non-negative integers, and `denominators` mapping rate "
                     "metrics to integers of at least 1", path=where)
    if name == "merged":
        if error.validator == "enum":
            return Issue(code="GATE210",
                         message=f"provenance.merged supplies {error.instance!r}, which rcaloop measures "
                         f"itself; only {', '.join(MERGEABLE_METRICS)} may be merged", path="$.provenance.merged")
        return Issue(code="GATE210", message="provenance.merged must be {from, metrics: [metric names]}: what was "
                     "merged cannot be read", path="$.provenance.merged")
    if name == "measured_at":
        return Issue(code="GATE206", message=f"provenance.measured_at {json.dumps(error.instance)} is not an ISO-8601 "
                     "date-time", path=where)
    return Issue(code="GATE202", message=f"provenance.{name} missing, empty or not text", path=where)


def schema_findings(doc: dict[str, Any]) -> tuple[dict[str, tuple[str, str]], list[Issue]]:
    """(each failing metric's ``(code, reason)``, every other finding) from the JSON Schema."""
    metrics: dict[str, tuple[str, str]] = {}
    others: list[Issue] = []
    errors = sorted(_VALIDATOR.iter_errors(doc), key=lambda e: (e.validator != "type", list(map(str, e.absolute_path))))
    for error in errors:
        path = list(error.absolute_path)
        head = path[0] if path else None
        if head is None and error.validator == "required":
            for name in error.validator_value:
                if name in METRIC_NAMES and name not in doc:
                    metrics[name] = ("GATE301", "missing")
                elif name == "provenance" and name not in doc:
                    others.append(
                        Issue(code="GATE201", message="provenance missing (needs incident_window, population, "
                                        "job_revision, artifact)", path="$.provenance"))
        elif head is None and error.validator == "additionalProperties":
            for key in sorted(set(doc) - set(SCHEMA["properties"])):
                if not key.startswith("_"):
                    others.append(Issue(code="GATE008", message=f"{key!r} is not a key of a metrics file (the metrics, "
                                        "provenance, synthetic, missing, or a comment starting with _)",
                                        path=path_text([key])))
        elif head in _METRIC_KIND and len(path) == 1:
            metrics.setdefault(head, metric_reason(_METRIC_KIND[head], error))
        elif head == "synthetic":
            others.append(Issue(code="GATE004", message=f"synthetic must be true or false, got "
                                f"{json.dumps(error.instance)}", path="$.synthetic"))
        elif head == "missing":
            others.append(Issue(code="GATE008", message="missing must map metric names to the text of why each could "
                                "not be measured", path=path_text(path)))
        elif head == "provenance" and len(path) == 1 and error.validator == "type":
            others.append(Issue(code="GATE201", message="provenance is not an object (needs incident_window, "
                                "population, job_revision, artifact)", path="$.provenance"))
        elif head == "provenance" and len(path) == 1 and error.validator == "required":
            others += [_provenance_finding(_missing(error, name)) for name in error.validator_value
                       if name not in error.instance]
        elif head == "provenance":
            others.append(_provenance_finding(error))
    return metrics, _once(others)


def _missing(error: ValidationError, name: str) -> ValidationError:
    """A ``required`` violation as one finding per missing field (at the field's own path)."""
    return ValidationError(f"{name} is missing", validator="required", instance=None,
                           path=[*error.absolute_path, name])


def _once(issues: list[Issue]) -> list[Issue]:
    """One finding per code and path (the schema may say the same thing twice)."""
    seen: set[tuple[str, str | None]] = set()
    out = []
    for issue in issues:
        if (issue.code, issue.path) not in seen:
            seen.add((issue.code, issue.path))
            out.append(issue)
    return out


_WORD = re.compile(r"[a-z0-9]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def words(text: str) -> set[str]:
    """The words of a text as the gate compares them: each run of letters and digits, and its
    camel-case parts (``SyntheticRun-2`` → syntheticrun, synthetic, run, 2; ``SyNtHeTiC`` → synthetic)."""
    text = clean(text)
    return set(_WORD.findall(text.casefold())) | set(_WORD.findall(_CAMEL.sub(" ", text).casefold()))
