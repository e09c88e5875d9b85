"""Ingestion rules: each one has a record that passes and one that breaks it."""

from __future__ import annotations

import pytest

from rcaloop.contracts import RawResult, analysis_hash
from rcaloop.ingestion import core

STEP5 = {"job_id": "1234567",
         "root_cause": {"category": "credential", "summary": "secret_id expired", "confidence": "high"}}


def _raw(**kw) -> RawResult:
    values = dict(result_id="r-1", kind="skill_text", content="# Report\nRCA_FIELDS\norigin: internal\n")
    values.update(kw)
    return RawResult(**values)


GOOD = _raw()
BROKEN: dict[str, RawResult] = {
    "invalid_text": _raw(content="half a surrogate pair: \ud800"),
    "result_too_large": _raw(content="x" * 5000),
    "invalid_job_id": _raw(job_id="../../etc"),
    "content_kind_mismatch": _raw(kind="capture", content="plain text is not a capture"),
    "empty_content": _raw(content="   \n"),
    "unsafe_step_file_name": _raw(kind="step_files", content={"step5_summary.json": STEP5, "../x.json": {}}),
    "job_id_mismatch": _raw(kind="step_files", job_id="999", content={"step5_summary.json": STEP5}),
}
LIMITS = core.Limits(max_result_bytes=4096)


def test_every_rule_has_a_breaking_example():
    assert set(BROKEN) == {r.code for r in core.RULES}


@pytest.mark.parametrize("rule", core.RULES, ids=lambda r: r.code)
def test_rule_passes_good_record_and_flags_broken_one(rule):
    assert rule.check(GOOD, LIMITS, core.measure(GOOD)) == []
    broken = BROKEN[rule.code]
    issues = rule.check(broken, LIMITS, core.measure(broken))
    assert [i.code for i in issues] == [rule.code]
    assert issues[0].message


@pytest.mark.parametrize(
    ("record", "code"),
    [
        (_raw(kind="step_files", content={"step1_job_context.json": {}}), "missing_step5_summary"),
        (_raw(kind="step_files", content={"step5_summary.json": ["not", "an", "object"]}), "invalid_step5_summary"),
        (_raw(kind="skill_text", content={"text": "an object"}), "content_kind_mismatch"),
        (_raw(kind="step_files", content="text"), "content_kind_mismatch"),
        (_raw(kind="capture", content={}), "empty_content"),
    ],
)
def test_content_must_agree_with_kind(record, code):
    assert [i.code for i in core.validate(record, LIMITS)] == [code]


def test_valid_shapes_are_accepted():
    step_files = _raw(kind="step_files", job_id="1234567",
                      content={"step5_summary.json": STEP5, "step1_job_context.json": {}})
    capture = _raw(kind="capture", content={"incident_id": "INC-1", "root_cause_family": "disk"})
    for record in (GOOD, step_files, capture):
        assert core.validate(record, LIMITS) == []


def test_size_limit_counts_utf8_bytes_of_the_record():
    small = core.Limits(max_result_bytes=1024)
    ascii_text = _raw(content="a" * 800)
    wide_text = _raw(content="é" * 800)  # 1600 bytes in UTF-8
    assert core.validate(ascii_text, small) == []
    [issue] = core.validate(wide_text, small)
    assert issue.code == "result_too_large" and "1024 byte limit" in issue.message


def test_ingest_adds_analysis_hash_independent_of_ids_and_time():
    raw_a = _raw(result_id="a", producer="agent-1")
    a = core.ingest(core.assess(raw_a))
    b = core.ingest(core.assess(_raw(result_id="b", producer="agent-2")))
    assert a.analysis_hash == b.analysis_hash == analysis_hash("skill_text", GOOD.content)
    assert a.size_bytes == len(raw_a.model_dump_json().encode()) > 0
    assert a.result_id == "a"


def test_the_key_is_the_hash_for_valid_records_and_unique_for_rejected_ones():
    assert core.assess(GOOD).key == analysis_hash("skill_text", GOOD.content)
    bad = _raw(job_id="../x")
    fixed = _raw(job_id="x")
    assert core.assess(bad).key.startswith("rejected:")
    # the corrected resubmission has the same content, yet it is not taken for a duplicate of the rejected one
    assert core.assess(fixed).key != core.assess(bad).key


def test_a_rejected_record_is_never_ingested():
    with pytest.raises(ValueError, match="invalid_job_id"):
        core.ingest(core.assess(_raw(job_id="../x")))


def test_rejection_message_lists_every_finding_with_its_code():
    issues = core.validate(_raw(job_id="a/b", content=" "), LIMITS)
    assert core.rejection_message(issues) == (
        "invalid_job_id: job_id may not contain path separators (it names one directory); empty_content: skill_text "
        "content is empty"
    )


def test_reported_step_file_name_is_a_printable_preview():
    record = _raw(kind="step_files", content={"step5_summary.json": STEP5, "a\x1b[31m" + "y" * 80: {}})
    [issue] = core.validate(record, LIMITS)
    assert "\x1b" not in issue.path and len(issue.path) < 60


def test_lone_surrogate_never_raises_anywhere_in_the_core():
    record = _raw(content="a\ud800b", metadata={"k": "\udfff"})
    assert [i.code for i in core.validate(record)] == ["invalid_text"]
    assessed = core.assess(record)
    assert assessed.key.startswith("rejected:") and assessed.size > 0
