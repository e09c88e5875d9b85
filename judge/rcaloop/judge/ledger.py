"""The claim ledger: each claim of the report → the evidence ids that support or refute it.

Claims: the main root cause, each contributing factor, each recommendation's premise,
and each piece of evidence the agent cited (traceability items, capture claims).
Links, in the order they are tried:

* ``citation`` — a ``[label](msg:|code:|rca:…)`` link in the claim's text resolved to an item;
* ``agent`` — a claim's own ``evidence_ids`` (captures; a skill's Cause citations);
* ``traceability`` — a traceability item whose ``json_path`` resolves in an artifact of the
  same step file to the stated ``exact_value`` / ``exact_quote`` (``rcaloop.shared.jsonpath``);
* ``quote`` — a backticked or double-quoted span of the claim found verbatim in an item.

The **root cause** is supported only by evidence the agent tied to it: the traceability
items it marked ``is_root_cause`` and the ``evidence_ids`` of its root-cause claim. Only
when the output ties nothing that way are the citations and quotes written in the
root-cause statement itself (summary, Cause, TL;DR) read — never the rest of the report.
Every tie must hold: a root-cause item that does not trace, or an id no artifact of the run
carries, is recorded under the claim's ``untraced`` (hard gate G2 then fails).
Refuting items — of a refuting kind, or named in the claim's ``refuting_evidence_ids`` —
are recorded under ``refutes``. A live refuting item counts against the root cause even when
the output ties it to no claim or to another one: only an item the output lists as the
refutation of an alternative diagnosis is exempt (refutation is never read as "unrelated").
Historical items are recorded under ``historical`` and never make a claim supported.
"""

from __future__ import annotations

from rcaloop.judge.reading import places
from rcaloop.judge.reading.places import Role

import posixpath
import re
from dataclasses import dataclass, field

from rcaloop.contracts import TraceItem
from rcaloop.contracts.parsed import UNKNOWN_TARGET
from rcaloop.contracts.verdict import LedgerClaim
from rcaloop.judge import provenance, report
from rcaloop.judge.reading import causes
from rcaloop.judge.steps import GUARD_TEXTS
from rcaloop.judge.draft import STATED_CAUSE, Draft, named_family
from rcaloop.judge.evidence import SIGNATURE_GROUP, Evidence, kind_of, kinds
from rcaloop.shared import jsonpath

REFUTING_KINDS = kinds("inconsistent", "inconsistency", "inconsistent_with_cause")
"""Whole kinds that refute without a refuting stem or pair below."""
REFUTING_STEMS = ("refut", "contradict", "disconfirm", "disprov", "falsif", "counterevidence", "counterexample")
"""A kind with a word starting so refutes (``contradicting_metric``, ``Disproves``)."""
REFUTING_PAIRS = frozenset({"counter_evidence", "counter_example", "negative_evidence", "evidence_against",
                            "not_consistent"})
EXCLUDING_WORDS = frozenset({"alternative", "excluded", "exclude", "exclusion", "eliminated", "eliminate",
                             "elimination", "ruled", "ruling"})
EXCLUDING_PAIRS = frozenset({"rule_out"})
"""A kind that says something was ruled out (``ruled_out``, ``alternative_refuted``, ``excluded``,
``rules_out_alternative``) does not say what: it counts against the root cause only when its
text names the root cause (one of its identifiers, or two of its words)."""
METRIC_COUNTER = "counter"
"""``counter`` alone is a metric type on a metrics collector; on any other collector it is counter-evidence."""


def refuting_kind(ev: Evidence) -> bool:
    """Whether an item's kind says it refutes (any spelling: ``Counter_Evidence``, ``rules-out`` …)."""
    kind = kind_of(ev.item.kind)
    if kind == METRIC_COUNTER:
        return ev.group != "metrics"
    if kind in REFUTING_KINDS or excluding_kind(ev):
        return True
    words = kind.split("_")
    return any(w.startswith(REFUTING_STEMS) for w in words) or any(
        f"{a}_{b}" in REFUTING_PAIRS for a, b in zip(words, words[1:], strict=False)
    )


def excluding_kind(ev: Evidence) -> bool:
    """Whether an item's kind says something was ruled out, without saying it was the root cause."""
    words = kind_of(ev.item.kind).split("_")
    return bool(EXCLUDING_WORDS.intersection(words)) or any(
        f"{a}_{b}" in EXCLUDING_PAIRS for a, b in zip(words, words[1:], strict=False)
    )


