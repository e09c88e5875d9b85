"""The dead letter a rejected record becomes (outside a worker: built from the record itself)."""

from __future__ import annotations

import json

from rcaloop.contracts import RawResult
from rcaloop.ingestion import core
from rcaloop.ingestion.app import DLQ_PAYLOAD_PREVIEW, dead_letter
from rcaloop.shared.wire import encode


def test_dead_letter_carries_first_code_every_finding_and_the_record():
    record = RawResult(result_id="r-1", kind="capture", content="text", job_id="../x")
    emit = dead_letter(record, core.validate(record))
    letter = emit.model
    assert emit.stream == "rca.results.dlq"
    assert letter.error_code == "invalid_job_id"
    assert letter.error.startswith("invalid_job_id: ") and "content_kind_mismatch: " in letter.error
    assert json.loads(letter.fields["payload"])["result_id"] == "r-1"


def test_oversized_payload_is_cut_and_text_that_cannot_be_encoded_still_serialises():
    record = RawResult(result_id="r-2", kind="skill_text", content="\ud800" + "x" * (2 * DLQ_PAYLOAD_PREVIEW))
    letter = dead_letter(record, core.validate(record)).model
    assert len(letter.fields["payload"]) == DLQ_PAYLOAD_PREVIEW
    assert int(letter.fields["payload_truncated_from"]) > DLQ_PAYLOAD_PREVIEW
    assert encode(letter)["payload"]  # no serialisation error on the way to Redis
