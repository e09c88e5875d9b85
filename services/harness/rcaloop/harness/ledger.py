"""The claim ledger: each claim of the report → the evidence ids that support or refute it.

Claims: the main root cause, each contributing factor, each recommendation's premise,
and each piece of evidence the agent cited (traceability items, capture claims).
Links, in the order they are tried:

* ``citation`` — a ``[label](msg:|code:|rca:…)`` link in the claim's text resolved to an item;
* ``agent`` — a capture claim's own ``evidence_ids``;
* ``traceability`` — a traceability item whose ``json_path`` resolves in an artifact of the
  same step file and whose ``exact_value`` / ``exact_quote`` matches what is there;
* ``quote`` — a backticked or double-quoted span of the claim found verbatim in an item.

Historical items are recorded under ``historical`` and never make a claim supported.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field

from rcaloop.contracts import TraceItem
from rcaloop.contracts.verdict import LedgerClaim
from rcaloop.harness import report
from rcaloop.harness.actions import GUARD_TEXTS
from rcaloop.harness.draft import Draft
from rcaloop.harness.evidence import Evidence
from rcaloop.shared import jsonpath

REFUTING_KINDS = frozenset({"refutes", "refuting", "contradiction", "contradicts", "counter_evidence"})
LINK_ORDER = ("citation", "agent", "traceability", "quote")
EARLY_EXITS = ("not_applicable", "insufficient_context")


@dataclass
class Links:
    found: dict[str, set[str]] = field(default_factory=dict)  # evidence id → methods
    notes: list[str] = field(default_factory=list)

    def add(self, ev: Evidence, how: str) -> None:
        self.found.setdefault(ev.id, set()).add(how)


@dataclass
class Ledger:
    claims: list[LedgerClaim]
    root: LedgerClaim | None
    cited: list[LedgerClaim]
    """Claims that are the agent's own evidence (traceability items, capture claims)."""
    unknown_ids: list[str] = field(default_factory=list)
    """Evidence ids the root-cause claim cites that no artifact of the run carries."""


def _basename(path: str | None) -> str | None:
    return posixpath.basename(path.replace("\\", "/")) if path else None


def _same_origin(ev: Evidence, item: TraceItem) -> bool:
    mine, theirs = _basename(ev.item.source_file), _basename(item.source_file)
    if mine and theirs:
        return mine == theirs
    src = (item.source or "").lower()
    return bool(src) and src in (ev.item.source.lower(), ev.origin.lower())


PROBLEMS = {
    "value_differs": "the value differs from the cited one",
    "quote_missing": "the quote is not in the value",
    "wrong_line": "the quote is not on the cited line",
    "nothing_to_match": "no exact_value or exact_quote to match",
}


def _trace_in(ev: Evidence, steps: list, item: TraceItem) -> jsonpath.Trace | None:
    """The item's trace checked inside this artifact (None when the path is not under it)."""
    mine = jsonpath.try_parse(ev.item.json_path) if ev.item.json_path else []
    if mine is None or steps[: len(mine)] != mine:
        return None
    return jsonpath.check(ev.value, steps[len(mine):], item.exact_value, item.exact_quote, item.line_number)


def trace(item: TraceItem, evidence: list[Evidence]) -> tuple[Evidence | None, str]:
    """The item this traceability entry points at, or None and why not."""
    candidates = [ev for ev in evidence if _same_origin(ev, item)]
    where = item.source_file or item.source or "an unnamed source"
    if not candidates:
        return None, f"no artifact from {where} in this run"
    if not item.json_path:
        if item.exact_quote and (hit := next((ev for ev in candidates if item.exact_quote in ev.haystack()), None)):
            return hit, ""
        return None, f"no json_path, and its quote is not in {where}"
    steps = jsonpath.try_parse(item.json_path)
    if steps is None:
        return None, f"json_path {item.json_path!r} is not a valid path"
    found = None
    for ev in candidates:
        result = _trace_in(ev, steps, item)
        if result is not None and result.ok:
            return ev, ""
        if result is not None and result.problem != "unresolved":
            found = result
    if found is not None:
        return None, f"{PROBLEMS.get(found.problem, found.problem)} at {item.json_path} in {where}"
    return None, f"json_path {item.json_path} does not resolve in {where}"


