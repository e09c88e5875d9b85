"""Whatever a producer sends that passes the contract, the ingestion core never raises.

The worker computes the idempotency key outside the handler's try block, so a raise
there would stop the consumer; these properties guard that.
"""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from rcaloop.contracts import RawResult
from rcaloop.ingestion import core

text = st.text(alphabet=st.characters(codec=None), max_size=60)  # includes lone surrogates and control characters
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
    max_leaves=12,
)
def _record(**fields) -> RawResult | None:
    """The record, or None when the contract itself refuses it (the worker dead-letters those)."""
    try:
        return RawResult(**fields)
    except ValidationError:
        return None


records = st.builds(
    _record,
    result_id=st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._:@/-]{0,20}", fullmatch=True),
    kind=st.sampled_from(["skill_text", "step_files", "capture"]),
    content=text | st.dictionaries(text | st.just("step5_summary.json"), json_values, max_size=4),
    job_id=st.none() | text,
    metadata=st.dictionaries(text, text, max_size=3),
)


@settings(max_examples=300, deadline=None)
@given(records)
def test_core_never_raises_and_rejections_always_have_a_code(record):
    assume(record is not None)
    limits = core.Limits(max_result_bytes=2048)
    assessed = core.assess(record, limits)
    issues, key = assessed.issues, assessed.key
    assert key and issues == core.validate(record, limits)
    if issues:
        assert all(i.code in core.CODES for i in issues)
        assert key.startswith("rejected:")
    else:
        ingested = core.ingest(assessed)
        assert ingested.analysis_hash == key
        ingested.model_dump_json()  # what the worker will put on rca.ingested
