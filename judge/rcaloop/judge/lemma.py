"""English words to their lemma and form, from a lemmatizer (lemminflect), not from listed forms.

The judge looks words up by lemma (``approves``, ``approved``, ``approving`` → ``approve``) and
reads a verb's form to tell an imperative (``restart the pods``) from a report (``restarted``)
or a gerund (``restarting``). lemminflect is used because it is part-of-speech aware: it gives
verb lemmas and the Penn tags of each inflection, including irregular ones (``ran``, ``shut``,
``torn``) and words outside its dictionary; simplemma gives lemmas without a part of speech.
The lemmatizer's tables load once per process, on first use.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

BASE, S, PAST, GERUND = "base", "s", "ed", "ing"


@dataclass(frozen=True)
class Form:
    lemma: str
    """The word's verb lemma, or the word itself (lower case) when it is no verb."""
    form: str
    """``base``, ``s``, ``ed`` (past or participle) or ``ing`` for a verb; ``""`` for no verb."""
    past_too: bool = False
    """A base form that is also the past (``set``, ``shut``, ``put``, ``reset``): after a subject it may report."""

    @property
    def verb(self) -> bool:
        return bool(self.form)


def norm(word: str) -> str:
    """A word as the vocabulary writes it: lower case, no hyphen, no apostrophe (``don't`` → ``dont``)."""
    return word.lower().replace("-", "").replace("\u2019", "").replace("'", "")


@lru_cache(maxsize=1)
def _lm():
    import lemminflect  # noqa: PLC0415  (its tables take a moment to load: only when first needed)

    return lemminflect


@lru_cache(maxsize=65536)
def verb(word: str) -> Form:
    """The verb ``word`` is a form of, and which form; ``Form(word, "")`` when it can be no verb."""
    low = norm(word)
    if not low.isalpha() or len(low) < 2:
        return Form(low, "")
    lm = _lm()
    lemmas = lm.getAllLemmas(low, upos="VERB").get("VERB") or ()
    if not lemmas:
        return Form(low, "")
    lemma = lemmas[0]
    tags = lm.getAllInflections(lemma, upos="VERB")
    if low == lemma:
        return Form(lemma, BASE, low in tags.get("VBD", ()))
    for tag, form in (("VBG", GERUND), ("VBZ", S), ("VBD", PAST), ("VBN", PAST)):
        if low in tags.get(tag, ()):
            return Form(lemma, form)
    if low.endswith("ing"):
        return Form(lemma, GERUND)
    if low.endswith("s"):
        return Form(lemma, S)
    return Form(lemma, PAST)


@lru_cache(maxsize=65536)
def unknown_verb(word: str) -> Form:
    """A word outside the lemmatizer's dictionary read as a verb by its ending (``yeeting`` →
    ``yeet``, ``ing``): what an imperative of an unknown word looks like."""
    low = norm(word)
    if not low.isalpha():
        return Form(low, "")
    lemmas = _lm().getAllLemmasOOV(low, upos="VERB").get("VERB") or (low,)
    lemma = lemmas[0]
    form = GERUND if low.endswith("ing") else PAST if low.endswith("ed") else S if low.endswith("s") else BASE
    return Form(lemma, form)


@lru_cache(maxsize=65536)
def noun(word: str) -> bool:
    """The word can be a noun (``lock``, ``slot``, ``drop``; not ``delete``, ``restart``)."""
    low = norm(word)
    return low.isalpha() and bool(_lm().getAllLemmas(low, upos="NOUN").get("NOUN"))


@lru_cache(maxsize=65536)
def adverb(word: str) -> bool:
    """The word can be an adverb (``fast``, ``later``, ``gracefully``): after a verb it says how, not what."""
    low = norm(word)
    return low.isalpha() and bool(_lm().getAllLemmas(low, upos="ADV").get("ADV"))


@lru_cache(maxsize=65536)
def plural_noun(word: str) -> bool:
    """``word`` is the plural of a noun (``pods``, ``logs``): before a verb it is the subject, not a verb."""
    low = norm(word)
    if not low.isalpha():
        return False
    nouns = _lm().getAllLemmas(low, upos="NOUN").get("NOUN")
    return bool(nouns) and nouns[0] != low


@lru_cache(maxsize=65536)
def lemma(word: str) -> str:
    """The lemma of any word: a verb's, else a noun's (``pods`` → ``pod``), else the word (normalised)."""
    low = norm(word)
    if not low.isalpha():
        return low
    if len(word) >= 3 and word.endswith("s") and word[:-1].isupper():
        return low[:-1]  # an acronym's plural (``PRs``, ``MRs``, ``PVCs``)
    found = verb(low)
    if found.verb:
        return found.lemma
    nouns = _lm().getAllLemmas(low, upos="NOUN").get("NOUN")
    if nouns:
        return nouns[0]
    adjectives = _lm().getAllLemmas(low, upos="ADJ").get("ADJ")
    if adjectives:
        return adjectives[0]
    if low.endswith("s") and not low.endswith("ss") and len(low) > 3 and not known(low) and not _listed(low):
        return low[:-1]  # a plural the dictionary does not know (``webhooks``); not a name the vocabulary lists
    return low


@lru_cache(maxsize=1)
def _vocabulary() -> frozenset[str]:
    from rcaloop.judge.vocab import table  # noqa: PLC0415 (the vocabulary reads no lemmas: no cycle at use)

    return frozenset(w for concepts in table().values() for ws in concepts.values() for w in ws)


def _listed(low: str) -> bool:
    """The vocabulary lists the word as written (``prometheus``, ``kubernetes``): it is its own lemma."""
    return low in _vocabulary()


@lru_cache(maxsize=65536)
def known(word: str) -> bool:
    """The lemmatizer knows the word (as any part of speech): it is English, not an invented name."""
    low = norm(word)
    return bool(low.isalpha() and _lm().getAllLemmas(low))
