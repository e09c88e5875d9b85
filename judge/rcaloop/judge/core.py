"""The runtime harness: evidence ids, claim ledger, hard gates, rubric, repairs.

``evaluate`` is pure and deterministic: the same ``ParsedRCA`` (and ``now``) gives a
byte-identical verdict JSON. ``evaluated_at`` is the only input-independent field, so it
is a parameter (the service passes the clock; the default is the epoch).
"""

from __future__ import annotations

from datetime import datetime

from rcaloop.contracts import HarnessVerdict, ParsedRCA
from rcaloop.contracts.catalog import FamilyCatalog
from rcaloop.contracts.verdict import ConfidenceBreakdown, GateResult, Repair
from rcaloop.judge import report, rules
from rcaloop.judge import repair as repairs_
from rcaloop.judge.config import EPOCH, HarnessConfig
from rcaloop.judge.draft import Draft, stated_confidence
from rcaloop.judge.facts import Facts, derive

NOTES_HEADING = "Harness notes"


def evaluate(
    parsed: ParsedRCA,
    config: HarnessConfig | None = None,
    *,
    now: datetime = EPOCH,
    catalog: FamilyCatalog | None = None,
) -> HarnessVerdict:
    """``catalog``: the active family catalog the service holds; the bundled one when None. Confirmed
    signatures (gate G1) are read against it."""
    config = config or HarnessConfig()
    base = dict(
        analysis_hash=parsed.analysis_hash,
        result_id=parsed.result_id,
        job_id=parsed.job_id,
        pass_score=config.pass_score,
        parsed=parsed,
        evaluated_at=now,
    )
    if not config.enabled:
        return HarnessVerdict(
            **base,
            verdict="unchecked",
            score=0.0,
            repaired_report=parsed.report_markdown,
            repaired_diagnosis=parsed.diagnosis,
            confidence_breakdown=_diagnostics_only(parsed),
        )
    draft = Draft.start(parsed, catalog)
    if draft.early_exit and not draft.claims_something():
        return _early_exit(draft, base)
    repairs, facts = repairs_.run(draft, config.max_repair_attempts)
    outcomes = rules.judge(facts)
    gate_results, checks = rules.gate_results(outcomes), rules.check_results(outcomes)
    dimensions, score = rules.dimensions(checks)
    verdict, reasons = _verdict(parsed, outcomes, score, config.pass_score)
    return HarnessVerdict(
        **base,
        verdict=verdict,
        reasons=reasons,
        score=score,
        dimensions=dimensions,
        checks=checks,
        hard_gates=gate_results,
        findings=rules.findings(outcomes),
        repairs=repairs,
        evidence=[ev.item for ev in draft.evidence],
        claims=facts.ledger.claims,
        repaired_report=_with_notes(draft.report, repairs, gate_results, reasons),
        repaired_diagnosis=draft.repaired_diagnosis(),
        confidence_breakdown=_breakdown(facts, gate_results, score, repairs),
    )


def _verdict(parsed: ParsedRCA, outcomes: rules.Outcomes, score: float, pass_score: float) -> tuple[str, list[str]]:
    """``insufficient_evidence`` when a hard gate fails (after repairs); else ``degraded`` when the output
    is incomplete (it broke its contract: probably cut short), the score is below the pass score, or it
    breaks a rule held as the agent wrote it (an unguarded step, a secret, a confidence its evidence does
    not bear: the repaired report is safe to read, but the output was not). Each reason names its rule."""
    failed = [g for g in rules.GATES if not outcomes[g.id].passed]
    if failed:
        return "insufficient_evidence", [f"hard gate {g.id} {g.name} failed: {outcomes[g.id].detail}" for g in failed]
    reasons = []
    if parsed.outcome == "incomplete":
        codes = ", ".join(dict.fromkeys(e.code for e in parsed.errors)) or "no code"
        reasons.append(f"the output is incomplete: it breaks its output contract ({codes})")
    if score < pass_score:
        reasons.append(f"score {score:g} is below the pass score {pass_score:g}")
    reasons += [f"{r.kind} {r.id} {r.name} failed as written: {outcomes[r.id].detail}"
                for r in rules.broken_as_written(outcomes)]
    return ("degraded" if reasons else "pass"), reasons


def _early_exit(draft: Draft, base: dict) -> HarnessVerdict:
    reason = f"early exit ({draft.parsed.outcome}) that names no family, cause or action: nothing to check"
    facts = derive(draft)
    outcomes = rules.judge(facts, only=rules.ALWAYS_JUDGED, reason=reason)
    gate_results, checks = rules.gate_results(outcomes), rules.check_results(outcomes)
    dimensions, score = rules.dimensions(checks)
    verdict, reasons = _verdict(draft.parsed, outcomes, score, base["pass_score"])
    return HarnessVerdict(
        **base,
        verdict=verdict,
        reasons=reasons,
        score=score,
        dimensions=dimensions,
        checks=checks,
        hard_gates=gate_results,
        findings=rules.findings(outcomes),
        evidence=[ev.item for ev in draft.evidence],
        repaired_report=draft.report,
        repaired_diagnosis=draft.diagnosis,
        confidence_breakdown=_diagnostics_only(draft.parsed),
    )


def _with_notes(text: str, repairs: list[Repair], gate_results: list[GateResult], reasons: list[str]) -> str:
    notes = [f"{r.kind} ({r.target}): {r.reason}" for r in repairs]
    if any(not g.passed for g in gate_results):
        notes += [f"insufficient evidence: {g.gate} {g.name}: {g.detail}" for g in gate_results if not g.passed]
    else:
        notes += [f"degraded: {r}" for r in reasons]
    return report.append_notes(text, NOTES_HEADING, notes) if notes else text


def _diagnostics(parsed: ParsedRCA) -> dict:
    diag = parsed.diagnosis.confidence_diagnostics if parsed.diagnosis else None
    if not isinstance(diag, dict):
        return {}
    self_check = next((diag[k] for k in ("self_check_adjustment", "self_check") if k in diag), None)
    deltas = diag.get("ranker_deltas")
    return {
        "ranker_deltas": deltas if isinstance(deltas, dict) else None,
        "self_check_adjustment": self_check,
        "diagnostics": diag,
    }


def _diagnostics_only(parsed: ParsedRCA) -> ConfidenceBreakdown:
    conf = stated_confidence(parsed)
    return ConfidenceBreakdown(stated_confidence=conf, final_confidence=conf, **_diagnostics(parsed))


def _breakdown(f: Facts, gate_results: list[GateResult], score: float, repairs: list[Repair]) -> ConfidenceBreakdown:
    return ConfidenceBreakdown(
        independent_source_groups=f.root_groups,
        confidence_gate_passed=gate_results[0].passed,
        stated_confidence=stated_confidence(f.draft.parsed),
        final_confidence=f.confidence,
        harness_score=score,
        repairs=len(repairs),
        root_cause_evidence=[ev.id for ev in f.root_live],
        signature_confirmed=bool(f.signature),
        refuted_by=[ev.id for ev in f.root_refuting],
        adjustments=[r.reason for r in repairs if r.kind == "lower_confidence"],
        **_diagnostics(f.draft.parsed),
    )
