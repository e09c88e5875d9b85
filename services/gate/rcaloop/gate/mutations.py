"""Novelty mutations: novel variants of known fixtures.

Each mutation takes a known case and returns a ``novel`` case tagged with the
mutation, whose familiar family becomes forbidden: an answer that still forces it is a
failure, a provisional/unresolved one passes (``checks.EV304``). A mutation that
cannot apply (the case declares no signature, one symptom …) yields an ``Issue``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from rcaloop.contracts import EvidenceArtifact, Issue
from rcaloop.gate.cases import EvalCase

DEFAULT_SHIFT_MINUTES = 360
GENERIC_CONFLICT = "[note] the same failure is seen on a replica that did not receive the suspected change"


def _drop_lines(text: str, needles: list[str]) -> tuple[str, int]:
    lines = text.splitlines(keepends=True)
    kept = [ln for ln in lines if not any(n.lower() in ln.lower() for n in needles)]
    return "".join(kept), len(lines) - len(kept)


def _variant(case: EvalCase, mutation: str, text: str, **changes) -> EvalCase:
    familiar = [f for f in [case.expected_family, *case.expect.accept_families] if f]
    return case.model_copy(
        update={
            "case_id": f"{case.case_id}@{mutation}",
            "case_type": "novel",
            "title": f"{case.title or case.case_id} [{mutation}]",
            "input": text,
            "expected_family": None,
            "mutation": mutation,
            "source_case": case.case_id,
            "expect": case.expect.model_copy(update={"forbidden_families": familiar}),
            **changes,
        },
        deep=True,
    )


def remove_signature(case: EvalCase) -> EvalCase | str:
    if not case.signals.signature:
        return "declares no signals.signature"
    text, dropped = _drop_lines(case.input or "", case.signals.signature)
    if not dropped:
        return "signature text not found in the input"
    evidence = [e for e in case.evidence
                if not any(s.lower() in f"{e.title} {e.text}".lower() for s in case.signals.signature)]
    return _variant(case, "remove_signature", text, evidence=evidence)


def drop_symptom(case: EvalCase) -> EvalCase | str:
    if len(case.signals.symptoms) < 2:
        return "needs at least two signals.symptoms (one must remain)"
    text, dropped = _drop_lines(case.input or "", case.signals.symptoms[:1])
    if not dropped:
        return f"symptom {case.signals.symptoms[0]!r} not found in the input"
    return _variant(case, "drop_symptom", text)


def add_conflicting_evidence(case: EvalCase) -> EvalCase | str:
    line = case.signals.conflicting_evidence or GENERIC_CONFLICT
    text = (case.input or "").rstrip("\n") + "\n" + line + "\n"
    evidence = [*case.evidence,
                EvidenceArtifact(source="mutation", kind="conflicting", title="conflicting evidence", text=line)]
    return _variant(case, "add_conflicting_evidence", text, evidence=evidence)


def remove_datasource(case: EvalCase) -> EvalCase | str:
    if not case.signals.datasources:
        return "declares no signals.datasources"
    source = case.signals.datasources[0]
    lines = (case.input or "").splitlines(keepends=True)
    tag = re.compile(r"(?:^|\s)\[" + re.escape(source) + r"\]", re.I)
    kept = [ln for ln in lines if not tag.search(ln)]
    if len(kept) == len(lines):
        return f"no input line is tagged [{source}]"
    evidence = [e for e in case.evidence if e.source.lower() != source.lower()]
    return _variant(case, "remove_datasource", "".join(kept), evidence=evidence)


_ISO = re.compile(r"\b(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?(Z|[+-]\d{2}:?\d{2})?")
_CLOCK = re.compile(r"(?<![\d:-])([01]\d|2[0-3]):([0-5]\d)(?![\d:])")


def shift_times(text: str, minutes: int) -> str:
    """Every ISO timestamp and HH:MM clock time moved by ``minutes``."""
    delta = timedelta(minutes=minutes)

    def iso(m: re.Match) -> str:
        at = datetime.fromisoformat(f"{m.group(1)}T{m.group(2)}:{m.group(3)}:{m.group(4) or '00'}") + delta
        sep = m.group(0)[10]
        secs = f":{at:%S}" if m.group(4) else ""
        return f"{at:%Y-%m-%d}{sep}{at:%H:%M}{secs}{m.group(5) or ''}"

    text = _ISO.sub(iso, text)
    # ISO times were already shifted; shift only bare clock times outside them.
    spans = [(m.start(), m.end()) for m in _ISO.finditer(text)]
    out, last = [], 0
    for m in _CLOCK.finditer(text):
        if any(a <= m.start() < b for a, b in spans):
            continue
        total = (int(m.group(1)) * 60 + int(m.group(2)) + minutes) % (24 * 60)
        out += [text[last : m.start()], f"{total // 60:02d}:{total % 60:02d}"]
        last = m.end()
    out.append(text[last:])
    return "".join(out)


def shift_window(case: EvalCase, minutes: int = DEFAULT_SHIFT_MINUTES) -> EvalCase | str:
    """Move the incident window: every timestamp moves except on the signature lines.

    The known signal then lies outside the incident it used to explain.
    """
    if not case.signals.signature:
        return "declares no signals.signature (the lines that stay put)"
    needles = [n.lower() for n in case.signals.signature]
    lines = (case.input or "").splitlines(keepends=True)
    text = "".join(ln if any(n in ln.lower() for n in needles) else shift_times(ln, minutes) for ln in lines)
    if text == (case.input or ""):
        return "no timestamps outside the signature lines to shift"
    evidence = [
        e
        if any(n in f"{e.title} {e.text}".lower() for n in needles) or e.observed_at is None
        else e.model_copy(update={"observed_at": e.observed_at + timedelta(minutes=minutes)})
        for e in case.evidence
    ]
    return _variant(case, "shift_window", text, evidence=evidence, window_shift_minutes=minutes)


@dataclass(frozen=True)
class Mutation:
    name: str
    code: str
    description: str
    apply: Callable[[EvalCase], EvalCase | str]


MUTATIONS: list[Mutation] = [
    Mutation("remove_signature", "MUT101", "drop every input line holding the known signature", remove_signature),
    Mutation("drop_symptom", "MUT102", "drop the lines of the first listed symptom", drop_symptom),
    Mutation("add_conflicting_evidence", "MUT103", "append evidence that contradicts the known diagnosis",
             add_conflicting_evidence),
    Mutation("remove_datasource", "MUT104", "drop the lines and artifacts of the first listed datasource",
             remove_datasource),
    Mutation("shift_window", "MUT105",
             f"move the incident window {DEFAULT_SHIFT_MINUTES} minutes away from the signature", shift_window),
]


def mutate(cases: list[EvalCase], kinds: list[str] | None = None) -> tuple[list[EvalCase], list[Issue]]:
    """Novel variants of every known case (job-directory cases are skipped)."""
    out: list[EvalCase] = []
    issues: list[Issue] = []
    chosen = [m for m in MUTATIONS if kinds is None or m.name in kinds]
    for case in cases:
        if case.case_type != "known" or case.mutation:
            continue
        if case.input is None:
            issues.append(Issue(code="MUT100", message=f"{case.case_id}: job-directory cases are not mutated"))
            continue
        for m in chosen:
            result = m.apply(case)
            if isinstance(result, str):
                issues.append(Issue(code=m.code, message=f"{case.case_id}: {m.name} skipped: {result}"))
            else:
                out.append(result)
    return out, issues
