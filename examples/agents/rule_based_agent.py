#!/usr/bin/env python3
"""A reference rule-based RCA agent: skill text output, or a post-harness capture.

    rcaloop eval run --fixtures examples/eval/fixtures.jsonl \
        --agent-cmd "python examples/agents/rule_based_agent.py"
    rcaloop eval novel-e2e --incidents examples/eval/novel_e2e.incidents.jsonl \
        --agent-cmd "python examples/agents/rule_based_agent.py --capture"

Reads the case input on stdin (the RCA context block, then the alert/log text; lines
look like ``14:02 [splunk] PoolTimeoutError …``). By default it prints a report, the
RCA_CHAT block and the RCA_FIELDS block; with ``--capture`` it prints an
``AlertAnalysisResponse`` JSON object whose evidence ``E01``, ``E02`` … are the input's
lines in order, with its own harness block. Standard library only. It is deliberately
simple and honest: a full known signature seen by two independent sources → high
confidence; a partial one, conflicting evidence, a signal outside the incident window or
missing data → a provisional answer; nothing known → unresolved with a read-only plan
(in a capture, where outcomes are known / novel / abstain: a novel mechanism resting on
the lines it saw, or an abstention when every data source failed).

The bad agents beside it (``family_forcing_agent.py``, ``overconfident_agent.py``,
``destructive_agent.py``) reuse this analysis and change one habit each.
"""

from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import dataclass, field

@dataclass(frozen=True)
class Rule:
    family: str
    signature: str  # regex on one input line
    symptoms: tuple[str, ...]  # regexes; all must appear for a full match
    phrase: str  # how the cause is named in the causal chain
    check: str  # a read-only check that confirms or refutes it
    fix: str  # the change, guarded (read-only check, approval, impact/rollback)


RULES = [
    Rule("configuration", r"PoolTimeoutError|pool size \d+|max_size", (r"5xx|503", r"latency"),
         "connection pool exhausted",
         "compare the connection count per pod with db.pool.max_size (read-only)",
         "after approval by the on-call lead, roll back the config change (impact: rolling restart; rollback restores "
         "the previous value)"),
    Rule("configuration", r"undefined variable|variable .* is undefined|overridden by extra_vars",
         (r"task failed|FAILED",), "variable override",
         "list the variable precedence for the host (ansible-inventory --host, read-only)",
         "after approval, fix the variable in the inventory via a reviewed change (impact: the next run uses the new "
         "value; rollback: revert the change)"),
    Rule("resource", r"OOMKilled|out of memory|No space left on device", (r"restart|CrashLoopBackOff|write failed",),
         "resource exhaustion",
         "check the container memory limit and usage (kubectl describe pod, read-only)",
         "after approval, raise the limit via a reviewed change (impact: pod restart; rollback: revert the limit)"),
    Rule("credential",
         r"certificate has expired|x509|secret_id expired|approle login denied|password authentication failed|401 "
         r"Unauthorized",
         (r"handshake|denied|403|401|authentication", r"failed"), "expired or rejected credential",
         "verify the credential's expiry date (read-only)",
         "rotate the credential after approval (impact: dependent jobs re-authenticate; rollback: previous credential "
         "stays valid until revoked)"),
    Rule("network", r"could not resolve host|NXDOMAIN|no route to host|connection reset by peer",
         (r"timeout|failed|unreachable",), "network path failure",
         "check DNS resolution and the route from the failing host (dig, traceroute; read-only)",
         "after approval, fix the DNS/route via a reviewed change (impact: resolution changes for every client; "
         "rollback: restore the previous record)"),
    Rule("application_bug", r"NullPointerException|Traceback|KeyError|TypeError: ", (r"500|exception|crash",),
         "application defect",
         "inspect the stack trace against the deployed commit (read-only)",
         "after approval, ship a fix through the normal release (impact: one deploy; rollback: redeploy the previous "
         "version)"),
    Rule("dependency", r"No matching distribution|version conflict|ERESOLVE|ModuleNotFoundError",
         (r"build failed|install failed|FAILED",), "dependency resolution failure",
         "compare the lock file with the resolved versions (read-only)",
         "after approval, pin the dependency in a reviewed change (impact: next build only; rollback: revert the pin)"),
    Rule("cloud_api", r"ThrottlingException|RequestLimitExceeded|quota exceeded|Rate exceeded", (r"retry|failed",),
         "cloud API throttling",
         "check the API quota usage in the provider console (read-only)",
         "after approval, request a quota increase (impact: none on running jobs; rollback: return to the previous "
         "quota)"),
    Rule("secrets", r'secret "[^"]+" not found|vault: permission denied|SecretNotFound',
         (r"CreateContainerConfigError|failed",), "missing secret",
         "list the secrets in the namespace (kubectl get secrets, read-only)",
         "restore the secret from the vault after approval (impact: pods start; rollback: delete the restored secret)"),
    Rule("infrastructure", r"NotReady|kubelet stopped posting|node .* unreachable", (r"evict|pending|NotReady",),
         "node failure",
         "describe the node and its conditions (kubectl describe node, read-only)",
         "cordon the node after approval (impact: pods reschedule; rollback: uncordon)"),
]
DATASOURCE_DOWN = re.compile(
    r"(query|search|scrape|api request|fetch)\b.*\b(failed|timed out|unavailable|returned no data)", re.I)
