"""Every validation rule: the seed's example (made traceable) passes; one failing annotation per rule."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from rcaloop.annotation import files as annotation_files
from rcaloop.annotation.validation import RULES, Unreadable, validate

ROOT = Path(__file__).resolve().parents[3]
JOB_DIR = ROOT / "examples" / "jobs" / "1234567"
VALID = json.loads((ROOT / "tests" / "fixtures" / "annotation" / "valid_1234567.json").read_text())
FILES = annotation_files.job_files(JOB_DIR)


def _set(path: str, value) -> Callable[[dict], None]:
    """A mutation setting a dotted path (``evidence.0.exact_value``) of the annotation."""

    def mutate(doc: dict) -> None:
        *head, last = path.split(".")
        target = doc
        for part in head:
            target = target[int(part)] if part.isdigit() else target[part]
        if value is _DELETE:
            del target[int(last) if last.isdigit() else last]
        else:
            target[int(last) if last.isdigit() else last] = value

    return mutate


_DELETE = object()

FAILING: dict[str, tuple[Callable[[dict], None], str]] = {
    "ANN001": (_set("evidence.1.is_root_cause", {"yes": 1}), "evidence[1].is_root_cause"),
    "ANN002": (_set("job_id", "7654321"), "job_id"),
    "ANN003": (_set("annotated_at", _DELETE), "annotated_at"),
    "ANN101": (_set("root_cause.category", "auth"), "root_cause.category"),
    "ANN102": (_set("root_cause.confidence", "certain"), "root_cause.confidence"),
    "ANN103": (_set("root_cause.summary", "  "), "root_cause.summary"),
    "ANN104": (_set("category_correct", None), "category_correct"),
    # the agent said credential; "not correct" with the category left unchanged
    "ANN105": (_set("category_correct", False), "root_cause.category"),
    "ANN106": (_set("summary_accurate", _DELETE), "summary_accurate"),
    # marked accurate, yet the summary is another one
    "ANN107": (_set("root_cause.summary", "The vault token expired."), "summary_accurate"),
    "ANN110": (_set("evidence.0.is_root_cause", False), "evidence"),
    "ANN111": (_set("evidence.2.is_root_cause", True), "evidence[2].is_root_cause"),
    "ANN120": (_set("evidence.1.source_file", _DELETE), "evidence[1].source_file"),
    "ANN121": (_set("evidence.1.json_path", ""), "evidence[1].json_path"),
    "ANN122": (_set("evidence.1.exact_value", _DELETE), "evidence[1].exact_value"),
    "ANN123": (_set("evidence.1.source_file", ".analysis/1234567/../../etc/passwd"), "evidence[1].source_file"),
    "ANN124": (_set("evidence.1.source_file", ".analysis/1234567/step2_missing.json"), "evidence[1].source_file"),
    "ANN125": (_set("evidence.1.json_path", "failed_tasks[zero].duration"), "evidence[1].json_path"),
    "ANN126": (_set("evidence.1.json_path", "failed_tasks[3].duration"), "evidence[1].json_path"),
    "ANN127": (_set("evidence.1.exact_value", 917.5), "evidence[1].exact_value"),
    "ANN128": (_set("evidence.2.exact_quote", "retries: 13"), "evidence[2].exact_quote"),
    "ANN129": (_set("evidence.2.line_number", 5), "evidence[2].line_number"),
    "ANN130": (
        _set("evidence.2.github_path", "org/deploy-playbooks:roles/vault_login/tasks/main.yml:7"),
        "evidence[2].github_path",
    ),
    "ANN131": (_set("evidence.1.source", "step3"), "evidence[1].source"),
    "ANN132": (_set("evidence.1.confidence", "very"), "evidence[1].confidence"),
    # the agent's own summary cited as evidence: the value resolves there, and must still be refused
    "ANN133": (
        lambda doc: doc["evidence"][1].update(
            source=None,
            source_file=".analysis/1234567/step5_summary.json",
            json_path="root_cause.category",
            exact_value="credential",
        ),
        "evidence[1].source_file",
    ),
    "ANN134": (
        _set("evidence.3.github_path", "org/deploy-playbooks:inventories/prod/group_vars/all/vault.yml"),
        "evidence[3].github_path",
    ),
    "ANN140": (_set("difficulty_score", 11), "difficulty_score"),
    "ANN141": (_set("difficulty", "hard"), "difficulty"),
    "ANN142": (_set("difficulty_justification", None), "difficulty_justification"),
    "ANN143": (
        _set("difficulty_justification", "Cross-source correlation (+3), generic error (+2). Total: 7."),
        "difficulty_justification",
    ),
    "ANN144": (_set("difficulty_appropriate", _DELETE), "difficulty_appropriate"),
    "ANN150": (_set("alternative_diagnoses.0.plausibility", _DELETE), "alternative_diagnoses[0].plausibility"),
    "ANN151": (_set("alternative_diagnoses.0.category", "dns"), "alternative_diagnoses[0].category"),
    "ANN152": (_set("alternative_diagnoses.0.why_wrong", _DELETE), "alternative_diagnoses[0].why_wrong"),
    "ANN160": (_set("recommendations.1.priority", "urgent"), "recommendations[1].priority"),
}


def test_seed_example_made_traceable_passes():
    assert validate(VALID, FILES, "1234567") == []


def test_every_rule_has_a_failing_example():
    assert sorted(FAILING) == sorted(rule.code for rule in RULES)
    assert len({rule.code for rule in RULES}) == len(RULES)


@pytest.mark.parametrize("code", sorted(FAILING))
def test_each_rule_rejects_its_failing_annotation(code):
    mutate, path = FAILING[code]
    doc = copy.deepcopy(VALID)
    mutate(doc)
    issues = validate(doc, FILES, "1234567")
    hits = [i for i in issues if i.code == code]
    assert hits, f"{code} not reported; got {[(i.code, i.message) for i in issues]}"
    assert hits[0].path == path
    assert hits[0].message


def test_all_errors_are_listed_at_once():
    doc = copy.deepcopy(VALID)
    doc["root_cause"]["category"] = "auth"
    doc["difficulty_score"] = 12
    doc["evidence"][1]["exact_value"] = 1
    codes = {i.code for i in validate(doc, FILES, "1234567")}
    assert {"ANN101", "ANN140", "ANN127"} <= codes


@pytest.mark.parametrize(
    "source_file",
    [
        "/etc/passwd",
        "../1234567/step1_job_context.json",
        ".analysis/7654321/step1_job_context.json",
        "step1\\x.json",
        "~/x.json",
    ],
)
def test_source_file_may_not_leave_the_job_directory(source_file):
    doc = copy.deepcopy(VALID)
    doc["evidence"][1]["source_file"] = source_file
    assert [i.code for i in validate(doc, FILES, "1234567") if i.path == "evidence[1].source_file"] == ["ANN123"]


def test_source_file_relative_to_job_dir_is_accepted():
    doc = copy.deepcopy(VALID)
    doc["evidence"][1]["source_file"] = "step1_job_context.json"
    assert validate(doc, FILES, "1234567") == []


def test_unreadable_step_file_is_reported_not_raised():
    files = dict(FILES, **{"step1_job_context.json": Unreadable("not valid JSON")})
    issues = validate(VALID, files, "1234567")
    assert [(i.code, i.path) for i in issues] == [("ANN124", "evidence[1].source_file")]


def test_value_equality_is_json_typed():
    doc = copy.deepcopy(VALID)
    doc["evidence"][3]["exact_value"] = "404"  # the file holds the number 404
    assert [i.code for i in validate(doc, FILES, "1234567")] == ["ANN127"]


def test_line_number_without_quote_is_refused():
    doc = copy.deepcopy(VALID)
    doc["evidence"][1]["line_number"] = 1
    assert [i.code for i in validate(doc, FILES, "1234567")] == ["ANN129"]


def test_not_an_object():
    assert [i.code for i in validate(["x"], FILES)] == ["ANN000"]


def test_step5_evidence_of_the_example_is_traceable():
    """The agent's own evidence in step5_summary.json passes the traceability rules too."""
    step5 = FILES["step5_summary.json"]
    doc = copy.deepcopy(VALID)
    doc["evidence"] = step5["evidence"]
    assert validate(doc, FILES, "1234567") == []


