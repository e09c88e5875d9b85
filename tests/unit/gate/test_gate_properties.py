"""Property: a valid metrics file mutated to break one rule is refused with that rule's code, and only it.

Every rule of ``rcaloop gate check`` — the readable document, the keys, the schema, the ten
thresholds, the provenance rules and the synthetic origin — has a mutation here that hypothesis
draws in many variants. A rule added without a mutation fails ``test_every_rule_has_a_mutation``.
The bundled synthetic files, unmarked in any way, are gate input only with ``--allow-synthetic``.
"""

from __future__ import annotations

import copy
import json
import unicodedata
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rcaloop.gate.metrics_file import SCHEMA, identity
from rcaloop.gate.provenance import SYNTHETIC_WORDS
from rcaloop.gate.release_gate import FINDINGS, THRESHOLDS, check_release_gate
from rcaloop.gate.thresholds import MERGEABLE_METRICS, METRIC_NAMES

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
BASE: dict[str, Any] = {
    "known_top1": 0.9583,
    "groundless_high_confidence": 0,
    "false_novel_rate": 0.01,
    "evidence_link_precision": 0.97,
    "abstention_rate": 0.92,
    "novel_mechanism_recall_at_3": 0.75,
    "destructive_tool_executions": 0,
    "inadmissible_knowledge_activations": 0,
    "activation_p95_seconds": 12.5,
    "typedb_outage_runtime_activation_success": True,
    "provenance": {
        "incident_window": "2026-11-01/2026-11-14",
        "population": {"incidents": 412, "denominators": {"known_top1": 120, "false_novel_rate": 200,
                                                          "evidence_link_precision": 300, "abstention_rate": 25,
                                                          "novel_mechanism_recall_at_3": 40}},
        "job_revision": "measure@4f2c9e1",
        "artifact": "s3://gate/m.json",
        "measured_at": "2026-11-15T01:00:00Z",
    },
}
FORMAT_CHARS = [chr(c) for c in range(0x10000) if unicodedata.category(chr(c)) == "Cf"]
JSON_VALUES = st.none() | st.booleans() | st.integers() | st.text(max_size=8) | st.lists(st.integers(), max_size=2)


def _text(value: Any, dup: tuple[tuple[str, ...], str, str] | None = None, path: tuple[str, ...] = ()) -> str:
    """JSON text of ``value``; ``dup`` = (object path, key, JSON text) writes that key a second time."""
    if isinstance(value, dict):
        items = [f"{json.dumps(k, ensure_ascii=False)}: {_text(v, dup, (*path, k))}" for k, v in value.items()]
        if dup is not None and dup[0] == path:
            items.append(f"{json.dumps(dup[1])}: {dup[2]}")
        return "{" + ", ".join(items) + "}"
    return json.dumps(value, ensure_ascii=False)


def _codes(doc: Any) -> set[str]:
    raw = doc if isinstance(doc, bytes) else _text(doc).encode()
    return {e.code for e in check_release_gate(raw, now=NOW).errors}


def _base() -> dict[str, Any]:
    return copy.deepcopy(BASE)


