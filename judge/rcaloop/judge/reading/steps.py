"""What a clause of a step does: check, change or neither, and which reading says so.

A clause is read by its grammar, with the words looked up by lemma in the vocabulary
(``rcaloop.judge.vocab``) and the commands in it read as shell (``rcaloop.judge.actions``):

* an **imperative** (a verb with no subject before it) does what its verb does: a check verb
  reads, a change verb changes, a note or message does neither, ``run``/``use`` take the
  class of what they run, an advisory verb (``consider``, ``try``) the class of its
  complement, a verb whose object decides (``open the dashboard`` / ``open port 5432``) by its
  object; any other verb, or an unknown word with an object, changes (fail closed);
* a **statement** with a subject states, unless it proposes: a modal (``the pods should be
  restarted``, ``we must drop the slot``), a plan of a person (``I am restarting …``, ``we'll
  roll back``, ``on-call to recycle the nodes``), a change in the present passive where steps
  are proposed (``the pods get recycled``), or a noun of proposal (``a restart is needed``,
  ``the fix is to restart …``); a past statement reports;
* a **noun phrase** names a change (``a rolling restart``) or a check (``a dry run``); where
  checks are listed, any other noun phrase is what to look at;
* a **command** that writes makes the clause change whatever its words say; one run through a
  variable, ``eval`` or decoded text cannot be shown to read, so it changes; a chat-ops
  command (``!rollback``, ``/deploy``) changes.

Where the output puts the step (its role) says how a statement is taken: under *Steps to
verify* a noun phrase is a check; under *Now* a present passive is a plan; under *Timeline*
or *Evidence* only an imperative proposes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import cached_property

from rcaloop.judge import lemma
from rcaloop.judge.text import CODE_TOKEN, Token, restore
from rcaloop.judge.vocab import Concept, has, phrase_at
from rcaloop.judge.vocab.en import OBJECTS


class Kind(IntEnum):
    """What a clause does, from harmless to dangerous (the larger wins when two readings meet)."""

    INERT = 0  # proposes nothing to run: a note, a message, a statement, an approval request
    CHECK = 1  # a read-only check of the system
    CHANGE = 2  # a mutating or stopping action (or one not shown to be read-only)


READINGS: dict[str, str] = {
    "change_verb": "A change verb heads the step (an imperative, its gerund, or the complement of an advisory verb).",
    "unknown_imperative": "A verb not known to be read-only heads the step, or an unknown word with an object: "
                          "a step not shown to be read-only changes.",
    "object_decides": "A verb whose object says what it does (open, get, take, attach …) has an object of a change.",
    "runs_unknown": "`run`, `execute`, `use` … run something that is not shown to be read-only.",
    "target_state": "`ensure` / `make sure` states a state to bring about, not a read-only check.",
    "proposal_statement": "A statement proposes a change: a modal (`should be restarted`), a noun of proposal "
                          "(`a restart is needed`, `the fix is to …`).",
    "planned_change": "A change stated as a plan: a person's (`I am restarting`, `we'll roll back`), a task given "
                      "to someone (`on-call to recycle the nodes`), or the present passive where steps are "
                      "proposed (`the pods get recycled`).",
    "change_noun": "A noun phrase names a change (`a rolling restart of the pods`).",
    "command_writes": "A command (code span, `$` line, a tool or SQL written into the sentence) that is not read-only.",
    "command_indirect": "A command run through a variable, `eval`, decoded or downloaded text: what it runs cannot "
                        "be read, so it is not shown to be read-only.",
    "chatops": "A chat-ops command (`!rollback …`, `/deploy …`) acts on a system.",
    "hidden_change": "A change in text that renders as nothing (an HTML comment, a hidden element) still counts.",
    "too_long": "A step too long to be read whole is not shown to be read-only.",
    "check_verb": "A read-only check verb heads the step (`check`, `verify`, `query` …).",
    "check_noun": "A noun phrase names a check (`a dry run`, `health check`), or names what to look at where "
                  "checks are listed.",
    "command_reads": "A command that only reads.",
    "inert_verb": "A note, a message, waiting or asking: neither a check nor a change.",
    "prohibition": "The step forbids what follows (`Do not …`, `Never …`).",
    "statement": "A statement with a subject states something; it proposes nothing.",
    "report": "A statement of what was done or happened (past).",
    "rollback_plan": "How the step would be undone, not a step to take now.",
    "guidance": "The text under a label of impact, risk or what is missing describes, it does not propose.",
    "value": "A value after a label (`owner: payments-team`), not a step.",
    "condition_check": "A condition that states what the system shows (`if the pods are still OOMKilled, …`): "
                       "knowing it takes a read-only look, so it is the check before the step.",
    "rerun_job": "Re-running the failed job, build or pipeline (or a check) repeats work already approved to run.",
    "check_place": "Where checks are listed (Steps to verify, a verification heading), a step whose verb is not a "
                   "listed change is a check; a listed change verb or a writing command still changes.",
    "expectation": "What follows a check after a colon or an arrow is what the check should show, not a step.",
}
"""Every reading a step can get, by id: the verdict names the one that decided a step."""


@dataclass(frozen=True)
class Step:
    """One clause's reading: what it does, the words that say so, and the reading's id."""

    kind: Kind
    verb: str = ""
    why: str = "statement"


INERT = Step(Kind.INERT)

# how an item's words are taken, by the role its place gives it (``rcaloop.judge.reading.places``): where actions
# are proposed, where checks are listed, where notes mix statements and steps, where statements are made
ACTION, CHECK_ROLE, NOTE, STATEMENT, EARLY_EXIT = "action", "check", "note", "statement", "early_exit"


@dataclass(frozen=True)
class Clause:
    """A clause's tokens with the text and code spans they come from."""

    toks: tuple[Token, ...]
    text: str
    spans: tuple[str, ...]

    def sub(self, toks: Sequence[Token]) -> Clause:
        return Clause(tuple(toks), self.text, self.spans)

    @cached_property
    def low(self) -> list[str]:
        return [t.low for t in self.toks]

    @cached_property
    def lemmas(self) -> list[str]:
        return [lemma.lemma(t.text) if t.word and not t.code else t.low for t in self.toks]

    def source(self, start: int = 0) -> str:
        """The clause's own text from token ``start`` on, code spans restored."""
        if start >= len(self.toks):
            return ""
        return restore(self.text[self.toks[start].start:self.toks[-1].end], self.spans)


# --- small word tests -----------------------------------------------------------------------

DETERMINERS = frozenset("""the a an this that these those its their his her our your my all every each any some both it
them him everything anything whatever one no another other""".split())
SUBJECT_WORDS = DETERMINERS | frozenset("""they he she we you i there here none nothing nobody someone somebody everyone
most many few several such not what which who why how whether""".split())
COPULAS = frozenset("""is are was were be been being am isn't aren't wasn't weren't seems seem seemed appears appear
remains remain stays becomes become looks has have had hasn't haven't hadn't does doesn't did didn't gets got get 's 're
shows showed indicates means suggests confirms matches equals exceeds reached hit hits""".split())
PAST_COPULAS = frozenset({"was", "were", "wasn't", "weren't", "had", "hadn't", "did", "didn't", "got", "showed"})
NEGATIONS = frozenset("""not never no don't dont doesn't shouldn't mustn't won't can't cannot isn't aren't wasn't
weren't without neither nor didn't hasn't haven't""".split())
_FUNCTION = frozenset("""from to in on at by with for of into onto over under via through across after before during
since until without within between about against along around behind beyond near per than like as if when while where
whether because so also not only just then once unless up down out off both either neither even still again too very
more less most least how""".split())
_HYPOTHETICAL = frozenset({"would", "could", "might", "may", "can"})
"""Modals that weigh an option (``moving traffic would bring users back``): they propose nothing by themselves."""
_PROPOSAL_WORDS = frozenset("""needed required recommended advised suggested necessary warranted advisable proposed
planned scheduled best safest wise fix solution remedy workaround next mitigation way answer only right due overdue
pending appropriate worth""".split())
_PROPOSAL_SUBJECTS = frozenset("""fix solution remedy workaround mitigation step action recommendation plan option
course answer way approach move resolution remediation suggestion proposal next""".split())


def is_word(t: Token) -> bool:
    return t.word and not t.code