@dataclass(frozen=True)
class _RootTerms:
    """The root cause's identifiers and content words (without the alert's words)."""

    idents: frozenset[str]
    words: frozenset[str]
    exclude: frozenset[str]

    @classmethod
    def of(cls, draft: Draft) -> _RootTerms:
        claims = [c.text for c in draft.agent_claims if c.kind == "root_cause"]
        exclude = alert_terms(draft)
        idents, words = causes.terms("\n".join([*root_texts(draft)[1], *claims]), exclude)
        return cls(idents, words, exclude)

    def named_by(self, ev: Evidence) -> bool:
        """Does the item's title or text name the root cause (one identifier, or two content words)?"""
        idents, words = causes.terms(f"{ev.item.title}\n{ev.item.text}", self.exclude)
        return bool(idents & self.idents) or len(words & self.words) >= causes.SHARED




def alert_terms(draft: Draft) -> frozenset[str]:
    """The terms of the alert, the chat's subjects and the title's symptom part, with their parts
    (``HighErrorRate`` → high, error, rate): the symptom every account of the failure repeats."""
    p = draft.parsed
    subjects = " ".join(p.chat.subjects) if p.chat else ""
    symptom = causes.title_parts(p.title)[0] if p.title and p.source_kind != "step_files" else ""
    return causes.parts("\n".join([p.alert_text or "", subjects, symptom]))


def _title_cause(draft: Draft, title: str | None) -> str:
    """A title's cause part; when the part after the connective is the symptom (it names the alert) and
    the part before it does not, the part before is the cause (``Postgres disk full: checkout-api 503s``)."""
    if not title:
        return ""
    symptom, cause = causes.title_parts(title)
    alert = causes.parts(draft.parsed.alert_text or "")
    if cause and (not causes.culprits(cause, alert) or (
            alert and causes.parts(cause) & alert and not causes.parts(symptom) & alert)):
        return symptom  # the part after the connective only names the symptom: the part before is the cause
    if cause and symptom and causes.only_symptom(cause) and not causes.only_symptom(symptom):
        return symptom  # "Postgres disk full — checkout-api 5xx spike": the symptom comes second
    return cause


def stated_causes(draft: Draft) -> list[tuple[str, str, bool]]:
    """Where the output states its root cause apart from the claim its evidence is tied to: a capture's
    posted summary, the report's Summary a reviewer reads, the title's cause part and the chat's TL;DR
    (a skill report's Cause and a step file's summary are themselves the claim)."""
    p, diag = draft.parsed, draft.diagnosis
    out: list[tuple[str, str, bool]] = []  # (where, text, whether it still holds the symptom)
    if p.source_kind == "capture" and diag and diag.root_cause and diag.root_cause.summary:
        out.append(("the summary", diag.root_cause.summary, True))
    section = places.section_of(p.report_markdown, Role.SUMMARY, Role.CAUSE).split("\n\n")[0].strip()
    if section and p.report_source == "agent" and all(section != text for _, text, _ in out):
        out.append(("the report's Summary", section, True))
    for where, title in (("the title", p.title if p.source_kind != "step_files" else None),
                         ("the chat's title", p.chat.title if p.chat and p.chat.title != p.title else None)):
        cause = _title_cause(draft, title)
        if cause:
            out.append((where, cause, False))
    if p.chat and p.chat.sections.tldr:
        out.append(("the chat's TL;DR", p.chat.sections.tldr, True))
    return out


GROUND_ROLES = (Role.EVIDENCE, Role.CAUSE, Role.FACTOR, Role.TIMELINE)
"""Report sections whose text grounds a stated cause: the agent's own account of its evidence."""


