"""The rule lists are the spec: every code appears in the docs, so they cannot drift."""

from __future__ import annotations

from pathlib import Path

from rcaloop.gate.cases import CASE_RULES
from rcaloop.gate.checks import CASE_CHECKS
from rcaloop.gate.mutations import MUTATIONS
from rcaloop.gate.novel_e2e import E2E_RULES
from rcaloop.gate.release_gate import FINDINGS, MERGEABLE_METRICS, THRESHOLDS
from rcaloop.gate.rollout import PROMOTION_RULES

DOCS = Path(__file__).resolve().parents[3] / "docs"


def test_evaluation_doc_names_every_rule():
    text = (DOCS / "evaluation.md").read_text()
    codes = ([c.code for c in CASE_CHECKS] + [m.code for m in MUTATIONS] + [r.code for r in E2E_RULES]
             + [r.code for r in CASE_RULES])
    names = [c.name for c in CASE_CHECKS] + [m.name for m in MUTATIONS] + [r.name for r in E2E_RULES]
    assert [c for c in codes if c not in text] == []
    assert [n for n in names if f"`{n}`" not in text] == []


def test_gate_doc_names_every_threshold_and_promotion_rule():
    text = (DOCS / "gate.md").read_text()
    for t in THRESHOLDS:
        assert f"| {t.code} | `{t.metric}` |" in text
    for r in PROMOTION_RULES:
        assert f"| {r.code} | `{r.name}` |" in text
    assert [code for code in FINDINGS if f"| {code} |" not in text] == []
    merge_row = next(line for line in text.splitlines() if line.startswith("| GATE210 |"))
    assert MERGEABLE_METRICS and all(f"`{m}`" in merge_row for m in MERGEABLE_METRICS)


def test_every_gate_finding_code_in_the_source_is_listed():
    import re

    source = "\n".join(p.read_text()
                       for p in (
                           Path(__file__).resolve().parents[3] / "services" / "gate" / "rcaloop" / "gate").glob("*.py"))
    used = set(re.findall(r'"(GATE\d{3})"', source))
    assert used - set(FINDINGS) - {t.code for t in THRESHOLDS} == set()


def test_gate_doc_holds_the_metrics_schema_as_published():
    import json

    from rcaloop.gate.metrics_file import metrics_schema

    text = (DOCS / "gate.md").read_text()
    block = text.split("### The metrics file's JSON Schema", 1)[1].split("```json\n", 1)[1].split("\n```", 1)[0]
    assert json.loads(block) == metrics_schema()
