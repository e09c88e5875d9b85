"""What a sentence proposes: the head verb of each clause, read failing closed.

A step is cut into clauses (at ``then``, and at ``and``/``or``/commas before another
verb); a lead-in (``After verifying X,`` / ``Before restarting,`` / ``If X,``) and a
temporal gerund (``… after restarting the pods``) become clauses of their own, in the
order they would happen. Each clause is then read by its head:

* a known check verb (``check``, ``verify``, ``list`` …) reads; a known change verb
  (``restart``, ``upgrade``, ``edit`` …) changes; notes, messages and requests for
  approval do neither;
* ``run``/``execute``/``use``/``apply`` take the class of their command (none shown to be
  read-only: changes); advisory verbs (``consider increasing …``) the class of their complement;
* a sentence with a subject (``The pool size is 5``) states, unless it proposes
  (``pods should be restarted``, ``the fix is to restart …``, ``a restart is needed``);
* any other imperative head changes (fail closed): ``Bounce the pods``.

Commands in the clause (code spans, ``$`` lines, tool names in prose, SQL in prose) are
judged by ``rcaloop.judge.actions.commands``; a writing command makes the clause change.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import NamedTuple

from rcaloop.judge.actions import commands, sql
from rcaloop.judge.actions.lexicon import (
    ADVISORY, CHANGE_NOUNS, CHANGE_VERBS, CHECK_NOUNS, CHECK_VERBS, COPULAS, DETERMINERS, DIRECTIVE_MODALS, FILLERS,
    GOOD_NEGATED, INERT_VERBS, IRREGULAR, MODALS, MODIFIERS, NEGATIONS, PEOPLE, PHRASAL, PROHIBITIONS,
    PROPOSAL_SUBJECTS, PROPOSAL_WORDS, SUBJECTS, Kind,
)
from rcaloop.judge.actions.text import CODE_TOKEN, restore
from rcaloop.judge.actions.tools import PROSE, TOOLS

VERBS = CHECK_VERBS | INERT_VERBS | CHANGE_VERBS | ADVISORY


@dataclass(frozen=True)
class Reading:
    """One clause: what it does and the words that say so."""

    kind: Kind
    verb: str = ""
    why: str = ""


class Token(NamedTuple):
    """A word, a code span (``CODE`` token) or a punctuation mark of a clause."""

    text: str
    low: str
    start: int
    end: int
    code: bool
    word: bool


_TOKEN = re.compile(r"(\x1a\d+\x1a)|([A-Za-z0-9$~/.@'-](?:[\w'./:@=+~%*$&-]*[\w/@=+~%*$&-])?)|([^\sA-Za-z0-9])")


def tokenize(text: str) -> list[Token]:
    """Words (trailing punctuation split off), code span tokens and punctuation marks."""
    out = []
    for m in _TOKEN.finditer(text):
        w, kind = m.group(0), m.lastindex
        out.append(Token(w, w.lower(), m.start(), m.end(), kind == 1, kind != 3 or w in "$~/.'-"))
    return out


@lru_cache(maxsize=8192)
def inflect(word: str) -> tuple[str, str]:
    """(the listed verb ``word`` is a form of, or ``""``; the form: base, s, ed or ing)."""
    w = word.lower()
    if w in IRREGULAR:
        return IRREGULAR[w], "ed"
    if w in VERBS:
        return w, "base"
    for suffix, form, stems in (
        ("ing", "ing", (lambda s: s, lambda s: s + "e", lambda s: s[:-1] if len(s) > 2 and s[-1] == s[-2] else None)),
        ("ied", "ed", (lambda s: s + "y",)),
        ("ed", "ed", (lambda s: s, lambda s: s + "e", lambda s: s[:-1] if len(s) > 2 and s[-1] == s[-2] else None)),
        ("ies", "s", (lambda s: s + "y",)),
        ("es", "s", (lambda s: s, lambda s: s + "e")),
        ("s", "s", (lambda s: s,)),
    ):
        if w.endswith(suffix) and len(w) > len(suffix) + 1:
            stem = w[: -len(suffix)]
            for make in stems:
                cand = make(stem)
                if cand and cand in VERBS:
                    return cand, form
            return "", form
    return "", "base"


SAME_FORM = frozenset(w for w, lemma in IRREGULAR.items() if w == lemma)
"""Verbs whose past form is their base form (``set``, ``shut``, ``put``, ``cut``, ``reset``):
with a subject before them they may report what was done; heading a clause, with none, they
are imperatives (``Shut down the primary``)."""


def _head_form(word: str) -> tuple[str, str]:
    """``inflect``, for a word that heads a clause: a same-form verb there is its base form."""
    lemma, form = inflect(word)
    return (lemma, "base") if form == "ed" and word.lower() in SAME_FORM else (lemma, form)


_VERB_KIND = {**dict.fromkeys(CHANGE_VERBS, Kind.CHANGE), **dict.fromkeys(INERT_VERBS, Kind.INERT),
              **dict.fromkeys(CHECK_VERBS, Kind.CHECK)}
_kind_of = _VERB_KIND.get
"""A listed verb's kind (a check verb wins over the other lists, then a verb that only records)."""
_NOUN_KIND = {**dict.fromkeys(CHECK_NOUNS, Kind.CHECK), **dict.fromkeys(CHANGE_NOUNS, Kind.CHANGE)}


# --- clauses -------------------------------------------------------------------------

_NOT_VERB_AFTER = frozenset({"count", "counts", "rate", "rates", "time", "times", "policy", "loop", "loops", "history",
                             "reason", "reasons", "events", "event", "log", "logs", "status", "window", "budget",
                             "limit", "limits", "threshold", "job", "jobs", "script", "scripts", "path", "request",
                             "requests", "queue", "latency", "errors", "error", "storm", "counter", "order", "size",
                             "process", "operation", "operations", "of", "is", "are", "was", "were", "storms"})
_FUNCTION = frozenset({
    "from", "to", "in", "on", "at", "by", "with", "for", "of", "into", "onto", "over", "under", "via", "through",
    "across", "after", "before", "during", "since", "until", "without", "within", "between", "about", "against",
    "along", "around", "behind", "beyond", "near", "per", "than", "like", "as", "if", "when", "while", "where",
    "whether", "because", "so", "also", "not", "only", "just", "then", "once", "unless", "up", "down", "out", "off",
    "both", "either", "neither", "even", "still", "again", "too", "very", "more", "less", "most", "least", "how",
})
"""Words that never head a clause of their own."""
_JOINERS = frozenset({"and", "or", ",", "&", "plus", "but", "so"})
_SPLIT_FILLERS = frozenset({"then", "also", "just", "immediately", "afterwards", "finally", "next", "now", "please",
                            "and", "quickly", "first", "so", "hence", "therefore", "thus"})
