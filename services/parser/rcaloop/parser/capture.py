"""Post-harness JSON captures (``AlertAnalysisResponse``).

The accepted shape is documented in ``docs/output-contract.md``: root-cause family and
ranked candidates, claims with evidence ids, evidence artifacts, confidence, optional
``confidence_diagnostics`` (old captures without it load unchanged) and the alert.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from rcaloop.contracts import AlternativeDiagnosis, EvidenceArtifact, RootCause
from rcaloop.contracts.common import CATEGORIES
from rcaloop.contracts.parsed import Claim, Diagnosis, Fields, RankedCandidate
from rcaloop.parser import codes
from rcaloop.parser.citations import Resolver, find_citations, render
from rcaloop.parser.tolerant import Reader, first_sentence

CONFIDENCE = ("high", "medium", "low")
CLAIM_KINDS = ("root_cause", "contributing_factor", "recommendation", "observation", "other")
EARLY_OUTCOMES = ("not_applicable", "insufficient_context")


def parse_capture(content: Any, resolver: Resolver) -> dict[str, Any]:
    """``ParsedRCA`` keyword arguments for an ``AlertAnalysisResponse`` capture."""
    if isinstance(content, str):
        try:
            content = json.loads(content)
        except ValueError:
            content = None
    if not isinstance(content, dict):
        return {"outcome": "incomplete", "errors": [codes.CAPTURE_NOT_OBJECT.issue()]}
    r = Reader(codes.CAPTURE_KEY_MISSING, codes.CAPTURE_VALUE_INVALID)
    early = content.get("outcome") if content.get("outcome") in EARLY_OUTCOMES else None
    required = None if early else codes.CAPTURE_REQUIRED_MISSING  # a report names its family and its confidence
    artifacts = _evidence(content, r)
    d = Diagnosis()
    family = _first(content, "root_cause_family", "family")
    if not family:
        _missing(r, "root_cause_family", required)
        family = None
    d.family = r.text(family, "root_cause_family")
    candidates = r.items(r.require(content, "candidates"), "candidates")
    d.ranked = _candidates(candidates, r)
    d.candidates = [c.family for c in d.ranked]
    d.alternative_diagnoses = _ruled_out(candidates, d.family)
    confidence = r.choice(  # absent is missing; unreadable is ignored, as the contract says
        r.require(content, "confidence", code=required), CONFIDENCE, "confidence",
        unreadable=codes.CONFIDENCE_UNREADABLE
    )
    d.claims = _claims(r.items(r.require(content, "claims"), "claims"), r, {a.id for a in artifacts if a.id})
    written_cause = content.get("root_cause")
    rc: dict[str, Any] = written_cause if isinstance(written_cause, dict) else {}
    cause = next((c.text for c in d.claims if c.kind == "root_cause"), None)
    summary = r.text(rc.get("summary") or content.get("summary"), "summary") or cause
    category = rc.get("category") or (d.family if d.family in CATEGORIES else None)
    d.root_cause = RootCause(
        category=r.choice(category, CATEGORIES, "root_cause.category"), summary=summary, confidence=confidence
    )
    d.recommendations += r.recommendations(content.get("recommendations"))
    diagnostics = content.get("confidence_diagnostics")
    if diagnostics is not None and not isinstance(diagnostics, dict):
        r.bad("confidence_diagnostics", "must be an object")
        diagnostics = None
    d.confidence_diagnostics = diagnostics
    title = r.text(content.get("title"), "title") or _alert_title(content) or first_sentence(summary) or d.family
    written = content.get("report_markdown", content.get("report"))
    report = written if isinstance(written, str) else _report(title, d)
    found = find_citations(report, resolver, part="report")
    post = "\n\n".join(p for p in (f"**{title}**" if title else None, summary) if p)
    outcome_reason = r.text(content.get("outcome_reason"), "outcome_reason") if early else None
    reader_errors, reader_warnings = r.split()
    return {
        "outcome": early or "report",
        "outcome_reason": outcome_reason,
        "title": title,
        "report_markdown": report,
        "report_source": "agent" if isinstance(written, str) else "rendered",
        "chat_rendered": render(post, resolver, part="chat").text,
        "fields": Fields(confidence=confidence),
        "citations": found.citations,
        "diagnosis": d,
        "artifacts": artifacts,
        "alert_text": _alert_text(content),
        "incident_started_at": _started(content),
        "warnings": found.warnings + reader_warnings,
        "errors": reader_errors,
    }


def _first(data: dict, *keys: str) -> Any:
    return next((data[k] for k in keys if data.get(k) is not None), None)


def _missing(r: Reader, key: str, code: codes.Code | None = None) -> None:
    r.warnings.append((code or codes.CAPTURE_KEY_MISSING).issue(key, path=key))


def _evidence(content: dict, r: Reader) -> list[EvidenceArtifact]:
    key = "evidence" if "evidence" in content else "evidence_artifacts"
    out: list[EvidenceArtifact] = []
    if key in content:
        listed = r.require(content, key, "evidence")
    else:
        _missing(r, "evidence")
        listed = None
    for i, item in enumerate(r.items(listed, key)):
        if isinstance(item, dict) and _is_number(item.get("id")):
            item = {**item, "id": _ident(item["id"])}
        if (artifact := r.model(EvidenceArtifact, item, f"{key}[{i}]")) is not None:
            out.append(artifact)
    return out


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _ident(value: Any) -> str:
    """An evidence id as text, written as a string or a number (``1`` and ``1.0`` are ``"1"``),
    the same for an evidence item and for the claims that cite it."""
    if _is_number(value) and float(value).is_integer():
        return str(int(value))
    return str(value)


def _candidates(items: list[Any], r: Reader) -> list[RankedCandidate]:
    """Candidates, best first: by ``rank`` when given, else by ``score``, else as listed."""
    ranked: list[tuple[float, float, int, RankedCandidate]] = []
    for i, item in enumerate(items):
        if isinstance(item, str):
            ranked.append((float("inf"), 0.0, i, RankedCandidate(family=item)))
        elif isinstance(item, dict) and isinstance(item.get("family"), str):
            rank = r.number(item.get("rank"), f"candidates[{i}].rank")
            score = r.number(item.get("score"), f"candidates[{i}].score")
            candidate = RankedCandidate(
                family=item["family"],
                component=r.text(item.get("component"), f"candidates[{i}].component"),
                reason=r.text(item.get("reason"), f"candidates[{i}].reason"),
                occurred_at=_when(item.get("occurred_at"), f"candidates[{i}].occurred_at", r),
            )
            ranked.append((rank if rank is not None else float("inf"), -(score or 0.0), i, candidate))
        else:
            r.bad(f"candidates[{i}]", "must be a family name or an object with a family")
    return [candidate for *_, candidate in sorted(ranked, key=lambda t: t[:3])]


def _when(value: Any, path: str, r: Reader) -> datetime | None:
    """An ISO-8601 time; one without a zone is UTC. Anything else is ignored with ``RCA611``."""
    if value is None:
        return None
    try:
        when = datetime.fromisoformat(value.replace("Z", "+00:00")) if isinstance(value, str) else None
    except ValueError:
        when = None
    if when is None:
        r.bad(path, "must be an ISO-8601 time")
        return None
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when


REFUTING_KEYS = ("refuting_evidence_ids", "contradicting_evidence_ids", "contradicting_evidence")


def _ruled_out(items: list[Any], family: str | None) -> list[AlternativeDiagnosis]:
    """Candidates other than the named family that list the evidence refuting them: alternatives ruled out."""
    out = []
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("family"), str) or item["family"] == family:
            continue
        refuting = _first(item, *REFUTING_KEYS)
        ids = [_ident(e) for e in refuting if isinstance(e, (str, int, float))] if isinstance(refuting, list) else []
        if ids:
            why = item.get("why_wrong") or item.get("summary")
            out.append(AlternativeDiagnosis(summary=item["family"], why_wrong=why if isinstance(why, str) else None,
                                            contradicting_evidence=ids))
    return out


def _claims(items: list[Any], r: Reader, evidence_ids: set[str]) -> list[Claim]:
    out: list[Claim] = []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            r.bad(f"claims[{i}]", "must be an object")
            continue
        text = r.text(_first(item, "text", "claim", "statement"), f"claims[{i}].text")
        if not text:
            r.bad(f"claims[{i}]", "has no text")
            continue
        ids = [
            _ident(e)
            for e in r.items(_first(item, "evidence_ids", "supporting_evidence_ids"), f"claims[{i}].evidence_ids")
        ]
        refuting = [
            _ident(e)
            for e in r.items(
                _first(item, "refuting_evidence_ids", "contradicting_evidence_ids", "refutes"),
                f"claims[{i}].refuting_evidence_ids",
            )
        ]
        for eid in ids + refuting:
            if eid not in evidence_ids:
                r.warnings.append(codes.UNKNOWN_EVIDENCE_ID.issue(eid[:40], path=f"claims[{i}].evidence_ids"))
        kind = item.get("kind") if item.get("kind") in CLAIM_KINDS else "other"
        out.append(
            Claim(
                id=str(item["id"]) if item.get("id") is not None else f"claim-{i + 1}",
                kind=kind,
                text=text,
                evidence_ids=ids,
                refuting_evidence_ids=refuting,
            )
        )
    return out


def _alert(content: dict) -> tuple[str | None, str | None]:
    alert = content.get("alert")
    if isinstance(alert, dict):
        title, text = alert.get("title"), alert.get("text") or alert.get("message")
        return (title if isinstance(title, str) else None), (text if isinstance(text, str) else None)
    text = alert if isinstance(alert, str) else content.get("alert_text")
    return None, text if isinstance(text, str) else None


STARTED_KEYS = (
    ("incident", "started_at"), ("incident", "start"), ("incident_window", "start"),
    ("alert", "started_at"), ("alert", "starts_at"), ("alert", "startsAt"), ("alert", "fired_at"),
)


def _started(content: dict) -> datetime | None:
    """When the incident started, from the first of ``STARTED_KEYS`` that holds an ISO-8601 time."""
    for outer, inner in STARTED_KEYS:
        holder = content.get(outer)
        value = holder.get(inner) if isinstance(holder, dict) else None
        if isinstance(value, str):
            try:
                when = datetime.fromisoformat(value.replace("Z", "+00:00"))
            except ValueError:
                continue
            return when.replace(tzinfo=UTC) if when.tzinfo is None else when  # a time without a zone is UTC
    return None


def _alert_title(content: dict) -> str | None:
    return _alert(content)[0]


def _alert_text(content: dict) -> str | None:
    title, text = _alert(content)
    return "\n".join(p for p in (title, text) if p) or None


def _report(title: str | None, d: Diagnosis) -> str:
    rc = d.root_cause or RootCause()
    out = [f"# {title or 'alert RCA'}", "", "## Summary", rc.summary or "(no summary)", ""]
    out.append(f"Family: {d.family or 'unknown'} · confidence: {rc.confidence or 'unknown'}")
    if d.candidates:
        out += ["", "## Candidates"] + [f"{n}. {c}" for n, c in enumerate(d.candidates, start=1)]
    if d.claims:
        out += ["", "## Claims"]
        out += [
            f"- ({c.kind}) {c.text}" + (f" [{', '.join(c.evidence_ids)}]" if c.evidence_ids else "") for c in d.claims
        ]
    if d.recommendations:
        out += ["", "## Recommendations"] + [f"- [{r.priority or '-'}] {r.action}" for r in d.recommendations]
    return "\n".join(out) + "\n"