def _link_text(links: Links, texts: list[str], evidence: list[Evidence], by_ref: dict[str, Evidence]) -> None:
    for text in texts:
        for ref in report.citation_refs(text):
            if ref in by_ref:
                links.add(by_ref[ref], "citation")
            else:
                links.notes.append(f"cites {ref}, which the registry does not resolve")
        for quoted in report.quotes(text):
            for ev in evidence:
                if ev.citation is None and quoted in ev.haystack():
                    links.add(ev, "quote")


def _claim(cid: str, kind: str, text: str, links: Links, by_id: dict[str, Evidence], origin: str) -> LedgerClaim:
    supports, refutes, historical = [], [], []
    for eid in sorted(links.found):
        ev = by_id[eid]
        if not ev.live:
            historical.append(eid)
        elif ev.item.kind.lower() in REFUTING_KINDS:
            refutes.append(eid)
        else:
            supports.append(eid)
    how = {m for methods in links.found.values() for m in methods}
    status = "supported" if supports else ("refuted" if refutes else "unlinked")
    note = None
    if status == "unlinked":
        note = "; ".join(links.notes) or ("only historical evidence (context only)" if historical else "no evidence links")
    return LedgerClaim(
        id=cid,
        kind=kind,
        text=text,
        supports=supports,
        refutes=refutes,
        historical=historical,
        linked_by=[m for m in LINK_ORDER if m in how],
        status=status,
        origin=origin,
        note=note,
    )


def root_texts(draft: Draft) -> tuple[str, list[str]]:
    """The main root-cause claim and every passage that states or evidences it."""
    p, diag = draft.parsed, draft.diagnosis
    summary = diag.root_cause.summary if diag and diag.root_cause and diag.root_cause.summary else ""
    cause = p.chat.sections.cause if p.chat and p.chat.sections.cause else ""
    tldr = p.chat.sections.tldr if p.chat and p.chat.sections.tldr else ""
    summary_section = report.section(p.report_markdown, "summary", "root cause", "cause")
    evidence_section = report.section(p.report_markdown, "evidence")
    main = summary or cause or summary_section.split("\n\n")[0].strip() or tldr
    return main, [t for t in (summary, cause, tldr, summary_section, evidence_section) if t]


def _claims_trace(item: TraceItem) -> bool:
    """The item names a place in a step file (not just a line of the report's Evidence section)."""
    return bool(item.json_path or item.source_file)


@dataclass
class _Index:
    """The run's evidence looked up by harness id, citation ref and the agent's own id."""

    evidence: list[Evidence]
    by_id: dict[str, Evidence]
    by_ref: dict[str, Evidence]
    by_agent: dict[str, Evidence]
    traced: set[str] = field(default_factory=set)
    """Items some traceability entry really reached."""
    restrict: bool = False
    """The diagnosis has traceability entries: root-cause agent links must go through them."""
    unknown: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, evidence: list[Evidence]) -> _Index:
        return cls(
            evidence=evidence,
            by_id={ev.id: ev for ev in evidence},
            by_ref={ev.citation: ev for ev in evidence if ev.citation},
            by_agent={ev.item.agent_id: ev for ev in evidence if ev.item.agent_id},
        )

    def link_ids(self, links: Links, ids: list[str], *, root: bool = False) -> None:
        """A capture claim's ``evidence_ids`` (the agent's ids, harness ids or citation refs)."""
        for eid in ids:
            ev = self.by_agent.get(eid) or self.by_id.get(eid) or self.by_ref.get(eid)
            if ev is None:
                links.notes.append(f"evidence id {eid} is not among this run's artifacts")
                self.unknown.append(eid)
            elif root and self.restrict and ev.id not in self.traced:
                links.notes.append(f"{ev.id} is cited only through a traceability item that does not trace")
            else:
                links.add(ev, "agent")

    def link_text(self, links: Links, texts: list[str]) -> None:
        _link_text(links, texts, self.evidence, self.by_ref)


