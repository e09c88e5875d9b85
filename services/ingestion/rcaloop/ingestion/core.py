"""Pure ingestion logic: validate a raw result, then turn it into an ingested record.

The contract (``RawResult``) already guarantees the basic shape; the rules below add
what ingestion alone decides — size, safe ids, and that ``content`` matches ``kind``.
A record that breaks any rule is rejected whole (dead-lettered with every finding);
nothing here touches Redis or the filesystem.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass

from rcaloop.contracts import IngestedRecord, Issue, RawResult, analysis_hash
from rcaloop.contracts.results import job_id_problem
from rcaloop.shared.secrets import SCAN_BUDGET_S, redact_record

DEFAULT_MAX_RESULT_BYTES = 1024 * 1024
STEP5 = "step5_summary.json"


@dataclass(frozen=True)
class Limits:
    """Configurable bounds (``RCALOOP_MAX_RESULT_BYTES``)."""

    max_result_bytes: int = DEFAULT_MAX_RESULT_BYTES


@dataclass(frozen=True)
class Facts:
    """What the rules need to know about the record's serialised form (computed once)."""

    size: int
    valid_unicode: bool
    text: str  # the record's JSON, for the rejected-record key


@dataclass(frozen=True)
class Rule:
    """One ingestion rule: a stable code, what it requires, and its check.

    ``check`` returns the findings for a record (empty when the rule holds).
    """

    code: str
    summary: str
    check: Callable[[RawResult, Limits, Facts], list[Issue]]


def safe_json(result: RawResult) -> str:
    """The record's JSON even when it holds text no UTF-8 encoder accepts (lone surrogates)."""
    try:
        return result.model_dump_json()
    except ValueError:  # pydantic's serialisation error (a ValueError) on unencodable text
        return json.dumps(result.model_dump(mode="python"), default=str, ensure_ascii=False, separators=(",", ":"))


def measure(result: RawResult) -> Facts:
    """Size and Unicode validity of the record's JSON, from one serialisation."""
    text = safe_json(result)
    try:
        return Facts(size=len(text.encode("utf-8")), valid_unicode=True, text=text)
    except UnicodeEncodeError:
        return Facts(size=len(text.encode("utf-8", "surrogatepass")), valid_unicode=False, text=text)


def _unencodable(result: RawResult, limits: Limits, facts: Facts) -> list[Issue]:
    if facts.valid_unicode:
        return []
    message = "record holds text that is not valid Unicode (an unpaired surrogate such as \\ud800)"
    return [Issue(code="invalid_text", message=message)]


def _too_large(result: RawResult, limits: Limits, facts: Facts) -> list[Issue]:
    if facts.size <= limits.max_result_bytes:
        return []
    return [Issue(code="result_too_large",
                  message=f"record is {facts.size} bytes, over the {limits.max_result_bytes} byte limit")]


def _bad_job_id(result: RawResult, limits: Limits, facts: Facts) -> list[Issue]:
    if result.job_id is None:
        return []
    problem = job_id_problem(result.job_id)
    return [Issue(code="invalid_job_id", message=problem, path="job_id")] if problem else []


def _kind_content(result: RawResult, limits: Limits, facts: Facts) -> list[Issue]:
    expected = str if result.kind == "skill_text" else dict
    if isinstance(result.content, expected):
        return []
    want = "a string (the skill's text output)" if expected is str else "a JSON object"
    return [Issue(code="content_kind_mismatch", message=f"kind {result.kind} needs content to be {want}",
                  path="content")]


def _empty(result: RawResult, limits: Limits, facts: Facts) -> list[Issue]:
    content = result.content
    empty = (isinstance(content, str) and not content.strip()) or (isinstance(content, dict) and not content)
    return [Issue(code="empty_content", message=f"{result.kind} content is empty", path="content")] if empty else []


def _step_files(result: RawResult, limits: Limits, facts: Facts) -> list[Issue]:
    if result.kind != "step_files" or not isinstance(result.content, dict) or not result.content:
        return []
    issues = [
        Issue(
            code="unsafe_step_file_name",
            message="step file names must be plain *.json file names",
            path=f"content.{_preview(name)}",
        )
        for name in result.content
        if job_id_problem(name) is not None or not name.endswith(".json")
    ]
    if STEP5 not in result.content:
        issues.append(Issue(code="missing_step5_summary", message=f"step_files content needs {STEP5}", path="content"))
    elif not isinstance(result.content[STEP5], dict):
        issues.append(
            Issue(code="invalid_step5_summary", message=f"{STEP5} must be a JSON object", path=f"content.{STEP5}"))
    return issues


