"""What the review pages show: agent text inert, JSON trees whose clicks cite real paths,
broken agent evidence marked, red flags in both shapes, result files kept within bounds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rcaloop.annotation import ui_view
from rcaloop.annotation.artifacts import artifacts_of, loaded
from rcaloop.annotation.validation import Unreadable
from rcaloop.contracts import IngestedRecord
from rcaloop.shared import jsonpath

JOB_DIR = Path(__file__).resolve().parents[3] / "examples" / "jobs" / "1234567"
FILES = {p.name: json.loads(p.read_text()) for p in JOB_DIR.glob("*.json")}
LINKS = {"msg:m-1": "https://chat.example/m/1", "rca:9": "javascript:alert(1)"}


@pytest.mark.parametrize(
    "markdown",
    [
        "<script>alert(1)</script>",
        '<img src=x onerror="alert(1)">',
        "[click](javascript:alert(1))",
        "[click](JaVaScRiPt:alert(1))",
        "[data](data:text/html;base64,PHNjcmlwdD4=)",
        "<javascript:alert(1)>",
        "![img](https://evil.example/x.png)",
        "[unknown](https://evil.example/phish)",
        '<a href="https://evil.example">raw</a>',
    ],
)
def test_markdown_from_the_agent_renders_inert(markdown):
    html = ui_view.render_markdown(markdown, ui_view.resolved_links_from(LINKS))
    assert "<script" not in html and "<img" not in html and "<a " not in html
    assert "onerror=" not in html.replace("onerror=&quot;", "")


def test_a_link_the_parser_resolved_is_kept_with_its_resolved_address():
    html = ui_view.render_markdown("see [the thread](msg:m-1) and [an rca](rca:9)", ui_view.resolved_links_from(LINKS))
    assert '<a href="https://chat.example/m/1" rel="noopener noreferrer nofollow"' in html
    assert "an rca" in html and "javascript" not in html  # a non-web address is never an anchor


def test_every_value_in_the_tree_cites_a_path_that_resolves_to_it():
    tree = ui_view.json_tree({"a b": [1, {"c": "x\ny"}], "ok": None, "t": True})
    leaves = []

    def walk(node):
        if node.kind == "scalar":
            leaves.append(node)
        for child in node.children:
            walk(child)

    walk(tree)
    doc = {"a b": [1, {"c": "x\ny"}], "ok": None, "t": True}
    assert [n.path for n in leaves] == ['["a b"][0]', '["a b"][1].c', "ok", "t"]
    for n in leaves:
        assert jsonpath.check(doc, n.path, json.loads(n.value_json)).ok or json.loads(n.value_json) is None
    assert [n.multiline for n in leaves] == [False, True, False, False]


def test_the_tree_of_a_huge_file_is_cut_not_unbounded():
    tree = ui_view.json_tree(list(range(10_000)))
    assert len(tree.children) <= ui_view.MAX_TREE_NODES + 1 and tree.children[-1].label == "…"


def test_agent_evidence_is_marked_broken_with_the_reason():
    items = [
        {"source_file": ".analysis/1234567/step1_job_context.json", "json_path": "failed_tasks[0].duration",
         "exact_value": 917.565567},
        {"source_file": ".analysis/1234567/step1_job_context.json", "json_path": "failed_tasks[4].duration",
         "exact_value": 1},
        {"source_file": ".analysis/1234567/step5_summary.json", "json_path": "job_id", "exact_value": "1234567"},
        {"source_file": "/etc/passwd", "json_path": "x", "exact_value": 1},
        {"message": "no trace at all"},
    ]
    checks = ui_view.evidence_checks(items, FILES, "1234567")
    assert checks[0] is None
    assert "does not resolve" in checks[1]
    assert "not a collected step file" in checks[2]
    assert "absolute path" in checks[3]
    assert checks[4] == "no source_file/json_path to trace"


def test_red_flags_show_objects_and_plain_text():
    assert ui_view.red_flag({"type": "api-key", "where": "logs", "line": 12, "code": "SEC101"}) == {
        "type": "api-key", "where": "logs", "line": 12, "source": None, "code": "SEC101"
    }
    assert ui_view.red_flag("logs:api-key")["type"] == "logs:api-key"


def _record(kind, content, job_id=None):
    return IngestedRecord(result_id="r-1", kind=kind, content=content, job_id=job_id, analysis_hash="h" * 64)


def test_result_files_become_named_content_addressed_artifacts():
    stepped = artifacts_of(
        _record("step_files", {"step1_job_context": {"a": 1}, "../../etc/passwd": {}, "step5_summary.json": {}}))
    assert [a.name for a in stepped] == ["step1_job_context.json", "step5_summary.json"]
    assert all(len(a.sha256) == 64 and loaded(a.media, a.body, a.note) is not None for a in stepped)
    [text] = artifacts_of(_record("skill_text", "RCA report\n"))
    assert (text.name, loaded(text.media, text.body, text.note)) == ("output.txt", "RCA report\n")
    [capture] = artifacts_of(_record("capture", {"rca": {}}))
    assert capture.name == "capture.json" and loaded(capture.media, capture.body, None) == {"rca": {}}


def test_result_files_past_the_bounds_are_listed_not_kept():
    content = {"step1_job_context.json": {"x": "a" * 3000}, "step3_correlation.json": {"y": "b" * 1500},
               "step4_github_fetch_history.json": {"z": "c" * 200}}
    found = {a.name: a for a in artifacts_of(_record("step_files", content), max_file_bytes=2000, max_total_bytes=1600)}
    assert found["step1_job_context.json"].sha256 is None and "larger than 2000" in found["step1_job_context.json"].note
    assert found["step3_correlation.json"].sha256 is not None
    assert found["step4_github_fetch_history.json"].sha256 is None
    assert "pass 1600 bytes" in found["step4_github_fetch_history.json"].note
    assert isinstance(loaded("json", None, found["step1_job_context.json"].note), Unreadable)
