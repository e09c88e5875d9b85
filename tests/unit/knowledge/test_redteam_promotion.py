"""Red team, second round: reviews and ledgers written to get knowledge promoted.

Each test starts from the realistic fixtures (a passed evaluation of a verdict with a complete
trace-v3 ledger, which promotes), changes one thing a careless reviewer or a gaming agent
would, and asserts what promotion should then do. They fail until promotion refuses.
"""

from __future__ import annotations

import pytest

from rcaloop.knowledge import core
from rcaloop.knowledge.snapshot import SnapshotCache
from rcaloop.knowledge.sqlite_store import SqliteKnowledgeStore
from rcaloop.knowledge.workflow import DecisionError, KnowledgeWorkflow
from tests.unit.knowledge.builders import evaluation, no_ledger, root_claim, trace, verdict


def _codes(package) -> list[str]:
    return [i.code for i in package.issues]


def test_the_fixtures_promote():
    """Control: the unchanged pair promotes on the ledger path."""
    package = core.promote(evaluation(), verdict())
    assert package.valid and package.state == "candidate" and package.evidence_source == "ledger"


def _unconfirmed(data: dict) -> None:
    """The operator names no family and does not know whether anything worked."""
    ev = data["evaluation"]
    ev.update(expected_family=None, resolution_outcome="unknown", action_that_worked=None, verified_actions=[])


def test_redteam_an_evaluation_that_confirms_no_family_is_not_a_passed_review():
    """Bypass: for an operator evaluation, "the reviewer did not reject the diagnosis" only means
    the outcome is not ``not_resolved``. With no ``expected_family`` the snapshot family falls
    back to the agent's own, so KN304/KN402 compare the agent's family with itself. An
    evaluation that names no family and reports the outcome ``unknown`` — nobody confirmed
    anything — promotes the agent's family as knowledge, on both paths. An annotation must
    confirm category and summary; an evaluation must at least confirm the family (name it) or
    a resolution."""
    for pair in ((evaluation(_unconfirmed), verdict()), (evaluation(_unconfirmed), verdict(no_ledger))):
        package = core.promote(*pair)
        assert not package.valid, f"promoted {package.family!r} that no reviewer confirmed ({package.evidence_source})"
        assert "KN101" in _codes(package)


def test_redteam_the_ledger_path_heeds_the_runs_refuting_evidence():
    """Bypass: the harness found live evidence of the run refuting the root cause (E04 under
    the root claim's ``refutes``), but the ledger says no source group refutes it. KN303 reads
    only the ledger's own ``refuting_source_groups``, so the package is a candidate; the
    ``harness_claim`` path refuses the same verdict (KN404). Refutation, like support, comes
    from the run's evidence, not the ledger's labels."""

    def refuted(data: dict) -> None:
        root_claim(data)["refutes"] = ["E04"]

    assert "KN404" in _codes(
        core.promote(evaluation(), verdict(refuted, no_ledger))), "precondition: the fallback refuses"
    package = core.promote(evaluation(), verdict(refuted))
    assert not package.valid, "the run's evidence refutes the root cause; the ledger hides it"


def test_redteam_a_before_incident_label_needs_times_that_show_it():
    """Bypass: KN203 checks "later evidence is never labelled as observed before the cause" only
    when the ledger itself gives both ``incident_started_at`` and the observation's
    ``observed_at``. A ledger that drops both can label everything ``before_incident`` — the
    graph then stores those labels as ``unknown`` — while the run's own artifacts show E04 was
    observed 38 minutes after the incident started. A before_incident label no time shows is
    not a time relation (KN202), and the run's times are the ones to check it against (KN203)."""

    def untimed(data: dict) -> None:
        t = trace(data)
        t.pop("incident_started_at")
        for o in t["observations"]:
            o.pop("observed_at")
            o["time_relation"] = "before_incident"
        data["parsed"]["incident_started_at"] = "2026-11-29T10:02:00Z"
        data["parsed"]["artifacts"] = [
            {"id": "E04", "source": "loki", "kind": "log", "text": "pool exhausted",
             "observed_at": "2026-11-29T10:40:00Z"},
        ]
        for ev in data["evidence"]:
            if ev["id"] == "E04":
                ev["agent_id"] = "E04"

    package = core.promote(evaluation(), verdict(untimed))
    assert not package.valid, "every observation is labelled before the incident and nothing shows it"
    assert {"KN202", "KN203"} & set(_codes(package))