_CLAUSE_SUBJECTS = frozenset({"we", "you", "i", "they", "it", "someone", "somebody", "operators", "the", "these",
                              "those", "this", "that", "all", "every", "each", "pods", "everything"})


def _subject_clause(toks: list[Token], i: int) -> bool:
    """Whether ``toks[i]`` starts a clause with its own subject that may propose a step: a
    subject and, within a few words, a modal (``and you should restart …``, ``and the pods
    must be deleted``)."""
    if toks[i].low not in _CLAUSE_SUBJECTS and toks[i].low not in PEOPLE:
        return False
    for t in toks[i + 1:i + 6]:
        if t.low in DIRECTIVE_MODALS or t.low in ("will", "would", "can", "could", "'ll"):
            return True
        if not t.word or t.low in _JOINERS:
            return False
    return False


def _verb_like(toks: list[Token], i: int, tools: frozenset[str]) -> bool:
    """Whether ``toks[i]`` starts a new clause: a listed verb, a tool, or an unknown word
    followed by an object (``bounce the pods``)."""
    t = toks[i]
    if not t.word or t.code:
        return False
    nxt = toks[i + 1].low if i + 1 < len(toks) else ""
    lemma, form = _head_form(t.low)
    if lemma and form == "base":
        return nxt not in _NOT_VERB_AFTER and not (_kind_of(lemma) != Kind.CHANGE and _names_a_subject(toks, i))
    if t.low in tools or (t.text[:1] in "./~" and _PROGRAM_PATH.match(t.text)):
        return True
    if lemma or t.low in SUBJECTS or t.low in DETERMINERS or t.low in _FUNCTION or not t.low.isalpha():
        return False
    return nxt in DETERMINERS or nxt.startswith("\x1a") or nxt[:1].isdigit()


_SUBORDINATORS = frozenset({"if", "when", "whenever", "because", "while", "unless", "until", "once", "as", "so",
                            "that", "which", "who", "whose", "where", "since", "though", "although"})


def _names_a_subject(toks: list[Token], i: int) -> bool:
    """``toks[i]`` is a noun that a verb of its own follows (``so log evidence after 10:03 is
    missing``), not a verb with an object (``restart pods that are stuck``). Asked only of
    words that are no change verb: a change verb always starts a clause (fail closed)."""
    for t in toks[i + 1:i + 6]:
        if t.code or t.low in DETERMINERS or t.low in SUBJECTS or t.low in PEOPLE or t.low in _SUBORDINATORS or (
                t.low in _JOINERS):
            return False
        if t.low in COPULAS or t.low in MODALS:
            return True
    return False


def _after_joiner(toks: list[Token], j: int) -> int:
    """Past fillers, adverbs and a short lead-in after ``and``/``or``/a comma (``and, if needed,
    bounce them``): where the next clause's verb would stand."""
    while j < len(toks):
        low = toks[j].low
        if low in _SPLIT_FILLERS or low in (",", "simply", "then") or (
                low.endswith("ly") and len(low) > 4 and not inflect(low)[0]):
            j += 1
            continue
        if low in _LEAD_WORDS:
            comma = next((k for k in range(j + 1, min(j + 8, len(toks))) if toks[k].low == ","), None)
            if comma is not None:
                j = comma + 1
                continue
        break
    return j


def clauses(toks: list[Token], tools: frozenset[str]) -> list[list[Token]]:
    """``toks`` cut at ``then`` and before a joined verb (``check X and restart Y``); a lead-in
    keeps its comma (``Before restarting, check X`` is one clause)."""
    out: list[list[Token]] = [[]]
    lead_open = False
    i = 0
    while i < len(toks):
        t = toks[i]
        if not out[-1] or (len(out[-1]) < 3 and all(x.low in FILLERS for x in out[-1])):
            lead_open = t.low in _LEAD_WORDS and _lead(toks[i:i + 4]) is not None
        if t.low == "then" and out[-1]:
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
            if j < len(toks) and (_verb_like(toks, j, tools) or toks[j].low == "then" or _subject_clause(toks, j)):
                out.append([])
                i = j if toks[i + 1].low != "," else i + 2
                continue
        out[-1].append(t)
        i += 1
    return [c for c in out if c]


# --- the reader ------------------------------------------------------------------------

@dataclass(frozen=True)
class Clause:
    """A clause's tokens with the text and code spans they come from."""

    toks: tuple[Token, ...]
    text: str
    spans: tuple[str, ...]

    def sub(self, toks) -> Clause:
        return Clause(tuple(toks), self.text, self.spans)

    @cached_property
    def low(self) -> list[str]:
        return [t.low for t in self.toks]

    def source(self, start: int = 0) -> str:
        """The clause's own text from token ``start`` on, code spans restored."""
        if start >= len(self.toks):
            return ""
        return restore(self.text[self.toks[start].start:self.toks[-1].end], self.spans)


def _strip(toks: list[Token]) -> list[Token]:
    """Leading fillers, ``-ly`` adverbs and punctuation off."""
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.low in FILLERS or (not t.word and not t.code and t.low not in ("$",)) or (
                t.low.endswith("ly") and len(t.low) > 4 and not inflect(t.low)[0] and i + 1 < len(toks)):
            i += 1
            continue
        if t.low == "step" or (t.low.isdigit() and i + 1 < len(toks)):
            i += 1
            continue
        break
    return toks[i:]


