"""One item of an output (a list item, a paragraph, a recommendation) read into its steps and guards.

The item is read as the operator sees it (``rcaloop.judge.text``: look-alikes folded, markup
rendered, code spans set aside), cut into sentences and clauses, each clause read by
``rcaloop.judge.reading.steps`` in the order it would happen (parenthesised asides last). A
label decides how the text after it is read: ``Impact:``/``Risk:`` and ``Missing:`` describe,
``Rollback:`` is a plan, ``Approval:`` names who approves, ``Now:`` and ``Step 2:`` introduce a
step (a label is never a check: ``Read-only: restart the database`` restarts). Text that renders
as nothing guards nothing, but a change in it still counts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from rcaloop.judge import lemma
from rcaloop.judge.reading import german, guards, korean, steps
from rcaloop.judge.reading.steps import ACTION, INERT, Clause, Kind, Step, clauses, read_clause
from rcaloop.judge.text import CODE_TOKEN, asides, cut_sentences, hidden, restore, set_aside, tokenize
from rcaloop.judge.vocab import Concept, has, phrase_at

MAX_ACTION_CHARS = 2000
"""An item is read this far (keeps every reading linear-time); a longer one counts as a
mutating step (fail closed: what was not read cannot be shown read-only)."""


@dataclass(frozen=True)
class Said:
    """One clause's reading, whether it asks for approval or gives impact guidance, and whether it stands aside."""

    step: Step
    approval: bool = False
    impact: bool = False
    aside: bool = False


@dataclass(frozen=True)
class ItemReading:
    """What an item proposes: its steps in order, its first change, and the guards it carries."""

    said: tuple[Said, ...]
    same_approval: bool = False
    """It refers to an approval given to an earlier step (``same approval``, ``as approved above``)."""
    waved_off: bool = False
    """It dismisses its step's impact without a reason (``impact: none``): no guidance for a destructive step."""

    @property
    def destructive(self) -> bool:
        """Its change destroys or discards something (delete, drop, purge, reset offsets …): guidance that waves
        its impact off (``impact: none; rollback: …``) is none for it."""
        return any(s.step.kind == Kind.CHANGE and any(has(Concept.DESTRUCTIVE, lemma.lemma(w.lstrip("-")))
                                                      or german.destructive(w) for w in s.step.verb.split() if w)
                   for s in self.said)

    @property
    def change(self) -> Step | None:
        return next((s.step for s in self.said if s.step.kind == Kind.CHANGE), None)

    @property
    def first_change(self) -> int | None:
        return next((i for i, s in enumerate(self.said) if s.step.kind == Kind.CHANGE), None)

    @property
    def checked(self) -> bool:
        """A read-only check before the first change (or anywhere, when the item changes nothing)."""
        upto = self.said if self.first_change is None else self.said[:self.first_change]
        return any(s.step.kind == Kind.CHECK for s in upto)

    @property
    def approval(self) -> bool:
        first = self.first_change
        return any(s.approval and (s.aside or first is None or i <= first)
                   for i, s in enumerate(self.said))

    @property
    def impact(self) -> bool:
        return any(s.impact for s in self.said)

    @property
    def verb(self) -> str | None:
        change = self.change
        return (change.verb or "step") if change else None

    @property
    def why(self) -> str:
        change = self.change
        return change.why if change else ""

    @property
    def prohibition(self) -> bool:
        """It forbids and proposes nothing (``Do not restart the primary``)."""
        return self.change is None and not self.checked and any(s.step.why == "prohibition" for s in self.said)


def _proposes(head: str) -> bool:
    """``Restart the database: it is stuck``, ``Deleting the lock now: it is stale``: a change verb with its
    object before the colon is a step, not a label (``Rollback: …``, ``Roll back plan: …`` name how a step is undone)."""
    words = [w for w in re.findall(r"[A-Za-z][\w'-]*", head)]
    if len(words) < 2:
        return False
    lemmas = [lemma.lemma(w) for w in words]
    return steps.concept(lemma.verb(words[0]).lemma) is Concept.CHANGE and not phrase_at(lemmas, 0, Concept.ROLLBACK) and (
        lemma.verb(words[0]).form in (lemma.BASE, lemma.GERUND)) and (len(words) >= 3 or words[1].lower() in
                                                                       steps.DETERMINERS)


