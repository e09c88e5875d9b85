"""Reviewer decisions: approve activates at once, shadow stays out of the snapshot, refusals are recorded."""

from __future__ import annotations

from datetime import timedelta

from rcaloop.knowledge import core
from tests.unit.knowledge.builders import evaluation, no_ledger, trace, verdict


def _candidate(*edits):
    return core.promote(evaluation(), verdict(*edits))


def test_approve_activates_at_once_and_reports_the_activation_latency():
    package = _candidate()
    result = core.decide(package, "approve", "mira", now=package.candidate_at + timedelta(seconds=12.5))
    assert result.error is None and result.package.state == "activated"
    assert [e.kind for e in result.events] == ["approved", "activated"]
    activated = result.events[1]
    assert activated.activation_latency_seconds == 12.5 and activated.inadmissible is False
    assert activated.detail["activation_latency_seconds"] == 12.5 and activated.decision == "approve"
    assert core.active([result.package]) == [result.package]


def test_shadow_keeps_the_package_out_of_the_runtime_snapshot_until_activate():
    package = _candidate()
    shadowed = core.decide(package, "shadow", "mira", now=package.candidate_at + timedelta(seconds=5))
    assert shadowed.package.state == "shadowed" and [e.kind for e in shadowed.events] == ["shadowed"]
    assert core.active([shadowed.package]) == []
    activated = core.decide(shadowed.package, "activate", "lee", now=package.candidate_at + timedelta(seconds=65))
    assert activated.package.state == "activated" and [e.kind for e in activated.events] == ["activated"]
    assert activated.events[0].activation_latency_seconds == 65
    assert [h.decision for h in activated.package.history] == ["shadow", "activate"]


def test_activate_needs_a_shadowed_package():
    result = core.decide(_candidate(), "activate", "mira")
    assert result.error is not None and result.error.code == "KD101" and not result.changed
    assert result.package.state == "candidate"


def test_activating_a_package_that_failed_validation_is_refused_and_recorded():
    invalid = core.promote(
        evaluation(), verdict(lambda d: trace(d)["hypotheses"][0].update(supporting_source_groups=["logs"]))
    )
    assert not invalid.valid and invalid.state == "rejected"
    for decision in ("approve", "activate"):
        result = core.decide(invalid, decision, "mira")
        assert result.refused and result.error.code == "KD201"
        assert result.package.state == "rejected" and core.active([result.package]) == []
        [event] = result.events
        assert event.kind == "rejected" and event.inadmissible is True and event.decision == decision
        assert {"KD201", "KN301"} <= {i.code for i in event.issues}
        assert result.package.history[-1].accepted is False


def test_shadowing_an_invalid_package_is_refused_but_not_an_activation():
    invalid = core.promote(evaluation(), verdict(no_ledger, lambda d: d["claims"][0].update(status="refuted")))
    result = core.decide(invalid, "shadow", "mira")
    assert result.refused and result.events[0].inadmissible is False


def test_reject_removes_an_active_package_from_the_snapshot():
    active = core.decide(_candidate(), "approve", "mira").package
    result = core.decide(active, "reject", "lee", comment="wrong family after all")
    assert result.package.state == "rejected" and [e.kind for e in result.events] == ["rejected"]
    assert core.active([result.package]) == []
    assert result.package.history[-1].comment == "wrong family after all"


def test_event_ids_are_unique_per_decision():
    package = _candidate()
    shadowed = core.decide(package, "shadow", "mira").package
    events = core.decide(shadowed, "activate", "mira").events + [core.promotion_event(package)]
    assert len({e.event_id for e in events}) == len(events)
