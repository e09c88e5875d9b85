"""Does every place the output states its root cause state the same cause?

The harness grounds the root-cause claim the agent tied evidence to; a reviewer reads the
report's Summary, and the chat posts the title, the summary and the TL;DR. An output can tie
its evidence to one cause and post another. So each stated cause must name what the tied
claims and their evidence show: a summary one of the claims' identifiers that the evidence
shows too (``cfg-2291``, ``db.pool.max_size``, a path, a version) when there are any, else
two content words; a
headline (title, TL;DR) an identifier or a content word. Words of the alert (the symptom it
reports) and plain numbers don't count. A statement with nothing specific in it states no
other cause; what a statement names only to set aside ("cfg-2291 is unrelated", "rather than
…") is not named as its cause (``phrasing``). Lexical, so deterministic: a paraphrase that names nothing the evidence shows
("a settings push cut the limit") can't be shown to be the same cause, and fails closed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from rcaloop.judge import phrasing, report
from rcaloop.judge.draft import Draft

_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:/-]*[A-Za-z0-9]|[A-Za-z0-9]")
_NUMBER = re.compile(r"\d[\d.:,]*[a-z%]{0,3}")
_PARTS = re.compile(r"[._/:-]+")
MIN_WORD = 4
SHARED_WORDS = 2
STOPWORDS = frozenset("""
about above after again against also another because been before being below between both cause caused causes
could does doing done down during each every failed failing failure from further have having here incident into
issue itself just like made make more most much must only other over problem same should since some such than
that their them then there these they this those through under until upon very were what when where which while
will with within without would your root likely confirmed probably possibly because""".split())


@lru_cache(maxsize=4096)
def terms(text: str, exclude: frozenset[str] = frozenset()) -> tuple[frozenset[str], frozenset[str]]:
    """(identifiers, content words) of a text, lower-cased, without the excluded words."""
    idents: set[str] = set()
    words: set[str] = set()
    for token in _TOKEN.findall(text or ""):
        low = token.lower().rstrip(".:")
        if low in exclude or _NUMBER.fullmatch(low):
            continue
        parts = [p for p in _PARTS.split(low) if p]
        if re.search(r"[._/]", low) or (re.search(r"\d", low) and re.search(r"[a-z]", low)):
            idents.add(low)
        for part in parts:
            if len(part) >= MIN_WORD and part.isalpha() and part not in STOPWORDS and part not in exclude:
                words.add(part[:-1] if part.endswith("s") and not part.endswith("ss") else part)
    return frozenset(idents), frozenset(words)


def same_cause(statement: str, claims: str, evidence: str, exclude: frozenset[str], *, headline: bool = False) -> bool:
    """Does ``statement`` name what the tied ``claims`` and their ``evidence`` show? A summary must
    share one of the claims' grounded identifiers (those the evidence shows too) when there are any,
    else two words with claims and evidence; a headline (title, TL;DR) one identifier or one word.
    Only what it asserts counts: what it names to set aside (unrelated, ruled out, was fine, rather
    than …) is not named as the cause, and a statement that only sets things aside states none."""
    kept, dismissed = phrasing.asserted(statement)
    idents, words = terms(kept, exclude)
    if not idents and not words:
        gone_idents, gone_words = terms(dismissed, exclude)
        return not gone_idents and not gone_words
    claim_idents, claim_words = terms(claims, exclude)
    ev_idents, ev_words = terms(evidence, exclude)
    if idents & (claim_idents | ev_idents):
        return True
    if headline:
        return bool(words & (claim_words | ev_words))
    grounded = claim_idents & ev_idents
    return not grounded and len(words & (claim_words | ev_words)) >= SHARED_WORDS


def relates(item: str, claim: str) -> bool:
    """Does an evidence item say anything of the claim it is tied to (one shared identifier or word)?"""
    idents, words = terms(item)
    claim_idents, claim_words = terms(claim)
    return bool(idents & claim_idents or words & claim_words)


def stated_causes(draft: Draft) -> list[tuple[str, str, bool]]:
    """Where the output states its root cause apart from the claim it tied evidence to, and whether the
    place is a headline: a capture's posted summary (its structured claims are separate), the report's
    Summary a reviewer reads, each part of the title that may state a cause (after a colon or a causal
    connective, or set apart by dashes or parentheses) and the chat's TL;DR (a skill report's Cause and
    a step file's summary are themselves the claim their ties belong to)."""
    p, diag = draft.parsed, draft.diagnosis
    out: list[tuple[str, str, bool]] = []
    if p.source_kind == "capture" and diag and diag.root_cause and diag.root_cause.summary:
        out.append(("the summary", diag.root_cause.summary, False))
    section = report.section(p.report_markdown, "summary", "root cause", "cause").split("\n\n")[0].strip()
    if section and all(section != text for _, text, _ in out):
        out.append(("the report's Summary", section, False))
    if p.source_kind != "step_files" and p.title:
        out.extend(("the title", part, True) for part in phrasing.title_parts(p.title)[1])
    if p.chat and p.chat.sections.tldr:
        out.append(("the chat's TL;DR", p.chat.sections.tldr, True))
    return out