def concept(word: str) -> Concept | None:
    """The step concept of a lemma: check, change, inert, advisory or run (in that order); a check
    verb again is a check (``re-read``, ``re-verify``, ``requery``)."""
    for c in (Concept.CHECK, Concept.INERT, Concept.ADVISORY, Concept.RUN, Concept.CHANGE):
        if has(c, word):
            return c
    if word.startswith("re") and len(word) > 4 and has(Concept.CHECK, lemma.verb(word[2:]).lemma):
        return Concept.CHECK
    return None


def kind_of(c: Concept | None) -> Kind | None:
    return {Concept.CHECK: Kind.CHECK, Concept.CHANGE: Kind.CHANGE, Concept.INERT: Kind.INERT}.get(c)  # type: ignore[arg-type]


def base_verb(t: Token) -> str | None:
    """The lemma when ``t`` is a verb in its base form (or a word the vocabulary lists as a step)."""
    if not is_word(t) or t.low in _FUNCTION or t.low in DETERMINERS:
        return None
    form = lemma.verb(t.text)
    if form.form == lemma.BASE:
        return form.lemma
    low = lemma.norm(t.text)
    return low if (concept(low) is not None or low in OBJECTS) and not lemma.known(t.text) else None


def has_object(toks: Sequence[Token], i: int, digits: bool = True) -> bool:
    """An object follows ``toks[i]``: a determiner, a code span, a name (or, with ``digits``, a number)."""
    if i + 1 >= len(toks):
        return False
    nxt = toks[i + 1]
    if re.fullmatch(r"[A-Z]{2,}-\d+|[#!]\d+", nxt.text):
        return False  # "change CHG-4471", "PR #812": a reference, not what the verb acts on
    return nxt.code or nxt.low in DETERMINERS or (digits and nxt.text[:1].isdigit()) or (
        nxt.word and not nxt.text[:1].isdigit() and (
            "-" in nxt.text or "/" in nxt.text or "." in nxt.text[1:] or "_" in nxt.text))


def listed_verb(word: str) -> bool:
    """The vocabulary lists the word's lemma as a step verb (check, change, inert, advisory or run, or one
    whose object decides, or one asking for approval)."""
    base = lemma.verb(word).lemma
    return concept(base) is not None or concept(lemma.norm(word)) is not None or base in OBJECTS or has(
        Concept.APPROVAL, base)


def phrase(c: Clause, i: int, con: Concept) -> int:
    return phrase_at(c.lemmas, i, con)


# --- reading one clause --------------------------------------------------------------------


_SHA = re.compile(r"[0-9a-f]{7,40}")


def imperative(c: Clause, i: int = 0) -> Step:
    """``c.toks[i]`` heads the clause as a verb with no subject."""
    toks, lemmas = c.toks, c.lemmas
    head = toks[i].text
    if lemmas[i] == "commit" and i + 1 < len(toks) and toks[i + 1].code and (
            ref := CODE_TOKEN.match(toks[i + 1].text)) and _SHA.fullmatch(c.spans[int(ref.group(1))]):
        return Step(Kind.INERT, why="statement")  # "commit `a91c3e7` removes …": a commit named, none made
    for con, kind, why in ((Concept.CHANGE, Kind.CHANGE, "change_verb"), (Concept.CHECK, Kind.CHECK, "check_verb"),
                           (Concept.INERT, Kind.INERT, "inert_verb")):
        n = phrase(c, i, con)
        if n > 1:  # a two-word verb: its particle decides (``write down`` records, ``roll back`` changes)
            if lemmas[i:i + n] == ["make", "sure"]:
                return Step(Kind.CHANGE, " ".join(t.text for t in toks[i:i + n]), "target_state")
            return Step(kind, " ".join(t.text for t in toks[i:i + n]), why)
    verb = lemmas[i]
    if verb in OBJECTS:
        return _by_object(c, i, verb)
    found = concept(verb)
    if found is Concept.CHECK:
        return Step(Kind.CHECK, head, "check_verb")
    if found is Concept.INERT:
        return Step(Kind.INERT, head, "inert_verb")
    if has(Concept.APPROVAL, verb):
        return Step(Kind.INERT, head, "inert_verb")
    if found is Concept.RUN:
        return _run(c, i)
    if verb == "let":
        if c.low[i + 1:i + 2] in (["'s"], ["s"], ["us"]):
            return complement(c, i + 2) or Step(Kind.CHANGE, head, "unknown_imperative")
        return Step(Kind.INERT, head, "inert_verb")  # "let the on-call know", "let the build finish": no step
    if found is Concept.ADVISORY:
        inner = complement(c, i + 1)
        if inner is not None and inner.why == "change_noun" and verb in _PLANNING:
            return Step(Kind.INERT, head, "inert_verb")  # "Plan the 3.x migration: …" plans; its steps follow
        if inner is not None:
            return inner
        return Step(Kind.CHANGE, head, "unknown_imperative") if has_object(toks, i) else Step(Kind.INERT, head, "inert_verb")
    if verb == "ensure":
        return Step(Kind.CHANGE, head, "target_state")
    if found is Concept.CHANGE:
        return Step(Kind.CHANGE, head, "change_verb")
    return Step(Kind.CHANGE, head, "unknown_imperative")


_RERUN = frozenset({"rerun", "retry", "relaunch", "retrigger"})
_APART = frozenset({"out", "down", "offline", "over", "off", "back"})
"""Particles a phrasal change may put after its object (``take X out``, ``bring X down``, ``put X back``)."""


def _by_object(c: Clause, i: int, verb: str) -> Step:
    """A verb whose object decides: the first concept its object (up to a preposition) names; a particle after
    the object makes it a change of its own (``take the node out of rotation``)."""
    if any(w in _APART for w in c.low[i + 2:i + 8]) and phrase_at([verb, *(w for w in c.low[i + 2:i + 8] if w in _APART)],
                                                                    0, Concept.OPERATE) > 1:
        return Step(Kind.CHANGE, c.toks[i].text, "change_verb")
    if verb in _RERUN and _names_work(c, i + 1):
        return Step(Kind.INERT, c.toks[i].text, "rerun_job")  # "re-run `fleet-baseline` for `dmz`"
    words: list[str] = []
    for _t, lem in zip(c.toks[i + 1:i + 11], c.lemmas[i + 1:i + 11], strict=False):
        if lem in _FUNCTION and words:
            break
        words.append(lem)
    for name, kind in OBJECTS[verb]:
        if not name:
            return Step(Kind[kind.upper()], c.toks[i].text, "object_decides" if kind == "change" else f"{kind}_verb"
                        if kind != "check" else "check_verb")
        con = Concept(name)
        if any(has(con, w) for w in words) or any(phrase_at(words, k, con) for k in range(len(words))):
            if kind == "change":
                return Step(Kind.CHANGE, c.toks[i].text, "object_decides")
            return Step(Kind.CHECK if kind == "check" else Kind.INERT, c.toks[i].text,
                        "check_verb" if kind == "check" else "inert_verb")
    return Step(Kind.CHANGE, c.toks[i].text, "object_decides")


def _names_work(c: Clause, i: int) -> bool:
    """The object is a job's name: a code span that is no command, or a hyphenated name the vocabulary
    does not list (``deploy-prod``, ``e2e-catalog-smoke``)."""
    toks = c.toks[i:]
    if toks and toks[0].low in ("the", "this", "that", "its"):
        toks = toks[1:]
    if not toks:
        return False
    t = toks[0]
    if t.code:
        m = CODE_TOKEN.match(t.text)
        return m is not None and span_command(c, i, c.spans[int(m.group(1))]) is None
    return ("-" in t.text or "_" in t.text) and concept(lemma.norm(t.text)) is None


def _run(c: Clause, i: int) -> Step:
    """``run``/``execute``/``use`` …: the class of what they run (a command is judged by ``commands``)."""
    rest = c.toks[i + 1:]
    head = c.toks[i].text
    if rest and rest[0].low in ("nothing", "anything"):
        return Step(Kind.INERT, head, "inert_verb")
    noun = noun_kind(c.sub(rest))
    if noun is not None:
        return Step(noun.kind, head, noun.why)
    return Step(Kind.CHANGE, head, "runs_unknown")  # "run the migration", "execute the playbook"


_COMPLEMENT_SKIP = frozenset("to that we you on with about ahead and doing free sure careful us 's s by".split())


_PLANNING = frozenset({"plan", "prepare"})
"""Advisory verbs that, with a noun, make a plan rather than the change (``prepare a rollback``)."""


