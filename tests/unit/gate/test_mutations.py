"""Novelty mutations: each kind changes what it says, tags the variant, forbids the family."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from rcaloop.contracts import EvidenceArtifact
from rcaloop.gate.cases import CaseSignals, EvalCase
from rcaloop.gate.mutations import MUTATIONS, mutate, shift_times

INPUT = """14:00 [deploy] config rollout cfg-2291: db.pool.max_size 50 -> 5
14:02 [splunk] PoolTimeoutError: timed out waiting for connection
14:03 [prometheus] checkout-api latency p99 2.1s
14:03 [prometheus] checkout-api 5xx rate 18%
14:04 [alert] checkout-api 5xx rate above 5%
"""


def known(**signals) -> EvalCase:
    return EvalCase(
        case_id="known-01",
        case_type="known",
        input=INPUT,
        expected_family="configuration",
        signals=CaseSignals(**signals),
        evidence=[
            EvidenceArtifact(source="splunk", text="PoolTimeoutError: timed out",
                             observed_at=datetime(2026, 11, 20, 14, 2, tzinfo=UTC)),
            EvidenceArtifact(source="prometheus", text="latency p99 2.1s",
                             observed_at=datetime(2026, 11, 20, 14, 3, tzinfo=UTC)),
        ],
    )


FULL = dict(signature=["PoolTimeoutError", "max_size"], symptoms=["latency p99", "5xx rate 18%"],
            datasources=["prometheus"])


def by_kind(case: EvalCase) -> dict[str, EvalCase]:
    variants, issues = mutate([case])
    assert not issues
    return {v.mutation: v for v in variants}


def test_every_mutation_yields_a_tagged_novel_variant_that_forbids_the_known_family():
    variants = by_kind(known(**FULL))
    assert set(variants) == {m.name for m in MUTATIONS}
    for name, v in variants.items():
        assert v.case_type == "novel" and v.mutation == name and v.source_case == "known-01"
        assert v.case_id == f"known-01@{name}" and v.expected_family is None
        assert v.expect.forbidden_families == ["configuration"]
        assert v.input != INPUT


def test_remove_signature_drops_every_signature_line_and_its_evidence():
    v = by_kind(known(**FULL))["remove_signature"]
    assert "PoolTimeoutError" not in v.input and "max_size" not in v.input
    assert "latency p99" in v.input
    assert [e.source for e in v.evidence] == ["prometheus"]


def test_drop_symptom_drops_only_the_first_symptom():
    v = by_kind(known(**FULL))["drop_symptom"]
    assert "latency p99" not in v.input and "5xx rate 18%" in v.input and "PoolTimeoutError" in v.input


def test_add_conflicting_evidence_appends_a_contradiction():
    v = by_kind(
        known(**FULL, conflicting_evidence="[note] canary without cfg-2291 also fails"))["add_conflicting_evidence"]
    assert v.input.endswith("[note] canary without cfg-2291 also fails\n")
    assert v.evidence[-1].kind == "conflicting"


def test_remove_datasource_drops_its_lines_and_artifacts():
    v = by_kind(known(**FULL))["remove_datasource"]
    assert "[prometheus]" not in v.input and "[splunk]" in v.input
    assert all(e.source != "prometheus" for e in v.evidence)


def test_shift_window_moves_the_incident_but_not_the_signature():
    v = by_kind(known(**FULL))["shift_window"]
    assert "14:02 [splunk] PoolTimeoutError" in v.input and "14:00 [deploy]" in v.input
    assert "20:04 [alert]" in v.input and "20:03 [prometheus]" in v.input
    assert v.window_shift_minutes == 360
    assert v.evidence[0].observed_at.hour == 14 and v.evidence[1].observed_at.hour == 20


def test_shift_times_handles_iso_timestamps_and_midnight():
    assert shift_times("2026-01-02T23:30:00Z deploy at 23:59", 60) == "2026-01-03T00:30:00Z deploy at 00:59"


@pytest.mark.parametrize(
    ("signals", "code"),
    [
        ({"symptoms": ["latency p99", "5xx"], "datasources": ["prometheus"]}, "MUT101"),
        ({"signature": ["PoolTimeoutError"], "symptoms": ["latency p99"], "datasources": ["prometheus"]}, "MUT102"),
        ({"signature": ["PoolTimeoutError"], "symptoms": ["latency p99", "5xx"], "datasources": ["datadog"]}, "MUT104"),
    ],
)
def test_a_mutation_that_cannot_apply_is_reported_not_invented(signals, code):
    variants, issues = mutate([known(**signals)])
    assert code in [i.code for i in issues]


def test_only_known_cases_are_mutated():
    novel = known(**FULL).model_copy(update={"case_type": "novel", "expected_family": None})
    assert mutate([novel]) == ([], [])
