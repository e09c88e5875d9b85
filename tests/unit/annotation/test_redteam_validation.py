"""Red team, second round: annotation.json files written to pass validation.

Each test changes the valid seed annotation (``tests/fixtures/annotation/valid_1234567.json``)
the way a hurried or gaming annotator would, against the real job directory
``examples/jobs/1234567``, and asserts the finding validation should report. They fail until
the validator refuses.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from rcaloop.annotation import files as annotation_files
from rcaloop.annotation.validation import validate

ROOT = Path(__file__).resolve().parents[3]
JOB_DIR = ROOT / "examples" / "jobs" / "1234567"
VALID = json.loads((ROOT / "tests" / "fixtures" / "annotation" / "valid_1234567.json").read_text())
FILES = annotation_files.job_files(JOB_DIR)


def findings(edit) -> list[str]:
    doc = copy.deepcopy(VALID)
    edit(doc)
    return [i.code for i in validate(doc, FILES, "1234567")]


def test_the_seed_annotation_is_valid():
    assert findings(lambda d: None) == []


@pytest.mark.parametrize("quote", ["e", "d", ":"])
def test_redteam_a_one_character_quote_does_not_trace_the_root_cause(quote):
    """Bypass: ``exact_quote`` only has to be contained in the value. The root-cause item
    ``timeline[1].event`` with the quote "e" (or any one character of it) is "traceable" —
    and traces nothing a reviewer could check. The harness already refuses quotes without three
    letters or digits for report evidence lines; the validator accepts them on the one item
    that grounds the root cause."""

    def one_char(doc: dict) -> None:
        item = doc["evidence"][0]
        del item["exact_value"]
        item["exact_quote"] = quote

    assert "ANN128" in findings(one_char), f"the quote {quote!r} points at nothing in particular"


def test_redteam_a_root_cause_item_pointing_at_the_whole_file_traces_nothing():
    """Bypass: ``json_path: "$"`` with the whole step file as ``exact_value`` resolves and
    equals: the root-cause evidence is "the file", which proves no particular fact."""
    step3 = json.loads((JOB_DIR / "step3_correlation.json").read_text())
    codes = findings(lambda d: d["evidence"][0].update(json_path="$", exact_value=step3))
    assert {"ANN121", "ANN125", "ANN126"} & set(codes), "a root-cause item must name one value of the file"


@pytest.mark.parametrize(
    "justification",
    [
        # the criteria say 3 + 2 = 5; "Total score" is not read as a stated total
        "Requires cross-source correlation (AAP + Splunk + GitHub) (+3), Error message is generic or misleading (+2). "
        "Total score: 9.",
        # no total at all: the criteria points still sum to 5
        "Requires cross-source correlation (AAP + Splunk + GitHub) (+3), Error message is generic or misleading (+2).",
    ],
)
def test_redteam_the_difficulty_score_is_the_sum_of_the_criteria_it_cites(justification):
    """Bypass: ANN143 checks only a total written as "Total: N" or "N/10". The justification
    cites two rubric criteria worth 3 + 2 = 5, the score says 9 (and the label "hard" matches 9):
    valid, though the rubric gives 5. A justification that cites criteria must add up to the
    score, whatever words introduce the total."""
    codes = findings(lambda d: d.update(difficulty_score=9, difficulty="hard", difficulty_justification=justification))
    assert "ANN143" in codes


def test_redteam_an_empty_job_id_is_not_the_jobs_id():
    """Bypass: ANN002 compares job_id with the job's id only when it is a non-empty string;
    ``"job_id": ""`` binds the annotation to no job and passes."""
    assert "ANN002" in findings(lambda d: d.update(job_id=""))


def test_redteam_a_summary_marked_accurate_keeps_the_agents_summary():
    """Bypass: ``summary_accurate: true`` says the agent's summary is right, yet the annotation's
    ``root_cause.summary`` may say something else entirely (here: DNS on the bastion). ANN105
    holds the category to the answer; nothing holds the summary, so the export and knowledge
    promotion read two contradicting verdicts from one review."""
    codes = findings(lambda d: d["root_cause"].update(summary="DNS resolution of vault.example failed on the bastion."))
    assert codes, "summary_accurate is true but the summary was replaced"


# -- variants and controls -------------------------------------------------------------------------
def _quote(path: str, quote: str, index: int = 0):
    def edit(doc: dict) -> None:
        item = doc["evidence"][index]
        item.pop("exact_value", None)
        item.update(json_path=path, exact_quote=quote)
    return edit


@pytest.mark.parametrize("quote", ["ab", "e:", "  d  ", "--"])
def test_a_quote_under_three_letters_or_digits_ties_nothing_on_any_item(quote):
    codes = findings(_quote("failed_tasks[0].error", quote, index=1))
    assert codes == ["ANN128"], quote


@pytest.mark.parametrize(("path", "quote"), [("failed_tasks[0].retries", "12"), ("failed_tasks[0].error", "403")])
def test_control_a_short_quote_that_is_the_whole_value_or_has_three_digits_traces(path, quote):
    assert findings(_quote(path, quote, index=1)) == []


@pytest.mark.parametrize("path", ["$", "$.", " $ "])
def test_a_path_of_no_step_names_no_value(path):
    step1 = json.loads((JOB_DIR / "step1_job_context.json").read_text())
    codes = findings(lambda d: d["evidence"][1].update(json_path=path, exact_value=step1))
    assert codes == ["ANN121"], path


def test_control_a_dollar_prefixed_path_to_one_value_traces():
    assert findings(lambda d: d["evidence"][0].update(json_path="$.timeline[1].event")) == []


@pytest.mark.parametrize(
    ("score", "justification", "codes"),
    [
        # stated total, other words
        (9, "Cross-source correlation (+3), generic error (+2). Total points = 9.", ["ANN143"]),
        (9, "Cross-source correlation (+9).", ["ANN143"]),  # a point value the rubric never gives
        (6, "Cross-source correlation (+3), generic error (+2), variable precedence (+1). Total: 6.", []),  # control
        (10, "(+3) (+2) (+2) (+1) (+1) (+1) (+1): all seven criteria, capped.", []),  # control: 11 capped at 10
        (5, "Cross-source correlation and a generic error: 5.", []),  # control: no criteria cited, no total stated
    ],
)
def test_the_justification_adds_up_to_the_score(score, justification, codes):
    def edit(d: dict) -> None:
        d.update(difficulty_score=score, difficulty_justification=justification)
        d["difficulty"] = "easy" if score <= 3 else "medium" if score <= 6 else "hard"
    assert findings(edit) == codes


@pytest.mark.parametrize("job_id", ["   ", "__absent__"])
def test_a_blank_or_missing_job_id_is_not_the_jobs_id(job_id):
    def edit(d: dict) -> None:
        if job_id == "__absent__":
            del d["job_id"]
        else:
            d["job_id"] = job_id
    assert "ANN002" in findings(edit)


def test_control_a_summary_respaced_is_still_the_agents_and_a_false_answer_may_rewrite_or_keep_it():
    assert findings(
        lambda d: d["root_cause"].update(summary="  " + d["root_cause"]["summary"].replace(" ", "\n", 1))) == []
    rewritten = findings(
        lambda d: (d.update(summary_accurate=False), d["root_cause"].update(summary="DNS failed on the bastion.")))
    assert rewritten == []
    assert findings(lambda d: d.update(summary_accurate=False)) == []  # kept: no better summary known
    assert findings(lambda d: d["root_cause"].update(summary="DNS failed on the bastion.")) == ["ANN107"]