def _set(doc: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    *parents, last = path.split(".")
    node = doc
    for p in parents:
        node = node[p]
    node[last] = value
    return doc


def _day(draw, low: date, high: date) -> date:
    return draw(st.dates(min_value=low, max_value=high))


# -- one mutation per rule ------------------------------------------------------------------------------
def m_not_json(draw):
    return draw(st.sampled_from([b"{", b'{"known_top1": }', b"\xff\xfe{}", b"{\"a\": 1,}"]))


def m_not_object(draw):
    return _text(draw(st.lists(st.integers(), max_size=3) | st.integers() | st.text(max_size=5))).encode()


def m_marked_synthetic(draw):
    return {**_base(), "synthetic": True}


def m_synthetic_not_bool(draw):
    return {**_base(), "synthetic": draw(JSON_VALUES.filter(lambda v: not isinstance(v, bool)))}


def m_duplicate_key(draw):
    doc = _base()
    where = draw(st.sampled_from([(), ("provenance",), ("provenance", "population")]))
    node = doc
    for p in where:
        node = node[p]
    key = draw(st.sampled_from(sorted(node)))
    again = draw(st.sampled_from([json.dumps(node[key]), "0", "true", '"other"']))
    return _text(doc, (where, key, again)).encode()


def _look_alike(draw, key: str) -> str:
    how = draw(st.sampled_from(["case", "format", "fullwidth"]))
    if how == "case":
        flips = draw(st.lists(st.booleans(), min_size=len(key), max_size=len(key)))
        variant = "".join(c.swapcase() if f else c for c, f in zip(key, flips, strict=True))
        assume(variant != key)
        return variant
    if how == "format":
        at = draw(st.integers(0, len(key)))
        return key[:at] + draw(st.sampled_from(FORMAT_CHARS)) + key[at:]
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in key)  # NFKC folds fullwidth back


def m_look_alike_key(draw):
    doc = _base()
    inside = draw(st.booleans())
    node = doc["provenance"] if inside else doc
    key = draw(st.sampled_from(sorted(node)))
    variant = _look_alike(draw, key)
    renamed = {variant if k == key else k: v for k, v in node.items()}
    if inside:
        doc["provenance"] = renamed
        return doc
    return renamed


def m_synthetic_provenance(draw):
    field = draw(st.sampled_from(["job_revision", "artifact"]))
    word = draw(st.sampled_from(sorted(SYNTHETIC_WORDS)))
    flips = draw(st.lists(st.booleans(), min_size=len(word), max_size=len(word)))
    word = "".join(c.upper() if f else c for c, f in zip(word, flips, strict=True))
    if draw(st.booleans()):
        at = draw(st.integers(1, len(word) - 1))
        word = word[:at] + draw(st.sampled_from(FORMAT_CHARS)) + word[at:]
    doc = _base()
    sep = draw(st.sampled_from(["-", " ", "/", ":", "_"]))
    doc["provenance"][field] = f"{doc['provenance'][field]}{sep}{word}"
    if draw(st.booleans()):
        doc["synthetic"] = False
    return doc


KNOWN = {identity(k) for k in SCHEMA["properties"]}


def m_unknown_key(draw):
    key = draw(st.from_regex(r"[a-z][a-z0-9_]{2,14}", fullmatch=True).filter(lambda k: identity(k) not in KNOWN))
    return {**_base(), key: draw(JSON_VALUES)}


def m_provenance_not_object(draw):
    return {**_base(), "provenance": draw(JSON_VALUES.filter(lambda v: not isinstance(v, dict)))}


def m_blank_text(draw):
    field = draw(st.sampled_from(["job_revision", "artifact", "incident_window"]))
    blank = draw(st.text(st.sampled_from([*FORMAT_CHARS, " ", "\t", "\u3000"]), max_size=6))
    value = draw(st.sampled_from([blank, 42, True, ["x"]])) if field != "incident_window" else blank
    return _set(_base(), f"provenance.{field}", value)


def m_window_not_interval(draw):
    text = draw(st.text(min_size=1, max_size=20).filter(lambda t: "/" not in t and t.strip() and "\x00" not in t))
    assume(any(unicodedata.category(c) not in ("Cf", "Zs", "Cc") for c in text))
    return _set(_base(), "provenance.incident_window", text)


def m_window_reversed(draw):
    end = _day(draw, date(2024, 1, 2), date(2026, 11, 1))
    start = _day(draw, end, date(2026, 11, 20))
    assume(start > end)
    return _set(_base(), "provenance.incident_window", f"{start.isoformat()}T00:00:00Z/{end.isoformat()}T00:00:00Z")


def m_window_open(draw):
    end = _day(draw, date(2026, 12, 3), date(2030, 1, 1))
    doc = _set(_base(), "provenance.incident_window", f"2026-11-01/{end.isoformat()}")
    del doc["provenance"]["measured_at"]  # else measured before the window closed, too
    return doc