def _label(sentence: str) -> tuple[str, str]:
    """(the label of ``Label: text``, the text); a label is at most four words and no code."""
    head, sep, body = sentence.partition(": ")
    if sep and body.strip() and len(head.split()) <= 4 and not CODE_TOKEN.search(head) and not _proposes(head):
        return head.strip().lower(), body
    if sentence.endswith(":") and len(sentence.split()) <= 4:
        return sentence[:-1].strip().lower(), ""
    return "", sentence


def _labels(sentence: str) -> tuple[list[str], str]:
    """Every label before the text (``splunk data missing: search-api: request failed``)."""
    found: list[str] = []
    label, body = _label(sentence)
    while label and len(found) < 3:
        found.append(label)
        label, rest = _label(body)
        body = rest if label else body
    return found, body


def _label_mode(labels: list[str], follows: bool) -> str:
    """How the text after the labels is read: ``guidance``, ``plan``, ``step`` or ``approval``."""
    for label in labels:
        lemmas = [lemma.lemma(w) for w in label.replace("-", " ").split()]
        if any(phrase_at(lemmas, i, Concept.HEADING_CHECK) for i in range(len(lemmas))) or "읽기 전용" in label:
            return "check"  # "Read-only: describe-instance-status for apne1-az4, …": a check unless it names a change
        if any(phrase_at(lemmas, i, Concept.LABEL_STEP) for i in range(len(lemmas))) or label.startswith("step "):
            return "step"
        if any(phrase_at(lemmas, i, Concept.ROLLBACK) for i in range(len(lemmas))):
            return "plan" if follows else "step"
        if any(phrase_at(lemmas, i, Concept.APPROVAL) or phrase_at(lemmas, i, Concept.CHANGE_PROCESS)
               for i in range(len(lemmas))):
            return "approval"
        if any(phrase_at(lemmas, i, c) for i in range(len(lemmas)) for c in (Concept.IMPACT, Concept.ABSENCE)) or any(
                has(Concept.ABSENCE, w) or has(Concept.UNCERTAINTY, w) for w in label.split()):
            return "guidance"
    return ""


def _is_value(body: str, labels: list[str]) -> bool:
    """The text after a label is a value, not a step: a few single words, none a verb or code."""
    toks = tokenize(body)
    items = [t for t in toks if t.low not in (",", "and", "or", "/", "&", ".")]
    return bool(items) and len(items) <= 6 and len(toks) - len(items) >= len(items) - 1 and all(
        t.word and not t.code and steps.concept(lemma.lemma(t.text)) is None and lemma.verb(t.text).form != lemma.BASE
        or (t.word and not t.code and steps.concept(lemma.lemma(t.text)) is None and lemma.known(t.text)
            and not steps.has_object(toks, toks.index(t))) for t in items)


_APPROVAL_REFUSED = frozenset("""none no n/a na granted yes given done ok obtained approved not needed not required
optional waived skip do don't dont without nobody proceed""".split())
"""First words of an approval label's text that name no one to wait for (``Approval: do not wait for …``)."""


def _approval_label(body: str) -> bool:
    """``Approval: payments lead`` names who must approve; ``Approval: granted`` only claims one."""
    words = [w.strip(".,;()").lower() for w in body.split()]
    return bool(words) and words[0] not in _APPROVAL_REFUSED and not guards._by_nobody(["by", *words[:2]]) and not any(
        w in ("granted", "obtained", "given", "received") for w in words[:3])


def _introduces(line: str) -> bool:
    """An item that ends with a colon introduces the items below it (``Change, once the storefront owner
    approves:``): it names their guards and proposes nothing itself."""
    stripped = line.rstrip(" *_")
    return stripped.endswith(":") and "\x1a" not in stripped and len(stripped.split()) <= 40


_PIECES = re.compile(r"(?<=[.;:!?])\s+|\s+[—–]\s+|\s+->\s+|\s+=>\s+|\n")
_SHELL_WORDS = frozenset({"echo", "printf", "cat", "eval", "exec", "source", "env", "xargs", "yes"})
"""Shell words that run or feed what follows when piped or redirected (``echo … | base64 -d | sh``)."""
_SHELL_PLUMBING = re.compile(r"\|\s*\S|>>?\s*\S|<<|\$\(")


_PROSE_TAIL = re.compile(r"\s+(?:and|then)\s+([a-z]+)\b")


def _prose_cut(piece: str, tools) -> str:
    """A command line up to where prose goes on (``docker run --rm img git --version and compare with …``):
    ``and``/``then`` before a verb that is no command name ends it (``… and rm -rf /`` does not)."""
    m = _PROSE_TAIL.search(piece)
    if m and m.group(1) not in tools and lemma.verb(m.group(1)).verb:
        return piece[:m.start()]
    return piece


