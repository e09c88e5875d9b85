"""Whatever an agent puts in its trace-v3 ledger, promotion answers with issues, never an exception."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rcaloop.knowledge import core
from tests.unit.knowledge.builders import evaluation, trace, verdict

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=10,
)
FIELDS = ("observations", "hypotheses", "probe_executions", "incident_started_at", "version")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(field=st.sampled_from(FIELDS), value=JSON)
def test_any_ledger_value_gives_a_package_not_a_crash(field, value):
    def edit(data):
        trace(data)[field] = value

    package = core.promote(evaluation(), verdict(edit))
    assert package.valid or package.issues
    assert package.evidence_source in ("ledger", "harness_claim")
    event = core.promotion_event(package)
    assert event.kind == ("candidate" if package.valid else "rejected")
