#!/usr/bin/env python3
"""A reference rule-based RCA agent following the skill output contract.

    rcaloop eval run --fixtures examples/eval/fixtures.jsonl \
        --agent-cmd "python examples/agents/rule_based_agent.py"

Reads the case input on stdin (the RCA context block, then the alert/log text; lines
look like ``14:02 [splunk] PoolTimeoutError …``) and prints a report, the RCA_CHAT
block and the RCA_FIELDS block. Standard library only. It is deliberately simple and
honest: a full known signature seen by two independent sources → high confidence; a
partial one, conflicting evidence, a signal outside the incident window or missing
data → a provisional answer; nothing known → unresolved with a read-only plan.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    family: str
    signature: str  # regex on one input line
    symptoms: tuple[str, ...]  # regexes; all must appear for a full match
    phrase: str  # how the cause is named in the causal chain
    check: str  # a read-only check that confirms or refutes it
    fix: str  # the change, guarded (read-only check, approval, impact/rollback)


RULES = [
    Rule("configuration", r"PoolTimeoutError|pool size \d+|max_size", (r"5xx|503", r"latency"), "connection pool exhausted",
         "compare the connection count per pod with db.pool.max_size (read-only)", "after approval by the on-call lead, roll back the config change (impact: rolling restart; rollback restores the previous value)"),
    Rule("configuration", r"undefined variable|variable .* is undefined|overridden by extra_vars", (r"task failed|FAILED",), "variable override",
         "list the variable precedence for the host (ansible-inventory --host, read-only)", "after approval, fix the variable in the inventory via a reviewed change (impact: the next run uses the new value; rollback: revert the change)"),
    Rule("resource", r"OOMKilled|out of memory|No space left on device", (r"restart|CrashLoopBackOff|write failed",), "resource exhaustion",
         "check the container memory limit and usage (kubectl describe pod, read-only)", "after approval, raise the limit via a reviewed change (impact: pod restart; rollback: revert the limit)"),
    Rule("credential", r"certificate has expired|x509|secret_id expired|approle login denied|password authentication failed|401 Unauthorized",
         (r"handshake|denied|403|401|authentication", r"failed"), "expired or rejected credential",
         "verify the credential's expiry date (read-only)", "rotate the credential after approval (impact: dependent jobs re-authenticate; rollback: previous credential stays valid until revoked)"),
    Rule("network", r"could not resolve host|NXDOMAIN|no route to host|connection reset by peer", (r"timeout|failed|unreachable",), "network path failure",
         "check DNS resolution and the route from the failing host (dig, traceroute; read-only)", "after approval, fix the DNS/route via a reviewed change (impact: resolution changes for every client; rollback: restore the previous record)"),
    Rule("application_bug", r"NullPointerException|Traceback|KeyError|TypeError: ", (r"500|exception|crash",), "application defect",
         "inspect the stack trace against the deployed commit (read-only)", "after approval, ship a fix through the normal release (impact: one deploy; rollback: redeploy the previous version)"),
    Rule("dependency", r"No matching distribution|version conflict|ERESOLVE|ModuleNotFoundError", (r"build failed|install failed|FAILED",), "dependency resolution failure",
         "compare the lock file with the resolved versions (read-only)", "after approval, pin the dependency in a reviewed change (impact: next build only; rollback: revert the pin)"),
    Rule("cloud_api", r"ThrottlingException|RequestLimitExceeded|quota exceeded|Rate exceeded", (r"retry|failed",), "cloud API throttling",
         "check the API quota usage in the provider console (read-only)", "after approval, request a quota increase (impact: none on running jobs; rollback: return to the previous quota)"),
    Rule("secrets", r'secret "[^"]+" not found|vault: permission denied|SecretNotFound', (r"CreateContainerConfigError|failed",), "missing secret",
         "list the secrets in the namespace (kubectl get secrets, read-only)", "restore the secret from the vault after approval (impact: pods start; rollback: delete the restored secret)"),
    Rule("infrastructure", r"NotReady|kubelet stopped posting|node .* unreachable", (r"evict|pending|NotReady",), "node failure",
         "describe the node and its conditions (kubectl describe node, read-only)", "cordon the node after approval (impact: pods reschedule; rollback: uncordon)"),
]
DATASOURCE_DOWN = re.compile(r"(query|search|scrape|api request|fetch)\b.*\b(failed|timed out|unavailable|returned no data)", re.I)
CONFLICT = re.compile(r"\[note\]|did not receive|also seen on|not affected by the change", re.I)
LINE = re.compile(r"^\s*(?:(\d{4}-\d{2}-\d{2}[T ])?(\d{2}):(\d{2})\S*\s+)?\[([\w.-]+)\]\s*(.*)$")
JSON_SOURCE = re.compile(r'"source":\s*"([\w.-]+)"')


@dataclass
class Line:
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
            lines.append(Line(minute, m.group(4).lower(), m.group(5)))
        elif raw.strip():
            src = JSON_SOURCE.search(raw)
            lines.append(Line(None, src.group(1).lower() if src else "input", raw.strip()))
    return subjects, lines


def analyse(subjects: list[str], lines: list[Line]) -> dict:
    down = [ln for ln in lines if DATASOURCE_DOWN.search(ln.text)]
    usable = [ln for ln in lines if ln not in down]
    alert_minutes = [ln.minute for ln in usable if ln.source == "alert" and ln.minute is not None]
    conflict = [ln for ln in usable if CONFLICT.search(ln.text)]
    matches = []
    for rule in RULES:
        hits = [ln for ln in usable if re.search(rule.signature, ln.text, re.I)]
        if not hits:
            continue
        # symptoms count only on lines other than the signature and the alert itself
        others = "\n".join(ln.text for ln in usable if ln.source != "alert" and ln not in hits)
        complete = all(re.search(s, others, re.I) for s in rule.symptoms)
        sources = {ln.source for ln in usable if any(re.search(p, ln.text, re.I) for p in (rule.signature, *rule.symptoms))}
        stale = bool(alert_minutes) and hits[0].minute is not None and abs(min(alert_minutes) - hits[0].minute) > 60
        support = next((ln for ln in usable if ln.source != hits[0].source and any(re.search(p, ln.text, re.I) for p in rule.symptoms)), None)
        matches.append((hits[0].minute if hits[0].minute is not None else 10**6, rule, complete, sources, stale, hits[0], support))
    matches.sort(key=lambda m: m[0])
    return {"subjects": subjects, "down": down, "conflict": conflict, "matches": matches, "lines": usable}


def _quote(line: Line) -> str:
    """A verbatim span of an input line: the harness links the claim to that evidence."""
    return "`" + line.text.replace("`", "'")[:120] + "`"


def render(a: dict) -> str:
    subjects = ", ".join(a["subjects"]) or "the alerting service"
    matches, down, conflict = a["matches"], a["down"], a["conflict"]
    missing = sorted({ln.source for ln in down})
    if not matches:
        family, confidence, cause = "unresolved", "low", "(unresolved) no known failure signature matches; the mechanism is not yet determined"
        alternatives: list[str] = []
        checks = ["check the error logs of the affected service around the alert (read-only)",
                  "compare recent changes (deploys, config) with the alert start (read-only)"]
        now = []
    else:
        first = matches[0]
        rule, complete, sources, stale = first[1], first[2], first[3], first[4]
        family = rule.family
        alternatives = [m[1].family for m in matches[1:] if m[1].family != family]
        chain = [f"{m[1].phrase} ({_quote(m[5])}{'; ' + _quote(m[6]) if m[6] else ''})" for m in matches]
        doubt = (not complete) or stale or bool(conflict) or bool(down)
        if doubt:
            confidence = "low"
        elif len(sources) >= 2:
            confidence = "high"
        else:
            confidence = "medium"
        qualifier = "(hypothesis, unconfirmed)" if confidence == "low" else ("(likely, to be confirmed)" if confidence == "medium" else "(confirmed by two sources)")
        cause = f"{qualifier} " + " → ".join(chain + ["the alert"])
        if stale:
            cause += "; the matching signal lies outside the incident window"
        if conflict:
            cause += "; conflicting evidence: " + conflict[0].text
        checks = [m[1].check for m in matches]
        now = [rule.fix] if confidence == "high" else []
    report = [f"# {subjects}: {family}", "", "## Summary", cause, "", f"Family: {family}"]
    if alternatives:
        report.append("Alternatives: " + ", ".join(alternatives))
    report += ["", "## Evidence"] + [f"- [{ln.source}] {ln.text}" for ln in a["lines"][:12]]
    if missing:
        report += ["", "## Missing data"] + [f"- {s} data missing: {next(ln.text for ln in down if ln.source == s)}" for s in missing]
    chat = ["RCA_CHAT", f"**{subjects}: {family}**", f"`{subjects}` | rule-based reference agent", "",
            f"**TL;DR:** {cause}"]
    if missing:
        chat.append("Data missing: " + ", ".join(f"{s} unavailable" for s in missing) + "; conclusions are limited.")
    chat += [f"**Cause** {cause}", "**Steps to verify**"] + [f"- {c}" for c in checks]
    if now:
        chat += ["**Now**"] + [f"- {n}" for n in now]
    chat += ["**Do NOT**", "- do not restart or delete anything before the checks above",
             "- do not change anything until the cause is confirmed"]
    if alternatives:
        chat += ["**Also**", "- competing hypotheses: " + ", ".join(alternatives)]
    chat.append("END_RCA_CHAT")
    origin = "undetermined" if family == "unresolved" else "internal"
    fields = ["RCA_FIELDS", f"origin: {origin}", f"confidence: {confidence}", "self_healing: unknown", "repo: none", "commit: none", "sensitive_data: none"]
    return "\n".join(report + [""] + chat + fields) + "\n"


def main() -> int:
    text = sys.stdin.read()
    if not text.strip():
        print("RCA_OUTCOME: insufficient_context - empty input")
        return 0
    sys.stdout.write(render(analyse(*read_input(text))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