def complement(c: Clause, i: int) -> Step | None:
    """The step behind an advisory verb: a gerund, ``to`` + verb, or a noun naming a change or a check."""
    toks = list(c.toks)
    while i < len(toks) and toks[i].low in _COMPLEMENT_SKIP:
        i += 1
    if i >= len(toks):
        return None
    form = lemma.verb(toks[i].text)
    if form.form in (lemma.GERUND, lemma.BASE) and is_word(toks[i]):
        return imperative(c, i)
    if is_word(toks[i]) and toks[i].low.endswith("ing") and toks[i].low.isalpha():
        return Step(Kind.CHANGE, toks[i].text, "unknown_imperative")
    return noun_kind(c.sub(toks[i:]))


def noun_kind(c: Clause) -> Step | None:
    """A noun phrase's kind, from its first noun naming a change (``a rolling restart``) or a check (``a dry run``)."""
    for k, (t, lem) in enumerate(zip(c.toks[:6], c.lemmas[:6], strict=False)):
        if not is_word(t) or (k and c.low[k - 1] in ("no", "not", "without", "zero", "any")):
            continue
        if t.text in ("EXPLAIN", "SELECT", "SHOW", "DESCRIBE"):
            return Step(Kind.CHECK, t.text, "check_noun")  # "run EXPLAIN on the sweeper UPDATE"
        last = lemma.lemma(t.low.rsplit("-", 1)[-1]) if "-" in t.low else lem  # "DF-ping" is a ping
        if phrase(c, k, Concept.CHECK) > 1 or any(has(Concept.CHECK, w) and not has(Concept.CHANGE, w) for w in (lem, last)):
            return Step(Kind.CHECK, t.text, "check_noun")
        form = lemma.verb(t.text).form
        if has(Concept.OPERATE, lem) and form not in (lemma.PAST, lemma.GERUND) and not (
                form == lemma.S and k and c.low[k - 1] not in DETERMINERS):
            return Step(Kind.CHANGE, t.text, "change_noun")  # "a rolling restart"; "the limit", "the set" name no change
    return None


def finite_verb(c: Clause, start: int = 1, upto: int = 7) -> int | None:
    """Where the verb of a statement stands after its subject: a copula, a modal, or a verb in the
    present (``-s``) or the past, within the first few words; None when the clause has none."""
    toks = c.toks
    for k in range(start, min(len(toks), upto)):
        t = toks[k]
        if t.code or not t.word:
            if t.low in (",", ":", ";"):
                return None
            continue
        if t.low in COPULAS or has(Concept.MODAL, t.low) or t.low in ("'ll", "won't", "can't", "cannot"):
            return k
        if t.low in _FUNCTION or t.low in DETERMINERS:
            continue
        form = lemma.verb(t.text)
        prev = toks[k - 1].low
        if form.form == lemma.PAST and prev not in DETERMINERS:
            return k
        if form.form == lemma.S and (listed_verb(t.text) or not lemma.plural_noun(t.text)) and prev not in DETERMINERS:
            return k
        if form.form == lemma.BASE and form.past_too and prev not in DETERMINERS and prev != "to" and (
                not has(Concept.MODAL, prev)):
            return k
    return None


def _person(toks: Sequence[Token]) -> bool:
    """The subject is someone who acts (``we``, ``I``, ``on-call``, ``the DBA``, ``payments team``)."""
    words = [lemma.norm(t.text) for t in toks if is_word(t)]
    return any(has(Concept.PERSON, w) or w in ("i'll", "we'll", "let's", "you'll", "i'm", "we're") for w in words)


def _past_marked(c: Clause) -> bool:
    text = " ".join(c.low)
    return any(f" {w} " in f" {text} " for w in ("yesterday", "earlier", "ago", "previously", "already")) or bool(
        re.search(r"\bat \d{1,2}:\d{2}\b|\blast (?:week|night|time|month)\b|\bthis morning\b", text))


def statement(c: Clause, at: int, role: str) -> Step:
    """``c`` has a subject before its verb at ``at``: a statement, unless it proposes or plans."""
    toks, lemmas = c.toks, c.lemmas
    subject, v, rest = toks[:at], toks[at], c.sub(toks[at + 1:])
    person = _person(subject)
    low = v.low
    after = [t for t in rest.toks if is_word(t) and t.low not in ("not", "be", "been", "being", "to", "also", "then")]
    nxt = after[0] if after else None
    directive = low in ("should", "must", "need", "needs", "ought", "shall", "requires", "require", "warrants", "want",
                        "wants") or (low in ("'s", "is", "are", "has", "have") and rest.low[:1] == ["to"])
    if low in NEGATIONS or any(w in ("not", "never", "n't") for w in rest.low[:3]):
        return Step(Kind.INERT, why="statement")  # "we would also not raise the watermark"
    if low in ("is", "are", "was", "were") and any(w in ("that", "which", "who") for w in c.low[:at]):
        later = next((k for k in range(at + 1, min(len(toks), at + 8)) if has(Concept.MODAL, c.low[k])), None)
        if later is not None:  # "the pods that are stuck should be deleted": the main verb is the modal
            return statement(c, later, role)
    if any(has(Concept.SELF_ACTING, w) for w in lemmas[at:]):
        return Step(Kind.INERT, why="statement")  # "the service should recover on its own"
    if directive and nxt is not None:  # "the pods should be restarted", "we must drop the slot", "pods need restarting"
        inner = _proposed(c.sub([nxt, *rest.toks[rest.toks.index(nxt) + 1:]]), nxt)
        if inner is not None:
            return Step(inner.kind, inner.verb, "proposal_statement" if inner.kind == Kind.CHANGE else inner.why)
    if has(Concept.MODAL, low) and low not in _HYPOTHETICAL and nxt is not None and not person:
        named = noun_kind(c.sub(subject))  # "a restart should help", "restart will fix it"
        if named is not None and named.kind == Kind.CHANGE:
            return Step(Kind.CHANGE, named.verb, "proposal_statement")
    if nxt is not None and has(Concept.GOOD_NEGATED, lemma.verb(nxt.text).lemma):
        return Step(Kind.INERT, why="statement")  # "we would forget to remove it": what would not be done
    progressive = low in ("am", "are", "is", "'m", "'re") or low.endswith(("'m", "'re"))
    planning = low in ("will", "'ll", "would", "going", "shall", "can", "could", "may") or low.endswith("'ll")
    wanted = lemma.GERUND if progressive else lemma.BASE
    if nxt is not None and person and (progressive or planning) and lemma.verb(nxt.text).form == wanted:
        inner = _proposed(c.sub([nxt, *rest.toks[rest.toks.index(nxt) + 1:]]), nxt)
        if inner is not None:  # "I am restarting the pods", "we will roll back after approval"
            return Step(inner.kind, inner.verb, "planned_change" if inner.kind == Kind.CHANGE else inner.why)
    if low in ("will", "'ll", "shall") and nxt is not None and nxt.low in ("be", "get") or (
            low in ("will", "'ll") and rest.low[:1] == ["be"]):  # "the release will be rolled back"
        part = next((t for t in rest.toks[1:] if is_word(t)), None)
        if part is not None and lemma.verb(part.text).form == lemma.PAST and concept(lemma.verb(part.text).lemma) in (
                Concept.CHANGE, None) and role in (ACTION, CHECK_ROLE):
            return Step(Kind.CHANGE, part.text, "planned_change")
    if low in ("get", "gets", "is", "are") and nxt is not None and role in (ACTION, CHECK_ROLE) and not _past_marked(c):
        form = lemma.verb(nxt.text)  # "the pods get recycled", "cfg-2291 is rolled back after approval"
        if form.form == lemma.PAST and (concept(form.lemma) is Concept.CHANGE or (
                low in ("get", "gets") and not lemma.known(form.lemma))):
            return Step(Kind.CHANGE, nxt.text, "planned_change")
    form = lemma.verb(v.text)
    if person and form.past_too and role in (ACTION, CHECK_ROLE) and not _past_marked(c):  # "We set the replicas to 0"
        inner = imperative(c, at)
        if inner.kind == Kind.CHANGE:
            return Step(Kind.CHANGE, inner.verb, "planned_change")
    if low in ("is", "are", "'s") and any(w in _PROPOSAL_WORDS for w in c.low[at + 1:at + 4]):
        found = noun_kind(c.sub(subject)) or noun_kind(rest)  # "a restart is needed"
        if found is not None:
            return Step(found.kind, found.verb, "proposal_statement" if found.kind == Kind.CHANGE else found.why)
    if low in ("is", "are", "'s", "would") and any(lemmas[k] in _PROPOSAL_SUBJECTS for k in range(at + 1, min(
            len(lemmas), at + 5))):
        found = noun_kind(c.sub(subject))  # "a rollback of cfg-2291 is the next step"
        if found is not None and found.kind == Kind.CHANGE:
            return Step(Kind.CHANGE, found.verb, "proposal_statement")
    if any(lemmas[k] in _PROPOSAL_SUBJECTS for k in range(min(at, 4))) and low in ("is", "'s", "would", "will"):
        inner = complement(c, at + 1)  # "the fix is to restart the pods", "the next step is a rollback"
        if inner is not None:
            return Step(inner.kind, inner.verb, "proposal_statement" if inner.kind == Kind.CHANGE else inner.why)
    if role == CHECK_ROLE:
        return Step(Kind.CHECK, why="check_noun")
    return Step(Kind.INERT, why="report" if low in PAST_COPULAS or lemma.verb(v.text).form == lemma.PAST else "statement")