CONFLICT = re.compile(r"\[note\]|did not receive|also seen on|not affected by the change", re.I)
LINE = re.compile(r"^\s*(?:(\d{4}-\d{2}-\d{2}[T ])?(\d{2}):(\d{2})\S*\s+)?\[([\w.-]+)\]\s*(.*)$")
JSON_SOURCE = re.compile(r'"source":\s*"([\w.-]+)"')
DO_NOT = ["do not restart or delete anything before the checks above",
          "do not change anything until the cause is confirmed"]


@dataclass(frozen=True)
class Line:
    n: int  # position in the input, 1-based: a capture's evidence id is E<n>
    minute: int | None
    source: str
    text: str


def read_input(text: str) -> tuple[list[str], list[Line]]:
    subjects: list[str] = []
    body = text
    if text.startswith("RCA context (from the RCA service):"):
        head, _, body = text.partition("\n---\n")
        for ln in head.splitlines():
            if ln.startswith("- Analyze only these subjects:"):
                subjects = [s.strip() for s in ln.split(":", 1)[1].split(",") if s.strip()]
    lines = []
    for raw in body.splitlines():
        m = LINE.match(raw)
        if m:
            minute = int(m.group(2)) * 60 + int(m.group(3)) if m.group(2) else None
            lines.append(Line(len(lines) + 1, minute, m.group(4).lower(), m.group(5)))
        elif raw.strip():
            src = JSON_SOURCE.search(raw)
            lines.append(Line(len(lines) + 1, None, src.group(1).lower() if src else "input", raw.strip()))
    return subjects, lines


def _hits(pattern: str, lines: list[Line]) -> list[Line]:
    return [ln for ln in lines if re.search(pattern, ln.text, re.I)]


def analyse(subjects: list[str], lines: list[Line]) -> dict:
    down = [ln for ln in lines if DATASOURCE_DOWN.search(ln.text)]
    usable = [ln for ln in lines if ln not in down]
    alert_minutes = [ln.minute for ln in usable if ln.source == "alert" and ln.minute is not None]
    conflict = [ln for ln in usable if CONFLICT.search(ln.text)]
    matches = []
    for rule in RULES:
        hits = _hits(rule.signature, usable)
        if not hits:
            continue
        # symptoms count only on lines other than the signature and the alert itself
        others = [ln for ln in usable if ln.source != "alert" and ln not in hits]
        complete = all(_hits(s, others) for s in rule.symptoms)
        related = [ln for ln in usable if any(re.search(p, ln.text, re.I) for p in (rule.signature, *rule.symptoms))]
        sources = {ln.source for ln in related}
        stale = bool(alert_minutes) and hits[0].minute is not None and abs(min(alert_minutes) - hits[0].minute) > 60
        support = next(
            (ln for ln in usable if ln.source != hits[0].source
             and any(re.search(p, ln.text, re.I) for p in rule.symptoms)), None)
        evidence = [ln for ln in related if ln.source != "alert"]
        matches.append(
            (hits[0].minute if hits[0].minute is not None else 10**6, rule, complete, sources, stale, hits[0], support,
             evidence))
    matches.sort(key=lambda m: m[0])
    return {"subjects": subjects, "down": down, "conflict": conflict, "matches": matches, "lines": usable,
            "all_lines": lines}


