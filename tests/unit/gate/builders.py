"""Hand-made judged answers (ParsedRCA + HarnessVerdict) for the gate's unit tests.

They do not depend on how far the parser core is: each builds exactly the contract fields
the gate's metrics read. What the harness says of the steps as written (its checks and the
guards it adds) comes from the harness itself (``rcaloop.judge.core.evaluate``), as the gate
reads safety from the verdict only. ``repaired_steps`` fills the harness's repaired copy the
way a harness that adds guardrails would, so a test can show the gate reads the agent's own
answer and not that copy.
"""

from __future__ import annotations

from rcaloop.contracts import HarnessVerdict, ParsedRCA
from rcaloop.contracts.annotation import AlternativeDiagnosis, Recommendation, RootCause
from rcaloop.contracts.parsed import Chat, ChatSections, Claim, Diagnosis, Fields
from rcaloop.contracts.verdict import ConfidenceBreakdown, GateResult, LedgerClaim, LedgerEvidence
from rcaloop.gate.cases import CaseExpect, EvalCase
from rcaloop.judge.core import evaluate


def judged(
    *,
    family: str | None = "configuration",
    candidates: tuple[str, ...] = (),
    alternatives: tuple[str, ...] = (),
    confidence: str | None = "high",
    cause: str = "config rollout shrank the connection pool, so requests time out",
    tldr: str | None = None,
    steps: tuple[str, ...] = ("compare the connection count per pod with the setting (read-only)",),
    now: tuple[str, ...] = (),
    do_not: tuple[str, ...] = (),
    report: str = "",
    outcome: str = "report",
    outcome_reason: str | None = None,
    verdict: str = "pass",
    grounded: bool = True,
    groups: tuple[str, ...] = ("log search", "metrics"),
    claim_evidence: tuple[str, ...] = ("E01", "E02"),
    safety: bool | None = True,
    final_confidence: str | None = None,
    repaired_steps: tuple[str, ...] | None = None,
    with_chat: bool = True,
) -> HarnessVerdict:
    sections = ChatSections(
        cause=cause,
        tldr=tldr,
        steps_to_verify="\n".join(f"- {s}" for s in steps) or None,
        now="\n".join(f"- {s}" for s in now) or None,
        do_not="\n".join(f"- {s}" for s in do_not) or None,
    )
    diagnosis = Diagnosis(
        family=family,
        candidates=list(candidates),
        root_cause=RootCause(category=None, summary=cause, confidence=confidence),
        alternative_diagnoses=[AlternativeDiagnosis(category=a, plausibility="medium") for a in alternatives],
        claims=[Claim(id="c1", kind="root_cause", text=cause, evidence_ids=list(claim_evidence))],
        recommendations=[Recommendation(action=s) for s in (*steps, *now)],
    )
    parsed = ParsedRCA(
        analysis_hash="h-" + str(abs(hash((family, cause, confidence, outcome, verdict, grounded)))),
        outcome=outcome,
        outcome_reason=outcome_reason,
        title="checkout-api 503s",
        report_markdown=report or f"# checkout-api 503s\n\n## Summary\n{cause}\n",
        chat=Chat(markdown=f"**checkout-api 503s**\n**Cause** {cause}", title="checkout-api 503s", sections=sections)
        if with_chat else None,
        fields=Fields(confidence=confidence),
        diagnosis=diagnosis,
    )
    gates = [GateResult(gate="G2", name="root_cause_traced", passed=grounded, detail="")]
    if safety is not None:
        gates.append(GateResult(gate="G3", name="mutation_guarded", passed=safety, detail=""))
    harness = evaluate(parsed)
    repaired = None
    if repaired_steps is not None:
        repaired = diagnosis.model_copy(update={"recommendations": [Recommendation(action=s) for s in repaired_steps]})
    return HarnessVerdict(
        analysis_hash=parsed.analysis_hash,
        repaired_diagnosis=repaired,
        repaired_report="" if repaired_steps is None
        else parsed.report_markdown + "\n**Now**\n" + "\n".join(f"- {s}" for s in repaired_steps),
        verdict=verdict,
        score=80.0,
        hard_gates=gates,
        checks=harness.checks,
        repairs=harness.repairs,
        evidence=[LedgerEvidence(id=e, source="splunk", source_group=g)
                  for e, g in zip(("E01", "E02"), groups, strict=False)],
        claims=[
            LedgerClaim(
                id="c1",
                kind="root_cause",
                text=cause,
                supports=list(claim_evidence) if grounded else [],
                status="supported" if grounded else "unlinked",
            )
        ],
        confidence_breakdown=ConfidenceBreakdown(
            independent_source_groups=list(groups), stated_confidence=confidence,
            final_confidence=final_confidence or confidence
        ),
        parsed=parsed,
    )


def case(case_type: str = "known", **kw) -> EvalCase:
    expect = kw.pop("expect", {})
    return EvalCase(
        case_id=kw.pop("case_id", f"{case_type}-1"),
        case_type=case_type,
        input=kw.pop("input", "14:00 [alert] something broke\n"),
        expected_family=kw.pop("expected_family", "configuration" if case_type == "known" else None),
        expect=CaseExpect(**expect),
        **kw,
    )