def _commands(c: Clause) -> commands.Verdict | None:
    """Every command of the clause: code spans, a ``$`` line, tools named in prose, SQL in prose."""
    found: list[commands.Verdict | None] = []
    toks = c.toks
    if toks and toks[0].low == "$":
        return commands.judge_line(c.source(1))
    for i, t in enumerate(toks):
        if t.code:
            code = CODE_TOKEN.match(t.text)
            if code is None:  # a code token always matches; a guard, not a branch
                continue
            span = c.spans[int(code.group(1))]
            v = commands.judge_line(span)
            if v is not None and v.unread and not _stands_as_command(c, i):
                v = None  # "search the logs for `pool exhausted`": text, not a command
            found.append(None if v is not None and v.stdin and not v.writes else v)
        elif t.text[:1] in "./~" and _PROGRAM_PATH.match(t.text) and (
                i == 0 or toks[i - 1].low in _RUN_LIKE | _BY_MEANS):
            found.append(commands.read_line(c.source(i), commands.Reader(TOOLS)))  # "/etc/init.d/x restart"
        elif i and toks[i - 1].low in _UNKNOWN_TOOL_AFTER and t.low not in TOOLS and (
                unknown := _unknown_tool(toks, i)) is not None:
            found.append(unknown)  # "check the pool with heroku pg:reset DATABASE_URL"
        elif t.low in PROSE or (i == 0 and t.low in TOOLS):
            nxt = toks[i + 1] if i + 1 < len(toks) else None
            argument = nxt is not None and (nxt.code or nxt.low in TOOLS or nxt.text[:1] in "-/.~$" or "/" in nxt.text
                                            or "=" in nxt.text or nxt.text[:1].isdigit())
            if t.low not in PROSE and t.low in VERBS | _WORDS and not argument:
                continue  # "Make a note", "Find the commit": English, not the tool
            v = commands.read_line(c.source(i), commands.Reader(TOOLS))
            if v is None or not v.known:
                continue
            prev = toks[i - 1].low if i else ""
            if v.verb != t.low or argument or i == 0 or prev in (
                    "with", "using", "via", "run", "running", "execute", "executing", "invoke", ":"):
                found.append(None if v.stdin and not v.writes else v)
    if not toks or not (_SQL_WORDS.intersection(c.low) or any(t.text in _SQL_READ_WORDS or t.low.startswith(
            ("pg_", "setval", "set_config")) for t in toks)):
        return commands.worst(found)
    plain = CODE_TOKEN.sub(" ", c.text[toks[0].start:toks[-1].end])
    m = sql.IN_PROSE.search(plain)
    if m:
        found.append(commands.Verdict(True, m.group(0).split()[0].upper() if " " in m.group(0) else m.group(0)))
    m = sql.READ_IN_PROSE.search(plain)
    if m:
        judged = sql.judge(plain[m.start():])
        found.append(commands.Verdict(judged.writes, judged.verb))
    return commands.worst(found)


_BY_MEANS = frozenset({"with", "using", "via", ":"})
_WHERE_RUN = frozenset({"on", "against", "from", "inside", "within", "as", "via", "with", "using", "and", "then"})
"""Words after a verb's code-span object that say where or how it runs: the span is a command."""
_PROGRAM_PATH = re.compile(
    r"^(?:(?:\.{1,2}|~)/[\w./@+-]*[\w@+-]|/(?:[\w.@+-]+/)*(?:s?bin|init\.d|libexec|scripts?|tools?)/[\w.@+-]+|"
    r"/[\w./@+-]*/(?:" + "|".join(re.escape(n) for n in sorted(TOOLS, key=len, reverse=True)) + r"))$")
"""A program given by path in a sentence (``/usr/local/bin/kubectl``, ``/etc/init.d/pgbouncer``,
``./scripts/rollback.sh``): read as a command by its name; a script there cannot be read (writes)."""


def _unknown_tool(toks: Sequence[Token], i: int) -> commands.Verdict | None:
    """A tool the tables do not list, written into a sentence after ``with``/``and``/``run``:
    a word naming a change among the words it runs with (``heroku pg:reset``, ``openstack
    server delete web-1``) makes it write; a noun phrase (``container restart counts``) does not."""
    t = toks[i]
    if not commands.CLI_NAME.match(t.text) or t.low in _FUNCTION or t.low in DETERMINERS or t.low in SUBJECTS or (
            inflect(t.low)[0]):
        return None
    rest = toks[i + 1:i + 6]
    for k, r in enumerate(rest):
        if not r.word or r.code or r.low in _FUNCTION or r.low in DETERMINERS:
            return None
        if commands.change_word([r.text]) and (k + 1 >= len(rest) or rest[k + 1].low not in _NOT_VERB_AFTER):
            return commands.writes(f"{t.text} {r.text}", known=False)
    return None


def _stands_as_command(c: Clause, i: int) -> bool:
    """The code span at ``i`` is what the clause runs: it heads a clause that is no sentence with a
    verb of its own (``\`mytool sync-all\```), follows ``run``, ``execute``, ``with`` and the like, or
    is a verb's whole object (``Check \`mytool sync-all\` on node-3``); a span the sentence goes on
    to describe (``Verify \`connection refused\` errors stopped``) is text."""
    if i and c.toks[i - 1].low in _RUN_LIKE | _BY_MEANS:
        return True
    if i == 1 and _head_form(c.low[0])[0]:  # "Verify `poolctl zeroize checkout-api` on node-3" runs it
        nxt = c.toks[2] if len(c.toks) > 2 else None
        return nxt is None or not nxt.word or nxt.low in _WHERE_RUN
    return i == 0 and not any(w in COPULAS or w in MODALS for w in c.low[1:])


_WORDS = frozenset({"top", "free", "w", "time", "watch", "find", "tail", "head", "cut", "sort", "kill", "install",
                    "patch", "mount", "last", "who", "host", "file", "type", "date", "test", "stat", "make", "just",
                    "service", "nice", "env", "script", "ping", "dig", "diff", "touch", "less", "more", "split", "id",
                    "groups", "link", "tree", "column", "comm", "sed", "strings", "cat", "ls", "ps", "du", "df"})
"""Tool names that are also English words: at the head of a sentence they are the tool only
when an argument follows (``kill -9 4242``, not ``Kill the idle connections``)."""
_SQL_WORDS = frozenset({"update", "delete", "insert", "replace", "merge", "upsert", "drop", "create", "alter",
                        "truncate", "grant", "revoke", "reindex", "vacuum", "copy", "call", "do", "kill", "flush",
                        "set"})
_SQL_READ_WORDS = frozenset({"SELECT", "SHOW", "EXPLAIN", "WITH"})
"""A sentence can hold SQL only if it has one of these words (a cheap look before the patterns)."""
_RUN_LIKE = frozenset({"run", "execute", "perform", "do", "invoke", "launch", "use", "apply", "issue", "fire",
                       "kick", "trigger", "type", "enter", "paste"})
_OBJECTS: dict[str, tuple[tuple[frozenset[str], Kind], ...]] = {}
_UNKNOWN_TOOL_AFTER = _RUN_LIKE | _BY_MEANS | {"and", "then"}


def _objects(verb: str, default: Kind, *rules: tuple[str, Kind]) -> None:
    _OBJECTS[verb] = (*((frozenset(words.split()), kind) for words, kind in rules), (frozenset(), default))


_COMMS = ("ticket issue incident case bug jira note notes comment comments postmortem post-mortem timeline report "
          "summary message thread channel doc document task follow-up followup reminder pr mr discussion update "
          "page status statuspage stakeholders customers team teams runbook retro retrospective entry item finding "
          "findings context details bridge call meeting war-room warroom room conversation email slack")
_VIEWS = ("dashboard dashboards graph graphs panel panels logs log console trace traces url ui grafana kibana metrics "
          "chart charts link file output session shell terminal connection explorer")
_INFO = ("logs log output list status events metrics value values details count dump trace traces stack config "
         "configuration version state info information numbers data evidence screenshot timeline picture overview "
         "baseline readings stats statistics heap thread backtrace report diff description settings setting")
