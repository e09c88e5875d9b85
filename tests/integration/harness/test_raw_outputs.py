"""Raw agent outputs through the parser core and then the harness, as ``rcaloop harness`` runs them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rcaloop.cli.compose import cli_deps
from rcaloop.judge import core
from rcaloop.shared.sources import load_result

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
REGISTRY = EXAMPLES / "registry.json"


@pytest.mark.parametrize(
    ("path", "verdict", "failed_gates"),
    [
        ("jobs/1234567", "pass", []),
        ("skill_outputs/checkout-5xx.txt", "pass", []),
        ("skill_outputs/disk-pressure-no-fields.txt", "insufficient_evidence", ["G2"]),
        ("skill_outputs/resolved-notification.txt", "pass", []),
    ],
)
def test_example_outputs(path, verdict, failed_gates):
    parsed = cli_deps().parse(load_result(EXAMPLES / path), REGISTRY)
    result = core.evaluate(parsed)
    assert result.verdict == verdict, [g.detail for g in result.hard_gates if not g.passed]
    assert [g.gate for g in result.hard_gates if not g.passed] == failed_gates


def test_step_files_evidence_ids_and_groups(tmp_path):
    parsed = cli_deps().parse(load_result(EXAMPLES / "jobs" / "1234567"), None)
    result = core.evaluate(parsed)
    groups = {e.id: e.source_group for e in result.evidence}
    root = next(c for c in result.claims if c.kind == "root_cause")
    # only the item the agent marked is_root_cause grounds the cause: the vault audit line in Splunk;
    # the role's own file fetched from the code host names the same login and corroborates it
    assert root.status == "supported" and [groups[i] for i in root.supports] == ["log search"]
    assert [groups[i] for i in root.corroborating] == ["code host"]
    b = result.confidence_breakdown
    assert (b.stated_confidence, b.final_confidence) == ("high", "high") and not b.adjustments

    # without the code host's fetch, one source group cannot carry high confidence: lowered to medium
    job = tmp_path / "1234567"
    shutil.copytree(EXAMPLES / "jobs" / "1234567", job)
    (job / "step4_github_fetch_history.json").unlink()
    summary = json.loads((job / "step5_summary.json").read_text())
    summary["evidence"] = [e for e in summary["evidence"] if e["source"] != "step4"]
    (job / "step5_summary.json").write_text(json.dumps(summary))
    b = core.evaluate(cli_deps().parse(load_result(job), None)).confidence_breakdown
    assert (b.stated_confidence, b.final_confidence) == ("high", "medium") and "source groups" in b.adjustments[0]
