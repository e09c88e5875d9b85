"""Does every place the output states its root cause state the same cause?

The harness grounds the root-cause claim the agent tied evidence to; a reviewer reads the
report's Summary, and the chat posts the summary, the TL;DR and the Cause. An output can
tie its evidence to one cause and post another. So each stated cause must share what
makes a cause specific with the tied claims and their evidence: one identifier
(``cfg-2291``, ``db.pool.max_size``, a path, a version) or two content words. Words of the
alert (the symptom it reports) and plain numbers don't count. A statement with nothing
specific in it states no other cause.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from rcaloop.harness import report
from rcaloop.harness.draft import Draft

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


def same_cause(statement: str, reference: str, exclude: frozenset[str]) -> bool:
    idents, words = terms(statement, exclude)
    if not idents and not words:
        return True
    ref_idents, ref_words = terms(reference, exclude)
    return bool(idents & ref_idents) or len(words & ref_words) >= SHARED_WORDS


def stated_causes(draft: Draft) -> list[tuple[str, str]]:
    """Where the output states its root cause apart from the claim it tied evidence to: a capture's
    posted summary (its structured claims are separate), and the report's Summary a reviewer reads.
    (A skill report's Cause and a step file's summary are themselves the claim their ties belong to.)"""
    p, diag = draft.parsed, draft.diagnosis
    out = []
    if p.source_kind == "capture" and diag and diag.root_cause and diag.root_cause.summary:
        out.append(("the summary", diag.root_cause.summary))
    section = report.section(p.report_markdown, "summary", "root cause", "cause").split("\n\n")[0].strip()
    if section and all(section != text for _, text in out):
        out.append(("the report's Summary", section))
    return out


def other_causes(draft: Draft, ties: list[str]) -> Iterator[tuple[str, str]]:
    """The stated causes that share nothing specific with the tied claims and their evidence."""
    reference = "\n".join(ties)
    alert = draft.parsed.alert_text or ""
    exclude = frozenset(t.lower().rstrip(".:") for t in _TOKEN.findall(alert)) | frozenset(
        p for t in _TOKEN.findall(alert.lower()) for p in _PARTS.split(t) if p
    )
    for where, text in stated_causes(draft):
        if not same_cause(text, reference, exclude):
            yield where, text
