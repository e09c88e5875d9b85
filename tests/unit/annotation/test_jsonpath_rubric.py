"""The json_path dialect and the difficulty rubric."""

from __future__ import annotations

import pytest

from rcaloop.annotation import jsonpath, rubric, tracing


def test_resolves_seed_paths():
    doc = {"failed_tasks": [{"duration": 917.565567}], "a b": {"c": [1, 2]}}
    assert jsonpath.resolve(doc, "failed_tasks[0].duration").value == 917.565567
    assert jsonpath.resolve(doc, "$.failed_tasks[0].duration").value == 917.565567
    assert jsonpath.resolve(doc, '["a b"].c[1]').value == 2
    missing = jsonpath.resolve(doc, "failed_tasks[0].host")
    assert not missing.found and missing.failed_at == "failed_tasks[0]"


@pytest.mark.parametrize("bad", ["", "a..b", "a[x]", "a.", "[0", "a b"])
def test_malformed_paths_raise_syntax_error(bad):
    with pytest.raises(jsonpath.PathSyntaxError):
        jsonpath.parse(bad)


def test_quote_lines_are_one_based():
    text = "- name: x\n  retries: 12\n  delay: 75\n"
    assert tracing.quote_lines(text, "retries: 12") == [2]
    assert tracing.quote_lines(text, "- name") == [1]


@pytest.mark.parametrize(
    ("criteria", "score", "label"),
    [
        ([], 0, "easy"),
        (["cross_source_correlation"], 3, "easy"),
        (["cross_source_correlation", "generic_error"], 5, "medium"),
        (["cross_source_correlation", "code_behavior", "domain_knowledge"], 6, "medium"),
        (["cross_source_correlation", "code_behavior", "generic_error"], 7, "hard"),
        ([c.key for c in rubric.CRITERIA], 10, "hard"),  # 11 points, capped
    ],
)
def test_rubric_scores_and_maps(criteria, score, label):
    result = rubric.score(criteria)
    assert (result.score, result.difficulty) == (score, label)
    assert result.justification.endswith(f"Total: {score}.") or "capped at 10" in result.justification


def test_rubric_rejects_unknown_criterion():
    with pytest.raises(KeyError):
        rubric.score(["vibes"])