def other_causes(draft: Draft, claims: list[str], evidence: list[str]) -> list[tuple[str, str]]:
    """The stated causes that share nothing specific with what the output asserts as its grounds: the
    tied claims and their evidence, and a skill report's own account of its evidence (its evidence,
    cause, factor and timeline sections); what they set aside grounds nothing."""
    p = draft.parsed
    texts = [*claims, *evidence, *(t.message or "" for t in draft.traces if t.is_root_cause)]
    if p.report_source == "agent" and p.source_kind == "skill_text":
        texts += [places.section_of(p.report_markdown, role) for role in GROUND_ROLES]
    grounds = causes.ground_terms(texts)
    claim = causes.ground_terms(claims)
    alternatives = [a.summary or "" for a in (draft.diagnosis.alternative_diagnoses if draft.diagnosis else [])]
    ruled_out = frozenset().union(*(causes.parts(a) for a in alternatives)) if alternatives else frozenset()
    exclude = alert_terms(draft)
    named = causes.parts("\n".join([*claims, *evidence]))
    claim_idents, _ = causes.terms("\n".join(claims))
    grounded = frozenset(i for i in claim_idents if i in causes.parts("\n".join(evidence)))
    out, held = [], set(grounds)
    set_aside = _set_aside_terms(draft, exclude)
    known = grounds | named | causes.parts("\n".join(ev.haystack() for ev in draft.evidence))
    claim_parts = causes.terms("\n".join([*claims, *evidence]), exclude)[0]
    stated = stated_causes(draft)
    for where, text, symptom in [s for s in stated if s[2]] + [s for s in stated if not s[2]]:
        if grounded & causes.parts(causes.ruled_out(text)):
            out.append((where, text))  # it rules out the cause the claim and its evidence show
            continue
        if where == "the summary" and text not in claims and not causes.summary_names(
                text, named, grounded, exclude, causes.terms("\n".join(evidence), exclude)[1], claim):
            out.append((where, text))  # a capture's summary must name the cause its structured claim grounds
            continue
        if causes.agrees(text, frozenset(held), exclude if symptom else frozenset(), claim, ruled_out):
            if symptom:  # a summary that agrees grounds the headlines too (they are its short form)
                held |= causes.ground_terms([text])
            continue
        named_there = causes.terms(causes.asserted(text)[0], exclude)[0]
        culprits = causes.culprits(text, exclude)
        novel = {w for w in culprits if not causes.parts(w) & known}
        if (named_there & set_aside) - (grounds | claim_parts) or _unshown(novel, culprits):
            out.append((where, text))  # it names as the cause what the output sets aside, or what nothing in it shows
    return out


def _unshown(novel: set[str], culprits: frozenset[str]) -> bool:
    """Half or more of what a stated cause names is shown nowhere in the output: two such terms at least, or
    the one term it names (``the 14:00 release``); one word of two is too little to tell another cause."""
    return bool(novel) and 2 * len(novel) >= len(culprits) and (len(novel) >= 2 or len(culprits) == 1)


def _set_aside_terms(draft: Draft, exclude: frozenset[str]) -> frozenset[str]:
    """The identifiers the output itself sets aside: those of its alternative diagnoses, and those its lines
    rule out in so many words (``v2.3.1 ruled out``, ``cfg-2291 is unrelated``)."""
    p, diag = draft.parsed, draft.diagnosis
    texts = [f"{a.category or ''} {a.summary or ''}" for a in (diag.alternative_diagnoses if diag else [])]
    texts += [places.section_of(p.report_markdown, Role.ALTERNATIVE)]
    out: set[str] = set()
    for text in texts:
        out |= causes.terms(text, exclude)[0]
    for text in [p.report_markdown, p.chat.markdown if p.chat else ""]:
        for line in (text or "").splitlines():
            out |= causes.terms(causes.ruled_out(line), exclude)[0]
    return frozenset(out)


LINK_ORDER = ("citation", "agent", "traceability", "quote")
CITATION_PREFIXES = ("msg:", "code:", "rca:")
PROBLEMS = {
    "value_differs": "the value differs from the cited one",
    "quote_missing": "the quote is not in the value",
    "wrong_line": "the quote is not on the cited line",
    "nothing_to_match": "no exact_value or exact_quote to match",
}


@dataclass
class Links:
    found: dict[str, set[str]] = field(default_factory=dict)  # evidence id → methods
    refuting: set[str] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)
    untraced: list[str] = field(default_factory=list)

    def add(self, ev: Evidence, how: str, *, refutes: bool = False) -> None:
        self.found.setdefault(ev.id, set()).add(how)
        if refutes:
            self.refuting.add(ev.id)


@dataclass
class Ledger:
    claims: list[LedgerClaim]
    root: LedgerClaim | None
    cited: list[LedgerClaim]
    """Claims that are the agent's own evidence (traceability items, capture claims)."""
    unknown_ids: list[str] = field(default_factory=list)
    """Evidence ids claims cite that no artifact of the run carries."""
    cause_unknown: bool = False
    """The output says its cause is not known (and names none): there is no root cause to trace."""
    corroborating: list[str] = field(default_factory=list)
    """Live items the output cites for other claims that name the root cause and agree with it: they
    count toward its independent source groups (never toward tracing it)."""


def _basename(path: str | None) -> str | None:
    """The file's name without ``.json`` (the parser accepts step files named either way)."""
    return posixpath.basename(path.replace("\\", "/")).removesuffix(".json") if path else None