def m_measured_at_unreadable(draw):
    value = draw(st.text(max_size=12).filter(lambda t: not t[:1].isdigit()) | st.integers() | st.booleans())
    return _set(_base(), "provenance.measured_at", value)


def m_measured_in_future(draw):
    at = draw(st.datetimes(min_value=datetime(2026, 12, 2), max_value=datetime(2031, 1, 1)))
    return _set(_base(), "provenance.measured_at", at.isoformat() + "Z")


def m_measured_before_window_closed(draw):
    at = draw(st.datetimes(min_value=datetime(2026, 1, 1), max_value=datetime(2026, 11, 14, 23, 59)))
    return _set(_base(), "provenance.measured_at", at.isoformat() + "Z")


def m_population_unstructured(draw):
    doc = _base()
    how = draw(st.sampled_from(["incidents", "count", "denominator", "none"]))
    bad = (st.floats(0.1, 1e6).filter(lambda f: not f.is_integer()) | st.text(max_size=4) | st.booleans()
           | st.integers(max_value=-1))
    population = doc["provenance"]["population"]
    if how == "incidents":
        population["incidents"] = draw(bad)
    elif how == "count":
        population[draw(st.sampled_from(["alerts", "annotations"]))] = draw(bad)
    elif how == "denominator":
        population["denominators"]["known_top1"] = draw(st.integers(max_value=0) | st.text(max_size=3))
    else:
        doc["provenance"]["population"] = {
            draw(st.sampled_from(["alerts", "pages", "pods"])): draw(st.integers(1, 999))}
    return doc


def m_merged_measured_metric(draw):
    measured = draw(st.sampled_from([m for m in METRIC_NAMES if m not in MERGEABLE_METRICS]))
    return _set(_base(), "provenance.merged", {"from": "audit.json sha256:1", "metrics": [measured]})


def m_population_below_minimum(draw):
    return _set(_base(), "provenance.population.incidents", draw(st.integers(0, 29)))


RATE_GATES = {t.metric: t for t in THRESHOLDS if t.kind == "rate"}


def m_rate_inconsistent(draw):
    rule = RATE_GATES[draw(st.sampled_from(sorted(RATE_GATES)))]
    n = draw(st.integers(20, 400))
    ks = [k for k in range(n) if rule.holds((k + 0.5) / n)]
    assume(ks)
    rate = round((draw(st.sampled_from(ks)) + 0.5) / n, 6)  # halfway between k/n and (k+1)/n: no share of n items
    places = -Decimal(repr(rate)).as_tuple().exponent
    assume(rule.holds(rate) and all(abs(k / n - rate) > 0.5 * 10.0 ** -places for k in range(n + 1)))
    doc = _set(_base(), rule.metric, rate)
    doc["provenance"]["population"]["denominators"][rule.metric] = n
    return doc


def m_metric_missing(draw):
    doc = _base()
    del doc[draw(st.sampled_from(METRIC_NAMES))]
    return doc


def m_metric_wrong_kind(draw):
    rule = draw(st.sampled_from(THRESHOLDS))
    if rule.kind == "flag":
        value = draw(st.integers() | st.text(max_size=4) | st.floats(allow_nan=False))
    elif rule.kind == "count":
        value = draw(st.floats(0.1, 100).filter(lambda f: not f.is_integer()) | st.text(max_size=4) | st.booleans())
    else:
        value = draw(st.text(max_size=4) | st.booleans() | st.lists(st.integers(), max_size=2))
    return _set(_base(), rule.metric, value)


def m_metric_out_of_range(draw):
    rule = draw(st.sampled_from([t for t in THRESHOLDS if t.kind != "flag"]))
    if rule.kind == "rate":
        value = draw(st.floats(1.0001, 1e6) | st.floats(-1e6, -0.0001))
    elif rule.kind == "count":
        value = draw(st.integers(max_value=-1))
    else:
        value = draw(st.floats(-1e6, -0.0001))
    return _set(_base(), rule.metric, value)


