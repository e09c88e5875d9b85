"""The one action vocabulary (``rcaloop.judge.actions``) the harness and the gate share."""

from __future__ import annotations

from rcaloop.gate import answer
from rcaloop.judge.core import evaluate
from rcaloop.judge.steps import GUARD_TEXTS, Action, violations
from rcaloop.judge.draft import Draft
from rcaloop.parser import core as parser
from rcaloop.judge.actions import classify, unguarded

PLAN = [
    "Check the pod status with kubectl get pods",
    "Do not delete the namespace",
    "Restart the payments deployment",
    "Note the impact: checkout is down for ~1 minute; get approval from the on-call lead",
    "Roll back the release if errors persist",
    "rm -rf /var/cache/app on the node",
]


def test_the_guards_the_repair_inserts_read_as_the_checks_they_stand_for():
    read, impact, approval = (classify(t) for t in GUARD_TEXTS)
    assert (read.verb, read.read_only_before, read.impact, read.approval) == (None, True, False, False)
    assert (impact.verb, impact.read_only_before, impact.impact, impact.approval) == (None, False, True, False)
    assert (approval.verb, approval.read_only_before, approval.impact, approval.approval) == (None, False, False, True)
    guarded = [*GUARD_TEXTS, "Restart the payments deployment"]
    assert unguarded(guarded) == []


def test_a_mutating_step_needs_a_check_before_it_and_impact_and_approval_by_then():
    found = {(u.index, u.verb): u.missing for u in unguarded(PLAN)}
    # the prohibition proposes nothing; the restart has its check but not yet impact or approval
    assert found == {(2, "Restart"): ("impact/rollback guidance", "operator approval")}


def test_destructive_shell_and_destroy_verbs_are_mutating():
    assert classify("rm -rf /var/cache/app").verb == "rm -rf"
    assert classify("destroy the stale volume").verb == "destroy"
    assert unguarded(["destroy the stale volume"])[0].missing == (
        "read-only check", "impact/rollback guidance", "operator approval")


def test_the_harness_flags_the_unguarded_steps_of_a_plan():
    harness = [v.action.text for v in violations([Action(t, f"report[{i}]") for i, t in enumerate(PLAN)])]
    assert harness == ["Restart the payments deployment"]


def _outputs():
    from tests.unit.harness.cases import all_cases
    from tests.helpers.corpus import all_cases as corpus

    yield from ((c.name, c.parsed) for c in all_cases())
    for c in corpus():
        yield c.name, parser.parse_record(c.record, c.registry)


def test_the_gate_reads_the_steps_the_harness_reads_on_every_labelled_and_red_team_output():
    """One judgement of the steps: the evaluation's unguarded steps are the harness's, as
    written, on every output of the labelled set and the red-team corpus — read from the verdict."""
    checked = 0
    for name, parsed in _outputs():
        harness = []
        for v in Draft.start(parsed).as_produced:
            if v.action.text not in harness:
                harness.append(v.action.text)
        verdict = evaluate(parsed)
        assert bool(answer.unguarded_destructive(verdict)) == bool(harness), name
        if verdict.verdict != "unchecked" and any(r.kind in answer.GUARD_REPAIRS for r in verdict.repairs):
            assert set(answer.unguarded_destructive(verdict)) <= set(harness), name  # the ones it had to guard
        checked += bool(harness)
    assert checked >= 20
