"""Every finding code in ``rcaloop.parser.codes.CODES`` has a failing and a passing input."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from rcaloop.contracts import ParsedRCA
from rcaloop.parser.codes import CODES, ERROR_CODES
from tests.unit.parser.helpers import BASE, ROOT, capture, codes_of, parse, step_files

CONTEXT_OK = ("RCA context (from the RCA service):\n- Analyze only these subjects: checkout-api\n---\n"
              "HighErrorRate checkout-api\n")
CHAT_START = BASE.index("RCA_CHAT")
CHAT_END = BASE.index("END_RCA_CHAT") + len("END_RCA_CHAT\n")


def text(t: str) -> Callable[[], ParsedRCA]:
    return lambda: parse(t)


def sub(old: str, new: str) -> Callable[[], ParsedRCA]:
    assert old in BASE, old
    return text(BASE.replace(old, new, 1))


def steps(change: Callable[[dict], object], job_id: str | None = "1234567") -> Callable[[], ParsedRCA]:
    def make() -> ParsedRCA:
        content = step_files()
        change(content)
        return parse(content, kind="step_files", job_id=job_id)

    return make


def cap(change: Callable[[dict], object]) -> Callable[[], ParsedRCA]:
    def make() -> ParsedRCA:
        content = capture()
        change(content)
        return parse(content, kind="capture")

    return make


OK = text(BASE)
STEPS_OK = steps(lambda c: None)
CAPTURE_OK = cap(lambda c: None)

CASES: dict[str, tuple[Callable[[], ParsedRCA], Callable[[], ParsedRCA]]] = {
    "RCA100": (text("  \n\n"), OK),
    "RCA101": (text(BASE[: BASE.index("RCA_FIELDS")]), OK),
    "RCA102": (
        text("RCA_OUTCOME: maybe - who knows\n"),
        text("RCA_OUTCOME: not_applicable - resolved/OK notification\n"),
    ),
    "RCA103": (lambda: parse({"text": BASE}), OK),
    "RCA201": (
        text("RCA_OUTCOME: not_applicable - resolved\nbut here is a report\n"),
        text("RCA_OUTCOME: not_applicable - resolved\n"),
    ),
    "RCA202": (sub("## Summary", "RCA_OUTCOME: not_applicable - late\n## Summary"), OK),
    "RCA203": (sub("## Summary", "```\nRCA_FIELDS\n```\n## Summary"), OK),
    "RCA204": (sub("- roll back cfg-2291 after approval\n", "- roll back cfg-2291 after approval\n~~~\n"), OK),
    "RCA210": (sub("# checkout 503s\n", ""), OK),
    "RCA211": (sub("## Summary", "## Notes"), OK),
    "RCA220": (text(BASE[:CHAT_START] + BASE[CHAT_END:]), OK),
    "RCA221": (sub("END_RCA_CHAT\n", ""), OK),
    "RCA222": (sub("**checkout 503s: DB pool at 5**\n", ""), OK),
    "RCA223": (sub("`checkout-api` | prod, since 14:02\n", ""), OK),
    "RCA224": (
        text(BASE.replace("**TL;DR:** the pool is 5.\n", "").replace("**Now**", "**TL;DR:** late\n**Now**")),
        OK,
    ),
    "RCA225": (sub("END_RCA_CHAT", "**Now**\n- again\nEND_RCA_CHAT"), OK),
    "RCA226": (sub("\n**TL;DR:**", "\nsome words before any section\n**TL;DR:**"), OK),
    "RCA227": (sub("- read the pool size on a live pod", "<b>read</b> the pool size"), OK),
    "RCA228": (sub("RCA_FIELDS", "RCA_CHAT\n**again**\nEND_RCA_CHAT\nRCA_FIELDS"), OK),
    "RCA230": (sub("[alert log](msg:m-1001)", "[alert log](https://logs.example/q?id=1)"), OK),
    "RCA231": (sub("code:shop@4f2c9e1/config/prod.yaml#L42", "code:shop@4f2c9e1/../../etc/passwd#L1"), OK),
    "RCA232": (sub("code:shop@4f2c9e1/config/prod.yaml#L42", "code:shop/config/prod.yaml"), OK),
    "RCA233": (sub("- read the pool size on a live pod", "- read https://grafana.example/d/pool"), OK),
    "RCA301": (sub("self_healing: no\n", ""), OK),
    "RCA302": (sub("self_healing: no", "self_healing: maybe"), OK),
    "RCA303": (sub("confidence: high\n", "confidence: high\nseverity: p1\n"), OK),
    "RCA304": (sub("origin: internal\n", "origin: internal\norigin: upstream\n"), OK),
    "RCA305": (text(BASE + "\nHope this helps!\n"), OK),
    "RCA306": (
        sub("sensitive_data: none", "sensitive_data: logs:password=hunter2"),
        sub("sensitive_data: none", "sensitive_data: logs:password"),
    ),
    "RCA307": (sub("sensitive_data: none", "sensitive_data: logs:password"), OK),
    "RCA308": (sub("confidence: high", "confidence: very high"), OK),
    "RCA401": (
        lambda: parse(BASE, input_text=CONTEXT_OK.replace("---\n", "")),
        lambda: parse(BASE, input_text=CONTEXT_OK),
    ),
    "RCA402": (
        lambda: parse(BASE, input_text=CONTEXT_OK.replace("---", "- Please also fix it\n---")),
        lambda: parse(BASE, input_text=CONTEXT_OK),
    ),
    "RCA501": (steps(lambda c: c.pop("step5_summary.json")), STEPS_OK),
    "RCA502": (lambda: parse("not a mapping", kind="step_files"), STEPS_OK),
    "RCA503": (steps(lambda c: c["step5_summary.json"]["root_cause"].pop("confidence")), STEPS_OK),
    "RCA510": (steps(lambda c: c.pop("step3_correlation.json")), STEPS_OK),
    "RCA511": (steps(lambda c: c["step5_summary.json"].pop("evidence")), STEPS_OK),
    "RCA512": (steps(lambda c: c["step5_summary.json"].update(difficulty_score="hard")), STEPS_OK),
    "RCA513": (steps(lambda c: None, job_id="7654321"), STEPS_OK),
    "RCA514": (steps(lambda c: c["step3_correlation.json"].update(job_id="1199876")), STEPS_OK),
    "RCA601": (lambda: parse("{not json", kind="capture"), CAPTURE_OK),
    "RCA602": (cap(lambda c: c.pop("confidence")), CAPTURE_OK),
    "RCA610": (cap(lambda c: c.pop("claims")), CAPTURE_OK),
    "RCA611": (cap(lambda c: c.update(candidates="db")), CAPTURE_OK),
    "RCA612": (cap(lambda c: c["claims"][0]["evidence_ids"].append("E99")), CAPTURE_OK),
    "RCA701": (sub("cfg-2291 set the pool", "cfg-2291 (key AKIAQ3EGRT7PLMN4XWZY) set the pool"), OK),
}


def test_a_made_up_category_is_missing():
    """A required value that cannot be read is no way around the contract: the step-5 report
    whose category is not one of the ten is incomplete, as if the category were absent."""
    parsed = steps(lambda c: c["step5_summary.json"]["root_cause"].update(category="gremlins"))()
    assert parsed.outcome == "incomplete" and "RCA503" in codes_of(parsed)


@pytest.mark.parametrize(
    "unreadable",
    [
        sub("confidence: high", "confidence: very-high"),
        sub("confidence: high", "confidence: certain"),
        sub("confidence: high", "confidence:"),
        steps(lambda c: c["step5_summary.json"]["root_cause"].update(confidence="certain")),
        steps(lambda c: c["step5_summary.json"]["root_cause"].update(confidence="")),
        cap(lambda c: c.update(confidence="very-high")),
        cap(lambda c: c.update(confidence=0.99)),
    ],
    ids=["skill_text", "skill_text_certain", "skill_text_empty", "step_files", "step_files_empty", "capture",
         "capture_number"],
)
def test_an_unreadable_confidence_is_ignored_with_a_warning(unreadable):
    """The contract: invalid values are ignored. The report stays a report, its confidence is
    null, and the warning RCA308 says so without repeating the value (it may hold anything)."""
    parsed = unreadable()
    assert parsed.outcome == "report" and parsed.errors == []
    assert parsed.fields.confidence is None
    assert (parsed.diagnosis is None or parsed.diagnosis.root_cause is None
            or parsed.diagnosis.root_cause.confidence is None)
    found = [w for w in parsed.warnings if w.code == "RCA308"]
    assert len(found) == 1 and "must be one of high | medium | low" in found[0].message
    assert not any(bad in found[0].message for bad in ("very-high", "certain", "0.99"))


def test_every_code_has_a_case():
    assert sorted(CASES) == sorted(c.code for c in CODES)


@pytest.mark.parametrize("code", sorted(CASES))
def test_failing_input_reports_the_code(code):
    parsed = CASES[code][0]()
    assert code in codes_of(parsed)
    if code in ERROR_CODES:
        assert parsed.outcome == "incomplete"


@pytest.mark.parametrize("code", sorted(CASES))
def test_passing_input_does_not(code):
    parsed = CASES[code][1]()
    assert code not in codes_of(parsed)
    assert parsed.outcome != "incomplete"


@pytest.mark.parametrize("make", [OK, STEPS_OK, CAPTURE_OK], ids=["skill_text", "step_files", "capture"])
def test_clean_samples_have_no_findings(make):
    parsed = make()
    assert parsed.errors == [] and parsed.warnings == []
    assert parsed.outcome == "report"


def test_the_docs_list_every_code_with_its_message():
    docs = (ROOT / "docs" / "output-contract.md").read_text()
    tables = docs[docs.index("## Finding codes") :]
    for code in CODES:
        row = next((ln for ln in tables.splitlines() if ln.startswith(f"| {code.code} |")), None)
        assert row is not None, f"{code.code} is not in the docs' tables"
        assert row.split(" | ")[1].replace("\\", "") == code.summary, code.code
