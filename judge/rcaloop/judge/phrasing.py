"""How an output phrases a cause: the cause part of a title, the clauses that dismiss something,
and the clauses of an early exit that assert a cause.

Lexical and cached per distinct text: the same title or summary is read by several checks.
"""

from __future__ import annotations

import re
from functools import lru_cache

TITLE_CAUSE = re.compile(
    r":\s|\s(?:caused by|due to|because of|owing to|thanks to|triggered by|driven by|resulting from|result of|"
    r"after|from|following|since|via|by)\s|\b(?:root )?cause[sd]?\s*[:=]\s*",
    re.I,
)
"""What introduces the cause in a title: ``<symptom>: <cause>``, ``<symptom> caused by|due to|after|from … <cause>``,
``cause: <cause>``."""
TITLE_EFFECT = re.compile(
    r"\s(?:caused|causes|causing|led to|leads to|leading to|results? in|resulted in|resulting in|triggered|triggers|"
    r"broke|breaks|behind)\s",
    re.I,
)
"""What introduces the symptom after the cause: ``<cause> caused|led to|broke <symptom>``."""
TITLE_PARTS = re.compile(r"\s+-{1,2}\s+|\s*[—–|]\s*|[()\[\]]")
"""What separates a title's parts when no connective says which is the cause (dashes, bars, parentheses)."""


_LABEL = r"(?:[A-Z][A-Z0-9]{1,9}-\d+|#\d+|(?i:sev(?:erity)?[ -]?\d|p[0-4]|inc(?:ident)?[ -]?#?\d+))"
TITLE_LABEL = re.compile(rf"^(?:\[{_LABEL}\]|{_LABEL})$")
"""A title part that labels the incident (``INC-2041``, ``SEV2``, ``P1``, ``#4121``) and states nothing."""
_LEADING_LABEL = re.compile(rf"^\s*(?:\[{_LABEL}\]\s*|{_LABEL}\s*(?::\s|\s[-–—|]\s|\s)\s*)+")
_TEAM = re.compile(r"^\s*[A-Za-z][a-z]+:\s+(?=\S)")
"""``Payments: …``: one plain word before a colon, a team or area, when the rest reads as a title of its own."""


def _unlabelled(title: str) -> str:
    """The title without a leading incident id, severity or team label: a label names no cause and no symptom."""
    rest = _LEADING_LABEL.sub("", title, count=1)
    team = _TEAM.match(rest)
    if team:
        after = rest[team.end():]
        if TITLE_EFFECT.search(after) or TITLE_CAUSE.search(after) or TITLE_PARTS.search(after):
            rest = after
    return rest


@lru_cache(maxsize=4096)
def title_parts(title: str) -> tuple[str, tuple[str, ...]]:
    """(symptom, parts that may state a cause) of a title. Before "caused", "led to" … everything is
    the cause and what follows the symptom; after a causal connective or a colon
    everything is the cause and what precedes it the symptom; parts set apart by dashes, bars or
    parentheses may be either, in any order, so each is read (a part naming only the symptom states
    nothing). A title of one part with no connective names its subject and no cause."""
    title = _unlabelled(title or "")
    effect = TITLE_EFFECT.search(title)
    if effect:
        return title[effect.end():].strip(), _parts(title[: effect.start()])
    m = TITLE_CAUSE.search(title)
    if m:
        return title[: m.start()].strip(), _parts(title[m.end():])
    parts = _parts(title)
    return "", parts if len(parts) > 1 else ()


def _parts(text: str) -> tuple[str, ...]:
    """The parts of a title's cause side that may state a cause: a label (``SEV2``) states none, nor does
    a part that only sets something aside (``(image rollout ruled out)``, ``(DB CPU normal)``) beside
    one that asserts something (alone, it still counts: a title may dismiss its own cause)."""
    parts = [p.strip(" ,;:") for p in TITLE_PARTS.split(text) if p and p.strip(" ,;:")]
    parts = [p for p in parts if not TITLE_LABEL.match(p)]
    asserting = [p for p in parts if asserted(p)[0].strip()]
    return tuple(asserting if asserting else parts)


_CLAUSE = re.compile(
    r"([;()\[\]—–]|[.,:!?](?=\s|$)|\s-{1,2}\s|\b(?:not because of|even though|in spite of|rather than|instead of|"
    r"as opposed to|and not|but|while|whereas|although|though|despite|notwithstanding|yet|until|till|when|whenever|"
    r"once|because|since|so|as(?= (?:the|a|an|it|its|they|this|that|these|those|we)\b))\b)",
    re.I,
)
_DISMISSING_LEAD = frozenset({"rather than", "instead of", "as opposed to", "and not", "not because of",
                              "although", "though", "even though", "despite", "in spite of", "notwithstanding"})