def _observations(draft: Draft, index: _Index, root_links: Links) -> list[tuple[str, Links, str, int]]:
    """Each traceability item as a cited observation; the root-cause ones also ground the cause."""
    out = []
    for i, item in enumerate(draft.traces):
        links = Links()
        traceable = _claims_trace(item)
        index.restrict = index.restrict or traceable
        hit, why = trace(item, index.evidence) if traceable else _quoted(item, index.evidence)
        how = "traceability" if traceable else "quote"
        if hit and i not in draft.dropped_traces:
            links.add(hit, how)
            index.traced.add(hit.id)
            if item.is_root_cause:
                root_links.add(hit, how)
        elif not hit:
            links.notes.append(why)
            if item.is_root_cause:
                root_links.notes.append(f"diagnosis.evidence[{i}]: {why}")
        text = item.message or item.exact_quote or str(item.exact_value or item.json_path or "")
        out.append((f"diagnosis.evidence[{i}]", links, text, i))
    return out


def build(draft: Draft) -> Ledger:
    index = _Index.of(draft.evidence)
    diag = draft.diagnosis
    early = draft.parsed.outcome in EARLY_EXITS
    main, passages = root_texts(draft)
    root_links = Links()
    observations = _observations(draft, index, root_links)
    if main and not early:
        index.link_text(root_links, passages)

    factors = list(diag.contributing_factors) if diag else []
    factor_links = [Links() for _ in factors]
    recs = [r for r in draft.recommendations if r.action not in GUARD_TEXTS]
    rec_links = [Links() for _ in recs]
    extra: list[tuple[str, Links, str, int]] = []
    for i, claim in enumerate(draft.agent_claims):
        rec_at = next((k for k, r in enumerate(recs) if r.action == claim.text), None)
        if claim.kind == "root_cause":
            if not early:
                index.link_ids(root_links, claim.evidence_ids, root=True)
                main = main or claim.text
        elif claim.kind == "contributing_factor" and claim.text in factors:
            index.link_ids(factor_links[factors.index(claim.text)], claim.evidence_ids)
        elif claim.kind == "recommendation" and rec_at is not None:
            index.link_ids(rec_links[rec_at], claim.evidence_ids)
        else:
            links = Links()
            index.link_ids(links, claim.evidence_ids)
            index.link_text(links, [claim.text])
            extra.append((f"diagnosis.claims[{i}]", links, claim.text, i))

    claims: list[LedgerClaim] = []
    cited: list[LedgerClaim] = []

    def add(kind: str, text: str, links: Links, origin: str) -> LedgerClaim:
        claim = _claim(f"C{len(claims) + 1:02d}", kind, text, links, index.by_id, origin)
        claims.append(claim)
        return claim

    main = main or (draft.parsed.title or "")
    root = add("root_cause", main, root_links, "root_cause") if main and not early else None
    if root is not None and draft.root_marked:
        root.note = "marked unverified by the harness" + (f"; {root.note}" if root.note else "")
    for i, text in enumerate(factors):
        index.link_text(factor_links[i], [text])
        add("contributing_factor", text, factor_links[i], f"contributing_factors[{i}]")
    for i, rec in enumerate(recs):
        index.link_text(rec_links[i], [rec.action])
        if rec.file:
            for ev in index.evidence:
                if ev.citation is None and rec.file in ev.haystack() + (ev.item.source_file or ""):
                    rec_links[i].add(ev, "quote")
        add("recommendation", rec.action, rec_links[i], f"recommendations[{i}]")
    for origin, links, text, i in observations:
        claim = add("observation", text, links, origin)
        if i in draft.dropped_traces:
            claim.status, claim.note = "dropped", draft.dropped_traces[i]
        if _claims_trace(draft.traces[i]):
            cited.append(claim)
    for origin, links, text, i in extra:
        kind = draft.agent_claims[i].kind
        claim = add("observation" if kind == "other" else kind, text, links, origin)
        if i in draft.dropped_agent_claims:
            claim.status, claim.note = "dropped", draft.dropped_agent_claims[i]
        if draft.agent_claims[i].evidence_ids:
            cited.append(claim)
    return Ledger(claims=claims, root=root, cited=cited, unknown_ids=index.unknown)


def _quoted(item: TraceItem, evidence: list[Evidence]) -> tuple[Evidence | None, str]:
    """A report Evidence line: supported when an artifact holds its quoted text."""
    if not item.exact_quote:
        return None, "a report evidence line without a quote or a trace"
    for ev in evidence:
        if ev.live and item.exact_quote in ev.haystack():
            return ev, ""
    return None, f"no artifact of this run contains {item.exact_quote[:80]!r}"