def _same_origin(ev: Evidence, item: TraceItem) -> bool:
    mine, theirs = _basename(ev.item.source_file), _basename(item.source_file)
    if mine and theirs:
        return mine == theirs
    src = (item.source or "").lower()
    return bool(src) and src in (ev.item.source.lower(), ev.origin.lower())


def _trace_in(ev: Evidence, steps: list, item: TraceItem) -> jsonpath.Trace | None:
    """The item's trace checked inside this artifact (None when the path is not under it)."""
    mine = jsonpath.try_parse(ev.item.json_path) if ev.item.json_path else []
    if mine is None or steps[: len(mine)] != mine:
        return None
    return jsonpath.check(ev.value, steps[len(mine):], item.exact_value, item.exact_quote, item.line_number)


def trace(item: TraceItem, evidence: list[Evidence]) -> tuple[Evidence | None, str]:
    """The item this traceability entry points at, or None and why not."""
    where = item.source_file or item.source or "an unnamed source"
    if not item.source_file or not item.json_path:
        return None, f"a traceability item needs source_file and json_path ({where})"
    candidates = [ev for ev in evidence if ev.live and _same_origin(ev, item)]
    if not candidates:
        return None, f"no artifact from {where} in this run"
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
        problem = found.problem or "unresolved"
        return None, f"{PROBLEMS.get(problem, problem)} at {item.json_path} in {where}"
    return None, f"json_path {item.json_path} does not resolve in {where}"


def _quoted(item: TraceItem, evidence: list[Evidence]) -> tuple[Evidence | None, str]:
    """A report Evidence line: supported when a live artifact holds its quoted text."""
    if not item.exact_quote or not jsonpath.says_something(item.exact_quote):
        return None, "a report evidence line without a quote (of three letters or digits at least) or a trace"
    for ev in evidence:
        if ev.live and item.exact_quote in ev.haystack():
            return ev, ""
    return None, f"no artifact of this run contains {item.exact_quote[:80]!r}"


def _is_report_line(item: TraceItem) -> bool:
    """A line of a skill report's Evidence section (checked by its quote, never traced)."""
    return (item.source or "") == "report" and not item.json_path and not item.source_file


def root_texts(draft: Draft) -> tuple[str, list[str]]:
    """The main root-cause claim and the passages that state it (not the rest of the report)."""
    p, diag = draft.parsed, draft.diagnosis
    summary = diag.root_cause.summary if diag and diag.root_cause and diag.root_cause.summary else ""
    cause = p.chat.sections.cause if p.chat and p.chat.sections.cause else ""
    tldr = p.chat.sections.tldr if p.chat and p.chat.sections.tldr else ""
    summary_section = places.section_of(p.report_markdown, Role.SUMMARY, Role.CAUSE)
    reason = draft.reason_cause() or ""
    if draft.early_exit:  # an early exit claims only the cause it goes on to state
        return reason, [reason] if reason else []
    main = summary or cause or summary_section.split("\n\n")[0].strip() or tldr
    if main and causes.undetermined(main) and named_family(draft) in (None, STATED_CAUSE):
        return "", []  # "No cause named: …", "원인 미확정": it states no cause, so there is none to trace
    return main, [t for t in (summary, cause, tldr, summary_section, reason) if t]


MIN_TIED_QUOTE = 16
"""A quote this long in the cause statement is specific enough to tie the artifact holding it."""


