"""Red team, second round: metrics files and rollouts written to pass the release gate.

Each test is a release owner's shortcut that the gate says yes to; it states the bypass and
fails until the gate refuses it.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from rcaloop.gate.measure import StoredFacts, metrics_object
from rcaloop.gate.release_gate import THRESHOLDS, check_release_gate, exit_code
from rcaloop.gate.rollout import STAGES, Promotion, decide_promotion, state_of
from tests.unit.gate.test_release_gate import PASSING, PROVENANCE

WINDOW = "2026-11-01/2026-11-14"
MEASURED = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def test_redteam_merge_cannot_supply_the_metrics_rcaloop_measures():
    """Bypass: ``gate measure --merge FILE`` fills *every* metric the window could not compute.
    A window with no reviews, no verdicts and no knowledge events leaves every metric but one
    missing, and a hand-written merge file then supplies known_top1, false_novel_rate,
    abstention_rate … — the gate passes on numbers nobody measured. The merge exists for what
    rcaloop cannot record (the agent's tool executions); a metric rcaloop measures from its own
    store must stay missing (and fail closed) when the store has no data for it."""
    empty = StoredFacts(verdicts=[], verdicts_by_hash={}, reviews=[], events=[])
    doc = metrics_object(empty, WINDOW, job_revision="measure@1", artifact="/tmp/m.json", measured_at=MEASURED,
                         merged=dict(PASSING), merged_from="hand-made.json sha256:0")
    assert doc["provenance"]["population"]["harness_verdicts"] == 0
    result = check_release_gate(json.dumps(doc).encode(), now=NOW)
    assert not result.passed, f"every metric came from the merge file: {doc['provenance']['merged']['metrics']}"


def test_redteam_a_measurement_of_nothing_does_not_pass():
    """Bypass: provenance is "complete" when ``population`` is a non-empty object — of zeros.
    A metrics object measured over no harness verdict, no evaluation and no annotation (every
    count 0) passes the gate: a rate over an empty population is no measurement."""
    empty = {"harness_verdicts": 0, "operator_evaluations": 0, "annotations": 0, "knowledge_events": 0,
             "activations": 0}
    raw = json.dumps({**PASSING, "provenance": {**PROVENANCE, "population": empty}}).encode()
    result = check_release_gate(raw, now=NOW)
    assert not result.passed and "GATE211" in _codes_of(result), "a population of zero incidents measures nothing"


def _artifact(measured_at: datetime, window: str = WINDOW) -> bytes:
    return json.dumps({**PASSING, "provenance": {**PROVENANCE, "incident_window": window,
                                                 "measured_at": measured_at.isoformat()}}).encode()


def test_redteam_one_window_remeasured_cannot_walk_every_stage():
    """Bypass: "each promotion needs a fresh passing artifact", but freshness is only a later
    ``measured_at`` and new bytes. Re-measuring the same staging window (2026-11-01/14) four
    times — no new incident, the agent never run in shadow or assist — promotes staging →
    shadow → assist → authoritative, and ROLL107 compares "the shadow output" with staging when
    both are the same incidents. A stage's artifact must measure incidents after the previous
    promotion (its window starts at or after that decision), or the stage never ran."""
    decisions = []
    for i, stage in enumerate(STAGES):
        gate = check_release_gate(_artifact(MEASURED + timedelta(hours=i)), now=NOW)
        decision = decide_promotion(Promotion(stage, gate, state_of(decisions, None)))
        decisions.append(decision)
    passed = [d.stage for d in decisions if d.passed]
    assert passed == ["staging"], f"promoted on one staging window re-measured: {passed}"


def _codes(raw: dict, **kwargs) -> list[str]:
    return _codes_of(check_release_gate(json.dumps(raw, ensure_ascii=False).encode(), now=NOW, **kwargs))


def _codes_of(result) -> list[str]:
    return [e.code for e in result.errors]


def test_merge_fills_only_what_rcaloop_keeps_no_record_of():
    """Variant of the merge bypass: a merge file offering measured metrics gets only the tool executions."""
    empty = StoredFacts(verdicts=[], verdicts_by_hash={}, reviews=[], events=[])
    doc = metrics_object(empty, WINDOW, job_revision="measure@1", artifact="/tmp/m.json", measured_at=MEASURED,
                         merged={"destructive_tool_executions": 0, "known_top1": 1.0, "abstention_rate": 1.0},
                         merged_from="x.json sha256:0")
    assert doc["provenance"]["merged"]["metrics"] == ["destructive_tool_executions"]
    assert doc["known_top1"] is None and doc["abstention_rate"] is None
    assert "not taken from --merge" in doc["missing"]["known_top1"]


@pytest.mark.parametrize(
    "merged",
    [
        {"from": "hand-made.json", "metrics": ["known_top1"]},
        {"from": "hand-made.json", "metrics": ["destructive_tool_executions", "abstention_rate"]},
        {"from": "hand-made.json", "metrics": "known_top1"},  # unreadable: what was merged is unknown
        "known_top1",
    ],
)
def test_gate_check_refuses_an_artifact_that_merged_a_measured_metric(merged):
    raw = {**PASSING, "provenance": {**PROVENANCE, "merged": merged}}
    assert _codes(raw) == ["GATE210"]


def test_control_a_merged_tool_execution_count_passes():
    raw = {**PASSING,
           "provenance": {**PROVENANCE,
                          "merged": {"from": "audit.json sha256:1", "metrics": ["destructive_tool_executions"]}}}
    assert _codes(raw) == []



# -- the population is structured: an incident count, at least the minimum, rates consistent with it --------------
EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "eval"


EXACT = {"known_top1": 1, "false_novel_rate": 0, "evidence_link_precision": 1, "abstention_rate": 1,
         "novel_mechanism_recall_at_3": 1}
"""Rates that are a share of any population (all or none of it)."""


def _population(population, rates: dict | None = None) -> dict:
    return {**PASSING, **(rates if rates is not None else EXACT),
            "provenance": {**PROVENANCE, "population": population}}


@pytest.mark.parametrize(
    ("population", "codes"),
    [
        ("prod us-east-1", ["GATE202"]),  # a digit in a text is no size
        ("no incidents measured in window #3", ["GATE202"]),
        ("prod alerts, 412 incidents", ["GATE202"]),  # text is not a structured population
        ({"incidents": 0, "x": 1}, ["GATE211"]),  # another count is not the incident count
        ({"harness_verdicts": 0, "operator_evaluations": 38}, ["GATE211"]),  # an earlier measure's count of nothing
        ({"alerts": 412}, ["GATE209"]),  # counts something, but no incidents
        ({"incidents": "412"}, ["GATE209"]),
        ({"incidents": True}, ["GATE209"]),
        ({"incidents": 412.0}, ["GATE209"]),  # a count has no fraction
        ({"incidents": -3, "annotations": 3}, ["GATE209"]),
        ({"incidents": 412, "denominators": {"known_top1": 0}}, ["GATE209"]),
        ({"incidents": 412, "denominators": {"groundless_high_confidence": 40}}, ["GATE209"]),  # not a rate
    ],
)
def test_a_population_that_is_not_a_structured_count_fails(population, codes):
    assert _codes(_population(population)) == codes


@pytest.mark.parametrize(
    ("population", "rates", "codes"),
    [
        ({"incidents": 1}, {"known_top1": 0.96}, ["GATE211", "GATE212"]),  # 0.96 over 1 incident: not a measurement
        ({"incidents": 412, "denominators": {"known_top1": 1}}, {"known_top1": 0.96}, ["GATE212"]),
        ({"incidents": 412, "denominators": {"known_top1": 7}}, {"known_top1": 0.9583}, ["GATE212"]),  # 23/24, not of 7
        ({"incidents": 412, "denominators": {"abstention_rate": 3}}, {"abstention_rate": 0.9}, ["GATE212"]),
        ({"incidents": 20}, {"known_top1": 0.9731}, ["GATE211", "GATE212"]),  # no k/n, n <= 20, is 0.9731
        ({"incidents": 12}, {}, ["GATE211"]),  # under the minimum of 30
    ],
)
def test_a_rate_must_be_a_share_of_its_population(population, rates, codes):
    assert _codes(_population(population, {**EXACT, **rates})) == codes


@pytest.mark.parametrize(
    ("population", "rates"),
    [
        ({"incidents": 412}, {}),
        ({"incidents": 412, "denominators": {"known_top1": 24}}, {"known_top1": 0.9583}),  # 23/24 to four places
        ({"incidents": 412, "denominators": {"known_top1": 24}}, {"known_top1": 0.96}),  # 23/24 to two places
        ({"incidents": 60, "denominators": {"evidence_link_precision": 600}}, {"evidence_link_precision": 0.9617}),
        ({"harness_verdicts": 412, "operator_evaluations": 38, "annotations": 40, "knowledge_events": 9,
          "activations": 3},
         {}),  # a population written by an earlier `rcaloop gate measure` stays valid
    ],
)
def test_control_a_structured_population_with_consistent_rates_passes(population, rates):
    assert _codes(_population(population, {**PASSING, **rates})) == []


def test_the_minimum_population_is_configurable():
    small = _population({"incidents": 12})
    assert _codes(small) == ["GATE211"]
    assert _codes(small, min_population=10) == []
    assert _codes(_population({"incidents": 9}), min_population=10) == ["GATE211"]
    # 0.95, 0.02 and 0.95 are no share of 12 or fewer
    assert _codes(_population({"incidents": 12}, PASSING), min_population=10) == ["GATE212"] * 3


def test_a_measured_object_states_its_population_and_passes_with_enough_incidents():
    from tests.unit.gate.test_measure import facts as stored  # noqa: PLC0415

    doc = metrics_object(stored([]), WINDOW, job_revision="measure@1", artifact="/tmp/m.json", measured_at=MEASURED)
    population = doc["provenance"]["population"]
    assert population["incidents"] == 0 and "denominators" in population
    assert "GATE211" in _codes(doc)


# -- synthetic origin is judged from the whole document, not one flag ------------------------------------------
def _bundled(name: str = "pass") -> dict:
    return json.loads((EXAMPLES / f"release_gate.synthetic.{name}.json").read_text())


def _unflagged(**provenance) -> dict:
    return {**PASSING, "provenance": {**PROVENANCE, **provenance}}


def test_redteam_the_bundled_synthetic_file_without_its_flag_is_refused():
    """Bypass: delete the ``"synthetic": true`` line of the bundled pass file, and the gate takes
    it as a real measurement, though its own provenance says synthetic in every field."""
    doc = _bundled()
    del doc["synthetic"]
    result = check_release_gate(json.dumps(doc).encode(), now=NOW)
    assert not result.usable and exit_code(result) == 2 and _codes_of(result) == ["GATE007"]
    allowed = check_release_gate(json.dumps(doc).encode(), now=NOW, allow_synthetic=True)
    assert allowed.passed and allowed.synthetic


@pytest.mark.parametrize(
    "provenance",
    [
        {"job_revision": "synthetic-example"},
        {"artifact": "s3://gate/release_gate.synthetic.pass.json"},
        {"job_revision": "SYNTHETIC run 4"},
        {"job_revision": "ｓｙｎｔｈｅｔｉｃ-run"},  # fullwidth: NFKC reads it as synthetic
        {"job_revision": "syn\u200bthe\u2060tic-run"},  # split by invisible characters
        {"artifact": "s3://gate/fake-metrics.json"},
        {"job_revision": "SimulatedRun-7"},
        {"job_revision": "SyNtHeTiC-run"},  # mixed case is no camel case
        {"population": {"incidents": 412, "synthetic_incidents": 412}},
        {"source": "dummy figures for the dashboard"},  # any provenance text counts
        {"notes": {"made_by": "mocked measurement job"}},
    ],
)
def test_redteam_a_provenance_that_says_synthetic_is_synthetic_whatever_the_flag(provenance):
    for flag in ({}, {"synthetic": False}):
        result = check_release_gate(json.dumps({**_unflagged(**provenance), **flag}, ensure_ascii=False).encode(),
                                    now=NOW)
        assert not result.usable and _codes_of(result) == ["GATE007"], (provenance, flag)


@pytest.mark.parametrize(
    "provenance",
    [
        {"job_revision": "measure@4f2c9e1"},
        {"artifact": "s3://gate/synthetics-probe-window.json"},  # synthetics: a kind of probe, not made-up data
        {"job_revision": "synthesis-pipeline@9"},
    ],
)
def test_control_real_provenance_is_not_synthetic(provenance):
    result = check_release_gate(json.dumps(_unflagged(**provenance)).encode(), now=NOW)
    assert result.passed and not result.synthetic


def test_the_bundled_synthetic_files_pass_only_with_allow_synthetic():
    for name, passes in (("pass", True), ("fail", False)):
        raw = (EXAMPLES / f"release_gate.synthetic.{name}.json").read_bytes()
        refused = check_release_gate(raw)
        assert not refused.usable and _codes_of(refused) == ["GATE003"]
        allowed = check_release_gate(raw, allow_synthetic=True)
        assert allowed.usable and allowed.synthetic and allowed.passed is passes
        if not passes:
            assert {e.code for e in allowed.errors} == {t.code for t in THRESHOLDS}


# -- text is read after NFKC normalisation with invisible characters removed -----------------------------------
INVISIBLE = ["\u2060", "\u200b", "\u00ad", "\ufeff", "\u200e", "\u2060\u200b\u00ad\ufeff", " \u200b ", "\u180e"]


@pytest.mark.parametrize("field", ["job_revision", "artifact", "incident_window"])
@pytest.mark.parametrize("value", INVISIBLE)
def test_redteam_a_provenance_text_of_invisible_characters_is_blank(field, value):
    assert _codes(_unflagged(**{field: value})) == ["GATE202"]


def test_control_invisible_characters_inside_real_text_are_dropped_not_refused():
    spaced = _unflagged(job_revision="measure@4f2c\u200b9e1", artifact="s3://gate/\u2060m.json")
    result = check_release_gate(json.dumps(spaced).encode(), now=NOW)
    plain = check_release_gate(json.dumps(_unflagged()).encode(), now=NOW)
    assert result.passed and result.artifact_hash == plain.artifact_hash


# -- keys: read once, spelled once --------------------------------------------------------------------------------
def _object_text(pairs: list[tuple[str, object]]) -> str:
    return "{" + ", ".join(f"{json.dumps(k, ensure_ascii=False)}: {v if isinstance(v, Raw) else json.dumps(v)}"
                           for k, v in pairs) + "}"


class Raw(str):
    """Already JSON text."""


def _doc_text(*extra: tuple[str, object], provenance: list[tuple[str, object]] | None = None) -> bytes:
    prov = provenance if provenance is not None else list(PROVENANCE.items())
    pairs = [*PASSING.items(), *extra, ("provenance", Raw(_object_text(prov)))]
    return _object_text(pairs).encode()


@pytest.mark.parametrize(
    "raw",
    [
        _doc_text(("synthetic", True), ("synthetic", False)),  # last-wins readers see real data
        _doc_text(("known_top1", 0.2), ("known_top1", 0.97)),  # a bad value, then a good one
        _doc_text(("destructive_tool_executions", 3), ("destructive_tool_executions", 0)),
        _doc_text(provenance=[*PROVENANCE.items(), ("job_revision", "measure@other")]),
        _doc_text(provenance=[*[(k, v) for k, v in PROVENANCE.items() if k != "population"],
                              ("population", Raw('{"incidents": 0, "incidents": 412}'))]),
    ],
)
def test_redteam_a_duplicate_key_makes_the_file_unusable(raw):
    result = check_release_gate(raw, now=NOW)
    assert not result.usable and exit_code(result) == 2 and set(_codes_of(result)) == {"GATE005"}


@pytest.mark.parametrize(
    "raw",
    [
        _doc_text(("SYNTHETIC", True)),  # alone: ignored by the old reader
        _doc_text(("synthetic", False), ("Synthetic", True)),
        _doc_text(("synthetic\u200b", True)),
        _doc_text(("ｓｙｎｔｈｅｔｉｃ", True)),
        _doc_text(("Known_Top1", 0.2)),
        _doc_text(provenance=[*PROVENANCE.items(), ("Job_Revision", "synthetic")]),
        _doc_text(provenance=[*PROVENANCE.items(), ("job_revision\u2060", "measure@other")]),
    ],
)
def test_redteam_a_key_spelled_like_another_makes_the_file_unusable(raw):
    result = check_release_gate(raw, now=NOW)
    assert not result.usable and exit_code(result) == 2 and set(_codes_of(result)) == {"GATE006"}


@pytest.mark.parametrize("extra", [("notes", "measured by hand"), ("known_top_1", 0.99), ("SYNTHETIC_FLAG", True)])
def test_a_top_level_key_the_schema_does_not_know_fails(extra):
    assert _codes_of(check_release_gate(_doc_text(extra), now=NOW)) == ["GATE008"]


def test_a_comment_key_is_allowed_and_never_read():
    assert _codes_of(
        check_release_gate(_doc_text(("_comment", "synthetic words in a comment are no data")), now=NOW)) == []
