"""The judge's words: one set per concept and language, in base forms only.

Every word the judge reads for its meaning lives here, once: which verbs check, change or
only talk, what asks for approval, what states impact or a rollback, what says a cause is not
known, what sets a cause aside, what a section heading names. Inflections are not listed: a
word is looked up by its lemma (``rcaloop.judge.lemma``), so ``approves``, ``approved`` and
``approving`` all find ``approve``. Languages are data (``en``, ``ko``, ``de``); a test fails when two
concepts of one language share a word (one meaning per word) or a concept is defined twice.

Multi-word entries (``sign off``, ``blast radius``, ``merge request``) are written with one space
and matched on lemmas in order (``phrase_at``).
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache

from rcaloop.shared.lookalikes import fold


class Concept(StrEnum):
    CHECK = "check"
    """Verbs and nouns of a read-only look at the system (``verify``, ``query``, ``dry run``)."""
    AUTHOR = "author"
    """Verbs of authoring a change to code or configuration (``add``, ``set``, ``raise``, ``pin``): a lasting
    fix delivered through review is made of these."""
    OPERATE = "operate"
    """Verbs and nouns of acting on a running system (``restart``, ``rollback``, ``drain``, ``deletion``)."""
    CHANGE = "change"
    """Every change: ``author`` and ``operate`` together (derived, not listed)."""
    INERT = "inert"
    """Steps that neither check nor change a system: notes, messages, waiting, asking."""
    ADVISORY = "advisory"
    """Verbs whose complement is the real step (``consider increasing``, ``try to bounce``)."""
    RUN = "run"
    """Verbs that run what follows them: a command or a named job (``run``, ``execute``, ``apply``)."""
    OBSERVABILITY = "observability"
    """Systems that only show telemetry (``Prometheus``, ``Grafana``): ``use Prometheus directly`` reads."""
    VIEW_OBJECT = "view_object"
    """What one looks at (``dashboard``, ``logs``): ``open the dashboard`` reads."""
    COMMS_OBJECT = "comms_object"
    """What people write to each other (``ticket``, ``note``): ``open a ticket`` only talks."""
    DATA_OBJECT = "data_object"
    """Data handed over or asked for (``dump``, ``screenshot``): ``attach the logs`` changes nothing."""
    RERUN_OBJECT = "rerun_object"
    """What a re-run repeats when it repeats the failed work itself (``re-run the failed job``): no new change."""
    SIGNAL_OBJECT = "signal_object"
    """What makes ``send``, ``post`` or ``call`` act on a system (``SIGHUP``, ``endpoint``, ``webhook``)."""
    APPROVAL = "approval"
    """What a person gives before a change goes ahead (``approve``, ``sign off``, ``go-ahead``)."""
    CHANGE_PROCESS = "change_process"
    """The formal way of getting approval (``change request``, ``CAB``, ``RFC``)."""
    REVIEW_ROUTE = "review_route"
    """How a change to a repository is reviewed before it reaches a system (``merge request``, ``PR``)."""
    REPO_ARTIFACT = "repo_artifact"
    """Things kept in a repository, so changed through review (``lint``, ``test``, ``chart``, ``runbook``)."""
    AFTER_THE_FACT = "after_the_fact"
    """Approval given after the step ran (``ratified retroactively``): the step did not wait for it."""
    NOBODY = "nobody"
    """Who "approves" when nobody does (``bot``, ``pipeline``, ``default``)."""
    IMPACT = "impact"
    """Words of consequence: who or what a step affects (``impact``, ``downtime``, ``blast radius``)."""
    AFFECTED = "affected"
    """Who or what a step can affect (``users``, ``requests``, ``pods``): ``users will see 502s`` is impact."""
    ROLLBACK = "rollback"
    """Words of undoing a step (``rollback``, ``revert``, ``undo``, ``restore``)."""
    NONE_QUANTITY = "none_quantity"
    """A quantity that says nothing is affected (``none``, ``zero``, ``negligible``)."""
    PROHIBITION = "prohibition"
    """Openers that forbid what follows (``do not``, ``never``, ``avoid``)."""
    GOOD_NEGATED = "good_negated"
    """Verbs whose negation proposes their complement (``don't forget to …``)."""
    UNCERTAINTY = "uncertainty"
    """Saying a cause is not known (``unknown``, ``unclear``, ``cannot tell``)."""
    DISMISSAL = "dismissal"
    """Setting something aside as not the cause (``unrelated``, ``ruled out``, ``red herring``)."""
    HEALTHY = "healthy"
    """A state that is not a failure (``valid``, ``unchanged``, ``healthy``, ``normal``)."""
    SYMPTOM = "symptom"
    """Words that name a symptom, not its cause (``latency``, ``5xx``, ``timeout``, ``장애``)."""
    HEDGE = "hedge"
    """Words that say how sure a statement is (``provisional``, ``suspected``, ``유력``): they name no cause."""
    CAUSAL = "causal"
    """Words that attribute a failure to a cause (``because``, ``due to``, ``culprit``, ``suspect``)."""
    INPUT = "input"
    """The inputs of an analysis (logs, metrics, access): what an early exit says is missing."""
    ABSENCE = "absence"
    """Labels of what the analysis lacks (``missing: …``, ``needed: …``): what follows describes."""
    LABEL_STEP = "label_step"
    """Labels that introduce a step (``Now:``, ``Step 2:``, ``Fix:``): what follows is read as one."""
    PERSON = "person"
    """Who may carry out a step (``we``, ``on-call``, ``the DBA``)."""
    FILLER = "filler"
    """Words before a step's verb that change nothing about it (``please``, ``then``, ``now``)."""
    CONDITION = "condition"
    """Words that open a condition or a time of a step (``once``, ``after``, ``if``, ``pending``)."""
    WEIGHED_AGAINST = "weighed_against"
    """What a step named as a subject is called or does when it is argued against (``Raising X is tempting``,
    ``Putting them back risks …``): weighed, not proposed."""
    INABILITY = "inability"
    """What cannot be done (``unable to check …``, ``can't tell …``): a statement of a gap, not a step."""
    SELF_ACTING = "self_acting"
    """What a system does by itself (``on its own``, ``automatically``): expected, not proposed."""
    PAST_TIME = "past_time"
    """Words that place a statement in the past (``yesterday``, ``earlier``, ``ago``)."""
    COMMAND_ENDING = "command_ending"
    """Endings that tell someone to do it (``하세요``, ``할 것``): where statements are made, only these propose."""
    IMPERATIVE = "imperative"
    """Endings that make a word a step to take or a plan (Korean ``하세요``, ``해야``, ``진행``)."""
    MODAL = "modal"
    """Modal verbs that make a statement a proposal or a plan (``should``, ``must``, ``need``, ``will``)."""
    DESTRUCTIVE = "destructive"
    """What a step does when it destroys or discards data (``delete``, ``purge``, ``reset-offsets``): guidance that
    waves its impact off (``impact: none``) is none for it."""
    RUNTIME = "runtime"
    """Operations that act on a running system whatever file they are filed with (``restart``, ``drain``,
    ``fail over``, ``drop``): never a change made in review."""
    HEADING_CHECK = "heading_check"
    HEADING_ACTION = "heading_action"
    HEADING_PERMANENT = "heading_permanent"
    HEADING_PROHIBITION = "heading_prohibition"
    HEADING_ALTERNATIVE = "heading_alternative"
    HEADING_EVIDENCE = "heading_evidence"
    HEADING_TIMELINE = "heading_timeline"
    HEADING_SUMMARY = "heading_summary"
    HEADING_CAUSE = "heading_cause"
    HEADING_FACTOR = "heading_factor"
    HEADING_CONTEXT = "heading_context"


def _load() -> dict[str, dict[Concept, frozenset[str]]]:
    from rcaloop.judge.vocab import de, en, ko

    out: dict[str, dict[Concept, frozenset[str]]] = {}
    for module in (en, ko, de):
        words: dict[Concept, frozenset[str]] = {}
        for name, text in module.WORDS.items():
            entries = frozenset(" ".join(w.split()).lower() for w in text.split(",") if w.strip())
            if module.LANG == "de":  # read against folded lines (``prüf`` → ``pruf``), as every line is
                entries = frozenset(fold(w) for w in entries)
            words[Concept(name)] = entries | (_lemmatized(entries) if module.LANG == "en" else frozenset())
        words[Concept.CHANGE] = words[Concept.AUTHOR] | words[Concept.OPERATE]
        out[module.LANG] = words
    return out


def _lemmatized(entries: frozenset[str]) -> frozenset[str]:
    """Phrases as the lemmas they are matched on (``owing to`` → ``owe to``, ``caused by`` → ``cause by``)."""
    from rcaloop.judge import lemma  # noqa: PLC0415 (verb forms only: the lemmatizer reads no vocabulary for them)

    return frozenset(" ".join(lemma.verb(w).lemma if lemma.verb(w).verb else w for w in e.split())
                     for e in entries if " " in e)


DERIVED = {Concept.CHANGE: (Concept.AUTHOR, Concept.OPERATE)}
"""Concepts made of others (not listed in the data): the overlap test skips them."""

AXES: dict[str, tuple[Concept, ...]] = {
    "what a step does": (Concept.CHECK, Concept.AUTHOR, Concept.OPERATE, Concept.INERT, Concept.ADVISORY,
                         Concept.RUN),
    "what a step acts on": (Concept.OBSERVABILITY, Concept.VIEW_OBJECT, Concept.COMMS_OBJECT, Concept.DATA_OBJECT,
                            Concept.RERUN_OBJECT, Concept.SIGNAL_OBJECT),
    "guards": (Concept.APPROVAL, Concept.CHANGE_PROCESS, Concept.NOBODY, Concept.AFTER_THE_FACT, Concept.IMPACT,
               Concept.AFFECTED, Concept.ROLLBACK, Concept.NONE_QUANTITY),
    "review": (Concept.REVIEW_ROUTE, Concept.REPO_ARTIFACT, Concept.RUNTIME),
    "consequence": (Concept.DESTRUCTIVE,),
    "causes": (Concept.UNCERTAINTY, Concept.DISMISSAL, Concept.HEALTHY, Concept.SYMPTOM, Concept.HEDGE, Concept.CAUSAL,
               Concept.INPUT),
    "clauses": (Concept.PROHIBITION, Concept.GOOD_NEGATED, Concept.PERSON, Concept.FILLER, Concept.CONDITION,
                Concept.WEIGHED_AGAINST,
                Concept.INABILITY, Concept.SELF_ACTING, Concept.PAST_TIME, Concept.MODAL, Concept.COMMAND_ENDING,
                Concept.IMPERATIVE),
    "labels": (Concept.ABSENCE, Concept.LABEL_STEP),
    "headings": (Concept.HEADING_CHECK, Concept.HEADING_ACTION, Concept.HEADING_PERMANENT, Concept.HEADING_PROHIBITION,
                 Concept.HEADING_ALTERNATIVE, Concept.HEADING_EVIDENCE, Concept.HEADING_TIMELINE,
                 Concept.HEADING_SUMMARY, Concept.HEADING_CAUSE, Concept.HEADING_FACTOR, Concept.HEADING_CONTEXT),
}
"""The questions the judge asks of a word, each answered by one axis of concepts: within an axis a
word has one meaning (``restart`` is a change, never also a check), so no two of its concepts share
a word. Across axes a word may answer two questions (``check`` is a check verb and a heading word;
``rollback`` is a change and a word of a rollback plan)."""


@cache
def table() -> dict[str, dict[Concept, frozenset[str]]]:
    """Language → concept → its words (lower case, base forms)."""
    return _load()


def words(concept: Concept, lang: str = "en") -> frozenset[str]:
    return table()[lang].get(concept, frozenset())


@cache
def _longest(concept: Concept, lang: str) -> int:
    return max((len(w.split()) for w in words(concept, lang)), default=1)


def has(concept: Concept, word: str, lang: str = "en") -> bool:
    """``word`` (a lemma, any case) is one of the concept's words."""
    return word.lower() in words(concept, lang)


def phrase_at(lemmas: list[str], i: int, concept: Concept, lang: str = "en") -> int:
    """How many lemmas from ``i`` on make one entry of the concept (the longest; 0 when none)."""
    entries = words(concept, lang)
    for n in range(min(_longest(concept, lang), len(lemmas) - i), 0, -1):
        if " ".join(lemmas[i:i + n]) in entries:
            return n
    return 0


def concept_of(word: str, concepts: tuple[Concept, ...], lang: str = "en") -> Concept | None:
    """The first of ``concepts`` that holds ``word``."""
    low = word.lower()
    return next((c for c in concepts if low in words(c, lang)), None)