@dataclass
class _Index:
    """The run's evidence looked up by harness id, citation ref and the agent's own id."""

    evidence: list[Evidence]
    by_id: dict[str, Evidence]
    by_ref: dict[str, Evidence]
    by_agent: dict[str, Evidence]
    missing_refs: frozenset[str] = frozenset()
    """Citations of registry entries that do not exist (unknown message id, project …)."""
    unknown: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, draft: Draft) -> _Index:
        evidence = draft.evidence
        return cls(
            evidence=evidence,
            by_id={ev.id: ev for ev in evidence},
            by_ref={ev.citation: ev for ev in evidence if ev.citation},
            by_agent={ev.item.agent_id: ev for ev in evidence if ev.item.agent_id},
            missing_refs=frozenset(
                c.target for c in draft.parsed.citations if not c.resolved and c.reason in UNKNOWN_TARGET
            ),
        )

    def find(self, ref: str) -> Evidence | None:
        """The item an id names: the agent's own id first, then the harness id, then a citation."""
        return self.by_agent.get(ref) or self.by_id.get(ref) or self.by_ref.get(ref)

    def _unresolved(self, links: Links, ref: str) -> None:
        if ref in self.missing_refs:
            links.notes.append(f"cites {ref}, which does not exist in the registry")
            links.untraced.append(ref)
        else:
            links.notes.append(f"cites {ref}, which the registry does not resolve")

    def link_ids(self, links: Links, ids: list[str], *, refutes: bool = False) -> None:
        """A claim's ``evidence_ids`` (the agent's ids, harness ids or citation refs)."""
        for eid in ids:
            ev = self.find(eid)
            if ev is not None:
                links.add(ev, "agent", refutes=refutes)
            elif eid.startswith(CITATION_PREFIXES):
                self._unresolved(links, eid)
            else:
                links.notes.append(f"evidence id {eid} is not among this run's artifacts")
                links.untraced.append(eid)
                self.unknown.append(eid)

    def link_quotes(self, links: Links, texts: list[str]) -> None:
        """Artifacts a claim quotes verbatim (a span of at least ``MIN_TIED_QUOTE`` characters)."""
        for text in texts:
            for quoted in report.quotes(text):
                if len(quoted) < MIN_TIED_QUOTE:
                    continue
                for ev in self.evidence:
                    if ev.citation is None and quoted in ev.haystack():
                        links.add(ev, "quote")

    def link_text(self, links: Links, texts: list[str]) -> None:
        for text in texts:
            for ref in report.citation_refs(text):
                if ref in self.by_ref:
                    links.add(self.by_ref[ref], "citation")
                else:
                    self._unresolved(links, ref)
            for quoted in report.quotes(text):
                for ev in self.evidence:
                    if ev.citation is None and quoted in ev.haystack():
                        links.add(ev, "quote")


def _claim(cid: str, kind: str, text: str, links: Links, by_id: dict[str, Evidence], origin: str,
           unsupporting: dict[str, str] | None = None) -> LedgerClaim:
    supports, refutes, historical = [], [], []
    for eid in sorted(links.found):
        ev = by_id[eid]
        if not ev.live:
            historical.append(eid)
        elif unsupporting and eid in unsupporting:
            links.notes.append(f"{eid} supports nothing: {unsupporting[eid]}")
        elif eid in links.refuting or refuting_kind(ev):
            refutes.append(eid)
        elif _says_opposite(text, ev):
            refutes.append(eid)
            links.untraced.append(f"{eid} says the opposite of the claim ({_shown(ev)!r})")
        else:
            supports.append(eid)
    how = {m for methods in links.found.values() for m in methods}  # an untied refutation adds no method
    status = "supported" if supports else ("refuted" if refutes else "unlinked")
    note = None
    if status == "unlinked" or links.untraced:
        note = "; ".join(links.notes) or ("only historical evidence (context only)" if historical
                                          else "no evidence links")
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
        untraced=list(links.untraced),
    )


CONTRADICTION_CHARS = 400
"""Items longer than this (a script, a config file) are read for support, not for a stated state."""


def _says_opposite(claim: str, ev: Evidence, by_ident: bool = False) -> bool:
    """A short status-like item that says what the claim names is in good health or unchanged."""
    text = f"{ev.item.title}\n{ev.item.text}"
    return len(text) <= CONTRADICTION_CHARS and text.count("\n") <= 3 and causes.contradicts(claim, text, by_ident)


def _shown(ev: Evidence) -> str:
    return (ev.item.text or ev.item.title)[:80]


@dataclass
class _Traced:
    """Each traceability item checked once: what it reached, or why not."""

    hits: dict[int, tuple[Evidence | None, str, str]]  # index → (hit, why, how)

    @classmethod
    def of(cls, draft: Draft, evidence: list[Evidence]) -> _Traced:
        hits = {}
        for i, item in enumerate(draft.traces):
            if _is_report_line(item):
                hit, why = _quoted(item, evidence)
                hits[i] = (hit, why, "quote")
            else:
                hit, why = trace(item, evidence)
                hits[i] = (hit, why, "traceability")
        return cls(hits)