"""What sets the rest of its clause aside: an alternative ("rather than X") or a concession ("although X")."""
_ALTERNATIVE = frozenset({"rather than", "instead of", "as opposed to"})
_CONCESSION = frozenset({"although", "though", "even though", "despite", "in spite of", "notwithstanding"})
_OBJECT_START = re.compile(r"^\s*(?:(?:by|at|from|after|via|with|in|on|for|to|during|through|due to)\s+)?", re.I)
_OBJECT_END = re.compile(r"\s(?=(?:by|since|because|due to|which|it|they)\b)", re.I)
"""Where the main clause takes over after the set-aside object: its agent (``by``), a reason or time
(``since``, ``because``), a relative or a new subject. Other prepositions stay with the object
("rather than cfg-2291 with db.pool.max_size=5" sets all of it aside)."""
_RESUMES = re.compile(
    r"^\W*(?:it|they|this|these|those)\s+(?!(?:is|was|are|were|seems?|seemed|appears?|appeared|turned|"
    r"has been|had been|may|might|could|must)\b)\w", re.I)
"""A main clause that opens with a pronoun and its own verb goes on about what the concession named
("although cfg-2291 looked harmless, it cut the pool"); "it was the leak that …" points elsewhere."""


def _alternative(piece: str) -> tuple[tuple[str, bool], ...]:
    """What "rather than", "instead of" set aside is their object alone ("instead of 50 by cfg-2291":
    50); the phrase after it belongs to the main clause again."""
    text = piece.strip()
    end = _OBJECT_END.search(text, _OBJECT_START.match(text).end())  # type: ignore[union-attr]
    if end is None:
        return ((text, True),)
    return ((text[: end.start()].strip(), True), (text[end.end():].strip(), False))
DISMISSING = re.compile(
    r"\b(?:unrelated|irrelevant|immaterial|coincid\w*|innocent|exonerated|red herring|distraction|"
    r"false (?:lead|alarm|trail)|ruled? (?:it |them )?out|excluded|eliminated|nothing to do with|"
    r"(?:no|without) (?:role|part|effect|impact|bearing|influence)|played no|nothing changed|"
    r"(?:is|was|are|were|looked|looks|stayed|remained|seemed|seems)(?: all)? (?:fine|ok|okay|healthy|normal|unchanged|"
    r"clean|benign|innocent|not (?:involved|responsible|related|relevant|the (?:root )?cause|a factor|to blame|at fault))|"
    r"(?:not|n't|never) (?:the |a )?(?:root |real |actual )?(?:cause|culprit|trigger|issue|problem|factor|reason)|"
    r"(?:not|n't|never) (?:responsible|related|involved|relevant|at fault|to blame|implicated|the one)|"
    r"(?:did|does|do|could|would|can|has|have|had) ?(?:not|n't) (?:cause|contribute|matter|play|trigger|explain|affect|"
    r"account for)|cannot (?:explain|account for))\b|^\W*(?:[\w.:/-]+\s+){1,3}(?:fine|ok|okay|healthy|normal|nominal|unchanged|flat|stable)\W*$",
    re.I,
)
"""A clause that sets something aside: unrelated, ruled out, not the cause, was fine, ends in a state of
health in a few words ("DB CPU normal"), a red herring …"""
_NEGATED_LEAD = re.compile(r"^\W*(?:and |or )?(?:not|never|nor)\b", re.I)
_AND = re.compile(r"\s+and\s+", re.I)
_VERB = re.compile(r"\b(?:is|are|was|were|has|have|had|did|does|got|set|cut|put|shut|hit|reset|broke|shrank|ran|took|"
                   r"went|hung|fell|rose|blew|threw|\w{2,}ed)\b", re.I)


@lru_cache(maxsize=4096)
def clauses(text: str) -> tuple[tuple[str, bool], ...]:
    """Each clause of a statement and whether it dismisses what it names: a clause that calls
    something unrelated, ruled out, not the cause or fine, one that opens with "not" ("not cfg-2291
    but …"), and what follows "rather than", "instead of" or "although" set something aside. Of a
    dismissing clause joined by "and", a part with a verb of its own is a clause of its own
    ("cfg-2291 lowered the pool and the primary was fine"); a bare name shares the dismissal
    ("cfg-2291 and the primary were fine")."""
    out: list[tuple[str, bool]] = []
    lead = ""
    conceded: int | None = None
    for piece in _CLAUSE.split(text or ""):
        if _CLAUSE.fullmatch(piece):
            lead = piece.strip().lower()
            continue
        if not piece.strip():
            continue
        if lead in _ALTERNATIVE:
            out.extend(_alternative(piece))
        elif lead in _CONCESSION:
            out.append((piece.strip(), True))
            conceded = len(out) - 1
        elif lead in _DISMISSING_LEAD or _NEGATED_LEAD.search(piece):
            out.append((piece.strip(), True))
        elif DISMISSING.search(piece):
            parts = _AND.split(piece)
            for part in parts:
                own = len(parts) > 1 and _VERB.search(part) and not DISMISSING.search(part)
                out.append((part.strip(), not own))
        else:
            out.append((piece.strip(), False))
        if conceded is not None and conceded != len(out) - 1:
            if _RESUMES.search(piece) and not out[-1][1]:
                out[conceded] = (out[conceded][0], False)
            conceded = None
        lead = ""
    return tuple(out)