_APPROVAL = "approval approvals sign-off signoff go-ahead ok okay consent permission authorization authorisation buy-in"
_objects("open", Kind.CHANGE, (_VIEWS, Kind.CHECK), (_COMMS, Kind.INERT), ("change cr rfc request", Kind.INERT))
for _v in ("create", "file", "raise", "submit", "write", "draft", "log", "start", "prepare"):
    _objects(_v, Kind.CHANGE, (_COMMS + " change cr rfc request plan investigation awareness concern question",
                               Kind.INERT))
_objects("add", Kind.CHANGE, ("note notes comment comments entry item context details finding findings", Kind.INERT))
_DATA = ("logs log output dump dumps trace traces stack backtrace screenshot screenshots evidence details data numbers "
         "metrics events timeline report information info values export excerpt excerpts snippet lines sample samples "
         "results capture captures transcript")
for _v in ("attach", "provide", "supply", "paste", "give", "include", "upload"):
    _objects(_v, Kind.CHANGE, (_DATA, Kind.INERT))  # asking for data, or handing it over, changes no system
for _v in ("rerun", "re-run"):
    _objects(_v, Kind.CHANGE, ("analysis rca diagnosis investigation", Kind.INERT))
_objects("need", Kind.CHANGE, (_DATA + " access", Kind.INERT))  # "need the logs of 14:00-14:10"
_objects("update", Kind.CHANGE, (_COMMS, Kind.INERT))
for _v in ("post", "send", "forward"):
    _objects(_v, Kind.INERT, ("signal sighup sigterm sigkill sigint sigusr1 sigusr2 sigquit request requests payload "
                              "api endpoint traffic event events job jobs command", Kind.CHANGE))
_objects("share", Kind.INERT)  # "share the pod events": data for a reader
_objects("get", Kind.CHANGE, (_APPROVAL, Kind.INERT), (_INFO, Kind.CHECK))
for _v in ("obtain", "request", "seek", "ask"):
    _objects(_v, Kind.INERT)
_objects("secure", Kind.CHANGE, (_APPROVAL, Kind.INERT))
_objects("call", Kind.INERT, ("api endpoint function procedure webhook url hook method rpc", Kind.CHANGE))
for _v in ("schedule", "plan", "book", "arrange"):
    _objects(_v, Kind.INERT, (" ".join(CHANGE_NOUNS), Kind.CHANGE))
_objects("take", Kind.CHANGE, ("look glance peek", Kind.CHECK), ("note notes backup snapshot copy screenshot",
                                                                 Kind.INERT),
         ("dump heap-dump thread-dump", Kind.CHECK))
_objects("make", Kind.CHANGE, ("note notes backup snapshot copy", Kind.INERT))
_objects("follow", Kind.CHANGE, ("logs log output trace traces stream events", Kind.CHECK))
_objects("connect", Kind.CHANGE, ("to into via with", Kind.INERT))
_objects("leave", Kind.INERT, ("cluster swarm ring pool quorum", Kind.CHANGE))
_objects("hold", Kind.CHANGE)
_objects("keep", Kind.CHANGE, ("eye", Kind.CHECK))
_OBJECT_STOP = frozenset({"for", "to", "in", "on", "at", "with", "from", "by", "into", "via", "about", "so", "because",
                          "until", "before", "after", "if", "when", "where", "while", "that", "which"})


def _object_kind(verb: str, rest: list[Token]) -> Kind:
    rules = _OBJECTS[verb]
    words: list[str] = []
    for t in rest[:7]:
        if t.low in _OBJECT_STOP and words:
            break
        if t.low in _OBJECT_STOP and verb == "connect":
            words.append(t.low)
            break
        words.append(t.low)
    for nouns, kind in rules:
        if nouns and any(w in nouns for w in words):
            return kind
    return rules[-1][1]


def _noun_kind(toks: list[Token]) -> Kind | None:
    """A noun phrase's kind, from its first noun that names a change (``a rolling restart``) or
    a check (``a dry run of the migration``)."""
    low = [t.low for t in toks[:6]]
    for i, w in enumerate(low):
        if w == "dry" or (w == "health" and low[i + 1:i + 2] == ["check"]):
            return Kind.CHECK
        if w in _NOUN_KIND:
            return _NOUN_KIND[w]
    return None


def _complement(toks: list[Token], c: Clause, mode: str) -> Reading | None:
    """The step behind an advisory verb: a gerund, ``to`` + verb, or a noun naming a change."""
    i = 0
    while i < len(toks) and toks[i].low in ("to", "that", "we", "you", "on", "with", "about", "ahead", "and", "doing",
                                            "free", "sure", "careful", "us", "'s", "s", "the", "a", "an", "by"):
        if toks[i].low in ("the", "a", "an"):
            break
        i += 1
    rest = toks[i:]
    if not rest:
        return None
    lemma, form = inflect(rest[0].low)
    if lemma and form in ("ing", "base"):
        return _imperative(lemma, rest, c, mode)
    if not lemma and form == "ing" and rest[0].low.isalpha():
        return Reading(Kind.CHANGE, rest[0].text, "a step not known to be read-only")
    kind = _noun_kind(rest)
    if kind is not None:
        noun = next((t.text for t in rest if t.low in CHANGE_NOUNS), rest[0].text)
        return Reading(kind, noun if kind == Kind.CHANGE else "", "a proposed change" if kind == Kind.CHANGE else "")
    return None


_ADVICE_ONLY = frozenset({"consider", "recommend", "suggest", "propose", "advise", "plan", "remember", "decide",
                          "choose", "prepare", "expect", "go", "proceed", "continue", "intend", "aim", "opt", "feel"})
"""Advisory verbs that propose nothing without a complement (``proceed`` refers to a step stated elsewhere)."""