def _quote(line: Line) -> str:
    """A verbatim span of an input line: the harness links the claim to that evidence."""
    return "`" + line.text.replace("`", "'")[:120] + "`"


@dataclass
class Answer:
    """What the agent concludes, before it is written as skill text or as a capture."""

    subjects: str
    family: str  # "unresolved" when no known signature matched
    confidence: str
    cause: str
    checks: list[str]
    now: list[str] = field(default_factory=list)
    alternatives: list[str] = field(default_factory=list)
    missing: dict[str, str] = field(default_factory=dict)  # data source -> the line saying it failed
    evidence: list[Line] = field(default_factory=list)  # the lines the root cause rests on
    usable: list[Line] = field(default_factory=list)
    all_lines: list[Line] = field(default_factory=list)
    do_not: list[str] = field(default_factory=lambda: list(DO_NOT))
    cites_evidence: bool = True  # its capture's root-cause claim links the evidence it rests on
    safety_gate_passed: bool = True  # what the agent's own harness recorded for its steps


def decide(a: dict) -> Answer:
    subjects = ", ".join(a["subjects"]) or "the alerting service"
    matches, down, conflict = a["matches"], a["down"], a["conflict"]
    missing = {ln.source: ln.text for ln in reversed(down)}
    common = dict(subjects=subjects, missing=dict(sorted(missing.items())), usable=a["lines"], all_lines=a["all_lines"])
    if not matches:
        cause = "(unresolved) no known failure signature matches; the mechanism is not yet determined"
        checks = ["check the error logs of the affected service around the alert (read-only)",
                  "compare recent changes (deploys, config) with the alert start (read-only)"]
        evidence = [ln for ln in a["lines"] if ln.source != "alert" and ln not in conflict]
        return Answer(family="unresolved", confidence="low", cause=cause, checks=checks, evidence=evidence, **common)
    _, rule, complete, sources, stale, *_ = matches[0]
    chain = [f"{m[1].phrase} ({_quote(m[5])}{'; ' + _quote(m[6]) if m[6] else ''})" for m in matches]
    doubt = (not complete) or stale or bool(conflict) or bool(down)
    confidence = "low" if doubt else ("high" if len(sources) >= 2 else "medium")
    qualifier = {"low": "(hypothesis, unconfirmed)", "medium": "(likely, to be confirmed)",
                 "high": "(confirmed by two sources)"}[confidence]
    cause = f"{qualifier} " + " → ".join(chain + ["the alert"])
    if stale:
        cause += "; the matching signal lies outside the incident window"
    if conflict:
        cause += "; conflicting evidence: " + conflict[0].text
    return Answer(
        family=rule.family,
        confidence=confidence,
        cause=cause,
        checks=[m[1].check for m in matches],
        now=[rule.fix] if confidence == "high" else [],
        alternatives=[m[1].family for m in matches[1:] if m[1].family != rule.family],
        evidence=matches[0][7],
        **common,
    )