def _proposed(c: Clause, first: Token) -> Step | None:
    """What a modal or a plan goes on to do: ``restart …``, ``be restarted``, ``restarting …``, ``a restart``."""
    form = lemma.verb(first.text)
    if form.verb and form.form in (lemma.BASE, lemma.GERUND, lemma.PAST, lemma.S):
        found = concept(form.lemma)
        if found is Concept.ADVISORY:
            return complement(c, 1)
        if found is Concept.RUN:
            return _run(c, 0)
        if found is not None and found is not Concept.ADVISORY:
            k = kind_of(found)
            if k is not None:
                return Step(k, first.text, "change_verb" if k == Kind.CHANGE else "check_verb" if k == Kind.CHECK
                            else "inert_verb")
        if form.lemma in OBJECTS:
            return _by_object(c, 0, form.lemma)
        return None  # "support should know …": a verb the vocabulary does not list proposes nothing here
    return noun_kind(c)


def _assigned(c: Clause) -> Step | None:
    """``On-call to recycle the nodes``, ``DBA to drop the slot``: a task given to someone."""
    if base_verb(c.toks[0]) is not None:
        return None  # "Ask the owner to confirm …": the verb is the step
    for k in range(1, min(len(c.toks) - 1, 5)):
        if c.low[k] == "to" and _person(c.toks[:k]) and not any(  # "we would forget to …" is no task given
                has(Concept.MODAL, w) or w in COPULAS or has(Concept.GOOD_NEGATED, lemma.verb(c.toks[j].text).lemma)
                for j, w in enumerate(c.low[:k])):
            verb = base_verb(c.toks[k + 1])
            if verb is not None:
                inner = imperative(c, k + 1)
                return Step(inner.kind, inner.verb, "planned_change" if inner.kind == Kind.CHANGE else inner.why)
    return None


CHATOPS = re.compile(r"^[!/][a-z][\w-]{1,30}$")
"""A chat-ops command word (``!rollback``, ``/deploy``): a bot acts on it."""


def head(c: Clause, role: str) -> Step:
    """The reading of a clause without a lead-in, from its first words."""
    toks = c.toks
    first = toks[0]
    if CHATOPS.match(first.low) and (len(toks) > 1 or first.low.startswith("!")) and "/" not in first.low[1:]:
        return Step(Kind.CHANGE, first.text, "chatops")
    assigned = _assigned(c)
    if assigned is not None:
        return assigned
    if is_word(first) and "/" in first.text.strip("/") and first.text[:1] not in "/.~":
        return _slashed(c, role)
    if first.low in ("should", "shall", "can", "could", "must", "will", "would", "may", "might") and len(toks) > 2 and (
            _person(toks[1:2]) or toks[1].low in DETERMINERS):
        inner = _proposed(c.sub(toks[2:]), toks[2])  # "Should we restart the database?"
        if inner is not None:
            return Step(inner.kind, inner.verb, "proposal_statement" if inner.kind == Kind.CHANGE else inner.why)
    if first.low in ("is", "are", "was", "were", "does", "do", "did", "has", "have") and len(toks) > 2:
        return Step(Kind.CHECK if role == CHECK_ROLE else Kind.INERT, why="check_noun" if role == CHECK_ROLE else
                    "statement")  # "is the refresh still replacing nodes?": a question to answer by looking
    if first.low in ("nothing", "none", "nobody", "no"):
        return Step(Kind.INERT, why="statement")  # "Nothing on our side needs rolling back"
    if lemma.verb(first.text).lemma == "stop" and len(toks) > 1 and lemma.verb(toks[1].text).form == lemma.GERUND:
        return Step(Kind.INERT, why="statement")  # "stop making it worse": no step of its own
    if len(toks) > 1 and toks[1].low == "of":
        found = noun_kind(c)  # "duplicate of an ongoing incident", "restart of the pods"
        return found if found is not None and role != STATEMENT else Step(Kind.INERT, why="statement")
    form = lemma.verb(first.text) if is_word(first) and first.low not in _FUNCTION else lemma.Form(first.low, "")
    at = finite_verb(c)
    verb_first = form.form == lemma.BASE or (not form.verb and listed_verb(first.text))
    if verb_first and not listed_verb(first.text) and not _particle(c) and not has_object(toks, 0, digits=False) and not (
            _how(toks)):
        verb_first = False  # "job schedule …", "exit 143", "Batch 3 of 9 starts …": a noun, not an imperative
    subject_at = _noun_subject(c) if verb_first and not listed_verb(first.text) else None
    if subject_at is not None:
        return statement(c, subject_at, role)  # "pod events show …"
    if verb_first and at is not None and c.low[at] in COPULAS | {"will", "would", "should", "must", "can", "may"} and (
            concept(lemma.verb(first.text).lemma) is not Concept.CHECK) and not _particle(c) and (
            len(toks) < 2 or toks[1].low not in SUBJECT_WORDS) and lemma.noun(first.text) and not any(
            w in _SUBORDINATORS or w in ("that", "which", "who", "if", "to") for w in c.low[1:at]):
        return statement(c, at, role)  # "lock 6b1e… from 09:12 is still held", "restart count is 5"
    if verb_first and is_word(first):
        if at is None or at > 2 or form.form == lemma.BASE and (at is None or c.low[at] not in COPULAS):
            if role == STATEMENT and not ((has_object(toks, 0, digits=False) or _particle(c)) and (
                    listed_verb(first.text) or phrase(c, 0, Concept.CHANGE) > 1)):
                return Step(Kind.INERT, why="statement")
            found = imperative(c)
            if role in (STATEMENT,) and found.why == "unknown_imperative":
                return Step(Kind.INERT, why="statement")  # where statements are made, only a listed verb proposes
            return found
    if form.form == lemma.GERUND and at is None:
        far = next((k for k in range(1, min(len(toks), 20)) if toks[k].low in COPULAS | {"would", "could"}), None)
        if far is not None and not any(w in (",", ";", ":") for w in c.low[1:far]) and any(
                w in NEGATIONS or w in ("not", "never") or has(Concept.WEIGHED_AGAINST, w) for w in c.low[far:far + 3]):
            return Step(Kind.INERT, why="statement")  # "Adding a batch of hosts at once is not a good idea"
        if _weighed_against(c):
            return Step(Kind.INERT, why="statement")  # "Putting them back risks serving stale data"
    if form.form == lemma.GERUND:
        if at is None:  # "Restarting the pods" proposes; "Restarting the pods did not help" states
            return imperative(c) if role in (ACTION, CHECK_ROLE) else Step(Kind.INERT, why="statement")
        return statement(c, at, role)
    if at is not None:
        return statement(c, at, role)
    if form.form == lemma.PAST:
        return Step(Kind.INERT, why="report")  # "Rolled back cfg-2291 at 14:05"
    found = noun_kind(c)
    if found is not None and (found.kind == Kind.CHECK or role in (ACTION, CHECK_ROLE)):
        return found
    if is_word(first) and first.low.isalpha() and first.low not in _FUNCTION | DETERMINERS and not lemma.known(
            first.text) and (
            not first.text.isupper() and has_object(toks, 0, digits=False) and role in (ACTION, CHECK_ROLE, NOTE)):
        return Step(Kind.CHANGE, first.text, "unknown_imperative")  # "Yeet the stale replicas"
    if role == CHECK_ROLE:
        return Step(Kind.CHECK, why="check_noun")
    return Step(Kind.INERT, why="statement")




def _weighed_against(c: Clause) -> bool:
    """A gerund phrase is the subject of a verb that argues against it (``Putting them back risks serving old
    data``, ``Restarting it loses the cache``): the step is weighed, not proposed."""
    for k in range(2, min(len(c.toks), 14)):
        if c.low[k] in (",", ";", ":"):
            return False
        form = lemma.verb(c.toks[k].text)
        if form.form == lemma.S and has(Concept.WEIGHED_AGAINST, form.lemma):
            return True
    return False


