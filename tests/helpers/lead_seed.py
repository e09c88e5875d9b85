"""A lead's week, stored through the service's own paths: harness verdicts over five days (each
verdict, stated confidence and failing rule), reviews submitted as a reviewer submits them
(a lease, then ``submission``), one task two reviewers agree on and one they dispute.

Used by the lead UI's integration test (in-process app) and its browser test (the service as a
process on PostgreSQL): both read the same figures back through the API and the pages."""

from __future__ import annotations

import copy
import hashlib
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from rcaloop.annotation import core, submission
from rcaloop.annotation.auth import Identity
from rcaloop.annotation.store import Store
from rcaloop.annotation.submission import ApiState
from rcaloop.contracts import HarnessVerdict, ParsedRCA
from rcaloop.contracts.evaluation import EVALUATION_ITEMS
from rcaloop.contracts.verdict import ConfidenceBreakdown, Finding

ROOT = Path(__file__).resolve().parents[2]
JOB_DIR = ROOT / "examples" / "jobs" / "1234567"
VALID = json.loads((ROOT / "tests" / "fixtures" / "annotation" / "valid_1234567.json").read_text())
DISSENT = copy.deepcopy(VALID) | {"category_correct": False, "category_comment": "a network fault, not the credential"}
DISSENT["root_cause"] = {**VALID["root_cause"], "category": "network"}

# (day offset, verdict, stated confidence, failed rules, reviewer's document or None: left in the backlog)
SINGLE = [
    (-4, "pass", "high", [], VALID),
    (-4, "degraded", "high", ["EG1"], DISSENT),
    (-3, "insufficient_evidence", "high", ["G1", "EG1"], DISSENT),
    (-3, "pass", "medium", [], VALID),
    (-2, "degraded", "medium", ["PV1"], DISSENT),
    (-2, "insufficient_evidence", "low", ["G2", "G1"], VALID),
    (-1, "pass", "low", [], None),
    (-1, "insufficient_evidence", "high", ["G1", "G3"], None),
    (0, "pass", "high", [], VALID),
]


def lead_verdict(n: int, day: datetime, verdict: str, confidence: str, rules: list[str], *,
                 kind: str = "step_files", family: str | None = None) -> HarnessVerdict:
    h = hashlib.sha256(f"lead-{n}-{day.date()}".encode()).hexdigest()
    job_id = "1234567" if kind == "step_files" else None
    result_id = None if job_id else f"INC-{n}"
    diagnosis = {"family": family, "root_cause": {"category": "credential", "confidence": confidence}}
    parsed = ParsedRCA.model_validate({"analysis_hash": h, "outcome": "report", "job_id": job_id, "source_kind": kind,
                                       "title": f"Vault login refused ({n})", "result_id": result_id,
                                       "diagnosis": diagnosis})
    findings = [Finding(rule=r, passed=False, detail="seeded") for r in rules] + [
        Finding(rule="EG2", passed=True, detail="seeded")]
    score = {"pass": 84.0, "degraded": 58.0}.get(verdict, 40.0)
    return HarnessVerdict(analysis_hash=h, job_id=job_id, result_id=result_id, verdict=verdict, score=score,
                          parsed=parsed, findings=findings, evaluated_at=day,
                          confidence_breakdown=ConfidenceBreakdown(stated_confidence=confidence))


async def _review(state: ApiState, store: Store, task, who: str, document: dict) -> str:
    await store.claim_task(task.task_id, who, 600)
    record, _changed, issues = await submission.submit_annotation(state, task, document, who)
    assert record is not None, issues
    return record.annotation_id


async def seed(state: ApiState, store: Store) -> dict[str, str]:
    """Store the week; returns the ids a test acts on (``disputed``, ``agreed`` task ids)."""
    today = datetime.now(UTC).replace(hour=9, minute=0, second=0, microsecond=0)
    for n, (offset, verdict, confidence, rules, document) in enumerate(SINGLE):
        v = lead_verdict(n, today + timedelta(days=offset), verdict, confidence, rules)
        task = core.review_task_for(v)
        await store.add_verdict(v, task)
        if document is not None:
            await _review(state, store, task, "alice" if n % 2 else "bob", document)
    out = {}
    for name, n, second in (("agreed", 20, VALID), ("disputed", 21, DISSENT)):
        v = lead_verdict(n, today - timedelta(days=1), "degraded", "high", ["EG1"])
        task = core.review_task_for(v, overlap=2)
        await store.add_verdict(v, task)
        await _review(state, store, task, "alice", VALID)
        await _review(state, store, task, "bob", second)
        out[name] = task.task_id
    # an alert: the operator's evaluation names the family the agent ranked first
    v = lead_verdict(30, today, "pass", "medium", [], kind="capture", family="credential")
    task = core.review_task_for(v)
    await store.add_verdict(v, task)
    await store.claim_task(task.task_id, "olga", 600)
    form = {"case_type": "known", "expected_family": "credential", "scores": dict.fromkeys(EVALUATION_ITEMS, 4),
            "hard_gate_judgement": {"agrees_with_harness": True}, "resolution_outcome": "resolved",
            "action_that_worked": "rotate the secret_id"}
    record, _changed, issues = await submission.submit_evaluation(state, form, v.analysis_hash,
                                                                  Identity("olga", "operator"), task.task_id)
    assert record is not None, issues
    out["alert"] = task.task_id
    return out