def _imperative(lemma: str, toks: list[Token], c: Clause, mode: str) -> Reading:
    """``toks[0]`` is a form of ``lemma`` standing as the clause's verb."""
    head = toks[0].text
    rest = toks[1:]
    nxt = rest[0].low if rest else ""
    phrasal = PHRASAL.get((lemma, nxt))
    if phrasal is not None:
        return Reading(phrasal, f"{head} {rest[0].text}")
    if lemma == "ensure" or (lemma == "make" and nxt == "sure"):
        return Reading(Kind.CHANGE, f"{head} {rest[0].text}" if lemma == "make" else head,
                       "states a target state, not a read-only check")
    if lemma == "do" and nxt in ("nothing", "not"):
        return Reading(Kind.INERT, why="proposes nothing")
    if lemma == "let" and "know" in [t.low for t in rest[:5]]:
        return Reading(Kind.INERT, why="a message")  # "let the on-call know"
    if lemma == "let" and nxt in ("'s", "s", "us"):
        return _complement(rest[1:], c, mode) or Reading(Kind.CHANGE, head, "a step not known to be read-only")
    if lemma in _RUN_LIKE:
        kind = _noun_kind(rest)
        if nxt in ("nothing", "anything"):
            return Reading(Kind.INERT)
        if kind is not None:
            return Reading(kind, head)
        return Reading(Kind.CHANGE, head, "runs something not shown to be read-only")
    if lemma in ("go", "proceed", "continue", "move") and nxt in ("ahead", "on", "forward", "with", "to"):
        rest = rest[1:] if nxt in ("ahead", "on", "forward") else rest
        return _complement(rest, c, mode) or Reading(Kind.INERT, why="refers to a step stated elsewhere")
    if lemma in ADVISORY and lemma not in _OBJECTS:
        inner = _complement(rest, c, mode)
        if inner is not None:
            return inner
        if lemma in _ADVICE_ONLY:
            return Reading(Kind.INERT)
    if lemma in _OBJECTS:
        if lemma in ADVISORY:
            inner = _complement(rest, c, mode)
            if inner is not None and rest and (inflect(rest[0].low)[1] == "ing" or rest[0].low == "to"):
                return inner
        kind = _object_kind(lemma, rest)
        return Reading(kind, head if kind == Kind.CHANGE else "")
    kind = _kind_of(lemma)
    if kind is None:
        return Reading(Kind.CHANGE, head, "a step not known to be read-only")
    return Reading(kind, head if kind == Kind.CHANGE else "")


def _participle_kind(word: str) -> Kind | None:
    lemma, form = inflect(word)
    if lemma and form in ("ed", "base"):
        kind = _kind_of(lemma)
        if lemma in _RUN_LIKE or lemma in _OBJECTS:
            return Kind.CHANGE if lemma not in ("ask", "request", "obtain", "seek", "call", "post", "send", "share",
                                                "schedule", "plan", "leave") else Kind.INERT
        return kind
    if not lemma and form == "ed":
        return Kind.CHANGE
    return None


_CAUSED = frozenset({"caused", "explained", "related", "linked", "tied", "connected", "attributed", "attributable"})
"""Participles that relate a symptom to a cause: "could be caused by …" says what may be, proposes nothing."""
_BY_ITSELF = frozenset({"itself", "themselves", "own", "automatically", "alone", "shortly", "soon", "eventually"})
"""What the system does by itself is expected, not proposed (``the pods should recover on their own``)."""


def _declarative(toks: list[Token], aux_at: int, c: Clause, mode: str) -> Reading:
    """A sentence with a subject: a statement, unless it proposes a step."""
    subject = [t.low for t in toks[:aux_at]]
    aux = toks[aux_at].low
    rest = toks[aux_at + 1:]
    low = [t.low for t in rest]
    if low[:1] and (low[0] in NEGATIONS or low[0] in ("n't",)):
        return Reading(Kind.INERT, why="a negative statement")
    if aux in ("need", "needs", "require", "requires", "warrants", "want", "wants") or (
            aux in ("has", "have") and low[:1] == ["to"]):
        j = 1 if low[:1] == ["to"] else 0
        if low[j:j + 1] == ["be"] and len(rest) > j + 1:
            kind = _participle_kind(rest[j + 1].low)
            if kind is not None:
                return Reading(kind, f"{toks[aux_at].text} be {rest[j + 1].text}" if kind == Kind.CHANGE else "")
        found = _complement(rest[j:], c, mode)
        if found is not None:
            return found
        return Reading(Kind.INERT)
    if aux in ("has", "have", "had", "'ve") and rest and inflect(rest[0].low)[1] == "ed":
        lemma = inflect(rest[0].low)[0]
        if mode == "lead" and lemma:
            return _imperative(lemma, rest, c, mode)
        return Reading(Kind.INERT, why="a report of what was done")
    if aux in MODALS:
        j = 0
        while j < len(low) and (low[j] in ("to", "probably", "also", "then", "first", "now", "just") or (
                low[j].endswith("ly") and not inflect(low[j])[0])):
            j += 1
        if low[j:j + 1] == ["be"] and len(rest) > j + 1:
            k = j + 1
            while k < len(low) and low[k].endswith("ly") and not inflect(low[k])[0]:
                k += 1
            if k < len(rest) and rest[k].low in _CAUSED:  # "could be caused by lock contention": a possibility
                return Reading(Kind.INERT, why="a possible cause")
            kind = _participle_kind(rest[k].low) if k < len(rest) else None
            if kind is not None:
                return Reading(kind, f"{toks[aux_at].text} be {rest[k].text}" if kind == Kind.CHANGE else "",
                               "a passive proposal" if kind == Kind.CHANGE else "")
            return Reading(Kind.INERT)
        if j < len(rest):
            lemma, form = inflect(rest[j].low)
            person = any(w in PEOPLE for w in subject)
            if lemma and form == "base":
                reading = _imperative(lemma, rest[j:], c, mode)
                by_itself = any(w in _BY_ITSELF for w in low[j + 1:j + 4])  # "should recover on its own"
                if person or (aux in DIRECTIVE_MODALS and reading.kind != Kind.INERT and not by_itself):
                    return reading
            if person and not lemma and rest[j].low.isalpha() and form == "base":
                return Reading(Kind.CHANGE, rest[j].text, "a step not known to be read-only")
        noun = next((t.text for t in toks[:aux_at] if t.low in CHANGE_NOUNS), None)
        if noun is not None:  # "A restart should fix it", "Restart will help"
            return Reading(Kind.CHANGE, noun, "a proposed change")
        return Reading(Kind.INERT)
    if mode == "lead" and aux in COPULAS and rest:
        k = 1 if low[:1] in (["been"], ["being"]) else 0
        kind = _participle_kind(rest[k].low) if k < len(rest) else None
        if kind == Kind.CHANGE and inflect(rest[k].low)[1] == "ed":
            return Reading(kind, rest[k].text, "a change the step waits for")
    # a copula: the sentence states, unless its subject is the fix or a change that is needed
    head_noun = next((w for w in reversed(subject) if w.isalpha()), "")
    if head_noun in PROPOSAL_SUBJECTS or any(w in PROPOSAL_SUBJECTS for w in subject[-2:]):
        j = 0
        while j < len(low) and low[j] in ("to", "a", "an", "the", "simply", "just", "probably"):
            j += 1
        if j < len(rest):
            lemma, form = inflect(rest[j].low)
            if lemma and form in ("base", "ing"):
                return _imperative(lemma, rest[j:], c, mode)
            kind = _noun_kind(rest[j:])
            if kind is not None:
                return Reading(kind, rest[j].text if kind == Kind.CHANGE else "", "a proposed step")
    if any(w in CHANGE_NOUNS for w in subject) and any(w in PROPOSAL_WORDS for w in low[:4]):
        noun = next(t.text for t in toks[:aux_at] if t.low in CHANGE_NOUNS)
        return Reading(Kind.CHANGE, noun, "a proposed change")
    if head_noun == "it" or subject == ["it"]:
        for j, w in enumerate(low[:4]):
            if w == "to" and j + 1 < len(rest) and not any(n in NEGATIONS for n in low[:j]):
                lemma, form = inflect(rest[j + 1].low)
                if lemma:
                    return _imperative(lemma, rest[j + 1:], c, mode)
    return Reading(Kind.INERT, why="a statement")


