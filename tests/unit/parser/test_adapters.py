"""Step-file and capture adapters: tolerant of extra/missing keys, same canonical model."""

from __future__ import annotations

from tests.unit.parser.helpers import capture, codes_of, parse, step_files


def test_step_files_become_a_diagnosis_with_artifacts():
    parsed = parse(step_files(), kind="step_files", job_id="1234567")
    d = parsed.diagnosis
    assert (d.root_cause.category, d.root_cause.confidence, d.family) == ("credential", "high", "credential")
    assert len(d.evidence) == 3 and d.difficulty_score == 5
    assert [r.priority for r in d.recommendations] == ["high", "medium"]
    # the root cause's evidence is its is_root_cause items (traced by the harness), never every artifact
    assert d.claims[0].kind == "root_cause" and d.claims[0].evidence_ids == []
    by_id = {a.id: a for a in parsed.artifacts}
    assert by_id["step3.timeline[1]"].source == "splunk"  # the collector, from the step file item itself
    assert by_id["step1.failed_tasks[0]"].source == "aap" and by_id["step4.github_fetches[0]"].source == "github"
    assert by_id["step4.github_fetches[1]"].text == "HTTP 404"
    assert parsed.fields.confidence == "high" and parsed.title and "# " in parsed.report_markdown
    assert "MODULE FAILURE" in parsed.alert_text


def test_step_files_tolerate_extra_keys_and_junk_items():
    content = step_files()
    step5 = content["step5_summary.json"]
    step5["new_key"] = {"anything": 1}
    step5["evidence"].append("not an object")
    step5["recommendations"].append({"priority": "low"})
    step5["difficulty_score"] = "hard"
    del content["step1_job_context.json"]["failed_tasks"]
    parsed = parse(content, kind="step_files", job_id="1234567")
    assert parsed.outcome == "report"
    assert {w.path for w in parsed.warnings if w.code == "RCA512"} == {
        "evidence[3]",
        "recommendations[2]",
        "difficulty_score",
    }
    assert parsed.diagnosis.difficulty_score is None and len(parsed.diagnosis.evidence) == 3


def test_capture_family_candidates_claims_and_diagnostics():
    parsed = parse(capture(), kind="capture")
    d = parsed.diagnosis
    assert d.family == "db_connection_pool_exhaustion"
    assert d.candidates == ["db_connection_pool_exhaustion", "database_overload", "bad_deploy"]
    assert d.claims[0].evidence_ids == ["E01", "E02", "E03"] and d.claims[0].kind == "root_cause"
    assert d.confidence_diagnostics["independent_source_groups"] == ["logs", "deploys", "metrics"]
    assert [a.id for a in parsed.artifacts] == ["E01", "E02", "E03", "E04", "E05"]
    assert parsed.artifacts[4].live is False
    assert parsed.alert_text.startswith("checkout-api 5xx rate above 5% for 3m\nFIRING")
    assert parsed.fields.confidence == "high"


def test_old_capture_without_confidence_diagnostics_loads():
    parsed = parse(capture("kafka-consumer-lag-legacy.json"), kind="capture")
    assert parsed.outcome == "report" and parsed.warnings == []
    assert parsed.diagnosis.confidence_diagnostics is None
    assert parsed.diagnosis.candidates[0] == "consumer_stalled"
    assert [r.action[:5] for r in parsed.diagnosis.recommendations] == ["Check", "Lower"]


def test_candidates_ranked_by_rank_then_score():
    content = capture()
    content["candidates"] = [
        {"family": "b", "score": 0.2},
        {"family": "a", "score": 0.9},
        {"family": "c", "rank": 1},
        7,
    ]
    parsed = parse(content, kind="capture")
    assert parsed.diagnosis.candidates == ["c", "a", "b"]
    assert "RCA611" in codes_of(parsed)


def test_capture_given_as_json_text_and_not_an_object():
    import json

    assert parse(json.dumps(capture()), kind="capture").outcome == "report"
    assert parse("[1, 2]", kind="capture").errors[0].code == "RCA601"


def test_capture_evidence_ids_written_as_numbers_are_the_ids_its_claims_cite():
    content = capture()
    number = {item["id"]: n for n, item in enumerate(content["evidence"], start=1)}
    for item in content["evidence"]:
        item["id"] = number[item["id"]]
    for claim in content["claims"]:
        claim["evidence_ids"] = [number[e] for e in claim["evidence_ids"]]
    content["claims"][1]["evidence_ids"] = [4.0]  # a float written for an integer is the same id
    parsed = parse(content, kind="capture")
    assert [a.id for a in parsed.artifacts] == ["1", "2", "3", "4", "5"]
    assert [c.evidence_ids for c in parsed.diagnosis.claims] == [["1", "2", "3"], ["4"], ["2"]]
    assert parsed.warnings == []


def test_capture_candidates_carry_component_reason_and_time_in_rank_order():
    from datetime import UTC, datetime, timedelta, timezone  # noqa: PLC0415

    content = capture()
    content["candidates"] = [
        {"family": "network", "rank": 2, "component": "cartservice", "reason": "network latency",
         "occurred_at": "2021-03-06 14:57:00+08:00"},
        {"family": "resource", "rank": 1, "component": "checkoutservice", "occurred_at": "2024-01-15T21:36:06"},
        {"family": "dependency", "rank": 3, "component": ["not", "text"], "occurred_at": "soon"},
        "unknown",
    ]
    parsed = parse(content, kind="capture")
    ranked = parsed.diagnosis.ranked
    assert parsed.diagnosis.candidates == [c.family for c in ranked] == ["resource", "network", "dependency",
                                                                       "unknown"]
    assert [c.component for c in ranked] == ["checkoutservice", "cartservice", None, None]
    assert ranked[1].reason == "network latency"
    assert ranked[1].occurred_at == datetime(2021, 3, 6, 14, 57, tzinfo=timezone(timedelta(hours=8)))
    assert ranked[0].occurred_at == datetime(2024, 1, 15, 21, 36, 6, tzinfo=UTC)  # no zone: UTC
    assert {"candidates[2].component", "candidates[2].occurred_at"} <= {w.path for w in parsed.warnings}