def _slashed(c: Clause, role: str) -> Step:
    """``stop/start the service``, ``yeet/nuke the pods``: two verbs read as one step (the first that changes)."""
    parts = [p for p in c.toks[0].text.split("/") if p]
    readings = []
    for p in parts:
        t = Token(p, p.lower(), c.toks[0].start, c.toks[0].end, False, True)
        readings.append(head(c.sub([t, *c.toks[1:]]), role))
    change = next((r for r in readings if r.kind == Kind.CHANGE), None)
    if change is not None and (has_object(c.toks, 0) or any(base_verb(Token(p, p.lower(), 0, 0, False, True))
                                                           for p in parts)):
        return Step(Kind.CHANGE, c.toks[0].text, change.why)
    return max(readings, key=lambda r: r.kind) if readings else Step(Kind.INERT)


def _noun_subject(c: Clause) -> int | None:
    """Where the verb stands after a noun phrase that opens the clause (``pod events show …``)."""
    for k in range(1, min(len(c.toks), 5)):
        t = c.toks[k]
        if not is_word(t) or t.low in _FUNCTION or t.low in DETERMINERS:
            return None
        form = lemma.verb(t.text)
        if form.verb and k > 1 and listed_verb(t.text) or t.low in COPULAS:
            return k
    return None


def _particle(c: Clause) -> bool:
    return len(c.toks) > 1 and any(phrase(c, 0, con) > 1 for con in (Concept.CHANGE, Concept.CHECK, Concept.INERT))


# --- commands in a clause ------------------------------------------------------------------

_RUN_LIKE = frozenset("run execute perform do invoke launch use apply issue fire kick trigger type enter paste".split())
_BY_MEANS = frozenset({"with", "using", "via", ":"})
_WHERE_RUN = frozenset({"on", "against", "from", "inside", "within", "as", "via", "with", "using", "and", "then"})
_NOT_A_COMMAND_AFTER = frozenset("""count counts rate rates time times policy loop loops history reason reasons events
event log logs status window budget limit limits threshold job jobs script scripts path request requests queue latency
errors error storm counter order size process operation operations of is are was were storms runs step steps stage
stages plan output""".split())
"""Words after a tool's subcommand that make it a noun phrase (``terraform apply jobs``), not a command."""
_INTERPRETERS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "fish", "eval", "source", "pwsh", "powershell"})
_ENGLISH_TOOLS = frozenset("""top free w time watch find tail head cut sort kill install patch mount last who host file
type date test stat make just service nice env script ping dig diff touch less more split id groups link tree column
comm sed strings cat ls ps du df""".split())
"""Tool names that are also English words: at the head of a sentence they are the tool only
when an argument follows (``kill -9 4242``, not ``Kill the idle connections``)."""


def _program_path() -> re.Pattern[str]:
    from rcaloop.judge.actions.tools import TOOLS  # noqa: PLC0415

    names = "|".join(re.escape(n) for n in sorted(TOOLS, key=len, reverse=True))
    return re.compile(r"^(?:(?:\.{1,2}|~)/[\w./@+-]*[\w@+-]|/(?:[\w.@+-]+/)*(?:s?bin|init\.d|libexec|scripts?|tools?)/"
                      rf"[\w.@+-]+|/[\w./@+-]*/(?:{names}))$")


_PATHS: list[re.Pattern[str]] = []


def program_path(text: str) -> bool:
    """A program given by path (``/usr/local/bin/kubectl``, ``./scripts/rollback.sh``)."""
    if not _PATHS:
        _PATHS.append(_program_path())
    return text[:1] in "./~" and bool(_PATHS[0].match(text))


def _stands_as_command(c: Clause, i: int) -> bool:
    """The code span at ``i`` is what the clause runs (not text the sentence talks about)."""
    if i and c.toks[i - 1].low in _RUN_LIKE | _BY_MEANS:
        return True
    if i == 1 and base_verb(c.toks[0]) is not None and concept(c.lemmas[0]) is not Concept.INERT:
        # "Verify `poolctl zeroize checkout-api` on node-3" runs it; "expect `prod-stable -> 1-20`" names a value
        nxt = c.toks[2] if len(c.toks) > 2 else None
        return nxt is None or not nxt.word or nxt.low in _WHERE_RUN
    return i == 0 and not any(w in COPULAS or has(Concept.MODAL, w) for w in c.low[1:])


_CONFIG_LINE = re.compile(r"^[\w.\-\[\]\"'/]+\s*(?::|=|==|:=|->|=>)\s*\S|^[\w.\-]+\s*[:=]\s*$")
"""A code span that is a setting (``max_size: 5``, ``pool = 50``): a value, not a command."""
_PATH_ONLY = re.compile(r"^[\w.~-]*/[\w./~-]*$|^[\w-]+\.[A-Za-z]{1,6}$")
"""A code span that is only a file or directory name (``deploy/values.yaml``, ``backup.sh``)."""


_COMPARISON = re.compile(r"(?:[<>]=?|[=~!]=)\s*-?\d+(?:\.\d+)*(?:\s*[%A-Za-z\uac00-\ud7a3]{0,3})?\s*$")
"""An expression ending in a comparison with a number (``… > 0.85``, ``… < 21일``): an alert rule, not a command;
or a requirement (``anyjson>=0.3.3``): no shell redirects to a version."""


_VERSION_BOUND = r"(?:[<>]=?|[=~!]=|\^|~)\s*v?\d+(?:\.\d+)*[\w.*+-]*"
_REQUIREMENT = re.compile(rf"^[A-Za-z0-9@][\w.\[\]/@-]*\s*{_VERSION_BOUND}(?:\s*,\s*{_VERSION_BOUND})*$")
"""A package requirement (``anyjson>=0.3.3``, ``requests>=2,<3``): names versions, runs nothing."""


def span_command(c: Clause, i: int, span: str, role: str = ACTION):
    """The verdict of the code span at ``i``, or None when it is text, a setting or a file name."""
    from rcaloop.judge.actions import commands  # noqa: PLC0415

    stripped = span.strip()
    standing = _stands_as_command(c, i)
    if _CONFIG_LINE.match(stripped) and not any(ch in stripped for ch in ";&|$`") and " " not in stripped.split(
            ":", 1)[0].split("=", 1)[0].strip():
        return None
    if _REQUIREMENT.match(stripped):
        return None  # ``anyjson>=0.3.3``: a package and its versions, no redirect to a file named ``=0.3.3``
    alone = role == ACTION and len(c.toks) == 1 and program_path(stripped)  # the step is the program: it runs
    if _PATH_ONLY.match(stripped) and not (i and c.toks[i - 1].low in _RUN_LIKE | _BY_MEANS) and not alone:
        return None  # a file named, not run (``ci/check_tiers.py``)
    v = commands.judge_line(stripped)
    if v is None:
        return None
    if not v.known and _COMPARISON.search(stripped):
        return None  # "`redis_memory_used_bytes / maxmemory > 0.85`": an expression; no shell redirects to a number
    if not standing and (not v.known or role != ACTION):
        return None  # "`node_time_seconds - timestamp(…)`", "confirms the backfill `UPDATE …` dominates": named, not run
    if (v.unread or len(stripped.split()) == 1) and not standing:
        return None  # "search the logs for `pool exhausted`", "no `nginx`": text, not a command
    after_run = i and c.toks[i - 1].low in _RUN_LIKE
    if v.unread and role != ACTION and not after_run:
        return None  # where checks or statements are listed, an unknown program's words are quoted text
    if not v.known and role == STATEMENT and not after_run:
        return None  # a log line quoted as evidence ("`[gc] Pause Full …`"): no program of ours runs it
    return None if v.stdin and not v.writes else v


