"""Step files of a CI-job RCA: ``.analysis/<job_id>/step{1,3,4,5}_*.json``.

``step5_summary.json`` holds the diagnosis (the ``annotation.json`` diagnosis shape);
step1/3/4 hold what the run collected and become evidence artifacts with ids such as
``step3.timeline[1]``. Extra keys are ignored, missing ones reported; nothing raises.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from rcaloop.contracts import AlternativeDiagnosis, EvidenceArtifact, Issue, RootCause, TraceItem
from rcaloop.contracts.common import CATEGORIES
from rcaloop.contracts.parsed import Claim, Diagnosis, Fields
from rcaloop.parser import codes
from rcaloop.parser.citations import Resolver, render
from rcaloop.parser.tolerant import Reader, first_sentence

STEP5 = "step5_summary.json"
REFERENCE_FILES = ("step1_job_context.json", "step3_correlation.json", "step4_github_fetch_history.json")
CONFIDENCE = ("high", "medium", "low")
# (file, step, list key in it, default collector (an item's own `source` wins), kind, title key, text keys)
ARTIFACT_LISTS = (
    ("step1_job_context.json", "step1", "failed_tasks", "aap", "failed_task", "task", ("error", "msg", "message")),
    ("step3_correlation.json", "step3", "timeline", None, "event", "source", ("event", "message")),
    ("step4_github_fetch_history.json", "step4", "github_fetches", "github", "code", "path", ("content",)),
)


def _file(content: dict[str, Any], name: str) -> Any:
    return content.get(name, content.get(name.removesuffix(".json")))


def parse_step_files(content: Any, job_id: str | None, resolver: Resolver | None = None) -> dict[str, Any]:
    """``ParsedRCA`` keyword arguments for a step-files record."""
    if not isinstance(content, dict):
        return {"outcome": "incomplete", "errors": [codes.STEP_FILES_NOT_MAPPING.issue()]}
    step5 = _file(content, STEP5)
    if not isinstance(step5, dict):
        return {"outcome": "incomplete", "errors": [codes.NO_STEP5.issue()]}
    errors: list[Issue] = [codes.STEP_FILE_MISSING.issue(n) for n in REFERENCE_FILES if _file(content, n) is None]
    warnings: list[Issue] = []
    reader = Reader(codes.STEP5_KEY_MISSING, codes.STEP5_VALUE_INVALID)
    step5_job = reader.text(reader.require(step5, "job_id"), "job_id")
    if job_id and step5_job and step5_job != job_id:
        warnings.append(codes.JOB_ID_MISMATCH.issue(path="job_id"))
    job = job_id or step5_job
    artifacts = _artifacts(content, job, warnings)
    diagnosis = _diagnosis(step5, reader)
    reader_errors, reader_warnings = reader.split()
    errors += reader_errors
    warnings += reader_warnings
    rc = diagnosis.root_cause or RootCause()
    title = first_sentence(rc.summary) or (f"job {job}" if job else None)
    post = "\n\n".join(p for p in (f"**{title}**" if title else None, rc.summary) if p)
    return {
        "outcome": "report",
        "title": title,
        "report_markdown": _report(title, diagnosis),
        "report_source": "rendered",
        "chat_rendered": render(post, resolver or Resolver(), part="chat").text,
        "fields": Fields(confidence=rc.confidence if rc.confidence in CONFIDENCE else None),
        "diagnosis": diagnosis,
        "artifacts": artifacts,
        "alert_text": _alert_text(_file(content, "step1_job_context.json")),
        "incident_started_at": _started(_file(content, "step1_job_context.json")),
        "incident_ended_at": _ended(_file(content, "step1_job_context.json")),
        "warnings": warnings,
        "errors": errors,
    }


def _diagnosis(step5: dict, r: Reader) -> Diagnosis:
    d = Diagnosis()
    required = codes.NO_ROOT_CAUSE  # a diagnosis without its cause, category or a stated confidence is not a diagnosis
    raw_rc = r.require(step5, "root_cause", code=required)
    if isinstance(raw_rc, dict):
        d.root_cause = RootCause(
            category=r.choice(
                r.require(raw_rc, "category", "root_cause.category", required),
                CATEGORIES,
                "root_cause.category",
                required,
            ),
            summary=r.text(r.require(raw_rc, "summary", "root_cause.summary", required), "root_cause.summary"),
            confidence=r.choice(  # absent is missing; unreadable is ignored, as the contract says
                r.require(raw_rc, "confidence", "root_cause.confidence", required),
                CONFIDENCE,
                "root_cause.confidence",
                unreadable=codes.CONFIDENCE_UNREADABLE,
            ),
        )
        d.family = d.root_cause.category
    elif raw_rc is not None:
        r.bad("root_cause", "must be an object")
        r.warnings.append(required.issue("root_cause", path="root_cause"))
    for i, item in enumerate(r.items(r.require(step5, "evidence"), "evidence")):
        if (trace := r.model(TraceItem, item, f"evidence[{i}]")) is not None:
            d.evidence.append(trace)
    d.difficulty = r.text(step5.get("difficulty"), "difficulty")
    d.difficulty_score = r.number(step5.get("difficulty_score"), "difficulty_score")
    d.difficulty_justification = r.text(step5.get("difficulty_justification"), "difficulty_justification")
    d.recommendations += r.recommendations(r.require(step5, "recommendations"))
    for i, item in enumerate(r.items(step5.get("contributing_factors"), "contributing_factors")):
        if (text := r.text(item, f"contributing_factors[{i}]")) is not None:
            d.contributing_factors.append(text)
    for i, item in enumerate(r.items(step5.get("alternative_diagnoses"), "alternative_diagnoses")):
        if (alt := r.model(AlternativeDiagnosis, item, f"alternative_diagnoses[{i}]")) is not None:
            d.alternative_diagnoses.append(alt)
    _claims(d)
    return d


def _claims(d: Diagnosis) -> None:
    """Claims for the ledger. The root cause's evidence is its ``is_root_cause`` items, which
    the harness traces itself: the claim carries no ids of its own (it must not borrow the
    other items' artifacts)."""
    if d.root_cause and d.root_cause.summary:
        d.claims.append(Claim(id="cause", kind="root_cause", text=d.root_cause.summary))
    for n, rec in enumerate(d.recommendations, start=1):
        d.claims.append(Claim(id=f"recommendation-{n}", kind="recommendation", text=rec.action))
    for n, factor in enumerate(d.contributing_factors, start=1):
        d.claims.append(Claim(id=f"contributing_factor-{n}", kind="contributing_factor", text=factor))


def _artifacts(content: dict[str, Any], job: str | None, warnings: list[Issue]) -> list[EvidenceArtifact]:
    out: list[EvidenceArtifact] = []
    for name, step, key, group, kind, title_key, text_keys in ARTIFACT_LISTS:
        data = _file(content, name)
        items = data.get(key) if isinstance(data, dict) else None
        if not isinstance(items, list):
            continue
        theirs = data.get("job_id")
        other = job is not None and theirs is not None and str(theirs) != job
        if other:
            warnings.append(codes.OTHER_JOB_FILE.issue(name, path=f"{name}.job_id"))
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                continue
            text = next((item[k] for k in text_keys if isinstance(item.get(k), str)), None)
            if text is None and "status" in item:
                text = f"HTTP {item['status']}"
            collector = item.get("source") if isinstance(item.get("source"), str) and item["source"].strip() else None
            out.append(
                EvidenceArtifact(
                    id=f"{step}.{key}[{i}]",
                    source=collector or group or step,
                    kind="other_run" if other else kind,
                    title=str(item.get(title_key) or ""),
                    text=text or "",
                    source_file=f".analysis/{job}/{name}" if job else name,
                    json_path=f"{key}[{i}]",
                    value=item,
                    observed_at=_time(item.get("time")),
                )
            )
    return out


def _time(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        when = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when  # a time without a zone is UTC


def _started(step1: Any) -> datetime | None:
    """When the failed job started (step1 ``started`` / ``started_at``)."""
    if not isinstance(step1, dict):
        return None
    return next((t for k in ("started", "started_at") if (t := _time(step1.get(k))) is not None), None)


def _ended(step1: Any) -> datetime | None:
    """When the failed job ended (step1 ``finished`` / ``finished_at`` / ``ended``)."""
    if not isinstance(step1, dict):
        return None
    return next((t for k in ("finished", "finished_at", "ended", "ended_at", "end_time", "completed_at")
                 if (t := _time(step1.get(k))) is not None), None)


def _alert_text(step1: Any) -> str | None:
    if not isinstance(step1, dict):
        return None
    lines = [f"job {step1.get('job_name') or step1.get('job_id') or '?'} status {step1.get('status') or '?'}"]
    for task in step1.get("failed_tasks") or []:
        if isinstance(task, dict):
            lines.append(
                f"failed task {task.get('task') or '?'} on {task.get('host') or '?'}: "
                f"{task.get('error') or ''}".rstrip()
            )
    return "\n".join(lines)


def _report(title: str | None, d: Diagnosis) -> str:
    rc = d.root_cause or RootCause()
    out = [f"# {title or 'CI job RCA'}", "", "## Summary", rc.summary or "(no summary)", ""]
    out.append(f"Category: {rc.category or 'unknown'} · confidence: {rc.confidence or 'unknown'}")
    if d.difficulty or d.difficulty_score is not None:
        out.append(
            f"Difficulty: {d.difficulty or '?'} ({d.difficulty_score if d.difficulty_score is not None else '?'}/10)"
        )
    if d.evidence:
        out += ["", "## Evidence"]
        out += [
            f"- {e.message or e.exact_quote or e.exact_value} ({e.source_file or e.source}: {e.json_path})"
            for e in d.evidence
        ]
    if d.recommendations:
        out += ["", "## Recommendations"]
        out += [f"- [{r.priority or '-'}] {r.action}" + (f" (`{r.file}`)" if r.file else "") for r in d.recommendations]
    if d.contributing_factors:
        out += ["", "## Contributing factors"] + [f"- {f}" for f in d.contributing_factors]
    if d.alternative_diagnoses:
        out += ["", "## Alternative diagnoses"]
        out += [f"- {a.category or '?'}: {a.summary or ''} — {a.why_wrong or ''}" for a in d.alternative_diagnoses]
    return "\n".join(out) + "\n"
