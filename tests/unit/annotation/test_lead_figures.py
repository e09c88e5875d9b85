"""The lead's figures (pure) and their SVG: days filled, counts per series, backlog, calibration,
per-reviewer agreement, the side-by-side comparison, and charts readable without colour."""

from __future__ import annotations

import re

from rcaloop.annotation import charts, lead_figures


def test_days_are_filled_between_the_first_and_the_last():
    assert lead_figures.day_range(["2026-03-03", "2026-03-01"]) == ["2026-03-01", "2026-03-02", "2026-03-03"]
    assert lead_figures.day_range([]) == []
    assert len(lead_figures.day_range(["2026-01-01", "2026-12-31"], limit=10)) == 10


def test_the_verdict_mix_counts_each_verdict_per_day():
    mix = lead_figures.verdict_mix([{"day": "2026-03-01", "verdict": "pass"},
                                    {"day": "2026-03-01", "verdict": "degraded"},
                                    {"day": "2026-03-03", "verdict": "insufficient_evidence"}])
    assert [d["day"] for d in mix["days"]] == ["2026-03-01", "2026-03-02", "2026-03-03"]
    assert mix["days"][0] == {"day": "2026-03-01", "pass": 1, "degraded": 1, "insufficient_evidence": 0, "total": 2}
    assert mix["days"][1]["total"] == 0
    assert mix["totals"] == {"pass": 1, "degraded": 1, "insufficient_evidence": 1, "total": 3}


def test_a_rule_counts_once_per_verdict_and_the_top_ones_are_kept():
    rows = [{"day": "2026-03-01", "failed_rules": ["G1", "G1", "EG1"]}, {"day": "2026-03-02", "failed_rules": ["G1"]},
            {"day": "2026-03-02", "failed_rules": []}]
    rules = lead_figures.failing_rules(rows, top=1)
    assert rules["rules"] == [{"rule": "G1", "verdicts": 2}]
    assert [d["counts"] for d in rules["days"]] == [{"G1": 1}, {"G1": 1}]
    assert [d["verdicts"] for d in rules["days"]] == [1, 2]


def test_the_backlog_is_what_was_created_and_not_yet_decided():
    tasks = [{"task_id": "a", "created_day": "2026-03-01", "decided_day": "2026-03-02"},
             {"task_id": "b", "created_day": "2026-03-01", "decided_day": None},
             {"task_id": "c", "created_day": "2026-03-02", "decided_day": "2026-03-02"}]
    figures = lead_figures.throughput(tasks, [{"day": "2026-03-02"}, {"day": "2026-03-02"}])
    assert [(d["created"], d["reviews"], d["decided"], d["backlog"]) for d in figures["days"]] == [
        (2, 0, 0, 2), (1, 2, 2, 1)]
    assert figures["backlog"] == 1


def test_calibration_counts_right_reviews_per_stated_confidence():
    items = [{"group": "step_files", "confidence": "high", "correct": True},
             {"group": "step_files", "confidence": "high", "correct": False},
             {"group": "step_files", "confidence": "low", "correct": None},  # the review does not say
             {"group": "capture", "confidence": "certain", "correct": True}]  # not a stated level
    [group] = lead_figures.calibration(items)["groups"]
    high = group["levels"][2]
    assert (group["group"], high["items"], high["correct"], high["observed"]) == ("step_files", 2, 1, 0.5)
    assert group["levels"][0]["observed"] is None


def test_a_review_is_right_by_category_correct_or_by_the_family():
    assert lead_figures.review_correct("annotation", {"category_correct": False}, None) is False
    assert lead_figures.review_correct("operator_evaluation", {"expected_family": "DNS-Resolution"}, "dns resolution")
    assert lead_figures.review_correct("operator_evaluation", {"expected_family": None}, "dns") is None


def test_per_reviewer_agreement_compares_each_judgement_with_each_co_reviewer():
    def row(task, who, correct, category):
        return {"task_id": task, "annotator": who, "kind": "annotation", "batch": "2026-03-01",
                "review": {"category_correct": correct, "root_cause": {"category": category}, "summary_accurate": True}}

    figures = lead_figures.reviewer_agreement([row("t1", "alice", True, "dns"), row("t1", "bob", False, "network"),
                                               row("t2", "alice", True, "dns"), row("t2", "carol", True, "DNS")])
    by = {r["annotator"]: r for r in figures["reviewers"]}
    assert (by["alice"]["compared"], by["alice"]["agreeing"]) == (6, 4)
    assert by["bob"]["agreement"] == round(1 / 3, 4) and by["carol"]["agreement"] == 1.0
    assert figures["batches"][0]["reviewers"] == figures["reviewers"]


def test_side_by_side_marks_differences_and_the_judgements_first():
    reviews = [{"annotation_id": "a", "annotator": "alice",
                "review": {"job_id": "1", "category_correct": True, "root_cause": {"category": "DNS"}}},
               {"annotation_id": "b", "annotator": "bob",
                "review": {"job_id": "1", "category_correct": True, "root_cause": {"category": "dns "}}}]
    rows = {r["field"]: r for r in lead_figures.side_by_side("annotation", reviews)}
    assert list(rows)[:3] == ["category_correct", "root_cause.category", "summary_accurate"]
    assert rows["root_cause.category"]["differs"] is False  # judged as the decision judges: case and spacing aside
    assert rows["root_cause.category"]["values"] == ["DNS", "dns "] and rows["job_id"]["differs"] is False
    reviews[1]["review"]["job_id"] = "2"
    assert {r["field"]: r for r in lead_figures.side_by_side("annotation", reviews)}["job_id"]["differs"]


def test_charts_name_every_series_with_its_own_pattern_and_escape_text():
    svg = str(charts.stacked_bars("c", "t <x>", ["2026-03-01"], [("pass", [3]), ("<b>", [1])]))
    assert "<b>" not in svg.replace("<title", "").split("</desc>")[1] and "&lt;b&gt;" in svg
    assert set(re.findall(r'fill="url\(#(c-p\d)\)"', svg)) == {"c-p0", "c-p1"}
    assert ">3</text>" in svg and 'role="img"' in svg
    lines = str(charts.lines("l", "t", ["d1", "d2"], [("a", [1, 2]), ("b", [None, 0])]))
    assert 'stroke-dasharray="6 3"' in lines  # the second series is dashed, not only another colour
    assert "style=" not in svg + lines  # the page's policy allows no inline style


def test_the_y_axis_has_four_round_ticks():
    assert charts._nice_max(12) == 12 and charts._nice_max(2) == 4 and charts._nice_max(13) == 20
    assert charts._nice_max(0) == 4