def _root_links(draft: Draft, index: _Index, traced: _Traced) -> Links:
    """Evidence the agent tied to the root cause; every tie must hold."""
    links = Links()
    tied = False
    for i, item in enumerate(draft.traces):
        if not item.is_root_cause:
            continue
        tied = True
        hit, why, how = traced.hits[i]
        if i in draft.dropped_traces:
            links.untraced.append(f"diagnosis.evidence[{i}] (dropped: {draft.dropped_traces[i]})")
        elif hit is None:
            links.untraced.append(f"diagnosis.evidence[{i}]: {why}")
            links.notes.append(f"diagnosis.evidence[{i}]: {why}")
        elif provenance.identifier_only(item.exact_value if item.exact_value is not None else item.exact_quote):
            links.notes.append(f"diagnosis.evidence[{i}] cites only an identifier (a commit, digest or version): it "
                               "shows what runs, not that it fails")
        else:
            links.add(hit, how)
    root_claims = [(i, c) for i, c in enumerate(draft.agent_claims) if c.kind == "root_cause"]
    for i, claim in root_claims:
        if i in draft.dropped_agent_claims:
            links.untraced.append(f"diagnosis.claims[{i}] (dropped: {draft.dropped_agent_claims[i]})")
            continue
        tied = tied or bool(claim.evidence_ids)
        index.link_ids(links, claim.evidence_ids)
        index.link_ids(links, claim.refuting_evidence_ids, refutes=True)
    if not tied:
        index.link_text(links, root_texts(draft)[1])
        _signatures_of_the_family(draft, index, links)
        return links
    index.link_quotes(links, root_texts(draft)[1])  # a verbatim quote of an artifact in the cause ties it too
    _signatures_of_the_family(draft, index, links)
    _unrelated_ties(draft, index, links, [c.text for _, c in root_claims])
    summary = draft.diagnosis.root_cause.summary if draft.diagnosis and draft.diagnosis.root_cause else None
    for i, claim in root_claims:  # a second root cause that ties nothing is a cause stated without evidence
        if not claim.evidence_ids and claim.text != summary and i not in draft.dropped_agent_claims:
            links.untraced.append(f"diagnosis.claims[{i}] states a root cause and ties no evidence to it")
    claims = [c.text for _, c in root_claims if c.evidence_ids]
    claims += [draft.traces[i].message or "" for i in range(len(draft.traces)) if draft.traces[i].is_root_cause]
    if draft.parsed.source_kind != "capture" and summary:
        claims.append(summary)
    evidence = [index.by_id[e].haystack() for e in links.found]
    for where, text in other_causes(draft, claims, evidence):
        links.untraced.append(
            f"{where} states a cause that the evidence tied to the root cause does not show: {text[:100]!r}")
    return links


SIGNATURE_KINDS = kinds("signature", "confirmed_signature")
_SEP = re.compile(r"[\s_\-]+")


def _unrelated_ties(draft: Draft, index: _Index, links: Links, claims: list[str]) -> None:
    """Support is specific: an item tied by id that shares nothing with the root-cause claim supports nothing."""
    summary = draft.diagnosis.root_cause.summary if draft.diagnosis and draft.diagnosis.root_cause else ""
    claim = "\n".join([*claims, summary or ""])
    for eid in list(links.found):
        ev = index.by_id[eid]
        if ev.citation is None and links.found[eid] == {"agent"} and not causes.relates(ev.haystack(), claim):
            del links.found[eid]
            links.notes.append(f"{eid} is tied to the root cause but says nothing of it")


NEGATED = re.compile(r"\b(?:no|not|never|without|unmatched|did ?n[o']t|does ?n[o']t|failed to)\b[^.;,]{0,40}$", re.I)


def _signatures_of_the_family(draft: Draft, index: _Index, links: Links) -> None:
    """A signature the matcher confirmed supports a root cause only when it is the signature of the
    family the output names (an item of another collector merely labelled a signature is an observation)."""
    family = named_family(draft)
    for eid in list(links.found):
        ev = index.by_id[eid]
        if kind_of(ev.item.kind) not in SIGNATURE_KINDS or ev.group != SIGNATURE_GROUP:
            continue
        said = _SEP.sub("_", f"{ev.item.title} {ev.item.text}".lower())
        at = said.find(_SEP.sub("_", family.lower())) if family and family != STATED_CAUSE else -1
        if at >= 0 and not NEGATED.search(said[:at].replace("_", " ")):
            continue
        if family == STATED_CAUSE and causes.relates(ev.haystack(), root_texts(draft)[0]):
            continue
        del links.found[eid]
        links.notes.append(f"{eid} is a signature of another family than {family or 'the cause stated'}")


def _alternative_refutations(draft: Draft, index: _Index) -> set[str]:
    """Items the output lists as refuting an alternative diagnosis (by id, or by a quote they hold)."""
    out: set[str] = set()
    for alt in draft.diagnosis.alternative_diagnoses if draft.diagnosis else []:
        for ref in alt.contradicting_evidence:
            ev = index.find(ref)
            if ev is not None:
                out.add(ev.id)
            elif len(ref.strip()) >= MIN_ALTERNATIVE_QUOTE:
                out |= {e.id for e in index.evidence if ref in e.haystack()}
    return out


