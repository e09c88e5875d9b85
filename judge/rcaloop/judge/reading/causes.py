"""What an output states as its cause, wherever it states it, and whether those places agree.

* **Terms.** A statement's *identifiers* (``cfg-2291``, ``db.pool.max_size``, ``v2.3.1``,
  ``PoolTimeoutError``) and *content words* (lemmas of three letters or more, no stop words), read
  with the one tokenizer; the alert's own terms (the symptom every account repeats) are left out.
* **Set aside.** A clause that dismisses what it names (``cfg-2291 is unrelated``, ``DNS was
  fine``, ``ruled out``, ``rather than X``, ``although X``) does not name it as the cause.
* **Agreement.** A place that states the cause (a title's cause part, the TL;DR, a summary
  apart from the claim the evidence is tied to) agrees with the root cause when it names nothing
  specific, or shares a term with the root-cause claim or the evidence tied to it. A place that
  names only other things (``bad deploy of v2.3.1`` over evidence of evictions) states another cause.
* **Early exits.** An early exit claims a cause when a clause of its reason, summary or title
  attributes the failure to something (``because``, ``due to``, ``owing to``, ``culprit``,
  ``suspect``, ``most likely``, ``=>``) or says what acted on the system (``the reindex job locked
  the orders table``) — and is not about the analysis's own inputs (``no metrics``, ``the log search
  timed out``), not a statement of what cannot be told (``cannot tell whether …``), and not a mere
  possibility (``could be caused by …``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from rcaloop.judge import lemma
from rcaloop.judge.text import camel_words, sentences, set_aside, tokenize
from rcaloop.judge.vocab import Concept, has, phrase_at, words

STOPWORDS = frozenset("""about above after again against also another because been before being below between both
cause caused causes could does doing done down during each every failed failing failure from further have having
here incident into issue itself just like made make more most much must only other over problem same should since
some such than that their them then there these they this those through under until upon very were what when where
which while will with within without would your root likely confirmed probably possibly the and for are was its our
but not all any can has had may might per via one two three new old now yet still due""".split())
_IDENT = re.compile(r"[._/:]|\d.*[a-z]|[a-z].*\d|[a-z][A-Z]|[a-zA-Z]-[a-zA-Z]")
_NUMBER = re.compile(r"^[~<>]?\d[\d.:,]*[a-z%]{0,3}$")
_PARTICLES = ("에서", "으로", "이다", "에게", "까지", "부터",
              "이", "가", "을", "를", "은", "는", "의", "에", "로", "와", "과", "도")


def _korean(word: str) -> str:
    """A Korean word without its particle (``인증서가`` → ``인증서``)."""
    for p in _PARTICLES:
        if word.endswith(p) and len(word) > len(p) + 1:
            return word[: -len(p)]
    return word


@lru_cache(maxsize=8192)
def terms(text: str, exclude: frozenset[str] = frozenset()) -> tuple[frozenset[str], frozenset[str]]:
    """(identifiers, content words) of a text, lower-cased and lemmatized, without ``exclude``."""
    idents: set[str] = set()
    found: set[str] = set()
    for t in tokenize(text or ""):
        if not t.word or t.code:
            continue
        raw = t.text.strip(".:,;'\"()[]")
        low = raw.lower()
        if not low or low in exclude or _NUMBER.match(low):
            continue
        if t.hangul:
            word = _korean(raw)
            if _IDENT.search(word) and word.lower() not in exclude:
                idents.add(word.lower())  # "4GB로": a value with its particle
            elif len(word) >= 2 and word not in exclude:
                found.add(word)
            continue
        if _IDENT.search(raw):
            idents.add(low)
            continue
        if len(low) < 3 or low in STOPWORDS:
            continue
        base = lemma.lemma(low)
        if base not in exclude and base not in STOPWORDS:
            found.add(base)
    return frozenset(idents), frozenset(found)


@lru_cache(maxsize=8192)
def parts(text: str) -> frozenset[str]:
    """Every term of a text, identifiers split into their words too (``HighErrorRate`` → high, error, rate)."""
    idents, found = terms(text)
    out = set(idents) | set(found)
    for ident in idents:
        out |= {p.lower() for p in re.split(r"[._/:\-]+", ident) if p}
        out |= {w.lower() for w in camel_words(ident)}
    for t in tokenize(text or ""):
        if t.word and not t.code and re.search(r"[A-Z]", t.text[1:]):
            out |= {lemma.lemma(w.lower()) for w in camel_words(t.text)}
    return frozenset(out)


def specific_parts(text: str, exclude: frozenset[str] = frozenset()) -> frozenset[str]:
    """The parts of a text's identifiers and words that say something specific (``regexp.MustCompile`` →
    regexp, compile): not plain or symptom words, not numbers, not ``exclude`` (the alert's own terms)."""
    return frozenset(w for w in parts(text) if len(w) >= 4 and w.isalpha() and w not in STOPWORDS
                     and w not in exclude and not _plain(w))


def relates(item: str, claim: str) -> bool:
    """An evidence item says something of the claim it is tied to: they share a term."""
    idents, found = terms(item)
    claim_idents, claim_words = terms(claim)
    return bool(idents & claim_idents or found & claim_words)


# --- set aside ------------------------------------------------------------------------------

_CLAUSE = re.compile(
    r"([;()\[\]—–]|[.,:!?](?=\s|$)|\s-{1,2}\s|\b(?:not because of|even though|in spite of|rather than|instead of|"
    r"as opposed to|and not|but|while|whereas|although|though|despite|notwithstanding|yet|until|till|when|whenever|"
    r"once|because|since|so|as(?= (?:the|a|an|it|its|they|this|that|these|those|we)\b))\b)",
    re.I,
)
_ALTERNATIVE = frozenset({"rather than", "instead of", "as opposed to"})
_CONCESSION = frozenset({"although", "though", "even though", "despite", "in spite of", "notwithstanding"})
_SET_ASIDE = _ALTERNATIVE | _CONCESSION | {"and not", "not because of"}
"""What sets the rest of its clause aside: an alternative ("rather than X") or a concession ("although X")."""
_OBJECT_START = re.compile(r"^\s*(?:(?:by|at|from|after|via|with|in|on|for|to|during|through|due to)\s+)?", re.I)
_OBJECT_END = re.compile(r"\s(?=(?:by|since|because|due to|which|it|they)\b)", re.I)
"""Where the main clause takes over after a set-aside object: its agent (``by``), a reason (``since``),
a relative or a new subject ("instead of 50 by cfg-2291" sets aside 50 alone)."""
_RESUMES = re.compile(r"^\W*(?:it|they|this|these|those)\s+(?!(?:is|was|are|were|seems?|seemed|appears?|appeared|"
                      r"turned|has been|had been|may|might|could|must)\b)\w", re.I)
"""A main clause that opens with a pronoun and its own verb goes on about what the concession named
("although cfg-2291 looked harmless, it cut the pool")."""


def _dismisses(clause: str) -> bool:
    """The clause sets aside what it names: unrelated, ruled out, not the cause, was fine, a red herring,
    or a few names ending in a state of health (``DB CPU normal``)."""
    toks = [t for t in tokenize(clause) if t.word]
    lemmas = [lemma.lemma(t.text) for t in toks]
    low = [t.low for t in toks]
    if any(phrase_at(lemmas, i, Concept.DISMISSAL) for i in range(len(lemmas))):
        return True
    if low[:1] in (["not"], ["never"], ["nor"]) or low[:2] in (["and", "not"], ["or", "not"]):
        return True
    for i in range(len(low)):  # "X was fine", "X stayed healthy", "DB CPU normal"
        if has(Concept.HEALTHY, lemmas[i]) and ((i == len(low) - 1 and len(low) <= 5) or (i and low[i - 1] in (
                "is", "was", "are", "were", "stayed", "remained", "looked", "looks", "seems", "seemed"))):
            return True
    return False


_HEALTHY_VALUE = re.compile(
    r"\b(?:ready|healthy|valid|available|succeeded|synced|authenticated)\s*[=:]\s*(?:true|yes|ok)\b|"
                            r"\b(?:status|state|health)\s*[=:]?\s*(?:healthy|ok|green|valid)\b", re.I)
"""``Ready=True``, ``authenticated=true``, ``status healthy``: a field that says the thing is in good health."""
_UNCHANGED = frozenset({"unchanged", "untouched", "intact"})
"""States that say outright nothing changed: they refute a claim that says the thing changed."""
_HEALTHY_STATE = frozenset({"valid", "healthy", "unexpired"})
"""States that say outright the thing is in good health: they refute a claim that says it failed (not
``flat`` or ``ok``, which compare or report a step's own success)."""
_CHANGED = frozenset("""change set lower raise reduce increase bump modify alter cut shrink update edit rotate apply
revoke expire drop remove delete disable enable replace downgrade upgrade""".split())
_FAILED = frozenset("""expire invalid full exhaust revoke fail reject deny corrupt break crash leak unavailable
unreachable missing down""".split())
_FAILURE_WORDS = frozenset({"not", "no", "never", "invalid", "expired", "error", "errors", "fail", "failed",
                            "failure", "denied", "rejected", "but", "except", "->", "=>", "until", "waiting",
                            "wait", "for", "expected", "target", "desired", "should", "want", "red"})
"""Words beside a good state that make it no statement of the current state (``waiting for … green``)."""
STATE_WORDS = 10
"""A clause says a state only when it is short (a status line, ``max_size unchanged (50)``)."""


@lru_cache(maxsize=8192)
def contradicts(claim: str, item: str, by_ident: bool = False) -> bool:
    """A status item says the opposite of its claim: a clause of it says outright that what the claim
    says changed is unchanged (``max_wal_size unchanged (4096 MB)``), or that what it says failed is
    valid or healthy (``secret_id valid``, ``Ready=True``, ``status healthy``), with no word of a
    failure, a change or a wait beside it. The clause must name what the claim names (an identifier;
    for an item tied to the claim, ``by_ident`` unset, a content word will do, and a status field
    anywhere in the item speaks of the item's subject)."""
    claim_lemmas = {lemma.lemma(w) for w in tokenize_low(claim)}
    if claim_lemmas & (_UNCHANGED | _HEALTHY_STATE) or _HEALTHY_VALUE.search(claim or ""):
        return False
    changed, failed = bool(claim_lemmas & _CHANGED), bool(claim_lemmas & _FAILED) or any(
        has(Concept.SYMPTOM, w) for w in claim_lemmas)
    mine_ids, mine = terms(claim)
    mine_parts = parts(" ".join(mine_ids))

    def names(text: str) -> bool:
        theirs_ids, theirs = terms(text)
        return bool(mine_parts & parts(" ".join(theirs_ids))) or (
            not by_ident and any(not _plain(w) for w in mine & theirs))

    for clause in _ITEM_CLAUSE.split(item or ""):
        toks = [t for t in tokenize(clause) if not t.code]
        low = [t.low for t in toks]
        lemmas = [lemma.lemma(t.text) if t.word else t.low for t in toks]
        if any(w in _FAILURE_WORDS or has(Concept.SYMPTOM, w) for w in lemmas) or any(w in _FAILURE_WORDS for w in low):
            continue
        short = sum(t.word for t in toks) <= STATE_WORDS
        if short and changed and any(w in _UNCHANGED for w in low) and names(clause):
            return True
        if failed and short and any(w in _HEALTHY_STATE for w in low) and names(clause):
            return True
        if failed and _HEALTHY_VALUE.search(clause) and names(clause if by_ident else item):
            return True
    return False


_ITEM_CLAUSE = re.compile(r"[;\n]|,\s")


def tokenize_low(text: str) -> list[str]:
    return [t.low for t in tokenize(text or "") if t.word]


def _acts_alone(part: str) -> bool:
    """A part of an "and" with a verb of its own ("cfg-2291 lowered the pool and the primary was fine")."""
    return any(t.word and not t.code and (t.low in ("is", "are", "was", "were", "has", "have", "had") or lemma.verb(
        t.text).form == lemma.PAST or lemma.verb(t.text).past_too) for t in tokenize(part)[1:])


def _alternative(piece: str) -> list[tuple[str, bool]]:
    text = piece.strip()
    start = _OBJECT_START.match(text)
    end = _OBJECT_END.search(text, start.end() if start else 0)
    if end is None:
        return [(text, True)]
    return [(text[: end.start()].strip(), True), (text[end.end():].strip(), False)]


@lru_cache(maxsize=4096)
def clauses(text: str) -> tuple[tuple[str, bool], ...]:
    """Each clause of a statement and whether it sets aside what it names."""
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
        elif lead in _SET_ASIDE:
            out.append((piece.strip(), True))
        elif _dismisses(piece):
            parts = re.split(r"\s+and\s+", piece)
            for part in parts:
                own = len(parts) > 1 and _acts_alone(part) and not _dismisses(part)
                out.append((part.strip(), not own))
        else:
            out.append((piece.strip(), False))
        if conceded is not None and conceded != len(out) - 1:
            if _RESUMES.search(piece) and not out[-1][1]:
                out[conceded] = (out[conceded][0], False)
            conceded = None
        lead = ""
    return tuple(out)


@lru_cache(maxsize=4096)
def ruled_out(text: str) -> str:
    """The clauses of a statement that rule something out in so many words (``cfg-2291 was a red herring``,
    ``DNS ruled out``, ``not the cause``): a bare negation (``concurrencyPolicy not set``) or a state of health
    rules out nothing."""
    out = []
    for clause, _ in clauses(text):
        lemmas = [lemma.lemma(t.text) for t in tokenize(clause) if t.word]
        if any(phrase_at(lemmas, i, Concept.DISMISSAL) for i in range(len(lemmas))):
            out.append(clause)
    return " ".join(out)


def asserted(text: str) -> tuple[str, str]:
    """(what a statement asserts, what it sets aside). A statement that ends in a bare state of health
    (``cart-api synced to v2.3.1 at 17:40, healthy``) sets all of it aside."""
    found = clauses(text)
    if len(found) > 1 and found[-1][1] and len(found[-1][0].split()) <= 2 and _dismisses(found[-1][0]):
        return "", text
    return " ".join(c for c, gone in found if not gone), " ".join(c for c, gone in found if gone)


# --- agreement of the places that state the cause --------------------------------------------


_PARTICLES_EN = frozenset("out up down off in on over back away".split())


def culprits(text: str, exclude: frozenset[str]) -> frozenset[str]:
    """The specific terms a statement asserts (not set aside): its names and identifiers, not the
    symptom's words, not hedges, not the verbs it tells the mechanism with (``timed out``, ``exhausted``,
    ``looks for``)."""
    kept, _ = asserted(text)
    verbs = {lemma.verb(t.text).lemma for t in tokenize(kept) if t.word and not t.code and lemma.verb(t.text).form in (
        lemma.PAST, lemma.GERUND, lemma.S)} | _PARTICLES_EN
    idents, found = terms(kept, exclude | frozenset(verbs))
    names = {n for ident in idents for n in re.split(r"[/,]", ident) if n}  # "cp-2/cp-3" names cp-2 and cp-3
    return frozenset(names | {w for w in found if not _plain(w)})


def only_symptom(text: str) -> bool:
    """The text names a symptom and its subjects only (``checkout-api 5xx spike``): no word of its own
    says what acted."""
    _, found = terms(text, frozenset())
    return not any(not _plain(w) for w in found)


def _plain(word: str) -> bool:
    """A word that names no cause: a symptom's, a hedge, or one saying the cause is not known."""
    lang = "ko" if any("\uac00" <= ch <= "\ud7a3" for ch in word) else "en"
    if lang == "ko":
        return any(word.startswith(w) for c in (Concept.SYMPTOM, Concept.HEDGE) for w in words(c, "ko"))
    return any(has(c, word) for c in (Concept.SYMPTOM, Concept.HEDGE, Concept.UNCERTAINTY))


STEM = 5
"""Words sharing their first letters this far are one word for agreement (``impaired`` / ``impairment``)."""


def ground_terms(texts: list[str]) -> frozenset[str]:
    """The terms the grounds assert, line by line: what a line sets aside (``ruled out``, ``healthy``,
    ``all systems operational``) grounds nothing."""
    out: set[str] = set()
    for text in texts:
        for line in (text or "").splitlines():
            out |= parts(asserted(line)[0])
    return frozenset(out)


def _shares(mine: frozenset[str], theirs: frozenset[str]) -> bool:
    if mine & theirs:
        return True
    stems = {w[:STEM] for w in theirs if len(w) >= STEM}
    return any(len(w) >= STEM and w[:STEM] in stems for w in mine)


def summary_names(stated: str, named: frozenset[str], grounded: frozenset[str],
                  exclude: frozenset[str] = frozenset(), shown: frozenset[str] = frozenset(),
                  claim: frozenset[str] = frozenset()) -> bool:
    """A summary beside a structured root-cause claim names that cause. It may not set aside an
    identifier the claim and its evidence share (``grounded``) nor deny what the tied evidence shows
    (two of its ``shown`` words in what it sets aside: "nothing changed in the prod config"). The
    identifiers it asserts (not the alert's own subjects) include one the claim or its evidence name
    (``named``), or the words of its cause phrase (after ``because``, before ``so``, or the subject of
    what acted) share one with the ``claim``'s: a paraphrase ("a settings push cut the pool limit")
    can't be shown to be the same cause, and words of the effect every account of the failure uses
    ("held every pool connection") don't make it one."""
    kept, gone = asserted(stated)
    if grounded & parts(gone):
        return False  # "cfg-2291 was a red herring", "rather than cfg-2291"
    if len(terms(gone, exclude)[1] & shown) >= SHARED:
        return False  # it denies what the evidence tied to the claim shows
    idents, _ = terms(kept, exclude)  # the alert's own subjects (``checkout-api``) name no cause
    if idents and parts(" ".join(idents)) & named:
        return True
    said = {w for w in terms(cause_phrase(kept), exclude)[1] if not _plain(w)}
    return (not grounded and not idents) or bool(said) and _shares(frozenset(said), claim)


_BECAUSE = ("because of", "because", "due to", "owing to", "caused by", "since", "as a result of", "triggered by",
            "driven by", "thanks to", "resulting from", "stemming from", "after", "from")
_THEREFORE = ("so that", "so", "hence", "therefore", "thus", "which led to", "leading to", "led to", "causing",
              "resulting in", "and so")
_BOUNDARY = re.compile(r"[;.!?]\s|,\s(?=(?:so|and|but|which)\b)")


def cause_phrase(text: str) -> str:
    """The part of a statement that says what caused it: after ``because``/``due to``, before ``so``/``led
    to``; within it, the subject of the first verb of acting (``a slow query on the orders table held …``)."""
    phrase = text or ""
    low = f" {phrase.lower()} "
    for marks, after in ((_BECAUSE, True), (_THEREFORE, False)):
        at, mark = min(((low.find(f" {m} "), m) for m in marks if f" {m} " in low), default=(-1, ""))
        if at >= 0:
            phrase = _BOUNDARY.split(phrase[at + len(mark) + 1:], maxsplit=1)[0] if after else phrase[:at]
            break
    toks = [t for t in tokenize(phrase) if t.word and not t.code]
    for i, t in enumerate(toks):
        if i < 2 or lemma.lemma(t.text) not in MECHANISM:
            continue
        form = lemma.verb(t.text).form
        if form in (lemma.PAST, lemma.S) or (form == lemma.BASE and lemma.noun(toks[i - 1].text)):
            return " ".join(x.text for x in toks[:i])  # "the latest settings push cut the pool limit"
    return phrase


SHARED = 2
"""Content words two statements share to speak of the same thing (an identifier alone suffices)."""


def agrees(stated: str, grounds: frozenset[str], exclude: frozenset[str], claim: frozenset[str] = frozenset(),
           ruled_out: frozenset[str] = frozenset()) -> bool:
    """``stated`` names nothing specific, or shares a term with the ``grounds`` (``ground_terms`` of the
    root-cause claim and the run's evidence), a word matching on its stem — unless an identifier it
    names is one of an alternative the output rules out, and not of the root-cause ``claim``."""
    mine = culprits(stated, exclude)
    if not mine:
        return True
    named = frozenset(w for w in mine if _IDENT.search(w))
    if named & ruled_out and not named & claim:  # "bad deploy of v2.3.1" when v2.3.1 is a ruled-out alternative
        return False
    return _shares(mine, grounds)


# --- early exits: does a reason state a cause? ----------------------------------------------

MECHANISM = frozenset("""exhaust saturate fill starve overload hog leak crash evict corrupt hang stall deadlock flood
overwhelm expire misconfigure break wedge choke swamp consume oom lock block kill delete drop shrink lower raise reduce
set cut revoke rotate throttle exceed outgrow misroute reject deny truncate purge wipe overwrite remove disable change
push deploy rollout roll hold occupy tie eat hit""".split())
"""Verbs of something acting on a system: stated in a reason (``the reindex job locked the orders table``), a cause."""
_CAUSAL_MARKS = re.compile(r"=>|→|->|\bsuspect\s*:|\bculprit\b|\bcause\s*:", re.I)
_POSSIBLE = re.compile(r"\b(?:could|might|may)(?:\s+(?:also|well|either|only))?\s+(?:be|have)\b", re.I)


def _clauses(text: str) -> list[str]:
    return [c.strip() for c in re.split(r"[;.!?]\s+|,\s+(?:but|so|and)\s+|\bbut\b|:\s+(?=[a-z])", text or "")
            if c and c.strip()]


def gives_reason(text: str) -> bool:
    """An alternative's own words set it aside with a reason (``… — ruled out: the container is Running``,
    ``unlikely, because the image did not change``): a dismissal and at least three more words."""
    toks = [t for t in tokenize(text) if t.word]
    lemmas = [lemma.lemma(t.text) for t in toks]
    for i in range(len(lemmas)):
        n = phrase_at(lemmas, i, Concept.DISMISSAL) or phrase_at([t.low for t in toks], i, Concept.DISMISSAL)
        if n and len(toks) - (i + n) >= 3:
            return True
    return bool(_REASONED.search(text))


_REASONED = re.compile(r"\b(?:because|since|as|given that)\b\s+\S+\s+\S+\s+\S+|\bnot\b[^.;]{0,60}\b(?:because|since)\b",
                       re.I)


def _needs(low: list[str]) -> bool:
    """``per-node memory, evictions and recent node changes are needed``: what the analysis lacks."""
    return any(low[k] in ("is", "are", "was", "were") and low[k + 1] in ("needed", "required", "missing", "unavailable")
               for k in range(len(low) - 1))


def disclaims(text: str) -> bool:
    """The text's last word on the cause says it is not established (``the npm registry is the leading
    hypothesis but 6 samples cannot carry a diagnosis``, ``that is a hypothesis, not a finding``): a
    hypothesis offered and then disclaimed is no cause stated. A disclaimer before an assertion (``can't
    confirm, but the culprit is …``) does not disclaim it."""
    last_assert = last_unknown = -1
    for k, clause in enumerate(_clauses(text)):
        toks = [t for t in tokenize(clause) if t.word and not t.code]
        low = [t.low for t in toks]
        if _unknowing([lemma.lemma(t.text) for t in toks], low) or _NOT_FINDING.search(clause):
            last_unknown = k
        elif asserts_cause(clause):
            last_assert = k
    return last_unknown > last_assert >= 0


_NOT_FINDING = re.compile(r"\bnot (?:a|the) (?:finding|diagnosis|conclusion)\b|\bcannot carry\b|\bno diagnosis\b|"
                          r"\bto be confirmed\b|\bneeds? (?:to be )?confirm", re.I)


def _about_inputs(lemmas: list[str]) -> bool:
    return any(phrase_at(lemmas, i, Concept.INPUT) for i in range(len(lemmas)))


def _unknowing(lemmas: list[str], low: list[str]) -> bool:
    joined = [lemma.norm(w) for w in low]
    return any(phrase_at(lemmas, i, Concept.UNCERTAINTY) or phrase_at(joined, i, Concept.INABILITY)
               for i in range(len(lemmas)))


@lru_cache(maxsize=4096)
def asserts_cause(text: str) -> bool:
    """A clause of ``text`` attributes the failure to something, or says what acted on the system."""
    for clause in _clauses(text):
        if _dismisses(clause) or _POSSIBLE.search(clause):
            continue
        toks = [t for t in tokenize(clause) if t.word and not t.code]
        low = [t.low for t in toks]
        lemmas = [lemma.lemma(t.text) for t in toks]
        if not toks or _unknowing(lemmas, low) or _about_inputs(lemmas) or _needs(low):
            continue
        causal = bool(_CAUSAL_MARKS.search(clause)) or any(
            phrase_at(lemmas, i, Concept.CAUSAL) or phrase_at(lemmas, i, Concept.HEDGE) for i in range(len(lemmas)))
        acting = _acts(toks, lemmas)
        if causal or acting:
            return True
    return False


def _acts(toks, lemmas: list[str]) -> bool:
    """A subject, then a verb of acting on the system in the past or now (``the job locked the table``,
    ``is locking``, ``overloads``): what the subject did is stated as the mechanism."""
    for i, t in enumerate(toks):
        if i == 0 or lemmas[i] not in MECHANISM:
            continue
        form = lemma.verb(t.text).form
        subject = [x.low for x in toks[:i]]
        if subject[-1:] and subject[-1] in ("no", "not", "nothing", "never", "nobody", "to"):
            continue
        if subject and subject[0] in ("nothing", "no", "none", "nobody"):
            continue
        if form in (lemma.PAST, lemma.S) or (form == lemma.GERUND and i and toks[i - 1].low in ("is", "are", "was",
                                                                                           "were")):
            return True
    return False


_TITLE_CAUSE = re.compile(r":\s|\s(?:caused by|due to|because of|owing to|thanks to|triggered by|driven by|"
                          r"resulting from|result of|after|from|following|via|by)\s|\b(?:root )?cause[sd]?\s*[:=]\s*",
                          re.I)
_TITLE_EFFECT = re.compile(r"\s(?:caused(?! by)|causes|causing|led to|leads to|leading to|results? in|resulted in|"
                           r"triggered(?! by)|triggers|broke|breaks)\s", re.I)
_TIME = re.compile(r"^\W*(?:\d{1,2}:\d{2}|\d{4}-\d{2}-\d{2}|(?:the )?(?:alert|incident|start|onset|midnight|noon|"
                   r"morning|night|today|yesterday|deploy window|window)\b)", re.I)


_TITLE_LABEL = re.compile(r"^\s*(?:\[[^\]]{1,24}\]\s*|[A-Z][A-Za-z]*(?:[-#]?\d+)?:\s+(?=\S))")
"""``[SEV2]``, ``Payments:``, ``INC-2041:``: a label before the title proper names no cause."""
_SEPARATOR = re.compile(r"\s+\|\s+|\s+[—–]\s+|\s+-{1,2}\s+|\s*\(([^()]+)\)\s*")


def title_parts(title: str) -> tuple[str, str]:
    """(symptom part, cause part) of a title: ``<symptom>: <cause>``, ``<symptom> after <cause>``,
    ``<cause> caused <symptom>``, ``<symptom> | <cause>``, ``<symptom> (<cause>)``; the cause part is ""
    when the title states none."""
    title = (title or "").strip()
    rest = _TITLE_LABEL.sub("", title, count=1)
    if rest != title and (_TITLE_CAUSE.search(rest) or _TITLE_EFFECT.search(rest) or _SEPARATOR.search(rest)):
        title = rest
    effect = _TITLE_EFFECT.search(title)
    if effect:
        return title[effect.end():].strip(), title[:effect.start()].strip()
    m = _TITLE_CAUSE.search(title)
    if m:
        return title[:m.start()].strip(), title[m.end():].strip()
    pieces = [p.strip() for p in _SEPARATOR.split(title) if p and p.strip()]
    if len(pieces) > 1:
        return pieces[0], " ; ".join(pieces[1:])
    return title, ""


def title_states_cause(title: str) -> bool:
    """A title's cause part names a cause (not a time, not what is missing, not that it is unknown)."""
    _, cause = title_parts(title)
    if not cause or _TIME.match(cause):
        return False
    toks = [t for t in tokenize(cause) if t.word and not t.code]
    low = [t.low for t in toks]
    lemmas = [lemma.lemma(t.text) for t in toks]
    if not toks or _unknowing(lemmas, low) or _about_inputs(lemmas) or _dismisses(cause) or low[0] in _NONE_OPENERS:
        return False  # "…: no analysis needed", "…: nothing to do" states no cause
    return any(w.isalpha() and len(w) > 2 and w not in STOPWORDS and not _plain(lemma.lemma(w)) for w in low)


_NONE_OPENERS = frozenset({"no", "nothing", "none", "not", "n/a", "na"})


@lru_cache(maxsize=4096)
def undetermined(cause: str) -> bool:
    """The statement says the cause is not known (``unknown``, ``cannot tell yet``, ``No cause named.``) and
    names none; its first sentence decides, unless a later one turns (``but …``) to state a cause. Quoted
    code (``could not resolve host``) is what it quotes, not what it says."""
    if "`" in cause:
        cause = set_aside(cause)[0]
    first = sentences(cause)[:1]
    if first and first[0] != cause.strip() and _undetermined(first[0]):
        rest = cause.strip()[len(first[0]):]
        return not any(t.low in _CONTRAST for t in tokenize(rest)[:3]) or _undetermined(rest)
    return _undetermined(cause)


_HEDGE = re.compile(r"^\s*[(\[][^()\[\]]{1,60}[)\]]\s*(?=\S)")
"""A leading parenthesis (``(hypothesis, unconfirmed) network path failure …``): it hedges the cause that follows."""


def _undetermined(cause: str) -> bool:
    hedge = _HEDGE.match(cause)
    if hedge is not None and len([t for t in tokenize(cause[hedge.end():]) if t.word]) >= 2:
        return _undetermined(cause[hedge.end():])
    toks = [t for t in tokenize(cause) if t.word and not t.code]
    low = [t.low for t in toks[:6]]
    if not toks or not _unknowing([lemma.lemma(w) for w in low], low) or asserts_cause(cause):
        return False
    turn = next((i for i, t in enumerate(toks) if t.low in _CONTRAST), None)
    if turn is not None:  # "unknown for certain, but the 1.9.3 image needs more memory than its limit" states one
        rest = toks[turn + 1:]
        rest_low = [t.low for t in rest]
        return len(rest) < 4 or _unknowing([lemma.lemma(t.text) for t in rest], rest_low)
    return True


_CONTRAST = frozenset({"but", "however", "though", "although", "yet", "still"})