def render(ans: Answer) -> str:
    """Skill text: report, RCA_CHAT block, RCA_FIELDS block."""
    report = [f"# {ans.subjects}: {ans.family}", "", "## Summary", ans.cause, "", f"Family: {ans.family}"]
    if ans.alternatives:
        report.append("Alternatives: " + ", ".join(ans.alternatives))
    report += ["", "## Evidence"] + [f"- [{ln.source}] {ln.text}" for ln in ans.usable[:12]]
    if ans.missing:
        report += ["", "## Missing data"] + [f"- {s} data missing: {text}" for s, text in ans.missing.items()]
    chat = ["RCA_CHAT", f"**{ans.subjects}: {ans.family}**", f"`{ans.subjects}` | rule-based reference agent", "",
            f"**TL;DR:** {ans.cause}"]
    if ans.missing:
        chat.append(
            "Data missing: " + ", ".join(f"{s} unavailable" for s in ans.missing) + "; conclusions are limited.")
    chat += [f"**Cause** {ans.cause}", "**Steps to verify**"] + [f"- {c}" for c in ans.checks]
    if ans.now:
        chat += ["**Now**"] + [f"- {n}" for n in ans.now]
    if ans.do_not:
        chat += ["**Do NOT**"] + [f"- {d}" for d in ans.do_not]
    if ans.alternatives:
        chat += ["**Also**", "- competing hypotheses: " + ", ".join(ans.alternatives)]
    chat.append("END_RCA_CHAT")
    origin = "undetermined" if ans.family == "unresolved" else "internal"
    fields = ["RCA_FIELDS", f"origin: {origin}", f"confidence: {ans.confidence}", "self_healing: unknown", "repo: none",
              "commit: none", "sensitive_data: none"]
    return "\n".join(report + [""] + chat + fields) + "\n"


def _eid(line: Line) -> str:
    return f"E{line.n:02d}"


def capture(ans: Answer, incident_id: str) -> dict:
    """A post-harness ``AlertAnalysisResponse``: known family, novel mechanism, or an abstention.

    Evidence ``E<n>`` is the n-th input line; the root-cause claim links the lines the
    answer rests on. Every data source failed and nothing else to go on → abstain.
    """
    alert = next((ln for ln in ans.all_lines if ln.source == "alert"), None)
    abstain = not ans.evidence and ans.family == "unresolved"
    family = None if abstain else ("novel_mechanism" if ans.family == "unresolved" else ans.family)
    cause = ans.cause
    if family == "novel_mechanism" and ans.cites_evidence:
        cause = ("(hypothesis) a mechanism outside the known failure families: "
                 + "; ".join(_quote(ln) for ln in ans.evidence))
    doc: dict = {
        "incident_id": incident_id,
        "alert": {"title": alert.text if alert else ans.subjects, "text": alert.text if alert else ""},
        "root_cause_family": family,
        "candidates": [f for f in [family, *ans.alternatives] if f],
        "confidence": ans.confidence,
        "summary": cause,
        "claims": [] if abstain else [
            {"id": "c1", "kind": "root_cause", "text": cause,
             "evidence_ids": [_eid(ln) for ln in ans.evidence] if ans.cites_evidence else []}
        ],
        "evidence": [{"id": _eid(ln), "source": ln.source, "title": ln.text[:60], "text": ln.text, "live": True}
                     for ln in ans.all_lines],
        "recommendations": [{"priority": "high", "action": a} for a in (*ans.checks, *ans.now)]
        + [{"priority": "do_not", "action": d} for d in ans.do_not],
        "harness": {"verdict": "pass",
                    "hard_gates": [{"gate": "G3", "name": "mutation_guarded", "passed": ans.safety_gate_passed}]},
    }
    if abstain:
        gone = ", ".join(ans.missing) or "every data source"
        doc |= {"outcome": "insufficient_context", "outcome_reason": f"{gone} unavailable; no evidence of the failure"}
    return doc


def run(adjust=lambda ans: ans) -> int:
    """Read stdin, decide, let ``adjust`` change the answer, print text or (``--capture``) JSON."""
    text = sys.stdin.read()
    if not text.strip():
        print("RCA_OUTCOME: insufficient_context - empty input")
        return 0
    ans = adjust(decide(analyse(*read_input(text))))
    if "--capture" in sys.argv[1:]:
        print(json.dumps(capture(ans, os.environ.get("RCALOOP_CASE_ID", "incident"))))
    else:
        sys.stdout.write(render(ans))
    return 0


if __name__ == "__main__":
    sys.exit(run())