MIN_ALTERNATIVE_QUOTE = 8
"""A description of an alternative's refuting evidence exempts the items holding it only when it says this much."""


def _untied_refutations(draft: Draft, index: _Index, links: Links) -> None:
    """Live refuting items the output did not tie to the root cause still count against it:
    those of a refuting kind and those any claim lists as refuting, unless the output lists
    them as refuting an alternative diagnosis. An item whose kind says only that something was
    ruled out counts when its text names the root cause."""
    claimed: set[str] = set()
    for claim in draft.agent_claims:
        for eid in claim.refuting_evidence_ids:
            if (ev := index.find(eid)) is not None:
                claimed.add(ev.id)
    exempt = _alternative_refutations(draft, index)
    root: _RootTerms | None = None

    def against_root(ev: Evidence) -> bool:
        nonlocal root
        if not excluding_kind(ev):
            return refuting_kind(ev)
        root = root or _RootTerms.of(draft)
        return root.named_by(ev)

    main = root_texts(draft)[0] or next((c.text for c in draft.agent_claims if c.kind == "root_cause"), "")
    for ev in index.evidence:
        if not ev.live or ev.id in links.found or ev.id in exempt:
            continue
        if ev.id in claimed or against_root(ev):
            links.found[ev.id] = set()
            links.refuting.add(ev.id)
            links.notes.append(f"{ev.id} refutes the root cause ({ev.item.kind or 'a claim lists it as refuting'})")
        elif main and _says_opposite(main, ev, by_ident=True):
            links.found[ev.id] = set()
            links.refuting.add(ev.id)
            links.untraced.append(f"{ev.id} says the opposite of the root cause ({_shown(ev)!r})")


def _observations(draft: Draft, traced: _Traced) -> list[tuple[str, Links, str, int]]:
    """Each traceability item as a cited observation."""
    out = []
    for i, item in enumerate(draft.traces):
        links = Links()
        hit, why, how = traced.hits[i]
        if hit and i not in draft.dropped_traces:
            links.add(hit, how)
        elif not hit:
            links.notes.append(why)
        text = item.message or item.exact_quote or str(item.exact_value or item.json_path or "")
        out.append((f"diagnosis.evidence[{i}]", links, text, i))
    return out


def _agent_claims(draft: Draft, index: _Index, main: str, factors: tuple[list[str], list[Links]],
                  recs: tuple[list, list[Links]]) -> tuple[str, list[tuple[str, Links, str, int]]]:
    """The agent's own claims read into the ledger: a root-cause claim states the cause when nothing
    else did, a factor's or a recommendation's claim links its evidence to that line, any other claim
    is an entry of its own (returned with where it stands)."""
    factor_texts, factor_links = factors
    rec_list, rec_links = recs
    extra: list[tuple[str, Links, str, int]] = []
    for i, claim in enumerate(draft.agent_claims):
        rec_at = next((k for k, r in enumerate(rec_list) if r.action == claim.text), None)
        if claim.kind == "root_cause":
            main = main or claim.text
        elif claim.kind == "contributing_factor" and claim.text in factor_texts:
            index.link_ids(factor_links[factor_texts.index(claim.text)], claim.evidence_ids)
        elif claim.kind == "recommendation" and rec_at is not None:
            index.link_ids(rec_links[rec_at], claim.evidence_ids)
        else:
            links = Links()
            index.link_ids(links, claim.evidence_ids)
            index.link_ids(links, claim.refuting_evidence_ids, refutes=True)
            index.link_text(links, [claim.text])
            extra.append((f"diagnosis.claims[{i}]", links, claim.text, i))
    return main, extra


def _link_file(index: _Index, links: Links, file: str) -> None:
    """A recommendation naming a file is tied to the uncited evidence that quotes or comes from it."""
    for ev in index.evidence:
        if ev.citation is None and file in ev.haystack() + (ev.item.source_file or ""):
            links.add(ev, "quote")