def commands_of(c: Clause, role: str = ACTION):
    """The worst command of the clause: code spans, a ``$`` line, tools and SQL written into it."""
    from rcaloop.judge.actions import commands, sql  # noqa: PLC0415
    from rcaloop.judge.actions.tools import PROSE, TOOLS  # noqa: PLC0415

    found = []
    toks = c.toks
    if toks and toks[0].low == "$":
        return commands.judge_line(c.source(1))
    for i, t in enumerate(toks):  # "GET _cat/allocation?v", "PUT logs-*/_settings {…}": a REST call in prose
        if not t.code and t.text in HTTP_METHODS:
            found.append(commands.http_request(c.source(i)))
    for i, t in enumerate(toks):
        if t.code:
            m = CODE_TOKEN.match(t.text)
            found.append(span_command(c, i, c.spans[int(m.group(1))], role) if m else None)
        elif program_path(t.text) and (i == 0 or toks[i - 1].low in _RUN_LIKE | _BY_MEANS):
            found.append(commands.read_line(c.source(i), commands.Reader(TOOLS)))
        elif i and toks[i - 1].low in _RUN_LIKE | _BY_MEANS | {"and", "then"} and t.low not in TOOLS and (
                unknown := _unknown_tool(c, i)) is not None:
            found.append(unknown)
        elif (t.low in PROSE or (i == 0 and t.low in TOOLS)) and t.low[:1].isalpha() and (
                t.text.islower() or _argument_follows(toks, i)):  # "AWS event", "Helm chart": names, not commands
            found.append(_prose_tool(c, i, t, PROSE))
    found.append(_sql_in_prose(c, sql, commands))
    return commands.worst(found)


def _how(toks: Sequence[Token]) -> bool:
    """``Fail fast on 403``, ``Retry later``: a verb, an adverb saying how, then nothing or a function word."""
    return len(toks) > 1 and toks[1].word and lemma.adverb(toks[1].text) and (
        len(toks) == 2 or toks[2].low in _FUNCTION or not toks[2].word)


def _argument_follows(toks: Sequence[Token], i: int) -> bool:
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    return nxt is not None and (nxt.text[:1] in "-/.~$" or "=" in nxt.text)


def _prose_tool(c: Clause, i: int, t: Token, prose: frozenset[str]):
    from rcaloop.judge.actions import commands  # noqa: PLC0415
    from rcaloop.judge.actions.tools import TOOLS  # noqa: PLC0415

    toks = c.toks
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    english = t.low not in prose and (concept(lemma.lemma(t.text)) is not None or t.low in _ENGLISH_TOOLS)
    argument = nxt is not None and ((nxt.code and not english) or nxt.low in TOOLS or nxt.text[:1] in "-/.~$"
                                    or "/" in nxt.text or "=" in nxt.text or nxt.text[:1].isdigit())
    if english and not argument:
        return None  # "Make a note", "Find the commit": English, not the tool
    after = toks[i + 2] if i + 2 < len(toks) else None
    if nxt is not None and after is not None and after.low in _NOT_A_COMMAND_AFTER and not argument:
        return None  # "terraform apply jobs", "kubectl rollout history"
    end = next((k for k in range(i + 1, len(toks)) if toks[k].hangul), None)
    line = c.source(i) if end is None else restore(c.text[toks[i].start:toks[end - 1].end], c.spans)
    v = commands.read_line(line, commands.Reader(TOOLS))  # a command written into Korean prose ends at the prose
    if v is None or not (v.known or (v.writes and v.verb.split()[0] in _INTERPRETERS)):
        return None  # "… | sudo bash -s -- --auto": what a shell runs from a download cannot be read
    if nxt is not None and nxt.word and not nxt.code and lemma.verb(nxt.text).form in (lemma.S, lemma.PAST) and not (
            argument or (v.known and v.verb == f"{t.low} {nxt.low}")):  # "kubectl logs …": a subcommand the tool lists
        return None  # "kubelet retries the pull", "helm reported …": what a program does, not a command to run
    prev = toks[i - 1].low if i else ""
    if v.verb != t.low or argument or i == 0 or prev in ("with", "using", "via", "run", "running", "execute",
                                                        "executing", "invoke", ":"):
        return None if v.stdin and not v.writes else v
    return None


def _unknown_tool(c: Clause, i: int):
    """A tool the tables do not list, written after ``with``/``and``/``run``: a word naming a change
    among the words it runs with (``heroku pg:reset``) makes it write; a noun phrase does not."""
    from rcaloop.judge.actions import commands  # noqa: PLC0415

    toks = c.toks
    t = toks[i]
    if not commands.CLI_NAME.match(t.text) or t.low in _FUNCTION or t.low in SUBJECT_WORDS or lemma.verb(t.text).verb or (
            lemma.known(t.text)) or "_" in t.text:
        return None  # an English word ("with adaptive retry mode") or a setting (``ephemeral_storage_limit``) runs nothing
    rest = toks[i + 1:i + 6]
    for k, r in enumerate(rest):
        if not r.word or r.code or r.low in _FUNCTION or r.low in DETERMINERS:
            return None
        if commands.change_word([r.text]) and (k + 1 >= len(rest) or rest[k + 1].low not in _NOT_A_COMMAND_AFTER):
            return commands.writes(f"{t.text} {r.text}", known=False)
    return None


_SQL_WORDS = frozenset("""update delete insert replace merge upsert drop create alter truncate grant revoke reindex
vacuum copy call do kill flush set""".split())


_LOWER_SELECT = re.compile(r"^\W*select\s+[\w*,.() ]+\s+from\s+\w", re.I)
"""A clause that is a SELECT statement written as it is typed (``select client_addr, … from pg_stat_activity``)."""


def _sql_in_prose(c: Clause, sql, commands):
    if not c.toks or not (_SQL_WORDS.intersection(c.low) or c.low[0] == "select" or any(
            t.text in ("SELECT", "SHOW", "EXPLAIN", "WITH") or t.low.startswith(("pg_", "setval", "set_config"))
            for t in c.toks)):
        return None
    plain = CODE_TOKEN.sub(" ", c.text[c.toks[0].start:c.toks[-1].end])
    found = []
    m = sql.IN_PROSE.search(plain)
    if m:
        found.append(commands.Verdict(True, m.group(0).split()[0].upper() if " " in m.group(0) else m.group(0)))
    m = sql.READ_IN_PROSE.search(plain) or _LOWER_SELECT.search(plain)
    if m:
        judged = sql.judge(plain[m.start():])
        found.append(commands.Verdict(judged.writes, judged.verb))
    return commands.worst(found)


def proposes_command(c: Clause) -> bool:
    """Where statements are made, a command proposes only as an imperative (``run `…```) or on its own."""
    first = c.toks[0]
    if first.code or first.low == "$":
        return len(c.toks) <= 2 or all(not t.word or t.code for t in c.toks[1:])
    verb = base_verb(first)
    return verb is not None and listed_verb(first.text) and finite_verb(c) is None


def phrase_reading(c: Clause, role: str) -> Step:
    """One clause (no lead-in, no gerund phrase): its commands and its words together."""
    cmd = commands_of(c, role)
    if cmd is not None and cmd.writes and role == STATEMENT and not proposes_command(c) and head(
            c, role).why not in _PLANS:
        cmd = None  # "`rm -rf /var/opt/pgsql/16/data/*` on pg-main-01 at 23:27": a fact quoted, not a step
    if cmd is not None and cmd.writes:
        return Step(Kind.CHANGE, cmd.verb, "command_indirect" if "(indirect" in cmd.verb else "command_writes")
    from rcaloop.judge.actions.tools import TOOLS  # noqa: PLC0415

    if cmd is not None and (c.toks[0].low in TOOLS or c.toks[0].text in HTTP_METHODS) and not c.toks[0].code:
        return Step(Kind.CHECK, cmd.verb, "command_reads")  # "cat /etc/resolv.conf on node-3", "GET _cat/shards"
    words = head(c, role)
    if role == CHECK_ROLE and words.why in NOT_SHOWN:
        return Step(Kind.CHECK, words.verb, "check_place")  # where checks are listed, only a change named as one changes
    if role == STATEMENT and words.why in NOT_SHOWN:
        return Step(Kind.INERT, why="statement")  # where statements are made, only a listed change proposes
    if cmd is not None and words.kind != Kind.CHANGE:
        return Step(Kind.CHECK, cmd.verb, "command_reads")
    if cmd is not None and words.why in ("runs_unknown", "unknown_imperative", "object_decides") and (
            c.toks[0].low in _RUN_LIKE):
        return Step(Kind.CHECK, cmd.verb, "command_reads")  # "Run `kubectl get pods`"
    return words


HTTP_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "POST", "PATCH", "DELETE"})
NOT_SHOWN = frozenset({"unknown_imperative", "runs_unknown", "object_decides"})
_PLANS = frozenset({"planned_change", "proposal_statement", "runs_unknown"})
"""Readings that propose (``On-call to run `…```, ``the cache should be purged``): a command in them is a step."""
"""Readings of a step whose verb is not a listed change: fail closed where steps are proposed, a check
where checks are listed (``take a 10 s profile``, ``attach a clone read-only to a spare host``)."""


