"""Public benchmarks' own metrics, importers and OpenRCA's answer format (expectations computed by hand)."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import UTC, datetime, timedelta, timezone

import pytest

from rcaloop.contracts.common import CATEGORIES
from rcaloop.contracts.parsed import RankedCandidate
from rcaloop.gate.benchmark_import import RCAEvalCaseDir, import_openrca, import_rcaeval, rcaeval_slug, scoring_points
from rcaloop.gate.benchmarks import (FAULT_MAPPINGS, BenchmarkCase, BenchmarkRootCause, accuracy_at, average_at,
                                     benchmark_metrics, family_for, openrca_metrics, openrca_prediction,
                                     openrca_predictions_csv, openrca_score, rank_of, ranked_components,
                                     rcaeval_metrics, score_benchmark)
from rcaloop.shared.catalog import bundled_catalog

UTC8 = timezone(timedelta(hours=8))


def cand(component: str | None = None, reason: str | None = None, at: datetime | None = None,
         family: str = "resource") -> RankedCandidate:
    return RankedCandidate(family=family, component=component, reason=reason, occurred_at=at)


# -- RCAEval -------------------------------------------------------------------------------------

def test_a_service_ranks_where_it_first_appears():
    ranked = [cand("checkout"), cand("checkout"), cand(None), cand(" cart "), cand("email")]
    assert ranked_components(ranked) == ["checkout", "cart", "email"]
    assert rank_of("cart", ranked_components(ranked)) == 2
    assert rank_of("payment", ranked_components(ranked)) is None


def test_ac_at_k_and_avg_at_5_by_hand():
    ranks = [1, 3, None, 2]  # four cases: hit at 1, at 3, never, at 2
    assert accuracy_at(ranks, 1) == 0.25
    assert accuracy_at(ranks, 2) == 0.5
    assert accuracy_at(ranks, 3) == 0.75
    assert accuracy_at(ranks, 5) == 0.75
    assert average_at(ranks, 5) == pytest.approx((0.25 + 0.5 + 0.75 + 0.75 + 0.75) / 5)  # 0.6
    assert rcaeval_metrics(ranks) == {"cases": 4, "AC@1": 0.25, "AC@3": 0.75, "AC@5": 0.75, "Avg@5": 0.6}
    assert rcaeval_metrics([]) == {"cases": 0, "AC@1": None, "AC@3": None, "AC@5": None, "Avg@5": None}


def test_a_root_cause_ranked_sixth_misses_ac_at_5():
    assert rcaeval_metrics([6])["AC@5"] == 0.0


def test_rcaeval_case_scored_from_ranked_candidates_and_a_missing_answer_is_a_miss():
    case = BenchmarkCase(name="rcaeval", dataset="RE2-OB", source="RE2-OB/cart_delay/1",
                         root_causes=[BenchmarkRootCause(component="cart", fault="delay")])
    assert score_benchmark(case, [cand("frontend"), cand("cart")]).rank == 2
    assert score_benchmark(case, []).rank is None
    report = benchmark_metrics([score_benchmark(case, [cand("cart")]), score_benchmark(case, [])])
    assert report["rcaeval"]["AC@1"] == 0.5
    assert report["rcaeval"]["by_dataset"] == {"RE2-OB": {"cases": 2, "AC@1": 0.5, "AC@3": 0.5, "AC@5": 0.5,
                                                          "Avg@5": 0.5}}


# -- OpenRCA -------------------------------------------------------------------------------------

T1 = datetime(2021, 3, 6, 14, 50, tzinfo=UTC8)
T2 = datetime(2021, 3, 6, 14, 57, tzinfo=UTC8)
TWO = [BenchmarkRootCause(component="Tomcat01", fault="high CPU usage", occurred_at=T1),
       BenchmarkRootCause(component="MG02", fault="network latency", occurred_at=T2)]


def query(asks, causes=TWO) -> BenchmarkCase:
    return BenchmarkCase(name="openrca", dataset="Bank", source="row", root_causes=causes, asks=asks,
                         utc_offset_minutes=480)


def test_openrca_pairs_answers_with_failures_the_best_way():
    answer = [cand("MG02", "network latency", T2 + timedelta(seconds=30)),
              cand("Tomcat01", "high CPU usage", T1 + timedelta(seconds=120))]
    score = openrca_score(query(["time", "component", "reason"]), answer)
    assert score.points == 6 and score.passed == {"time": 1, "component": 2, "reason": 2}
    assert score.score == round(5 / 6, 4)


def test_openrca_time_tolerance_is_sixty_seconds_and_zones_count():
    one = [BenchmarkRootCause(occurred_at=T1)]
    assert openrca_score(query(["time"], one), [cand(at=T1 + timedelta(seconds=60))]).score == 1.0
    assert openrca_score(query(["time"], one), [cand(at=T1 + timedelta(seconds=61))]).score == 0.0
    assert openrca_score(query(["time"], one), [cand(at=datetime(2021, 3, 6, 6, 50, tzinfo=UTC))]).score == 1.0


def test_openrca_answer_of_another_length_scores_nothing_and_extra_candidates_are_not_the_answer():
    assert openrca_score(query(["component"]), [cand("Tomcat01")]).score == 0.0
    three = [cand("Tomcat01"), cand("MG02"), cand("IG01")]
    assert openrca_score(query(["component"]), three).score == 1.0  # the first two answer two failures


def test_openrca_component_and_reason_are_compared_as_written():
    one = [BenchmarkRootCause(component="Redis02", fault="high memory usage")]
    assert openrca_score(query(["component", "reason"], one), [cand("redis02", "high memory usage")]).score == 0.5


def test_openrca_metrics_by_hand():
    one = [BenchmarkRootCause(component="Mysql02", fault="high memory usage", occurred_at=T1)]
    scores = [
        openrca_score(query(["component"], one), [cand("Mysql02")]),  # 1/1
        openrca_score(query(["component", "reason"], one), [cand("Mysql02", "high CPU usage")]),  # 1/2
        openrca_score(query(["time"]), [cand(at=T1)]),  # 0: one answer to two failures
    ]
    m = openrca_metrics(scores)
    assert m == {"cases": 3, "component_accuracy": 1.0, "reason_accuracy": 0.0, "time_accuracy": 0.0,
                 "partial_score": 0.5, "strict_accuracy": round(1 / 3, 4)}


# -- OpenRCA's answer format ---------------------------------------------------------------------

# The format as OpenRCA's README and main/evaluate.py describe it, written here from that description:
# a JSON-like object per failure, keys in the order datetime, component, reason, "key": "value" pairs,
# times as %Y-%m-%d %H:%M:%S on the benchmark's clock.
ANSWER = re.compile(r'{\s*"root cause occurrence datetime":\s*"([^"]*)",\s*"root cause component":\s*"([^"]*)",'
                    r'\s*"root cause reason":\s*"([^"]*)"\s*}')


def test_prediction_in_openrca_answer_format():
    answer = [cand("MG02", 'network "latency"', datetime(2021, 3, 6, 6, 57, tzinfo=UTC)), cand("Tomcat01", None)]
    text = openrca_prediction(query(["time", "component", "reason"]), answer)
    assert list(json.loads(text)) == ["1", "2"]
    assert ANSWER.findall(text) == [("2021-03-06 14:57:00", "MG02", "network 'latency'"), ("", "Tomcat01", "")]


def test_prediction_file_has_a_prediction_column_in_query_order():
    first = query(["component"]).model_copy(update={"row_id": 1, "task_index": "task_3", "instruction": "b"})
    zeroth = query(["component"]).model_copy(update={"row_id": 0, "task_index": "task_3", "instruction": "a, b"})
    rows = list(csv.DictReader(io.StringIO(openrca_predictions_csv([(first, [cand("X")]), (zeroth, [])]))))
    assert [r["row_id"] for r in rows] == ["0", "1"]
    assert rows[0]["instruction"] == "a, b" and json.loads(rows[0]["prediction"]) == {}
    assert ANSWER.findall(rows[1]["prediction"]) == [("", "X", "")]


# -- mapping -------------------------------------------------------------------------------------

def test_every_mapped_family_is_a_catalog_family_or_a_category():
    families = {f.name for f in bundled_catalog().families} | set(CATEGORIES)
    assert [m for m in FAULT_MAPPINGS if m.family not in families] == []


def test_family_for_maps_listed_faults_then_words_then_unknown():
    assert family_for("rcaeval", "cpu") == "resource"
    assert family_for("rcaeval", "f3") == "application_bug"
    assert family_for("openrca", "High  Disk Space Usage") == "disk_full"
    assert family_for("openrca", "container packet loss") == "network"
    assert family_for("openrca", "something else") == "unknown"


# -- importers -----------------------------------------------------------------------------------

def test_rcaeval_case_directory_becomes_a_known_case_that_hides_its_label():
    d = RCAEvalCaseDir(relpath="RE2-TT/ts-auth-service_delay/3", inject_time="1705354566\n",
                       metric_header="time,ts-auth-service_cpu,ts-order-service_latency", files=("metrics.csv",))
    cases, issues = import_rcaeval([d], "/data/telemetry")
    assert issues == []
    (case,) = cases
    assert case.case_id == f"rcaeval/RE2-TT/{rcaeval_slug(d.relpath)}" and case.expected_family == "network"
    assert case.benchmark and case.benchmark.root_causes[0].component == "ts-auth-service"
    assert case.benchmark.root_causes[0].occurred_at == datetime(2024, 1, 15, 21, 36, 6, tzinfo=UTC)
    assert "services: ts-auth-service, ts-order-service" in (case.input or "")
    assert "delay" not in (case.input or "") and "delay" not in case.case_id


@pytest.mark.parametrize(("case_dir", "code"), [
    (RCAEvalCaseDir(relpath="RE2-OB/1", inject_time="1"), "BENCH101"),
    (RCAEvalCaseDir(relpath="RE2-OB/cart_cpu/1", inject_time="soon"), "BENCH102"),
])
def test_rcaeval_bad_case_directories(case_dir, code):
    cases, issues = import_rcaeval([case_dir], "/t")
    assert cases == [] and [i.code for i in issues] == [code]
    assert import_rcaeval([], "/t")[1][0].code == "BENCH100"


QUERY = '''task_index,instruction,scoring_points
task_7,"two failures","The 1-th root cause occurrence time is within 1 minutes (i.e., <=1min) of 2021-03-06 14:50:00
The 1-th predicted root cause component is Tomcat01
The 1-th predicted root cause reason is high CPU usage
The 2-th root cause occurrence time is within 1 minutes (i.e., <=1min) of 2021-03-06 14:57:00
The 2-th predicted root cause component is MG02
The 2-th predicted root cause reason is network latency
"
task_3,"one failure","The only predicted root cause component is Mysql02
"
'''


def test_openrca_queries_become_cases_with_their_failures():
    record = "level,component,timestamp,datetime,reason\npod,Tomcat01,0,x,high CPU usage\npod,Mysql02,0,x,db close\n"
    cases, issues = import_openrca(QUERY, "Bank", "/data/Bank/telemetry/", record)
    assert issues == []
    assert [c.case_id for c in cases] == ["openrca/Bank/0", "openrca/Bank/1"]
    first, second = (c.benchmark for c in cases)
    assert first and first.root_causes == TWO and first.asks == ["time", "component", "reason"]
    assert second and second.asks == ["component"] and second.root_causes[0].fault is None
    assert [c.expected_family for c in cases] == ["resource", "dependency"]  # the second from record.csv


def test_scoring_points_as_openrca_writes_them():
    causes, asks = scoring_points("The only predicted root cause reason is high memory usage\n")
    assert causes == [BenchmarkRootCause(fault="high memory usage")] and asks == ["reason"]


@pytest.mark.parametrize(("text", "code"), [
    ("task_index,instruction\nt,q\n", "BENCH201"),
    ('task_index,instruction,scoring_points\nt,q,"nothing here"\n', "BENCH202"),
    ('task_index,instruction,scoring_points\nt,q,"The only root cause occurrence time is within 1 minutes '
     '(i.e., <=1min) of yesterday"\n', "BENCH203"),
    ("task_index,instruction,scoring_points\n", "BENCH200"),
])
def test_openrca_bad_query_files(text, code):
    cases, issues = import_openrca(text, "Bank", None)
    assert cases == [] and [i.code for i in issues] == [code]
