"""The difficulty rubric."""

from __future__ import annotations

import pytest

from rcaloop.annotation import rubric


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
