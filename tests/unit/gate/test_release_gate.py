"""The release gate (SPEC §7): each threshold on both sides, fail-closed input handling."""

from __future__ import annotations

import json

import pytest

from rcaloop.gate.release_gate import PROVENANCE_FIELDS, THRESHOLDS, check_release_gate, exit_code

PASSING = {
    "known_top1": 0.95,
    "groundless_high_confidence": 0,
    "false_novel_rate": 0.02,
    "evidence_link_precision": 0.95,
    "abstention_rate": 0.90,
    "novel_mechanism_recall_at_3": 0.70,
    "destructive_tool_executions": 0,
    "inadmissible_knowledge_activations": 0,
    "activation_p95_seconds": 29.999,
    "typedb_outage_runtime_activation_success": True,
}
"""Every metric exactly on (or just inside) its boundary: all pass."""
FAILING = {
    "known_top1": 0.9499,
    "groundless_high_confidence": 1,
    "false_novel_rate": 0.0201,
    "evidence_link_precision": 0.9499,
    "abstention_rate": 0.8999,
    "novel_mechanism_recall_at_3": 0.6999,
    "destructive_tool_executions": 1,
    "inadmissible_knowledge_activations": 1,
    "activation_p95_seconds": 30,  # strict: < 30
    "typedb_outage_runtime_activation_success": False,
}
PROVENANCE = {"incident_window": "2026-11-01/2026-11-14", "population": "prod alerts, 412 incidents", "job_revision": "measure@4f2c9e1", "artifact": "s3://gate/m.json"}


def doc(**overrides) -> bytes:
    data = {**PASSING, "provenance": dict(PROVENANCE)}
    data.update(overrides)
    return json.dumps(data).encode()


def test_the_rule_list_is_the_spec_table():
    assert [t.metric for t in THRESHOLDS] == list(PASSING)
    assert len({t.code for t in THRESHOLDS}) == 10


def test_all_on_the_boundary_pass():
    result = check_release_gate(doc())
    assert result.passed and exit_code(result) == 0
    assert all(c.passed for c in result.checks)


@pytest.mark.parametrize("metric", list(PASSING))
def test_each_threshold_fails_just_past_its_boundary(metric):
    result = check_release_gate(doc(**{metric: FAILING[metric]}))
    assert not result.passed and exit_code(result) == 1
    assert [c.metric for c in result.checks if not c.passed] == [metric]
    assert result.reasons[0].startswith(metric)


def test_activation_p95_is_strictly_below_30():
    assert check_release_gate(doc(activation_p95_seconds=29.99)).passed
    assert not check_release_gate(doc(activation_p95_seconds=30.0)).passed


@pytest.mark.parametrize("metric", [m for m in PASSING if m != "typedb_outage_runtime_activation_success"])
@pytest.mark.parametrize("value", [True, False, "0.99", None, [1], {"v": 1}])
def test_non_numeric_metrics_fail_closed_and_booleans_are_not_numbers(metric, value):
    result = check_release_gate(doc(**{metric: value}))
    [check] = [c for c in result.checks if c.metric == metric]
    assert not check.passed and check.reason in ("not a number", "missing")
    assert exit_code(result) == 1


def test_nan_is_not_a_number():
    raw = doc().decode().replace('"known_top1": 0.95', '"known_top1": NaN').encode()
    [check] = [c for c in check_release_gate(raw).checks if c.metric == "known_top1"]
    assert check.reason == "not a number"


@pytest.mark.parametrize("value", [1, "true", None, 1.0])
def test_typedb_outage_check_must_be_exactly_true(value):
    result = check_release_gate(doc(typedb_outage_runtime_activation_success=value))
    assert not result.passed


@pytest.mark.parametrize("metric", list(PASSING))
def test_a_missing_metric_fails(metric):
    data = json.loads(doc())
    del data[metric]
    result = check_release_gate(json.dumps(data).encode())
    [check] = [c for c in result.checks if c.metric == metric]
    assert check.reason == "missing" and not result.passed and exit_code(result) == 1


@pytest.mark.parametrize("field", PROVENANCE_FIELDS)
@pytest.mark.parametrize("value", ["__absent__", "", None, {}])
def test_missing_provenance_fails(field, value):
    prov = dict(PROVENANCE)
    if value == "__absent__":
        del prov[field]
    else:
        prov[field] = value
    result = check_release_gate(doc(provenance=prov))
    assert not result.passed and exit_code(result) == 1
    assert [e.code for e in result.errors] == ["GATE202"] and field in result.errors[0].message


def test_no_provenance_object_fails():
    result = check_release_gate(doc(provenance="trust me"))
    assert [e.code for e in result.errors] == ["GATE201"] and exit_code(result) == 1


def test_synthetic_refused_without_flag_and_checked_with_it():
    refused = check_release_gate(doc(synthetic=True))
    assert not refused.usable and exit_code(refused) == 2 and refused.errors[0].code == "GATE003"
    allowed = check_release_gate(doc(synthetic=True), allow_synthetic=True)
    assert allowed.passed and allowed.synthetic
    assert not check_release_gate(doc(synthetic=True, known_top1=0.5), allow_synthetic=True).passed


@pytest.mark.parametrize(("raw", "code"), [(b"{bad", "GATE001"), (b"\xff\xfe", "GATE001"), (b"[1, 2]", "GATE002"), (b'"x"', "GATE002")])
def test_unusable_input_exits_2(raw, code):
    result = check_release_gate(raw)
    assert exit_code(result) == 2 and result.errors[0].code == code


def test_artifact_hash_is_the_file_content_hash():
    assert check_release_gate(doc()).artifact_hash == check_release_gate(doc()).artifact_hash
    assert check_release_gate(doc()).artifact_hash != check_release_gate(doc(known_top1=0.99)).artifact_hash