def _job_id_agrees(result: RawResult, limits: Limits, facts: Facts) -> list[Issue]:
    if result.kind != "step_files" or result.job_id is None or not isinstance(result.content, dict):
        return []
    summary = result.content.get(STEP5)
    inner = summary.get("job_id") if isinstance(summary, dict) else None
    if inner is None or str(inner) == result.job_id:
        return []
    return [Issue(code="job_id_mismatch", message=f"job_id differs from {STEP5}'s job_id",
                  path=f"content.{STEP5}.job_id")]


RULES: tuple[Rule, ...] = (
    Rule("invalid_text", "every string is valid Unicode (no unpaired surrogate escapes)", _unencodable),
    Rule("result_too_large", "the record's JSON is at most RCALOOP_MAX_RESULT_BYTES", _too_large),
    Rule("invalid_job_id", "job_id, when present, is one safe path segment", _bad_job_id),
    Rule("content_kind_mismatch", "skill_text content is a string; other kinds' content is an object", _kind_content),
    Rule("empty_content", "content is not empty or blank", _empty),
    Rule("unsafe_step_file_name", "step_files keys are plain *.json file names", _step_files),
    Rule("job_id_mismatch", "a step_files job_id agrees with step5_summary.json's job_id", _job_id_agrees),
)
"""Every ingestion rule, in the order findings are reported (docs/wire-format.md lists them).

``_step_files`` also reports ``missing_step5_summary`` and ``invalid_step5_summary``.
"""

CODES: tuple[str, ...] = (*(r.code for r in RULES), "missing_step5_summary", "invalid_step5_summary")


@dataclass(frozen=True)
class Assessment:
    """A record judged once: its findings, size and dedupe key, shared by the worker's
    idempotency key and its handler."""

    result: RawResult
    issues: list[Issue]
    size: int
    key: str  # ``analysis_hash`` when accepted; "rejected:" + a hash of the whole JSON otherwise

    @property
    def accepted(self) -> bool:
        return not self.issues


def assess(result: RawResult, limits: Limits = Limits()) -> Assessment:
    """Every rule's findings, the record's size, and its dedupe key, from one serialisation.

    A record that will be rejected is keyed over its whole JSON, so fixing its ids and
    resubmitting the same content is not mistaken for a duplicate.
    """
    facts = measure(result)
    issues = _findings(result, limits, facts)
    if issues:
        key = "rejected:" + hashlib.sha256(facts.text.encode("utf-8", "surrogatepass")).hexdigest()
    else:
        key = analysis_hash(result.kind, result.content)
    return Assessment(result, issues, facts.size, key)


def validate(result: RawResult, limits: Limits = Limits()) -> list[Issue]:
    """Every finding of every rule; empty when the record may be ingested."""
    return _findings(result, limits, measure(result))


def _findings(result: RawResult, limits: Limits, facts: Facts) -> list[Issue]:
    return [issue for rule in RULES for issue in rule.check(result, limits, facts)]


def ingest(assessed: Assessment, budget_s: float | None = SCAN_BUDGET_S) -> IngestedRecord:
    """The ingested record of an accepted assessment: the raw result with every secret
    value redacted (``[REDACTED:<type>:<rule>]``; the parser reports each one), plus its
    ``analysis_hash`` and size. Both are of what was received, so dedupe is unchanged.
    Raises ``ScanBudgetExceeded`` when the scan takes longer than ``budget_s``: nothing of
    the record is published."""
    if not assessed.accepted:
        raise ValueError(f"a rejected record is not ingested ({rejection_message(assessed.issues)})")
    redacted, _ = redact_record(assessed.result, budget_s)
    return IngestedRecord(**dict(redacted), analysis_hash=assessed.key, size_bytes=assessed.size)


def rejection_message(issues: list[Issue]) -> str:
    """One line for the dead letter: every finding, code first."""
    return "; ".join(f"{i.code}: {i.message}" for i in issues)


def _preview(text: str, limit: int = 40) -> str:
    clean = "".join(ch if ch.isprintable() else "?" for ch in text)
    return clean if len(clean) <= limit else clean[:limit] + "…"
