"""The investigation feedback loop's probe ranking, criterion by criterion."""

from __future__ import annotations

from rcaloop.knowledge.ranking import ProbeCandidate, rank_probes

OPEN = {"H1", "H2", "H3"}


def _probe(pid, collector="prometheus", plane="metrics", covers=("H1",), fit=0.5, valid=True):
    return ProbeCandidate(pid, collector, plane, frozenset(covers), fit, valid)


def _ids(ranked):
    return [r.probe_template_id for r in ranked]


def test_unobserved_collector_ranks_first_even_over_better_discrimination_and_fit():
    seen = _probe("seen", collector="loki", plane="traces", covers=("H1", "H2", "H3"), fit=1.0)
    new = _probe("new", collector="tempo", plane="logs", covers=("H1",), fit=0.1)
    assert _ids(rank_probes([seen, new], OPEN, observed_collectors={"loki"}, observed_planes={"logs"})) == [
        "new",
        "seen",
    ]


def test_then_an_independent_telemetry_plane():
    same_plane = _probe("same", collector="a", plane="logs", covers=("H1", "H2"), fit=1.0)
    other_plane = _probe("other", collector="b", plane="traces", covers=("H1",), fit=0.0)
    assert _ids(rank_probes([same_plane, other_plane], OPEN, observed_planes={"logs"})) == ["other", "same"]


def test_then_the_range_that_discriminates_more_unresolved_hypotheses():
    narrow = _probe("narrow", collector="a", covers=("H1",), fit=1.0)
    wide = _probe("wide", collector="b", covers=("H1", "H2", "resolved-H9"), fit=0.0)
    assert _ids(rank_probes([narrow, wide], OPEN)) == ["wide", "narrow"]


def test_then_plan_fit_then_a_stable_order():
    low, high, tie = _probe("b-low", fit=0.2), _probe("c-high", fit=0.9), _probe("a-tie", fit=0.2)
    assert _ids(rank_probes([low, high, tie], OPEN)) == ["c-high", "a-tie", "b-low"]


def test_invalid_probes_and_probes_for_closed_hypotheses_are_not_ranked():
    invalid = _probe("invalid", valid=False)
    closed = _probe("closed", covers=("H9",))
    assert rank_probes([invalid, closed], OPEN) == []