def _aux_index(low: list[str], subject_led: bool = False) -> int | None:
    """Where the auxiliary or copula of a sentence stands (past a relative clause: ``pods that
    are stuck should be restarted``); None when a verb comes first (``Bounce pods that are stuck``)."""
    for i, w in enumerate(low[:8]):
        if i and (w in COPULAS or w in MODALS) and low[i - 1] not in ("that", "which", "who", "whose", "where"):
            return i
        if i and not subject_led and inflect(w)[1] == "base" and inflect(w)[0] and w not in SUBJECTS:
            return None
    return None


_NOT_KNOWN = frozenset({"unable", "impossible", "unclear", "uncertain", "unsure", "unknown", "undetermined",
                        "inconclusive", "missing", "lacking", "insufficient", "cannot", "can't", "cant", "couldn't",
                        "whether"})
"""Words that open a statement of what is not known, cannot be done or is missing (``unable to check
…``, ``can't tell what …``, ``unclear whether …``, ``missing log lines``): no imperative."""
_NOT_KNOWN_SKIP = frozenset({"to", "not", "be", "yet", "fully", "reliably", "really", "even", "whether", "if", "a",
                             "the", "any", "enough"})


def _not_known(toks: list[Token], c: Clause, mode: str) -> Reading | None:
    """A clause that says what cannot be told or done or what is missing states no step; one
    that goes on to a change verb with an object (``unable to wait, restart the pods``, ``cannot
    restart the primary``) is still read as that change (fail closed)."""
    if toks[0].low not in _NOT_KNOWN:
        return None
    for i, t in enumerate(toks[1:6], 1):
        if t.low in _NOT_KNOWN_SKIP:
            continue
        lemma, form = _head_form(t.low)
        if lemma and form == "base" and _kind_of(lemma) == Kind.CHANGE:
            return _imperative(lemma, toks[i:], c, mode)
        break
    return Reading(Kind.INERT, why="says what is not known")


def _head(c: Clause, mode: str) -> Reading:
    """The reading of a clause whose lead-ins and gerund phrases are already taken off."""
    toks = list(c.toks)
    low = c.low
    first = toks[0]
    known = _not_known(toks, c, mode)
    if known is not None:
        return known
    if first.code or first.low[:1].isdigit() or first.low[:1] in "~$":
        aux = _aux_index(low, subject_led=True)
        return _declarative(toks, aux, c, mode) if aux is not None else Reading(Kind.INERT)
    if all(w in _STATUS for w in low if w.isalnum() or "-" in w) and not any(t.code for t in toks):
        return Reading(Kind.INERT, why="a label")
    if first.low in ("no", "none", "nothing", "nobody", "not", "n/a", "na"):
        return Reading(Kind.INERT, why="a negative")
    if first.low in ("there", "here") and len(low) > 1 and low[1] in COPULAS:
        return _declarative(toks, 1, c, mode)
    second = low[1] if len(low) > 1 else ""
    if first.low in _QUESTION_AUX and (second in SUBJECTS or second in PEOPLE or toks[1].code):
        if second in PEOPLE and len(toks) > 2:
            lemma3, form3 = inflect(low[2])
            if lemma3 and form3 == "base":
                return _imperative(lemma3, toks[2:], c, mode)
        return Reading(Kind.INERT, why="a question")
    lemma, form = _head_form(first.low)
    if second in COPULAS or second in MODALS or (second and inflect(second)[1] == "s" and inflect(second)[0]
                                                 and first.low not in ("let",)):
        if second in COPULAS or second in MODALS:
            return _declarative(toks, 1, c, mode)
        return Reading(Kind.INERT, why="a statement")
    if first.low in SUBJECTS or first.low in PEOPLE:
        aux = _aux_index(low, subject_led=True)
        if aux is not None:
            return _declarative(toks, aux, c, mode)
        if first.low in PEOPLE and len(toks) > 1:
            lemma2, form2 = inflect(toks[1].low)
            if toks[1].low in SAME_FORM and not _dated(low):  # "we set …" may say what to do: fail closed
                form2 = "base"
            if lemma2 and (form2 == "base" or (mode == "lead" and form2 in ("ed", "s"))):
                return _imperative(lemma2, toks[1:], c, mode)
            if form2 == "ed":
                return Reading(Kind.INERT, why="a report of what was done")
        if mode == "lead":
            return Reading(Kind.INERT, why="refers to something")
        if _reports_past(toks):  # "the deploy bot restarted cart-api at 13:50"
            return Reading(Kind.INERT, why="a report of what was done")
        kind = _noun_kind(toks)
        if kind is not None:
            noun = next((t.text for t in toks if t.low in CHANGE_NOUNS), first.text)
            return Reading(kind, noun if kind == Kind.CHANGE else "", "a proposed step")
        return Reading(Kind.INERT, why="a statement")
    if lemma and form == "ing":
        aux = _aux_index(low)
        reading = _imperative(lemma, toks, c, mode)
        if aux is not None and any(w in NEGATIONS or w in ("was", "were", "did", "caused", "failed", "had")
                                   for w in low[aux:aux + 2]):
            return Reading(Kind.INERT, why="a statement")
        if mode == "guidance":
            return Reading(Kind.INERT)
        return reading
    if lemma == "approve" and mode == "lead":
        return Reading(Kind.INERT, why="waits for approval")
    if lemma and form == "s" and not (second in DETERMINERS or second.startswith("\x1a")):
        return Reading(Kind.INERT, why="a plural noun")
    if lemma and form == "ed" and mode != "lead":
        return Reading(Kind.INERT, why="a report of what was done")
    if lemma:
        if mode == "guidance" and not (second in DETERMINERS or second.startswith("\x1a")):
            return Reading(Kind.INERT)
        return _imperative(lemma, toks, c, mode)
    # an unknown head word
    if (first.low, second) in PHRASAL:
        return Reading(PHRASAL[(first.low, second)], f"{first.text} {toks[1].text}")
    if "/" in first.low:  # "stop/start the service" proposes; "resolved/OK notification" names something
        verbs = [h for h in first.low.split("/") if _head_form(h)[0] and _head_form(h)[1] == "base"]
        if verbs:
            return _imperative(_head_form(verbs[0])[0], toks, c, mode)
        if not (second in DETERMINERS or second.startswith("\x1a") or second[:1].isdigit()):
            return Reading(Kind.INERT, why="a name")
    if second == "of":  # "duplicate of RCA 77": a noun, not an imperative
        return Reading(Kind.INERT, why="a name")
    if _names_a_state(low):  # "github, splunk unavailable": names, then what state they are in
        return Reading(Kind.INERT, why="a statement")
    if second and _reports_past(toks):  # "checkout-api restarted at 14:05": a name, then its verb
        return Reading(Kind.INERT, why="a report of what was done")
    aux = _aux_index(low)
    if aux is not None and aux <= 3:
        return _declarative(toks, aux, c, mode)
    if second:
        lemma2, form2 = inflect(second)
        if lemma2 and form2 == "base" and mode != "guidance":
            if first.low in MODIFIERS and _kind_of(lemma2) == Kind.CHECK:
                return Reading(Kind.CHECK)
            return Reading(Kind.CHANGE, f"{first.text} {toks[1].text}", "a step not known to be read-only")
    has_object = second in DETERMINERS or second.startswith("\x1a") or second[:1].isdigit()
    if mode in ("guidance", "lead") and not has_object:
        return Reading(Kind.INERT)
    return Reading(Kind.CHANGE, first.text, "an imperative not known to be read-only")