def test_redteam_the_alert_is_not_a_second_source_group():
    """Bypass: KN301 counts the groups of whatever evidence the ledger cites for the root cause,
    as the harness derived them. The harness itself never counts the alert as an independent
    group (it is the failure being explained), but KN301 does: one log line plus the firing
    alert (alertmanager, kind ``alert``) are "two independent source groups" for promotion."""

    def alert_as_group(data: dict) -> None:
        data["evidence"].append({"id": "E05", "source": "alertmanager", "source_group": "metrics", "live": True,
                                 "kind": "alert", "symptom": True,  # as the harness marks the alert
                                 "title": "HighErrorRate", "collector": "alertmanager",
                                 "text": "FIRING: HighErrorRate service=checkout-api"})
        t = trace(data)
        t["observations"] = [o for o in t["observations"] if o["evidence_id"] != "E01"] + [
            {"evidence_id": "E05", "source_group": "alerts", "collector": "alertmanager", "plane": "metrics",
             "time_relation": "during_incident", "observed_at": "2026-11-29T10:03:00Z"}]
        t["hypotheses"][0]["supporting_evidence_ids"] = ["E02", "E05"]
        t["probe_executions"][0]["evidence_ids"] = ["E05"]
        root_claim(data)["supports"] = ["E02", "E05"]

    package = core.promote(evaluation(), verdict(alert_as_group))
    assert not package.valid and "KN301" in _codes(package), "a log line and the alert are one group of evidence"


async def test_redteam_one_friendly_reviewer_does_not_outvote_a_rejection(tmp_path):
    """Bypass: with overlap, every review of an analysis builds its own package. Mira judges the
    family wrong (she names dns_resolution, her package is refused); Jo confirms the agent's
    family. Jo's package is a candidate and a knowledge reviewer activates it: the agent then
    reads, as verified knowledge, a diagnosis one of its two reviewers rejected. A review that
    a current review of the same analysis contradicts is not a passed review (or at least not
    activatable) until the reviewers agree."""
    def rejects(data: dict) -> None:
        data["evaluation"]["expected_family"] = "dns_resolution"

    def by_jo(data: dict) -> None:
        data["annotator"] = data["evaluation"]["annotator"] = "jo"

    store = SqliteKnowledgeStore(tmp_path / "k.sqlite3")
    workflow = KnowledgeWorkflow(store, SnapshotCache(tmp_path / "snapshot.json"))
    try:
        await workflow.on_verdict(verdict())
        [refused] = await workflow.on_review(evaluation(rejects, annotation_id="ev-mira"))
        assert refused.kind == "rejected", "precondition: Mira's review names another family"
        [candidate] = await workflow.on_review(evaluation(by_jo, annotation_id="ev-jo"))
        activated = True
        if candidate.kind == "candidate":
            try:
                await workflow.decide(candidate.package_id, "approve", "lead")
            except DecisionError:
                activated = False
        else:
            activated = False
        assert not activated, "a diagnosis one reviewer of the same analysis rejected became active knowledge"
    finally:
        await store.close()


# -- what a passed evaluation confirms ---------------------------------------------------------------
def test_an_evaluation_confirming_only_the_agents_family_by_silence_is_refused_for_any_unresolved_outcome():
    def silent(data: dict) -> None:
        data["evaluation"].update(expected_family=None, resolution_outcome="unknown")

    package = core.promote(evaluation(silent), verdict())
    assert "KN101" in _codes(package) and "confirms nothing" in package.issues[0].message


def test_control_an_evaluation_confirms_by_naming_the_family_or_by_a_resolution():
    named_unresolved = evaluation(lambda d: d["evaluation"].update(resolution_outcome="unknown", verified_actions=[],
                                                                   action_that_worked=None))
    mitigated_unnamed = evaluation(
        lambda d: d["evaluation"].update(expected_family=None, resolution_outcome="mitigated"))
    for review in (named_unresolved, mitigated_unnamed):
        package = core.promote(review, verdict())
        assert package.valid, _codes(package)


# -- refutation comes from the run ---------------------------------------------------------------------
def test_control_a_ledger_that_names_a_refuting_group_is_still_refused():
    def admits(data: dict) -> None:
        trace(data)["hypotheses"][0]["refuting_source_groups"] = ["logs"]

    assert "KN303" in _codes(core.promote(evaluation(), verdict(admits)))


def test_a_run_refutation_refuses_both_paths_with_one_message():
    def refuted(data: dict) -> None:
        root_claim(data)["refutes"] = ["E04"]

    ledger = core.promote(evaluation(), verdict(refuted))
    fallback = core.promote(evaluation(), verdict(refuted, no_ledger))
    [kn303] = [i.message for i in ledger.issues if i.code == "KN303"]
    [kn404] = [i.message for i in fallback.issues if i.code == "KN404"]
    assert kn303.split(": ", 1)[1] == kn404.split(": ", 1)[1] == "root-cause claim refuted by the run's evidence E04"