def command_lines(text: str) -> tuple[Step, ...]:
    """The mutating command lines an item holds as bare text (``kubectl delete pods -l app=x`` after a
    colon, a list item that is only a command): wherever the item stands, a command line is posted
    as something to run."""
    from rcaloop.judge.actions import commands  # noqa: PLC0415
    from rcaloop.judge.actions.tools import TOOLS  # noqa: PLC0415

    line, _ = set_aside(text[:MAX_ACTION_CHARS])
    out: list[Step] = []
    for piece in _PIECES.split(CODE_TOKEN.sub(" ", line)):
        piece = _prose_cut(piece.strip(" .,*_"), TOOLS)
        words = piece.split()
        shell = bool(words) and words[0] in _SHELL_WORDS and _SHELL_PLUMBING.search(piece) is not None
        if len(words) < 2 or (words[0].lower() not in TOOLS and not shell) or not words[0].islower() or any(
                lemma.verb(w).form in (lemma.PAST, lemma.S) and w.isalpha() and not lemma.plural_noun(w)
                for w in (x.strip(".,;:") for x in words[1:3])):
            continue  # "kubelet evicted 23 pods", "npm ci completed": what a program did
        found = commands.read_line(piece, commands.Reader(TOOLS))
        if found is not None and found.writes and found.known and (" " in found.verb or words[1].startswith("-")):
            out.append(Step(Kind.CHANGE, found.verb, "command_writes"))
    return tuple(out)


@lru_cache(maxsize=8192)
def read(text: str, role: str = ACTION) -> ItemReading:
    """Every clause of an item, read in the order it would happen (asides last)."""
    line, spans = set_aside(text[:MAX_ACTION_CHARS])
    label = _READ_ONLY_LABEL.match(line)
    if label is not None:
        named = re.sub(r"\s*\([^()]*\)\s*:\s*$", "", label.group(0))
        if _names_a_check(named) or read(restore(named, spans), role).change is not None:
            line = f"{named}: {line[label.end():]}"  # "read `x` (read-only): replay behind": the check, what it shows
        else:
            line = "Read-only: " + line[label.end():]  # "Procedure 1 (read-only): run …" is a check's label
    if german.is_german(text[:MAX_ACTION_CHARS]):
        out = _german(line, spans, role)
    else:
        if _introduces(line):
            toks = tokenize(CODE_TOKEN.sub(" ", line))
            return ItemReading((Said(Step(Kind.INERT, why="guidance"), approval=guards.approval(toks),
                                     impact=guards.impact(toks)),))
        out = _english(line, spans, role)
    for part in hidden(text[:MAX_ACTION_CHARS]):  # unseen, so it guards nothing; a change in it still counts
        out += [Said(Step(Kind.CHANGE, s.step.verb, "hidden_change"), aside=True)
                for s in read(part, role).said if s.step.kind == Kind.CHANGE]
    if len(text) > MAX_ACTION_CHARS and text[MAX_ACTION_CHARS:].strip():
        out.append(Said(Step(Kind.CHANGE, f"a step longer than {MAX_ACTION_CHARS} characters", "too_long")))
    plain = CODE_TOKEN.sub(" ", line)
    if _AFTER_READ_ONLY.search(plain) and not any(s.step.kind == Kind.CHECK for s in out):
        out.insert(0, Said(Step(Kind.CHECK, why="condition_check")))  # "… after a read-only confirmation"
    sentences = [part for part, _ in cut_sentences(plain)]
    waved_off = any(guards.waves_off(tokenize(part)) or german.waves_off(part) for part in sentences)
    same = guards.same_approval(tokenize(plain)) or german.same_approval(plain)
    return ItemReading(tuple(out), same, waved_off)


def _english(line: str, spans: tuple[str, ...], role: str) -> list[Said]:
    """An English (or Korean) item, clause by clause: the main text, then its asides."""
    main, notes = asides(line)
    may_ask = guards.approval(tokenize(CODE_TOKEN.sub(" ", line)))  # clause by clause only when the line asks at all
    out: list[Said] = []
    first = [n for n in notes if _FIRST.search(n)]  # "(check the runner's status first)" comes before the step
    for _n, part in enumerate((*first, main, *(n for n in notes if n not in first))):
        aside = part is not main
        checked = False
        for sentence, cut in cut_sentences(part):
            expecting = role == steps.CHECK_ROLE and checked and cut in _EXPECT_CUTS
            read_as = steps.STATEMENT if aside or expecting else role  # an aside explains; it proposes like a statement
            said = _sentence(sentence, spans, read_as, follows=bool(out) or aside, aside=aside, may_ask=may_ask)
            checked = checked or any(s.step.kind == Kind.CHECK for s in said)
            out += said
    return out