SIMPLE_PAST = frozenset({
    "went", "ran", "reran", "took", "did", "undid", "saw", "began", "wrote", "rewrote", "chose", "froze", "broke",
    "gave", "came", "rose", "fell", "grew", "threw", "knew", "spoke", "woke", "tore", "shook", "forgot", "overrode",
    "shrank", "sank", "drove", "rode", "flew", "swore", "blew", "drew", "rang", "sang", "drank", "swam", "sprang",
    "arose", "awoke", "forgave", "overtook", "mistook", "withdrew", "oversaw", "became", "overwrote",
})
"""Past forms that are never participles: after a subject they report what happened."""
_PAST_TIME = re.compile(r"\b(?:at \d{1,2}:\d{2}|yesterday|earlier|ago|last (?:week|night|time|month)|already|"
                        r"previously|this morning|before the (?:incident|alert))\b")


def _dated(low: list[str]) -> bool:
    """The clause places itself in the past (``at 13:50``, ``yesterday``, ``last week``)."""
    return bool(_PAST_TIME.search(" ".join(low)))


def _reports_past(toks: list[Token]) -> bool:
    """A subject, then a verb in the past: ``the deploy bot restarted cart-api``, ``the rollback
    of cfg-2290 went fine``, ``the rollout set the pool to 5``. A form that may be a participle
    (``-ed``, ``set``) counts only straight after the subject's nouns: ``pods affected by the
    leak`` is a participle, ``the failed pods`` an adjective."""
    low = [t.low for t in toks[:10]]
    for w in low[1:]:
        if w in MODALS or w in COPULAS:
            break
        if w in SIMPLE_PAST:
            return True
    for i in range(1, len(low)):
        t, w = toks[i], low[i]
        if t.code or not t.word or w in _FUNCTION or w in MODALS or w in COPULAS:
            return False
        if inflect(w)[1] == "ed" and not w.endswith("eed") and len(w) > 2:
            nxt = low[i + 1] if i + 1 < len(low) else ""
            return low[i - 1] not in DETERMINERS and low[i - 1] not in SUBJECTS and nxt != "by"
    return False


STATES = frozenset({
    "unavailable", "unreachable", "missing", "empty", "stale", "broken", "degraded", "offline", "unhealthy",
    "healthy", "failing", "slow", "full", "absent", "unknown", "inaccessible", "gone", "flaky", "incomplete",
    "partial", "ok", "fine", "lagging", "saturated", "exhausted", "unresponsive", "inconclusive", "unclear",
})
"""Words that say what state something is in: after names (``splunk, github unavailable``) they
make a statement, not an imperative."""


def _names_a_state(low: list[str]) -> bool:
    """One name, or names between commas, then a state word (``github, splunk unavailable``,
    ``logs missing``). Two words before it may be a verb and its object (``nuke pods
    unhealthy``): an imperative, failing closed."""
    for i in range(1, min(len(low), 8), 2):
        if low[i] in STATES:
            return True
        if low[i] != "," or i + 1 >= len(low) or not low[i + 1].replace("-", "").isalnum() or inflect(low[i + 1])[0]:
            return False
    return False


_QUESTION_AUX = frozenset({"is", "are", "was", "were", "does", "did", "has", "have", "can", "could", "should", "would",
                           "will", "shall", "may", "might", "must", "do"})
_STATUS = frozenset({"read-only", "readonly", "read", "only", "non-destructive", "safe", "optional", "recommended",
                     "approved", "urgent", "low", "high", "medium", "risk", "priority", "p1", "p2", "p3", "critical",
                     "important", "required", "ok", "done", "pending", "todo", "wip", "dry", "run", "dry-run",
                     "no-op", "noop", "idempotent", "reversible", "verified", "confirmed", "checked", "manual",
                     "automated", "fyi", "note", "info", "tip", "warning", "caution", "nb", "-", "optional:",
                     "temporary", "permanent", "short-term", "long-term", "immediate", "later", "now"})
"""Words that label a step rather than do anything (``(read-only)``, ``[optional]``)."""

_SEQUENCE = {"after": "before", "once": "before", "upon": "before", "following": "before", "having": "before",
             "when": "condition", "whenever": "condition", "if": "condition", "unless": "condition",
             "provided": "condition", "assuming": "condition", "given": "condition",
             "while": "condition", "where": "condition", "wherever": "condition", "whether": "condition",
             "before": "after", "until": "after", "till": "after", "with": "aside", "without": "aside",
             "pending": "aside", "to": "aside", "for": "aside", "as": "aside", "per": "aside", "during": "aside",
             "in": "aside", "on": "aside", "at": "aside", "via": "aside", "through": "aside", "under": "aside"}
"""Lead-in words and where their clause falls: ``before`` the main clause, ``after`` it, or
beside it (a condition or an aside: only a command in it counts)."""
_LEAD_PHRASES = (("as", "soon", "as"), ("in", "case"), ("prior", "to"), ("subject", "to"), ("ahead", "of"),
                 ("as", "a"), ("as", "an"), ("in", "order", "to"))
_LEAD_WORDS = frozenset(_SEQUENCE) | {p[0] for p in _LEAD_PHRASES}
_GERUND_MARKERS = {"after": "before", "once": "before", "upon": "before", "when": "before", "while": "before",
                   "by": "before", "before": "after", "until": "after", "then": "after"}