def test_category_corrected_when_marked_wrong_passes():
    """The control for ANN105: "not correct" with a different category is the valid answer."""
    doc = copy.deepcopy(VALID)
    doc["category_correct"] = False
    doc["root_cause"]["category"] = "configuration"
    assert validate(doc, FILES, "1234567") == []


def test_category_marked_right_but_changed_is_refused():
    doc = copy.deepcopy(VALID)
    doc["root_cause"]["category"] = "configuration"
    assert [(i.code, i.path) for i in validate(doc, FILES, "1234567")] == [("ANN105", "category_correct")]


@pytest.mark.parametrize(
    ("justification", "codes"),
    [
        ("Cross-source (+3), generic error (+2). Total: 5.", []),
        ("About 5/10: cross-source and a generic error.", []),
        ("Cross-source correlation and a generic error, no total stated.", []),
        ("Cross-source (+3), generic error (+2) = 6/10.", ["ANN143"]),
        ("TOTAL 4", ["ANN143"]),
    ],
)
def test_stated_total_must_equal_the_score(justification, codes):
    doc = copy.deepcopy(VALID)
    doc["difficulty_justification"] = justification
    assert [i.code for i in validate(doc, FILES, "1234567")] == codes


def test_difficulty_score_written_as_a_float_is_refused():
    doc = copy.deepcopy(VALID)
    doc["difficulty_score"] = 5.0
    assert [i.code for i in validate(doc, FILES, "1234567")] == ["ANN140"]


def test_annotation_json_writes_the_score_as_an_integer():
    from rcaloop.contracts import Annotation

    doc = copy.deepcopy(VALID)
    doc["difficulty_score"] = 5.0  # an agent's float, coerced by the model
    written = json.loads(annotation_files.annotation_json(Annotation.model_validate(doc)))
    assert written["difficulty_score"] == 5 and isinstance(written["difficulty_score"], int)
    assert validate(written, FILES, "1234567") == []


def test_github_path_of_another_fetch_than_the_json_path_is_refused():
    doc = copy.deepcopy(VALID)
    doc["evidence"][3]["github_path"] = "org/deploy-playbooks:roles/vault_login/tasks/main.yml"
    assert [i.code for i in validate(doc, FILES, "1234567")] == ["ANN134"]


def test_github_path_without_step4_is_refused():
    files = {k: v for k, v in FILES.items() if k != "step4_github_fetch_history.json"}
    doc = copy.deepcopy(VALID)
    doc["evidence"] = doc["evidence"][:2]
    doc["evidence"][1]["github_path"] = "org/deploy-playbooks:roles/vault_login/tasks/main.yml:6"
    assert [i.code for i in validate(doc, files, "1234567")] == ["ANN134"]


@pytest.mark.parametrize("name", ["annotation.json", "notes.json", "step2_logs.json"])
def test_only_collected_step_files_are_evidence(name):
    files = dict(FILES, **{name: {"x": 1}})
    doc = copy.deepcopy(VALID)
    doc["evidence"][1].update(source=None, source_file=name, json_path="x", exact_value=1)
    assert [i.code for i in validate(doc, files, "1234567")] == ["ANN133"]