def _german(line: str, spans: tuple[str, ...], role: str) -> list[Said]:
    """A German item, sentence by sentence (``rcaloop.judge.reading.german``): a sentence that names no step
    carries its approval or guidance to the whole item, as a label does (``Freigabe IC. Auswirkung: …``)."""
    sentences = [sentence for sentence, _cut in cut_sentences(line)]
    if sentences and german.forbids(sentences[0]):
        return [Said(Step(Kind.INERT, why="prohibition"))]
    out: list[Said] = []
    for sentence in sentences:
        found = german.steps(sentence, role, spans)
        approved, guided = german.approval(sentence), german.guidance(sentence)
        if all(step.kind == Kind.INERT for step in found) and (approved or guided):
            out.append(Said(INERT, approval=approved, impact=guided, aside=True))
        else:
            out += [Said(step, approved, guided) for step in found]
    return out


def _sentence(sentence: str, spans: tuple[str, ...], role: str, follows: bool, aside: bool,
              may_ask: bool) -> list[Said]:
    labels, body = _labels(sentence)
    mode = _label_mode(labels, follows) if labels else ""
    if mode == "approval":  # "**Approval:** the DB on-call lead": it names who approves the whole item
        named = not guards.self_or_nobody(re.findall(r"[\w'-]+", labels[-1].lower()))  # "I approve:", "The bot approves:": no one else waits on it
        approved = named and (may_ask or _approval_label(body))
        steps_named = [s for s in _sentence(body, spans, role, follows, aside, False) if s.step.kind != Kind.INERT]
        if any(s.step.why == "command_writes" for s in steps_named):  # "IC approval: `kubectl delete ns x`"
            return [Said(s.step, approved, s.impact, s.aside) for s in steps_named]
        return [Said(INERT, approval=approved, aside=True)]
    if labels and mode not in ("step", "check") and _is_value(body, labels):
        return [Said(Step(Kind.INERT, why="value"), aside=aside,
                     impact=mode == "guidance" and guards.impact(tokenize(f"{labels[-1]}: {body}")))]
    toks = tokenize(body)
    if not toks:
        return []
    if labels and not mode and role == steps.STATEMENT and all(t.code or not t.word for t in toks):
        return [Said(Step(Kind.INERT, why="value"), aside=aside)]  # "Migration V12.sql: `ALTER TABLE …`" quotes it
    whole = tokenize(sentence)
    impact = (mode == "plan" and not guards.dismissed(toks)) or guards.impact(whole)
    if korean.has_hangul(body):
        return [Said(s, may_ask and guards.approval(whole), impact, aside) for s in korean.read(body, role, spans)]
    out: list[Said] = []
    forbidding = False
    parts = clauses(toks)
    may_ask = may_ask and guards.approval(whole)
    expecting = stated = denying = False
    for k, part in enumerate(parts):
        c = Clause(tuple(part), body, spans)
        planned = (follows or mode == "guidance") and guards.rollback_plan(part) and _starts_with_rollback(c)
        clause_mode = "plan" if planned else mode or "step"
        asks = may_ask and guards.approval(part)
        expecting = expecting or (role == steps.CHECK_ROLE and k > 0 and any(s.step.kind == Kind.CHECK for s in out)
                                  and _EXPECT.search(body[parts[k - 1][-1].end:part[0].start]) is not None)
        if (forbidding or denying) and part[0].low not in steps.SUBJECT_WORDS and _or_joined(body, parts, k):
            # "do not restart or delete": both forbidden; "I did not change any rule or restart anything": both denied
            found = [Step(Kind.INERT, why="prohibition" if forbidding else "statement")]
        elif expecting:  # "read `pg_stat_replication` (read-only): replay behind": what the check should show
            found = [s if s.why == "command_writes" and s.kind == Kind.CHANGE and _alone(c) else
                     Step(Kind.INERT, why="expectation") for s in read_clause(c, clause_mode, steps.STATEMENT)] or [INERT]
        else:
            read_as = steps.STATEMENT if clause_mode == "guidance" else steps.CHECK_ROLE if (
                clause_mode == "check" and role in (steps.ACTION, steps.NOTE)) else role
            found = read_clause(c, "step" if clause_mode == "check" else clause_mode, read_as) or [INERT]
            if k == 0:
                stated = role in (steps.STATEMENT, steps.NOTE) and found[0].why in ("statement", "report")
            elif stated and _COORDINATED.fullmatch(body[parts[k - 1][-1].end:part[0].start]):
                # "GET, PUT, LIST and DELETE all return 503", "… to finish the call, push state and delete the
                # lock row": words joined into one account; "…, roll that change back" is a step of its own
                found = [Step(Kind.INERT, why="statement") if s.why in _WORDED else s for s in found]
        forbidding = found[0].why == "prohibition"
        denying = found[0].why in ("statement", "report") and any(t.low in steps.NEGATIONS for t in part)
        out += [Said(s, asks, impact and (guards.impact(part) or mode in ("plan", "guidance")), aside) for s in found]
    if impact and not any(s.impact for s in out) and out:
        out[-1] = Said(out[-1].step, out[-1].approval, True, out[-1].aside)
    if may_ask and not any(s.approval for s in out) and out:
        out[-1] = Said(out[-1].step, True, out[-1].impact, out[-1].aside)
    if may_ask and guards.approval_required(whole):  # "Needs sign-off from the owner." holds for the whole item
        out = [Said(s.step, True, s.impact, True) if s.approval else s for s in out]
    return out