def _lead(toks: list[Token]) -> tuple[str, int] | None:
    """(where the lead-in's clause falls, words of the lead-in word) if ``toks`` opens with one."""
    low = [t.low for t in toks]
    for phrase in _LEAD_PHRASES:
        if tuple(low[:len(phrase)]) == phrase:
            return ("after" if phrase in (("prior", "to"), ("ahead", "of")) else
                    "before" if phrase == ("as", "soon", "as") else
                    "condition" if phrase == ("in", "case") else "aside"), len(phrase)
    if low and low[0] in _SEQUENCE and len(low) > 1:
        if low[0] in ("to", "for", "as", "in", "on", "at") and "," not in low:
            return None  # "to undo it run …" has no comma; "On node-3 restart kubelet" is a place
        return _SEQUENCE[low[0]], 1
    return None


def _lead_end(toks: list[Token], start: int) -> int | None:
    """Where the lead-in ends: its comma, else before the first verb that can head a clause."""
    for i in range(start, len(toks)):
        if toks[i].low in (",", ":"):
            return i
    for i in range(start + 1, len(toks)):
        lemma, form = _head_form(toks[i].low)
        prev = toks[i - 1].low
        verb = lemma and form == "base" and toks[i].low not in _NOT_VERB_AFTER and prev != "to" and not (
            prev in DETERMINERS or prev in MODALS or prev in COPULAS or prev in SUBJECTS)
        if verb or toks[i].low in PROSE:
            return i
    return None


def _gerund_phrases(toks: list[Token]) -> tuple[list[Token], list[tuple[str, list[Token]]]]:
    """The main clause and its temporal phrases (``… after restarting X``), each with where it falls."""
    for i in range(1, len(toks) - 1):
        marker = toks[i].low
        if marker not in _GERUND_MARKERS:
            continue
        j = i + 1
        person = toks[j].low in PEOPLE
        if person:
            j += 1
            while j < len(toks) and toks[j].low in ("have", "'ve", "has", "had", "should", "can", "will", "must"):
                j += 1
        if j >= len(toks):
            continue
        lemma, form = inflect(toks[j].low)
        gerund = form == "ing" and (lemma or (toks[j].low.isalpha() and j + 1 < len(toks) and (
            toks[j + 1].low in DETERMINERS or toks[j + 1].code)))
        if j + 1 < len(toks) and toks[j + 1].low in ("anything", "something", "everything", "nothing"):
            continue  # "before changing anything" names no change
        if gerund or (person and (lemma or toks[j].low.isalpha())):
            main, phrases = _gerund_phrases(toks[:i])
            return main, [*phrases, (_GERUND_MARKERS[marker], toks[j:])]
    return toks, []


def _phrase(c: Clause, mode: str) -> Reading:
    """One clause (no lead-in, no gerund phrase): prose head and commands together."""
    cmd = _commands(c)
    if cmd is not None and cmd.writes:
        return Reading(Kind.CHANGE, cmd.verb, "a command that is not read-only")
    first = c.toks[0]
    if first.low in TOOLS and not first.code and cmd is not None:
        return Reading(Kind.CHECK, cmd.verb)
    reading = _head(c, mode)
    if reading.why == "runs something not shown to be read-only" and cmd is not None:
        return Reading(Kind.CHECK, cmd.verb)
    if cmd is not None and reading.kind == Kind.INERT and reading.why not in ("a negative",):
        return Reading(Kind.CHECK, cmd.verb)
    return reading


_UNDO = frozenset({"undo", "revert", "rollback", "roll", "restore", "back"})


def is_rollback_plan(c: Clause) -> bool:
    """``undo by reverting the manifest``, ``to roll back, run …``, ``rollback restores 50``:
    how the step would be undone, not a step to take now."""
    low = [w for w in c.low if w not in FILLERS]
    if len(low) < 2:
        return False
    head = low[1] if low[0] in ("to", "how") else low[0]
    nxt = low[2:4] if low[0] in ("to", "how") else low[1:3]
    if head == "roll" and nxt[:1] == ["back"]:
        nxt = nxt[1:] + low[4 if low[0] in ("to", "how") else 3:][:1]
    if head not in _UNDO:
        return False
    return low[0] in ("to", "how") or (bool(nxt) and nxt[0] in ("by", "with", "via", "restores", "reverts", "is", ":"))


def read_clause(c: Clause, mode: str = "step") -> list[Reading]:
    """The readings of one clause, in the order they would happen."""
    toks = _strip(list(c.toks))
    if not toks:
        return []
    c = c.sub(toks)
    if mode == "plan":
        return [Reading(Kind.INERT, why="a rollback plan")]
    joined = " ".join(c.low[:6])
    if joined.startswith(PROHIBITIONS) or (c.low[0] in ("don't", "dont") or c.low[:2] == ["do", "not"]):
        k = 2 if c.low[:2] == ["do", "not"] or c.low[:2] == ["must", "not"] or c.low[:2] == ["should", "not"] else 1
        positive = k < len(toks) and toks[k].low != "hold" and (
            toks[k].low in GOOD_NEGATED or inflect(toks[k].low)[0] in GOOD_NEGATED)
        if positive:
            named = _strip(toks[k + 1:])
            if named and named[0].low in ("to", "on", "off", "with"):
                named = named[1:]
            if named:
                return read_clause(c.sub(named), mode)
        _, phrases = _gerund_phrases(toks)  # "Avoid downtime by restarting one pod at a time" restarts
        proposed = [r for _, p in phrases for r in read_clause(c.sub(p), "lead")]
        return [Reading(Kind.INERT, why="a prohibition"), *proposed]
    lead = _lead(toks)
    if lead is not None:
        where, n = lead
        end = _lead_end(toks, n)
        inner = c.sub(toks[n:end] if end is not None else toks[n:])
        main = None if end is None else c.sub(toks[end + 1:] if toks[end].low in (",", ":") else toks[end:])
        if where in ("condition", "aside"):
            cmd = _commands(inner) if inner.toks else None
            first = [] if cmd is None else [Reading(Kind.CHANGE if cmd.writes else Kind.CHECK, cmd.verb)]
            if where == "condition" and inner.toks and main is None:
                first = first or [Reading(Kind.INERT)]
        else:
            first = read_clause(inner, "lead") if inner.toks else []
        rest = read_clause(main, mode) if main is not None and main.toks else []
        return rest + first if where == "after" else first + rest
    kept, phrases = _gerund_phrases(toks)
    before = [r for where, p in phrases if where == "before" for r in read_clause(c.sub(p), "lead")]
    after = [r for where, p in phrases if where == "after" for r in read_clause(c.sub(p), "lead")]
    return before + [_phrase(c.sub(kept), mode)] + after