def asserted(text: str) -> tuple[str, str]:
    """(what a statement asserts, what it dismisses): naming something only to set it aside is not
    naming it as the cause."""
    parts = clauses(text)
    return " ".join(c for c, d in parts if not d), " ".join(c for c, d in parts if d)


CAUSAL = re.compile(
    r"\b(?:because|due to|caused by|(?:the )?(?:root )?cause (?:is|was)|so that|"
    r"caus(?:e|es|ed|ing)|led to|leads to|leading to|result(?:s|ed|ing)? in|resulting from|triggered|triggers|"
    r"responsible for|to blame|blame[sd]?|root cause|(?:most |almost certainly |very )?likely|probably|"
    r"almost certainly|suspect(?:s|ed)?|points? to|pointing to|looks like|appears to be|seems to be|must be)\b"
    r"[\s,]+\S+",
    re.I,
)
"""A connective or verb of causation that goes on to say what."""
MECHANISM = re.compile(
    r"\b(?:(?:is|are|was|were|has been|have been|kept) )?(?:lock|block|exhaust|saturat|fill|starv|overload|hog|leak|"
    r"crash|kill|evict|throttl|corrupt|delet|drop|hang|hung|stall|deadlock|flood|overwhelm|expir|revok|"
    r"misconfigur|break|broke|shrank|shrunk|lower|raise|reduc|consum|swamp|choke|wedg|stuck|fail|oom)\w*\b",
    re.I,
)
"""A verb of something acting on a system (locked, is locking, exhausted, filled, expired …)."""
INPUT_WORDS = re.compile(
    r"\b(?:metrics?|logs?|log lines|traces?|tracing|events?|data|dashboards?|access|permissions?|credentials?|"
    r"search|query|queries|results?|context|alert (?:title|text)|telemetry|samples?|scrape[sd]?|scraper|retention|"
    r"window|visibility|tooling|collector|exporter|agent|input|attachments?|screenshots?|runbook)\b",
    re.I,
)
"""What an early exit says is missing: the inputs of the analysis, not the system under analysis."""
UNKNOWN = re.compile(
    r"\b(?:unknown|undetermined|unclear|inconclusive|unresolved|cannot (?:yet )?(?:be )?(?:determined?|told|tell|known|say)|"
    r"can't (?:tell|say|determine)|(?:not|n't) (?:yet )?(?:be )?(?:determined|known|clear|possible to (?:tell|say)))\b",
    re.I,
)
"""A clause saying the cause is not known."""
NOT_KNOWN = re.compile(
    r"^\W*(?:(?:we|i)\s+)?(?:(?:were|was|are|am)\s+)?(?:unable|impossible|unclear|uncertain|unsure|cannot|can't|"
    r"could\s*n[o']?t|need(?:s|ed)?|require[sd]?|missing|lacking)\b",
    re.I,
)
"""A clause that opens with what cannot be told or done, or what is missing or needed ("unable to
check lock waits", "need lock waits for the window"): it names the analysis's gaps, not a cause."""
POSSIBLE = re.compile(r"\b(?:could|might|may)(?:\s+(?:also|well|either|only))?\s+(?:be|have)\b", re.I)
"""A clause that only calls something possible ("could be caused by lock contention"): a hedge, not a claim."""


@lru_cache(maxsize=4096)
def cause_clauses(text: str) -> tuple[str, ...]:
    """The clauses of an early exit's text that assert a cause. A clause with a connective or verb
    of causation ("because …", "X caused Z", "locked Y, causing Z", "almost certainly …") or one
    saying what acted on the system ("the reindex job locked the orders table", "is locking")
    states a cause, whatever the tense: it is a claim. A clause about the analysis's inputs ("no
    metrics for the window", "the scraper dropped samples"), a plain observation ("we saw a spike at
    02:00"), one saying the cause is unknown, what cannot be checked or is needed ("unable to check
    lock waits"), one that only calls a cause possible ("could be lock contention") or a dismissal
    states none."""
    return tuple(
        c for c, dismissed in clauses(text)
        if not dismissed and not INPUT_WORDS.search(c) and not UNKNOWN.search(c)
        and not NOT_KNOWN.search(c) and not POSSIBLE.search(c)
        and (CAUSAL.search(c) or MECHANISM.search(c))
    )