def title_symptom(draft: Draft) -> str:
    """The part of a title before its cause (``<symptom>: <cause>``, ``<symptom> caused by <cause>``)."""
    p = draft.parsed
    return phrasing.title_parts(p.title)[0] if p.title and p.source_kind != "step_files" else ""


_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def alert_words(draft: Draft, *, with_title: bool = True) -> frozenset[str]:
    """The tokens (and their parts, ``HighErrorRate`` → high, error, rate) of the alert, the chat's
    subjects and a title's symptom part: the subject and symptom every account of the failure repeats."""
    p = draft.parsed
    subjects = " ".join(p.chat.subjects) if p.chat else ""
    return _words_of("\n".join([p.alert_text or "", subjects, title_symptom(draft) if with_title else ""]))


@lru_cache(maxsize=1024)
def _words_of(alert: str) -> frozenset[str]:
    tokens = _TOKEN.findall(alert)
    camel = {w.lower() for t in tokens for w in _CAMEL.findall(t)}
    return frozenset(t.lower().rstrip(".:") for t in tokens) | camel | frozenset(
        p for t in tokens for p in _PARTS.split(t.lower()) if p
    )


def other_causes(draft: Draft, claims: list[str], evidence: list[str]) -> Iterator[tuple[str, str]]:
    """The stated causes that share nothing specific with the tied claims and their evidence. A
    headline may also share it with a summary that itself names the cause (it is its short form)."""
    claim_text, evidence_text = "\n".join(claims), "\n".join(evidence)
    exclude = alert_words(draft)
    stated = stated_causes(draft)
    held = [phrasing.asserted(text)[0] for _, text, headline in stated
            if not headline and same_cause(text, claim_text, evidence_text, exclude)]
    with_summaries = "\n".join([claim_text, *held])
    for where, text, headline in stated:
        if not same_cause(text, with_summaries if headline else claim_text, evidence_text, exclude, headline=headline):
            yield where, text
    symptom = title_symptom(draft)  # "<cause>: <symptom>" swaps the parts: one naming nothing of the alert is no symptom
    alert = alert_words(draft, with_title=False)
    if symptom and draft.parsed.alert_text and not _names_any(symptom, alert | SYMPTOM_WORDS) and not same_cause(
        symptom, with_summaries, evidence_text, alert, headline=True
    ):
        yield "the title", symptom


SYMPTOM_WORDS = frozenset("""
alert alerts incident outage outages down degraded degradation latency slow slowness spike spikes errors error
fail fails failing failure failures timeout timeouts unavailable unreachable elevated stuck crashloop crashing
crashes 5xx 4xx 500s 502s 503s 504s lag backlog paging firing page pages flapping cannot unable""".split())
"""Words that name a symptom: a title part with one of them (or a word of the alert) is the symptom part."""


def _names_any(text: str, words: frozenset[str]) -> bool:
    """Does the text name any of the words (a token or a part of one)?"""
    tokens = [t.lower().rstrip(".:") for t in _TOKEN.findall(text)]
    return any(t in words or any(p in words for p in _PARTS.split(t) if len(p) >= 3) for t in tokens)