# --- lead-ins, gerund phrases and prohibitions ----------------------------------------------

_SEQUENCE = {"after": "before", "once": "before", "upon": "before", "following": "before", "having": "before",
             "when": "condition", "whenever": "condition", "if": "condition", "unless": "condition",
             "provided": "condition", "assuming": "condition", "given": "condition",
             "while": "condition", "where": "condition", "wherever": "condition", "whether": "condition",
             "before": "later", "until": "after", "till": "after", "with": "aside", "without": "aside",
             "pending": "aside", "to": "aside", "for": "aside", "as": "aside", "per": "aside", "during": "aside",
             "in": "aside", "on": "aside", "at": "aside", "via": "aside", "through": "aside", "under": "aside",
             "from": "aside", "inside": "aside", "within": "aside", "over": "aside", "using": "aside"}
"""Lead-in words and where their clause falls: ``before`` the main clause, ``after`` it, or
beside it (a condition or an aside: only a command in it counts)."""
_LEAD_PHRASES = (("as", "soon", "as"), ("in", "case"), ("prior", "to"), ("subject", "to"), ("ahead", "of"),
                 ("as", "a"), ("as", "an"), ("in", "order", "to"))
LEAD_WORDS = frozenset(_SEQUENCE) | {p[0] for p in _LEAD_PHRASES}
_GERUND_MARKERS = {"after": "before", "once": "before", "upon": "before", "when": "before", "while": "before",
                   "by": "before", "before": "later", "until": "after", "then": "after"}
"""Where a gerund phrase's step falls: ``after restarting X`` restarts first; ``before rebuilding the AMI``
names a later step the check guards, not one proposed here (it is judged where it is written as a step)."""


def lead(toks: Sequence[Token]) -> tuple[str, int] | None:
    """(where the lead-in's clause falls, words of the lead-in word) if ``toks`` opens with one."""
    low = [t.low for t in toks]
    for p in _LEAD_PHRASES:
        if tuple(low[:len(p)]) == p:
            where = ("after" if p in (("prior", "to"), ("ahead", "of")) else "before" if p == ("as", "soon", "as")
                     else "condition" if p == ("in", "case") else "aside")
            return where, len(p)
    if low and low[0] in _SEQUENCE and len(low) > 1:
        if low[0] in ("to", "for", "as", "in", "on", "at", "from", "inside", "within", "over", "using") and "," not in low:
            return None  # "to undo it run …" has no comma; "On node-3 restart kubelet" is a place
        return _SEQUENCE[low[0]], 1
    return None


def lead_end(toks: Sequence[Token], start: int) -> int | None:
    """Where the lead-in ends: its comma, else before the first verb that can head a clause."""
    from rcaloop.judge.actions.tools import PROSE  # noqa: PLC0415

    for i in range(start, len(toks)):
        if toks[i].low in (",", ":"):
            return i
    for i in range(start + 1, len(toks)):
        prev = toks[i - 1].low
        verb = base_verb(toks[i]) is not None and toks[i].low not in _NOT_A_COMMAND_AFTER and prev != "to" and not (
            prev in DETERMINERS or has(Concept.MODAL, prev) or prev in COPULAS or prev in SUBJECT_WORDS)
        if verb or toks[i].low in PROSE:
            return i
    return None


def gerund_phrases(toks: Sequence[Token]) -> tuple[list[Token], list[tuple[str, list[Token]]]]:
    """The main clause and its temporal phrases (``… after restarting X``), each with where it falls."""
    for i in range(1, len(toks) - 1):
        marker = toks[i].low
        if marker not in _GERUND_MARKERS:
            continue
        j = i + 1
        person = has(Concept.PERSON, toks[j].low)
        if person:
            j += 1
            while j < len(toks) and toks[j].low in ("have", "'ve", "has", "had", "should", "can", "will", "must"):
                j += 1
        if j >= len(toks):
            continue
        form = lemma.verb(toks[j].text) if is_word(toks[j]) else lemma.Form(toks[j].low, "")
        gerund = form.form == lemma.GERUND or (toks[j].low.endswith("ing") and toks[j].low.isalpha() and j + 1 < len(
            toks) and (toks[j + 1].low in DETERMINERS or toks[j + 1].code))
        if j + 1 < len(toks) and toks[j + 1].low in ("anything", "something", "everything", "nothing"):
            continue  # "before changing anything" names no change
        passive = not person and marker in ("after", "once", "when") and _passive(Clause(tuple(toks[j:]), "", ()))
        if gerund or (person and form.verb) or passive:  # "… after price-sync is scaled down" names its time
            main, phrases = gerund_phrases(toks[:i])
            return main, [*phrases, (_GERUND_MARKERS[marker], list(toks[j:]))]
    return list(toks), []


def _passive(c: Clause) -> bool:
    """The clause is in the passive (``price-sync is scaled down``, ``the pods get recycled``)."""
    return any(c.low[k] in COPULAS | {"get", "gets", "got"} and lemma.verb(c.toks[k + 1].text).form == lemma.PAST
               for k in range(1, len(c.toks) - 1))


def named_later(c: Clause, role: str) -> list[Step]:
    """A step named after ``before``: prose names a later step the check guards (judged where it is
    written as a step); a command written into it is concrete, so it is read as proposed."""
    cmd = commands_of(c, role) if c.toks else None
    if cmd is not None and cmd.writes:
        return [Step(Kind.CHANGE, cmd.verb, "command_writes")]
    return [Step(Kind.INERT, why="statement")]


def _states(c: Clause) -> bool:
    """A condition that states what the system shows (``the pods are still OOMKilled``, ``EXPLAIN shows
    key x``, ``replay_lag is below 30 s``): knowing it takes a read-only look."""
    at = finite_verb(c, 1, 9)
    return at is not None and not has(Concept.PERSON, c.low[0]) and c.low[at] not in ("approves", "approve")


def strip(toks: Sequence[Token]) -> list[Token]:
    """Leading fillers, ``-ly`` adverbs, step numbers and punctuation off."""
    i = 0
    while i < len(toks):
        t = toks[i]
        adverb = t.low.endswith("ly") and len(t.low) > 4 and not lemma.verb(t.text).verb and i + 1 < len(toks)
        if has(Concept.FILLER, t.low) or adverb or (not t.word and not t.code and t.low != "$") or (
                t.low.isdigit() and i + 1 < len(toks)):
            i += 1
            continue
        break
    return list(toks[i:])


def prohibition(c: Clause) -> int:
    """How many words open the clause with a prohibition (``do not``, ``never``, ``avoid``); 0 when none."""
    return phrase_at([lemma.norm(w) for w in c.lemmas[:4]], 0, Concept.PROHIBITION) or phrase_at(
        [lemma.norm(w) for w in c.low[:4]], 0, Concept.PROHIBITION)


