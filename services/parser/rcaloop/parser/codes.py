"""Every finding the parser can report, with its stable code (the list *is* the contract).

``docs/output-contract.md`` documents each code with an example, and a unit test makes
sure every code here has a failing and a passing input. Errors make the outcome
``incomplete``; warnings never change the outcome; red flags (``ParsedRCA.red_flags``)
never change the outcome either, but no output with one passes review unseen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rcaloop.contracts import Issue, RedFlag

Severity = Literal["error", "warning", "red_flag"]


@dataclass(frozen=True)
class Code:
    code: str
    severity: Severity
    summary: str

    def issue(self, message: str | None = None, *, line: int | None = None, path: str | None = None) -> Issue:
        text = f"{self.summary}: {message}" if message else self.summary
        return Issue(code=self.code, message=text, line=line, path=path)

    def flag(self, type_: str, where: str, line: int | None, *, declared: bool = False,
             rule: str | None = None) -> RedFlag:
        return RedFlag(code=self.code, type=type_, where=where, line=line, rule=rule,
                       source="declared" if declared else "detected")


# skill text: outcome and structure
EMPTY_OUTPUT = Code("RCA100", "error", "empty output")
MISSING_FIELDS = Code("RCA101", "error", "missing RCA_FIELDS (the run was probably cut short)")
BAD_OUTCOME_LINE = Code("RCA102", "error", "malformed RCA_OUTCOME line")
NOT_TEXT = Code("RCA103", "error", "skill_text content is not text")
TEXT_AFTER_EARLY_EXIT = Code("RCA201", "warning", "text after an early exit")
OUTCOME_NOT_FIRST = Code("RCA202", "warning", "RCA_OUTCOME line not at the start; ignored")
FENCED_MARKER = Code("RCA203", "warning", "marker line inside a code block is text, not a marker")
UNCLOSED_FENCE = Code("RCA204", "warning", "code block never closed: the rest of the output is inside it")
NO_TITLE = Code("RCA210", "warning", "report has no title (# heading)")
NO_SUMMARY = Code("RCA211", "warning", "report has no Summary section")
NO_CHAT = Code("RCA220", "warning", "no RCA_CHAT block; the post falls back to title + Summary")
UNTERMINATED_CHAT = Code("RCA221", "warning", "RCA_CHAT without END_RCA_CHAT")
NO_CHAT_TITLE = Code("RCA222", "warning", "chat has no **title** line")
NO_SUBJECTS_LINE = Code("RCA223", "warning", "chat has no `subjects` | context line")
SECTION_ORDER = Code("RCA224", "warning", "chat section out of order")
SECTION_REPEATED = Code("RCA225", "warning", "chat section repeated; its text joins the first (it is still posted)")
STRAY_CHAT_TEXT = Code("RCA226", "warning", "chat text outside any section")
RICH_MARKDOWN = Code("RCA227", "warning", "chat uses more than simple Markdown")
EXTRA_CHAT_BLOCK = Code("RCA228", "warning", "more than one RCA_CHAT block; the first is used")
URL_LINK = Code("RCA230", "warning", "link to a URL (agents cite, never link); reduced to its label")
UNSAFE_CODE_PATH = Code("RCA231", "warning", "code citation with an unsafe path; reduced to its label")
MALFORMED_CODE = Code("RCA232", "warning", "malformed code citation; reduced to its label")
URL_TEXT = Code("RCA233", "warning", "URL in the post (agents cite, never link); reduced to its host")
# RCA_FIELDS
FIELD_MISSING = Code("RCA301", "error", "field missing from RCA_FIELDS (the run was probably cut short)")
FIELD_INVALID = Code("RCA302", "warning", "invalid field value ignored")
FIELD_UNKNOWN = Code("RCA303", "warning", "unknown line in RCA_FIELDS")
FIELD_REPEATED = Code("RCA304", "warning", "field repeated in RCA_FIELDS; the first is kept")
TEXT_AFTER_FIELDS = Code("RCA305", "warning", "text after RCA_FIELDS (it must end the output)")
SENSITIVE_MALFORMED = Code("RCA306", "warning", "sensitive_data item is not a plain where:type; dropped, text withheld")
SENSITIVE_DECLARED = Code("RCA307", "red_flag", "sensitive data declared in RCA_FIELDS")
CONFIDENCE_UNREADABLE = Code("RCA308", "warning",
                             "confidence unreadable; ignored (a report states high, medium or low)")
"""Every shape (RCA_FIELDS, step5_summary.json, capture): the confidence is null and this warning names where."""
# input context block
CONTEXT_NO_SEPARATOR = Code("RCA401", "warning", "context block has no '---' line")
CONTEXT_BAD_LINE = Code("RCA402", "warning", "unrecognised context block line")
# step files
NO_STEP5 = Code("RCA501", "error", "step5_summary.json missing or not a JSON object")
STEP_FILES_NOT_MAPPING = Code("RCA502", "error", "step_files content is not a mapping of file name to JSON")
NO_ROOT_CAUSE = Code("RCA503", "error",
                     "step5_summary.json root cause incomplete (category, summary and confidence are required)")
STEP_FILE_MISSING = Code("RCA510", "error", "step file missing (a job is step1, step3, step4 and step5)")
STEP5_KEY_MISSING = Code("RCA511", "warning", "step5_summary.json key missing")
STEP5_VALUE_INVALID = Code("RCA512", "warning", "invalid step5_summary.json value ignored")
JOB_ID_MISMATCH = Code("RCA513", "warning", "job_id differs between the record and step5_summary.json")
OTHER_JOB_FILE = Code("RCA514", "warning", "step file of another job: its items are history, not evidence of this run")
# captures
CAPTURE_NOT_OBJECT = Code("RCA601", "error", "capture is not a JSON object")
CAPTURE_REQUIRED_MISSING = Code("RCA602", "error", "capture report without root_cause_family or confidence")
CAPTURE_KEY_MISSING = Code("RCA610", "warning", "capture key missing")
CAPTURE_VALUE_INVALID = Code("RCA611", "warning", "invalid capture value ignored")
UNKNOWN_EVIDENCE_ID = Code("RCA612", "warning", "claim cites an evidence id the capture does not have")

# secrets
SECRET_DETECTED = Code("RCA701", "red_flag", "secret value in the output; redacted")

CODES: tuple[Code, ...] = tuple(v for v in dict(globals()).values() if isinstance(v, Code))
"""Every code, in code order."""

ERROR_CODES = frozenset(c.code for c in CODES if c.severity == "error")