# -- times: the run's own win over the ledger's --------------------------------------------------------
def _run_times(start: str, **observed: str):
    def edit(data: dict) -> None:
        data["parsed"]["incident_started_at"] = start
        data["parsed"]["artifacts"] = [{"id": eid, "source": "loki", "observed_at": at} for eid, at in observed.items()]
    return edit


def test_the_runs_artifact_time_overrules_the_ledgers_observed_at():
    """Variant: the ledger dates E04 before the incident; the run's artifact says 38 minutes after it."""
    def relabel(data: dict) -> None:
        o = next(o for o in trace(data)["observations"] if o["evidence_id"] == "E04")
        o.update(time_relation="before_incident", observed_at="2026-11-29T09:00:00Z")

    package = core.promote(evaluation(),
                           verdict(relabel, _run_times("2026-11-29T10:02:00Z", E04="2026-11-29T10:40:00Z")))
    assert _codes(package) == ["KN203"] and "E04" in package.issues[0].message


def test_the_runs_incident_start_overrules_the_ledgers():
    """Variant: the ledger moves the incident start after its evidence; the run's start is earlier."""
    def later_start(data: dict) -> None:
        trace(data)["incident_started_at"] = "2026-11-29T11:00:00Z"
        next(o for o in trace(data)["observations"] if o["evidence_id"] == "E04")["time_relation"] = "before_incident"

    package = core.promote(evaluation(), verdict(later_start, _run_times("2026-11-29T10:02:00Z")))
    assert _codes(package) == ["KN203"]


def test_control_untimed_ledger_observations_pass_when_the_run_shows_their_times():
    def untimed(data: dict) -> None:
        t = trace(data)
        t.pop("incident_started_at")
        for o in t["observations"]:
            o.pop("observed_at")

    run = _run_times("2026-11-29T10:02:00Z", E03="2026-11-29T09:58:00Z")
    assert core.promote(evaluation(), verdict(untimed, run)).valid
    assert "KN202" in _codes(
        core.promote(evaluation(), verdict(untimed))), "without the run's times, E03's label is unshown"


def test_a_before_incident_label_without_an_incident_start_is_not_a_time_relation():
    package = core.promote(evaluation(), verdict(lambda d: trace(d).pop("incident_started_at")))
    assert _codes(package) == ["KN202"] and "E03" in package.issues[0].message


# -- symptoms add no source group ----------------------------------------------------------------------
def test_a_failed_task_marked_symptom_is_no_second_group():
    """Variant: the harness marks a restated failure (here the metrics item E01) a symptom."""
    def symptom(data: dict) -> None:
        next(e for e in data["evidence"] if e["id"] == "E01")["symptom"] = True

    package = core.promote(evaluation(), verdict(symptom))
    assert _codes(package) == ["KN301"] and "adds none" in package.issues[0].message


# -- one reviewer does not outvote another --------------------------------------------------------------
def _by(annotator: str, annotation_id: str, **update):
    def edit(data: dict) -> None:
        data["annotator"] = data["evaluation"]["annotator"] = annotator
        data["evaluation"].update(evaluation_id=annotation_id, **update)
    return evaluation(edit, annotation_id=annotation_id)


def test_every_kind_of_disagreement_refuses_activation_but_not_shadow_or_reject():
    jo = _by("jo", "ev-jo")
    package = core.promote(jo, verdict())
    assert package.valid
    for dissenting in (
        _by("mira", "ev-mira", expected_family="dns_resolution"),  # another family
        _by("mira", "ev-mira", resolution_outcome="not_resolved"),  # the diagnosis did not hold
        _by("mira", "ev-mira", hard_gate_judgement={"agrees_with_harness": False, "failed_gates": ["G2"]}),
        _by("mira", "ev-mira", scores={**evaluation().evaluation.scores.model_dump(), "evidence_grounding": 1}),
    ):
        dissent = core.dissenting_reviews(package, [jo, dissenting], verdict())
        assert len(dissent) == 1 and dissent[0].startswith("ev-mira (mira)")
        for decision in ("approve",):
            result = core.decide(package, decision, "lead", dissent=dissent)
            assert result.refused and result.error.code == "KD203" and result.package.state == "candidate"
            assert result.events[0].kind == "rejected" and result.events[0].inadmissible
        shadowed = core.decide(package, "shadow", "lead", dissent=dissent).package
        assert shadowed.state == "shadowed"
        assert core.decide(shadowed, "activate", "lead", dissent=dissent).error.code == "KD203"
        assert core.decide(package, "reject", "lead", dissent=dissent).package.state == "rejected"