def build(draft: Draft) -> Ledger:
    index = _Index.of(draft)
    diag = draft.diagnosis
    traced = _Traced.of(draft, draft.evidence)
    main = root_texts(draft)[0]
    root_links = _root_links(draft, index, traced)
    _untied_refutations(draft, index, root_links)
    observations = _observations(draft, traced)

    factors = list(diag.contributing_factors) if diag else []
    factor_links = [Links() for _ in factors]
    recs = [r for r in draft.recommendations if r.action not in GUARD_TEXTS]
    rec_links = [Links() for _ in recs]
    main, extra = _agent_claims(draft, index, main, (factors, factor_links), (recs, rec_links))

    claims: list[LedgerClaim] = []
    cited: list[LedgerClaim] = []

    def add(kind: str, text: str, links: Links, origin: str) -> LedgerClaim:
        claim = _claim(f"C{len(claims) + 1:02d}", kind, text, links, index.by_id, origin, draft.provenance.unsupporting)
        claims.append(claim)
        return claim

    if not main and not draft.early_exit and not root_texts(draft)[1] and not diag:
        main = draft.parsed.title or ""
    root = add("root_cause", main, root_links, "root_cause") if main else None
    if root is not None and draft.root_marked:
        root.note = "marked unverified by the harness" + (f"; {root.note}" if root.note else "")
    for i, text in enumerate(factors):
        index.link_text(factor_links[i], [text])
        add("contributing_factor", text, factor_links[i], f"contributing_factors[{i}]")
    for i, rec in enumerate(recs):
        index.link_text(rec_links[i], [rec.action])
        if rec.file:
            _link_file(index, rec_links[i], rec.file)
        add("recommendation", rec.action, rec_links[i], f"recommendations[{i}]")
    for origin, links, text, i in observations:
        entry = add("observation", text, links, origin)
        if i in draft.dropped_traces:
            entry.status, entry.note = "dropped", draft.dropped_traces[i]
        if not _is_report_line(draft.traces[i]):
            cited.append(entry)
    for origin, links, text, i in extra:
        kind = draft.agent_claims[i].kind
        entry = add("observation" if kind == "other" else kind, text, links, origin)
        if i in draft.dropped_agent_claims:
            entry.status, entry.note = "dropped", draft.dropped_agent_claims[i]
        if draft.agent_claims[i].evidence_ids:
            cited.append(entry)
    ledger = Ledger(claims=claims, root=root, cited=cited, unknown_ids=index.unknown)
    ledger.cause_unknown = root is None and (draft.early_exit or bool(_unknown_cause(draft)))
    ledger.corroborating = _corroborating(draft, index, ledger)
    if root is not None:
        root.corroborating = list(ledger.corroborating)
    return ledger


def _unknown_cause(draft: Draft) -> str:
    """The output's own root-cause statement when it says the cause is not known."""
    p, diag = draft.parsed, draft.diagnosis
    summary = diag.root_cause.summary if diag and diag.root_cause and diag.root_cause.summary else ""
    cause = p.chat.sections.cause if p.chat and p.chat.sections.cause else ""
    return next((t for t in (summary, cause) if t and causes.undetermined(t)), "")


def _corroborating(draft: Draft, index: _Index, ledger: Ledger) -> list[str]:
    """Live artifacts of the run beside those tied to the root cause that name it (one of the identifiers
    or two of the words of its claim), are no symptom (the alert, the failed task or a restatement of
    them) and do not say the opposite: corroboration of a cause tied to one item (a step-5 diagnosis marks
    exactly one ``is_root_cause`` item; a Cause line cites a code line while the run's profile shows the
    same function). A cited message or file adds none: what it holds is not in the run."""
    root = ledger.root
    if root is None or not root.supports:
        return []
    claim = "\n".join([root.text, *(c.text for c in draft.agent_claims if c.kind == "root_cause"),
                       *(t.message or "" for t in draft.traces if t.is_root_cause)]).replace("`", " ")
    idents, words = causes.terms(claim)
    named_parts = causes.specific_parts(claim, alert_terms(draft))
    tied = set(root.supports) | set(root.refutes)
    out: list[str] = []
    for ev in index.evidence:
        eid = ev.id
        if eid in tied or not ev.live or ev.item.symptom or ev.citation is not None or refuting_kind(ev) or (
                eid in draft.provenance.unsupporting) or ev.group == SIGNATURE_GROUP:
            continue  # a matcher's result confirms a family or nothing: it is judged as a signature, not as a word
        said = f"{ev.item.title}\n{ev.item.text}"
        theirs = causes.terms(said)
        named = bool(theirs[0] & idents) or len(theirs[1] & words) >= causes.SHARED or len(
            causes.specific_parts(said) & named_parts) >= causes.SHARED
        if named and not _says_opposite(root.text, ev):
            out.append(eid)
    return out