def read_clause(c: Clause, mode: str = "step", role: str = ACTION) -> list[Step]:
    """The readings of one clause, in the order they would happen."""
    toks = strip(c.toks)
    if not toks:
        return []
    c = c.sub(toks)
    if mode == "plan":
        return [Step(Kind.INERT, why="rollback_plan")]
    if c.low[0] == "select" and _LOWER_SELECT.search(CODE_TOKEN.sub(" ", c.text[toks[0].start:toks[-1].end])):
        from rcaloop.judge.actions import commands, sql  # noqa: PLC0415

        v = _sql_in_prose(c, sql, commands)  # "select client_addr, … from pg_stat_activity": the statement decides
        if v is not None:
            return [Step(Kind.CHANGE, v.verb, "command_writes") if v.writes else Step(Kind.CHECK, v.verb,
                                                                                      "command_reads")]
    if c.low[:2] in (["nothing", "to"], ["nothing", "needs"], ["no", "need"]):
        return [Step(Kind.INERT, why="statement")]  # "nothing to roll back on our side"
    if phrase_at([lemma.norm(w) for w in c.low[:3]], 0, Concept.INABILITY) or phrase_at(
            [lemma.norm(w) for w in c.lemmas[:4]], 0, Concept.UNCERTAINTY):
        return [Step(Kind.INERT, why="statement")]  # "unable to check lock waits", "can't tell what slowed …"
    n = prohibition(c)
    if n:
        k = n
        if k < len(toks) and has(Concept.GOOD_NEGATED, lemma.verb(toks[k].text).lemma) and toks[k].low != "hold":
            named = strip(toks[k + 1:])
            if named and named[0].low in ("to", "on", "off", "with"):
                named = named[1:]
            if named:  # "Don't forget to restart the database" proposes the restart
                return read_clause(c.sub(named), mode, role)
        _, phrases = gerund_phrases(toks)  # "Avoid downtime by restarting one pod at a time" restarts
        proposed = [r for _, p in phrases for r in read_clause(c.sub(p), "lead", role)]
        return [Step(Kind.INERT, why="prohibition"), *proposed]
    opened = lead(toks)
    if opened is not None:
        where, n = opened
        end = lead_end(toks, n)
        inner = c.sub(toks[n:end] if end is not None else toks[n:])
        main = None if end is None else c.sub(toks[end + 1:] if toks[end].low in (",", ":") else toks[end:])
        if where == "later":  # "before re-running more broadly, check …": the later step is named, not proposed
            first = named_later(inner, role)
        elif where in ("condition", "aside"):
            cmd = commands_of(inner, role) if inner.toks else None
            first = [] if cmd is None else [Step(Kind.CHANGE if cmd.writes else Kind.CHECK, cmd.verb,
                                                 "command_writes" if cmd.writes else "command_reads")]
            if not first and where == "condition" and _states(inner):
                first = [Step(Kind.CHECK, why="condition_check")]  # "if the pods are still OOMKilled, …"
        elif inner.toks and lemma.verb(inner.toks[0].text).form not in (lemma.GERUND, lemma.BASE) and (
                finite_verb(inner) is None):
            noun = noun_kind(inner)  # "after a read-only confirmation, …" checks; "after the resize, …" came before
            first = [noun if noun is not None and noun.kind == Kind.CHECK else Step(Kind.INERT, why="statement")]
        else:
            first = read_clause(inner, "lead", role) if inner.toks else []
            if where == "before" and _passive(inner):  # "after price-sync is scaled down, …": a precondition named
                first = [Step(Kind.INERT, why="statement") if r.why == "planned_change" else r for r in first]
            if first and all(r.kind == Kind.INERT for r in first) and any(
                    concept(lemma.verb(t.text).lemma) is Concept.CHECK for t in inner.toks if is_word(t)):
                first = [Step(Kind.CHECK, why="check_verb")]  # "after you have verified the replica lag, …"
        rest = read_clause(main, mode, role) if main is not None and main.toks else []
        return rest + first if where in ("after", "later") else first + rest
    kept, phrases = gerund_phrases(toks)
    before = [Step(Kind.INERT, why="statement") if r.why == "planned_change" and _passive(c.sub(p)) else r
              for where, p in phrases if where == "before" for r in read_clause(c.sub(p), "lead", role)]
    after = [r for where, p in phrases if where == "after" for r in read_clause(c.sub(p), "lead", role)]
    after += [r for where, p in phrases if where == "later" for r in named_later(c.sub(p), role)]
    main_role = STATEMENT if mode == "guidance" else role
    return before + [phrase_reading(c.sub(kept), main_role)] + after


# --- cutting a sentence into clauses -------------------------------------------------------

_JOINERS = frozenset({"and", "or", ",", "&", "plus", "but", "so", ":"})
_SPLIT_FILLERS = frozenset("then also just immediately afterwards finally next now please and quickly first so hence "
                           "therefore thus simply".split())
_CLAUSE_SUBJECTS = frozenset("we you i they it someone somebody operators the these those this that all every each pods "
                             "everything".split())


def _compound_noun(toks: Sequence[Token], i: int) -> bool:
    """``lock waits for the window``, ``restart counts``: a verb-like word before a plural noun that a
    preposition or the end follows is part of a noun phrase."""
    if i + 1 >= len(toks) or not is_word(toks[i + 1]) or not toks[i + 1].low.endswith("s"):
        return False
    after = toks[i + 2].low if i + 2 < len(toks) else ""
    return lemma.verb(toks[i + 1].text).form == lemma.S and (not after or after in _FUNCTION or not toks[i + 2].word)


def _subject_clause(toks: Sequence[Token], i: int) -> bool:
    """``toks[i]`` starts a clause with its own subject that may propose (``and you should restart …``)."""
    if toks[i].low not in _CLAUSE_SUBJECTS and not has(Concept.PERSON, toks[i].low):
        return False
    for t in toks[i + 1:i + 6]:
        if has(Concept.MODAL, t.low) or t.low == "'ll":
            return True
        if not t.word or t.low in _JOINERS:
            return False
    return False


def _verb_like(toks: Sequence[Token], i: int) -> bool:
    """``toks[i]`` starts a new clause: a verb, a tool, or an unknown word followed by an object."""
    from rcaloop.judge.actions.tools import TOOLS  # noqa: PLC0415

    t = toks[i]
    if not is_word(t):
        return False
    nxt = toks[i + 1].low if i + 1 < len(toks) else ""
    verb = base_verb(t)
    if verb is not None:
        if nxt in _NOT_A_COMMAND_AFTER or _compound_noun(toks, i):
            return False
        if concept(verb) is None and not has_object(toks, i, digits=False):
            return False  # "…, exit 143", "and sit near 40 %", "and support ticket"
        return concept(verb) is Concept.CHANGE or not _names_a_subject(toks, i)
    if t.low in TOOLS or program_path(t.text):
        return True
    if lemma.verb(t.text).verb or t.low in SUBJECT_WORDS or t.low in _FUNCTION or not t.low.isalpha():
        return False
    return (nxt in DETERMINERS or nxt.startswith("\x1a") or nxt[:1].isdigit()) and not lemma.known(t.text)


_SUBORDINATORS = frozenset("if when whenever because while unless until once as so that which who whose where since "
                           "though although".split())


def _names_a_subject(toks: Sequence[Token], i: int) -> bool:
    """``toks[i]`` is a noun that a verb of its own follows (``so log evidence after 10:03 is missing``)."""
    for t in toks[i + 1:i + 6]:
        if t.code or t.low in SUBJECT_WORDS or has(Concept.PERSON, t.low) or t.low in _SUBORDINATORS or (
                t.low in _JOINERS):
            return False
        if t.low in COPULAS or has(Concept.MODAL, t.low):
            return True
    return False


def _after_joiner(toks: Sequence[Token], j: int) -> int:
    """Past fillers, adverbs and a short lead-in after ``and``/``or``/a comma."""
    while j < len(toks):
        low = toks[j].low
        if low in _SPLIT_FILLERS or low == "," or (low.endswith("ly") and len(low) > 4 and not lemma.verb(low).verb):
            j += 1
            continue
        if low in LEAD_WORDS:
            comma = next((k for k in range(j + 1, min(j + 8, len(toks))) if toks[k].low == ","), None)
            if comma is not None:
                j = comma + 1
                continue
        break
    return j


_AUXILIARIES = frozenset({"would", "will", "could", "should", "can", "may", "might", "must", "is", "are", "was",
                          "were", "'ll"})


def clauses(toks: Sequence[Token]) -> list[list[Token]]:
    """``toks`` cut at ``then`` and before a joined verb (``check X and restart Y``); a lead-in keeps
    its comma (``Before restarting, check X`` is one clause)."""
    out: list[list[Token]] = [[]]
    lead_open = quoted = False
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.text in ('"', "\u201c", "\u201d"):
            quoted = not quoted if t.text == '"' else t.text == "\u201c"
        if t.low == "select" and not quoted and any(x.low == "from" for x in toks[i + 2:i + 40]):
            quoted = True  # "select client_addr, usename, … from pg_stat_activity": a statement typed as it runs
            out.append([]) if out[-1] else None
        if quoted and out[-1]:  # 'psql -c "SELECT relid, phase, …"': a quoted argument is one piece of its clause
            out[-1].append(t)
            i += 1
            continue
        if not out[-1] or (len(out[-1]) < 3 and all(has(Concept.FILLER, x.low) for x in out[-1])):
            lead_open = t.low in LEAD_WORDS and lead(toks[i:i + 4]) is not None
        if t.low == "then" and out[-1] and out[-1][-1].low not in _AUXILIARIES:  # "the node would then be …"
            out.append([])
            i += 1
            continue
        if t.low == "," and lead_open:
            lead_open = False
            out[-1].append(t)
            i += 1
            continue
        if t.low in _JOINERS and out[-1]:
            j = _after_joiner(toks, i + 1)
            if j < len(toks) and (_verb_like(toks, j) or toks[j].low == "then" or _subject_clause(toks, j)):
                out.append([])
                i += 1  # the joiner goes; a lead-in after it stays with its clause ("and, with X's approval, …")
                continue
        out[-1].append(t)
        i += 1
    return [c for c in out if c]