def test_control_reviews_that_agree_or_are_history_do_not_dissent():
    jo = _by("jo", "ev-jo")
    package = core.promote(jo, verdict())
    # the same family, spelled otherwise
    agreeing = _by("mira", "ev-mira", expected_family="DB connection pool exhaustion")
    silent_but_resolved = _by("kai", "ev-kai", expected_family=None)
    history = _by("ana", "ev-ana", expected_family="dns_resolution", superseded=True)
    assert core.dissenting_reviews(package, [jo, agreeing, silent_but_resolved, history], verdict()) == []
    assert core.decide(package, "approve", "lead", dissent=[]).package.state == "activated"


async def test_activation_proceeds_once_the_dissenting_reviewer_revises(tmp_path):
    store = SqliteKnowledgeStore(tmp_path / "k.sqlite3")
    workflow = KnowledgeWorkflow(store, SnapshotCache(tmp_path / "snapshot.json"))
    try:
        await workflow.on_verdict(verdict())
        await workflow.on_review(_by("mira", "ev-mira", expected_family="dns_resolution"))
        [candidate] = await workflow.on_review(_by("jo", "ev-jo"))
        try:
            await workflow.decide(candidate.package_id, "approve", "lead")
            raise AssertionError("approved while mira disagrees")
        except DecisionError as refused:
            assert refused.issue.code == "KD203" and refused.status == 422
        revised = _by("mira", "ev-mira").model_copy(update={"revision": 2})
        await workflow.on_review(revised)
        package, _ = await workflow.decide(candidate.package_id, "approve", "lead")
        assert package.state == "activated"
    finally:
        await store.close()


# -- the harness_claim fallback re-checks what it rests on, whatever the verdict's flags say ------------------
# Each case is a verdict a bypassed harness passed (verdict pass, root-cause claim "supported"),
# from an output written to get there; promotion must refuse it by re-checking the tied evidence.
def _fallback(*edits) -> list[str]:
    package = core.promote(evaluation(), verdict(no_ledger, *edits))
    assert package.evidence_source == "harness_claim"
    return _codes(package)


def _item(eid: str, **fields):
    def edit(data: dict) -> None:
        next(e for e in data["evidence"] if e["id"] == eid).update(fields)
    return edit


def _artifact(eid: str, **fields):
    def edit(data: dict) -> None:
        next(a for a in data["parsed"]["artifacts"] if a["id"] == eid).update(fields)
    return edit


def test_control_the_fallback_promotes_the_unchanged_verdict():
    assert _fallback() == []


@pytest.mark.parametrize(
    "edits",
    [
        # a postmortem of an earlier incident, served as live evidence of this one
        [_item("E03", source="confluence", collector="confluence", kind="postmortem", source_group="log search",
               text="inc-1877 postmortem: maxPoolSize lowered to 5 exhausted the pool"),
         _artifact("E03", source="confluence", kind="postmortem")],
        [_item("E03", kind="PostMortemNote")],  # one word in camel case
        [_item("E03", kind="observation", collector="wiki-search")],  # the collector is a document store
        [_artifact("E03", kind="similar_incident")],  # the run's artifact says what it is
        [_artifact("E03", live=False)],  # the agent itself said it is not live
        [_item("E03", source_group="knowledge graph")],  # filed as history, labelled live
        [_item("E03", live=False)],
    ],
)
def test_redteam_history_served_as_live_evidence_is_refused(edits):
    assert "KN409" in _fallback(*edits)


def test_control_a_log_line_that_mentions_a_runbook_is_live():
    assert _fallback(_item("E02", text="pool exhausted; see the runbook for the pool size")) == []


def _refuting_root_claim(*ids: str):
    def edit(data: dict) -> None:
        data["parsed"]["diagnosis"]["claims"] = [
            {"id": "C1", "kind": "root_cause", "text": "pool exhausted", "evidence_ids": ["E01", "E02", "E03"],
             "refuting_evidence_ids": list(ids)}]
    return edit


@pytest.mark.parametrize(
    ("edits", "code"),
    [
        ([lambda d: d.update(confidence_breakdown={"refuted_by": ["E02"]})], "KN408"),
        ([_refuting_root_claim("E02")], "KN408"),  # the agent itself says E02 contradicts its cause
        ([lambda d: d["claims"][1].update(refutes=["E01"])], "KN408"),  # another claim refutes a tied item
        ([lambda d: root_claim(d).update(untraced=["E02 says the opposite of the claim ('pool has 45 idle')"])],
         "KN407"),
        ([_item("E02", resolved=False)], "KN407"),  # recorded as not resolving in the run
        ([lambda d: d["parsed"].update(artifacts=[a for a in d["parsed"]["artifacts"] if a["id"] != "E02"])],
         "KN407"),  # the item names an artifact the run does not hold
    ],
)
def test_redteam_tied_items_that_contradict_or_do_not_resolve_are_refused(edits, code):
    assert code in _fallback(*edits)


