"""docs/annotation.md lists every validation rule and export column exactly as the code has them."""

from __future__ import annotations

from pathlib import Path

from rcaloop.annotation import export, rubric
from rcaloop.annotation.validation import RULES

DOC = (Path(__file__).resolve().parents[3] / "docs" / "annotation.md").read_text()


def test_every_rule_is_documented():
    for rule in RULES:
        assert f"| `{rule.code}` | {rule.name} | {rule.summary} |" in DOC


def test_every_export_column_and_rubric_criterion_is_documented():
    for column in export.COLUMNS:
        assert f"`{column}`" in DOC
    for c in rubric.CRITERIA:
        assert f"| `{c.key}` | {c.text} | {c.points} |" in DOC
