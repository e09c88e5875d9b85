"""The release gate (SPEC §7): each threshold on both sides, fail-closed input handling."""

from __future__ import annotations

import json
from datetime import UTC, datetime

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
PROVENANCE = {"incident_window": "2026-11-01/2026-11-14", "population": {"incidents": 412, "alerts": 1310},
              "job_revision": "measure@4f2c9e1", "artifact": "s3://gate/m.json"}


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
    rule = next(t for t in THRESHOLDS if t.metric == metric)
    assert result.reasons[0].startswith(f"{rule.code} {metric}")


def test_activation_p95_is_strictly_below_30():
    assert check_release_gate(doc(activation_p95_seconds=29.99)).passed
    assert not check_release_gate(doc(activation_p95_seconds=30.0)).passed


@pytest.mark.parametrize("metric", [m for m in PASSING if m != "typedb_outage_runtime_activation_success"])
@pytest.mark.parametrize("value", [True, False, "0.99", None, [1], {"v": 1}])
def test_non_numeric_metrics_fail_closed_and_booleans_are_not_numbers(metric, value):
    result = check_release_gate(doc(**{metric: value}))
    [check] = [c for c in result.checks if c.metric == metric]
    assert not check.passed and check.reason in ("not a number", "missing")
    assert exit_code(result) == 1 and {e.code for e in result.errors} <= {"GATE301", "GATE302"}


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


@pytest.mark.parametrize(("raw", "code"),
                         [(b"{bad", "GATE001"), (b"\xff\xfe", "GATE001"), (b"[1, 2]", "GATE002"), (b'"x"', "GATE002")])
def test_unusable_input_exits_2(raw, code):
    result = check_release_gate(raw)
    assert exit_code(result) == 2 and result.errors[0].code == code


def test_artifact_hash_is_the_canonical_content_hash():
    assert check_release_gate(doc()).artifact_hash == check_release_gate(doc()).artifact_hash
    assert check_release_gate(doc()).artifact_hash != check_release_gate(doc(known_top1=0.99)).artifact_hash
    spaced = json.dumps(json.loads(doc()), indent=4, sort_keys=True).encode()
    reordered = json.dumps(dict(reversed(list(json.loads(doc()).items())))).encode()
    respelled = doc().replace(b'"destructive_tool_executions": 0', b'"destructive_tool_executions": 0.0')
    assert {check_release_gate(d).artifact_hash
            for d in (doc(), spaced, reordered, respelled)} == {check_release_gate(doc()).artifact_hash}


# -- strict types and ranges: every violation has a code and fails the gate ---------------------
def codes(result) -> list[str]:
    return [e.code for e in result.errors]


@pytest.mark.parametrize("value", ["true", 1, "yes", 0, [True], {"v": True}])
def test_synthetic_must_be_a_json_boolean(value):
    result = check_release_gate(doc(synthetic=value))
    assert not result.passed and exit_code(result) == 1
    assert codes(result) == ["GATE004"]


def test_synthetic_false_is_real_data():
    assert check_release_gate(doc(synthetic=False)).passed


@pytest.mark.parametrize("metric",
                         ["known_top1", "false_novel_rate", "evidence_link_precision", "abstention_rate",
                          "novel_mechanism_recall_at_3"])
@pytest.mark.parametrize("value", [1.01, 7, -0.01, -3])
def test_a_rate_outside_0_1_fails(metric, value):
    result = check_release_gate(doc(**{metric: value}))
    assert not result.passed and exit_code(result) == 1
    assert "GATE303" in codes(result)
    [check] = [c for c in result.checks if c.metric == metric]
    assert not check.passed and "range" in check.reason


@pytest.mark.parametrize("metric",
                         ["groundless_high_confidence", "destructive_tool_executions",
                          "inadmissible_knowledge_activations"])
@pytest.mark.parametrize(("value", "code"), [(-1, "GATE303"), (-0.5, "GATE302"), (0.5, "GATE302"), (0.0, "GATE302")])
def test_a_count_must_be_a_non_negative_integer(metric, value, code):
    result = check_release_gate(doc(**{metric: value}))
    assert not result.passed and code in codes(result)


@pytest.mark.parametrize("value", [-1, -0.001, -30])
def test_negative_seconds_fail(value):
    result = check_release_gate(doc(activation_p95_seconds=value))
    assert not result.passed and codes(result) == ["GATE303"]


def test_every_failed_metric_is_a_coded_finding():
    missing = json.loads(doc())
    del missing["known_top1"]
    result = check_release_gate(json.dumps(missing).encode())
    assert codes(result) == ["GATE301"] and result.errors[0].path == "$.known_top1"
    assert codes(check_release_gate(doc(known_top1="0.99"))) == ["GATE302"]
    assert codes(check_release_gate(doc(known_top1=0.5))) == ["GATE101"]
    assert codes(check_release_gate(doc(typedb_outage_runtime_activation_success=False))) == ["GATE110"]
    assert all(r.split()[0].startswith("GATE")
               for r in check_release_gate(doc(known_top1=0.5, groundless_high_confidence=2)).reasons)


# -- provenance: intervals, non-empty strings, no future timestamps -------------------------------
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def provenance(**overrides):
    return doc(provenance={**PROVENANCE, **overrides})


@pytest.mark.parametrize(
    ("window", "code"),
    [
        ("last month", "GATE203"),
        ("2026-11-01", "GATE203"),
        ("2026-11-01/soon", "GATE203"),
        ("2026-11-14/2026-11-01", "GATE204"),  # reversed
        ("2026-11-01T10:00Z/2026-11-01T10:00Z", "GATE204"),  # empty
        ("2026-11-20/2027-01-01", "GATE205"),  # ends in the future
        (["2026-11-01", "2026-11-14"], "GATE202"),  # not text
    ],
)
def test_the_incident_window_is_an_iso_interval_that_has_ended(window, code):
    result = check_release_gate(provenance(incident_window=window), now=NOW)
    assert not result.passed and codes(result) == [code]


def test_a_closed_window_passes():
    assert check_release_gate(provenance(incident_window="2026-11-01T00:00:00Z/2026-11-14T23:59:59+00:00"),
                              now=NOW).passed
    assert check_release_gate(provenance(incident_window="2026-11-01/2026-11-30"), now=NOW).passed


@pytest.mark.parametrize("field", ["job_revision", "artifact"])
@pytest.mark.parametrize("value", [" ", 42, True, ["x"], {"rev": "x"}])
def test_job_revision_and_artifact_are_non_empty_text(field, value):
    result = check_release_gate(provenance(**{field: value}), now=NOW)
    assert not result.passed and codes(result) == ["GATE202"]


@pytest.mark.parametrize(
    ("measured_at", "code"),
    [
        ("yesterday", "GATE206"),
        (12345, "GATE206"),
        ("2026-12-24T00:00:00Z", "GATE207"),  # self-declared future measurement
        ("2026-11-10T00:00:00Z", "GATE208"),  # measured before the window it reports on closed
    ],
)
def test_measured_at_is_a_past_instant_after_the_window(measured_at, code):
    result = check_release_gate(provenance(measured_at=measured_at), now=NOW)
    assert not result.passed and codes(result) == [code]
    assert check_release_gate(provenance(measured_at="2026-11-15T01:00:00Z"), now=NOW).passed