def _names_a_check(label: str) -> bool:
    """The text before ``(read-only):`` is itself a check (a check verb first, or a command), not a label."""
    toks = [t for t in tokenize(label) if t.word or t.code]
    return bool(toks) and (toks[0].code or steps.concept(lemma.verb(toks[0].text).lemma) is Concept.CHECK)


_READ_ONLY_LABEL = re.compile(r"^[^:()\n]{0,60}\((?:read[- ]?only|ro|no changes?|읽기 전용)[^()]{0,40}\)\s*:\s*", re.I)
"""A label that says its step only reads (``Procedure 1 (read-only):``, ``Verification (read-only, hourly):``)."""
_AFTER_READ_ONLY = re.compile(r"\b(?:after|once|following|only after|when) (?:a |an |the |one more |another )?"
                             r"(?:quick |short |fresh |final )?read[- ]only (?:check|confirmation|look|review|"
                             r"verification|query|pass|read)\b", re.I)
"""A step conditioned on a read-only check (``re-activate v111 after a read-only confirmation``): the check comes
first wherever the condition is written."""
_EXPECT = re.compile(r":|->|→|=>|—|–")
_EXPECT_CUTS = frozenset({"->", "→", "=>", "\u2014", "-"})
_FIRST = re.compile(r"\b(?:first|beforehand|before(?: that| anything| any change)?)\s*$", re.I)
"""An aside that says it comes first (``(check the runner's status in the org settings first)``)."""
"""What separates a check from what it should show (``… (read-only): replay behind``, ``… -> no docker.io``)."""


_COORDINATED = re.compile(r"\s*(?:and|or|nor|&|plus)\s*", re.I)
_WORDED = frozenset({"change_verb", "unknown_imperative", "object_decides", "runs_unknown", "change_noun"})
"""Readings from words alone (no command, no subject of their own): where statements are made, a sentence that
opens as a statement stays one (a command in it is still read, and so is ``and you should restart …``)."""


def _alone(c: Clause) -> bool:
    """The clause is only a command (a code span or a ``$`` line)."""
    return bool(c.toks) and (c.toks[0].code or c.toks[0].low == "$") and all(not t.word or t.code for t in c.toks[1:])


def _starts_with_rollback(c: Clause) -> bool:
    lemmas = c.lemmas
    start = 1 if lemmas[:1] in (["to"], ["how"]) else 0
    return bool(phrase_at(lemmas, start, Concept.ROLLBACK))


def _or_joined(body: str, parts: list[list], k: int) -> bool:
    """Clause ``k`` is joined to the one before by ``or``/``nor``, or a comma in a list ending in one, or by a
    bare ``and`` (``do not delete and recreate the CronJob`` forbids both) unless it goes on to another step
    (``… and drain it instead``)."""
    import re  # noqa: PLC0415

    for j in range(k, len(parts)):
        sep = body[parts[j - 1][-1].end:parts[j][0].start]
        if re.search(r"\b(?:or|nor)\b", sep, re.I):
            return True
        if j == k and re.fullmatch(r"\s*and\s*", sep, re.I) and not any(
                t.low in ("instead", "then", "rather") for t in parts[j]):
            return True
        if sep.strip() != ",":
            return False
    return False