@pytest.mark.parametrize(
    "edits",
    [
        [_item("E02", observed_at="2027-03-01T10:04:00Z")],  # dated after the run was judged
        [_artifact("E02", observed_at="2026-11-29T11:30:00Z")],  # the run's artifact: 25 min after the judgement
        [lambda d: d["parsed"].update(incident_started_at="2026-11-29T10:02:00Z"),
         _artifact("E01", observed_at="2026-08-01T10:00:00Z")],  # months before the incident
    ],
)
def test_redteam_evidence_outside_the_incident_window_is_refused(edits):
    assert "KN410" in _fallback(*edits)


def test_control_a_change_minutes_before_the_incident_is_in_the_window():
    started = lambda d: d["parsed"].update(incident_started_at="2026-11-29T10:02:00Z")  # noqa: E731
    assert _fallback(started, _artifact("E03", observed_at="2026-11-29T09:58:00Z"),
                     _item("E01", observed_at="2026-11-29T10:03:00Z")) == []


def _two_items(first: dict, second: dict):
    def edit(data: dict) -> None:
        data["evidence"][0].update(first)
        data["evidence"][1].update(second)
        root_claim(data)["supports"] = ["E01", "E02"]
    return edit


LINE = "HikariPool-1 - Connection is not available, request timed out after 30000ms"


@pytest.mark.parametrize(
    "edit",
    [
        _two_items({"source": "loki", "collector": "loki", "text": LINE},
                   {"source": "splunk", "collector": "splunk", "text": LINE}),
        _two_items({"text": LINE.upper()}, {"text": f"  {LINE}\u200b "}),  # case, spacing, an invisible character
        _two_items({"source_file": "step3_correlation.json", "json_path": "timeline[1]", "text": "a"},
                   {"source_file": "step3_correlation.json", "json_path": "timeline[1]", "text": "b"}),
    ],
)
def test_redteam_one_observation_under_two_collector_names_is_one_group(edit):
    assert "KN411" in _fallback(edit)


def test_control_one_observation_twice_is_fine_below_high_confidence():
    medium = lambda d: d.update(confidence_breakdown={"final_confidence": "medium"})  # noqa: E731
    assert _fallback(_two_items({"text": LINE}, {"text": LINE}), medium) == []


def _one_tied_group(corroborating):
    def edit(data: dict) -> None:
        root_claim(data).update(supports=["E02"], corroborating=corroborating)
    return edit


def test_corroborating_evidence_the_verdict_records_counts_and_is_rechecked():
    assert _fallback(_one_tied_group(["E01"])) == []  # loki + prometheus: two groups, the second corroborating
    assert "KN411" in _fallback(_one_tied_group([]))  # recorded: nothing corroborates, one group at high confidence
    assert "KN411" in _fallback(_one_tied_group(["E04"]))  # E04 is loki too: still one group
    assert "KN409" in _fallback(_one_tied_group(["E01"]), _item("E01", kind="postmortem"))  # history never corroborates
    assert "KN410" in _fallback(_one_tied_group(["E01"]), _item("E01", observed_at="2027-01-01T00:00:00Z"))


def test_control_without_recorded_corroboration_one_tied_group_is_left_to_the_harness():
    """A verdict from a harness that does not record corroborating evidence: the tied items'
    one group cannot be re-checked further, and an honest corroborated cause is not refused."""
    assert _fallback(_one_tied_group(None)) == []


@pytest.mark.parametrize("kind", ["rollout_history", "memory_usage", "ticket_queue_depth", "document_store_latency"])
def test_control_a_live_kind_that_uses_a_history_word_is_live(kind):
    assert _fallback(_item("E03", kind=kind), _artifact("E03", kind=kind)) == []


def test_an_artifact_the_agent_gave_no_id_is_found_by_its_collector_and_text():
    def unnamed(data: dict) -> None:
        item = next(e for e in data["evidence"] if e["id"] == "E02")
        item["agent_id"] = None
        artifact = next(a for a in data["parsed"]["artifacts"] if a["id"] == "E02")
        artifact.update(id=None, text=item["text"])

    assert _fallback(unnamed) == []
    assert "KN407" in _fallback(unnamed, _item("E02", text="a line the run never collected"))