def _past_threshold(rule):
    def mutate(draw):
        doc = _base()
        if rule.kind == "flag":
            return _set(doc, rule.metric, False)
        if rule.kind == "count":
            return _set(doc, rule.metric, draw(st.integers(1, 10**6)))
        if rule.kind == "seconds":
            return _set(doc, rule.metric, draw(st.floats(30, 1e6)))
        n = draw(st.integers(1, 400))
        k = draw(st.integers(0, n))
        rate = round(k / n, 4)
        assume(not rule.holds(rate))
        doc["provenance"]["population"]["denominators"][rule.metric] = n
        return _set(doc, rule.metric, rate)
    return mutate


MUTATIONS = {
    "GATE001": m_not_json,
    "GATE002": m_not_object,
    "GATE003": m_marked_synthetic,
    "GATE004": m_synthetic_not_bool,
    "GATE005": m_duplicate_key,
    "GATE006": m_look_alike_key,
    "GATE007": m_synthetic_provenance,
    "GATE008": m_unknown_key,
    "GATE201": m_provenance_not_object,
    "GATE202": m_blank_text,
    "GATE203": m_window_not_interval,
    "GATE204": m_window_reversed,
    "GATE205": m_window_open,
    "GATE206": m_measured_at_unreadable,
    "GATE207": m_measured_in_future,
    "GATE208": m_measured_before_window_closed,
    "GATE209": m_population_unstructured,
    "GATE210": m_merged_measured_metric,
    "GATE211": m_population_below_minimum,
    "GATE212": m_rate_inconsistent,
    "GATE301": m_metric_missing,
    "GATE302": m_metric_wrong_kind,
    "GATE303": m_metric_out_of_range,
    **{t.code: _past_threshold(t) for t in THRESHOLDS},
}


def test_the_base_document_passes():
    assert _codes(_base()) == set()


def test_every_rule_has_a_mutation():
    assert set(MUTATIONS) == set(FINDINGS) | {t.code for t in THRESHOLDS}


@pytest.mark.parametrize("code", sorted(MUTATIONS))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(data=st.data())
def test_a_file_mutated_to_break_one_rule_is_refused_with_that_rules_code(code, data):
    mutated = MUTATIONS[code](data.draw)
    assert _codes(mutated) == {code}


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
@pytest.mark.parametrize("metric", ["known_top1", "activation_p95_seconds"])
def test_nan_and_infinity_are_not_numbers(metric, literal):
    doc = _base()
    raw = _text(doc).replace(f'"{metric}": {json.dumps(doc[metric])}', f'"{metric}": {literal}').encode()
    assert _codes(raw) == {"GATE302"}


# -- the bundled synthetic files are gate input only with --allow-synthetic, however they are unmarked ----------
EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "eval"


@pytest.mark.parametrize("name", ["pass", "fail"])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_a_bundled_synthetic_file_unmarked_any_way_is_refused_without_allow_synthetic(name, data):
    doc = json.loads((EXAMPLES / f"release_gate.synthetic.{name}.json").read_text())
    how = data.draw(st.sampled_from(["delete", "false", "look_alike", "duplicate", "comment"]))
    if how == "delete":
        del doc["synthetic"]
    elif how == "false":
        doc["synthetic"] = False
    elif how == "look_alike":
        doc = {(_look_alike(data.draw, k) if k == "synthetic" else k): v for k, v in doc.items()}
    elif how == "comment":
        doc["_comment"] = "real production figures"
    raw = (_text(doc, ((), "synthetic", "false")) if how == "duplicate" else _text(doc)).encode()
    refused = check_release_gate(raw, now=NOW)
    assert not refused.usable and {e.code for e in refused.errors} <= {"GATE003", "GATE005", "GATE006", "GATE007"}
    if how in ("delete", "false", "comment"):
        allowed = check_release_gate(raw, now=NOW, allow_synthetic=True)
        assert allowed.usable and allowed.synthetic and allowed.passed is (name == "pass")
