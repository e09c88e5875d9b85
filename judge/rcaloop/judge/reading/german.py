"""German steps and guards: an instruction's verb comes last, so a step is read word by word.

``Timer fleetweit maskieren`` (mask the timer fleet-wide) and ``cilium-agent neu starten`` (restart the
agent) are changes: a change stem in the infinitive (or a bare loan verb, ``reboot``), or a noun of
one where steps are proposed (``Neustart von …``). ``gelöscht``, ``neu gestartet`` and ``entfernt``
(after a subject) report; ``nicht neu starten``, ``kein Reboot`` and ``… verboten`` forbid;
``Logs prüfen`` checks. A sentence that names no step carries the item's guards: an approval
(``Freigabe Platform-On-Call-Lead``, ``nach Freigabe durch den IC``, ``gleiche Freigabe``), impact
(``Auswirkung: 10 bis 30 s pro Node``) or a way back (``Rückweg: unmask``). An approval given
afterwards, by the author or by a bot, or waived (``ohne Freigabe``) guards nothing; ``Auswirkung:
keine`` alone is no guidance. Commands in code spans are read as shell, as in English.
"""

from __future__ import annotations

import re

from rcaloop.judge.reading.steps import ACTION, CHECK_ROLE, STATEMENT, Clause, Kind, Step, commands_of, proposes_command
from rcaloop.judge.text import CODE_TOKEN, tokenize
from rcaloop.judge.vocab import Concept, words
from rcaloop.shared.lookalikes import fold


_FUNCTION = frozenset({
    "der", "das", "den", "dem", "des", "und", "nicht", "mit", "auf", "für", "ist", "sind", "wird", "werden", "nach",
    "zu", "im", "ein", "eine", "einen", "vom", "zum", "zur", "auch", "noch", "bei", "aus", "wenn", "dann", "erst",
    "über", "weil", "dass", "kein", "keine", "bis", "alle", "allen", "sowie", "oder", "wurde", "wurden", "hat",
    "haben", "durch", "ohne", "sich", "wir", "ich", "es", "pro", "vor", "seit", "laut", "gleiche", "danach", "die",
    "von", "einem", "einer", "nur", "sonst", "dort", "hier", "jetzt", "wieder", "damit",
})
"""German words that are no English words: two of them (or one beside an umlaut) make a text German."""
_WORD = re.compile(r"[a-zäöüß]+")
_SPAN = re.compile(r"`[^`\n]*`")
_APPROVAL_NOUN = "(?:freigabe|genehmigung|zustimmung)"
_STATED_ROLLBACK = re.compile(r"\b(?:rollback|zuruck\w*|wiederherstell\w*)\s*(?::|=|durch\b|per\b|mit\b|uber\b|ist\b|"
                              r"ware\b)")
"""A rollback stated as the way back (``Rollback: …``, ``zurück per …``); ``zurückrollen`` as the step itself is the
change, not its way back."""

_FOLDED_FUNCTION = frozenset(fold(w) for w in _FUNCTION)
_UMLAUT = re.compile(r"[äöüß]")
_PARTICIPLE = re.compile(r"^(?:ab|an|auf|aus|ein|neu|zuruck|um|hoch|weg|fest)?ge[a-zß]{3,}(?:t|en)$")
_REPORTING_END = re.compile(r"(?:t|te|ten|st)$")


def is_german(text: str) -> bool:
    """The text is written in German (code spans left out): German function words, or one beside an umlaut
    (read on the text as written: the reader's lines are folded, ``ü`` → ``u``)."""
    prose = _SPAN.sub(" ", CODE_TOKEN.sub(" ", text)).lower()
    found = _WORD.findall(prose)
    hits = sum(1 for w in found if w in _FUNCTION or w in _FOLDED_FUNCTION or _infinitive(fold(w)))
    return hits >= 2 and hits * 10 >= len(found) or (hits >= 1 and _UMLAUT.search(prose) is not None)



def _infinitive(word: str) -> bool:
    """A German verb of the vocabulary in the infinitive (``maskieren``, ``löschen``): a German word."""
    return word.endswith("en") and len(word) > 5 and any(
        _stem(word, concept) for concept in (Concept.AUTHOR, Concept.OPERATE, Concept.CHECK))


def destructive(word: str) -> bool:
    """The German step destroys or discards (``löschen``, ``leeren``, ``zurücksetzen``)."""
    return any(fold(word).lower().startswith(w) for w in words(Concept.DESTRUCTIVE, "de"))


def _stem(word: str, concept: Concept) -> str | None:
    found = [s.replace(" ", "") for s in words(concept, "de") if word.startswith(s.replace(" ", ""))]
    return max(found, key=len) if found else None


def _has(text: str, concept: Concept) -> bool:
    return any(re.search(rf"(?<![a-zäöüß]){re.escape(w)}", fold(text)) for w in words(concept, "de"))


def forbids(sentence: str) -> bool:
    """The sentence forbids what it names: it opens with a prohibition (``Nicht …``, ``Kein …``, ``Do not …``)
    or ends in one (``… verboten``, ``… unterlassen``)."""
    low = CODE_TOKEN.sub(" ", sentence).strip().lower()
    opens = re.match(r"^(?:\*\*)?(?:nicht|kein(?:e|en)?|niemals|nie|auf keinen fall|do not|don't|never)\b", low)
    return bool(opens or re.search(r"\b(?:verboten|untersagt|unterlassen)\W*$", low))


def steps(sentence: str, role: str = ACTION, spans: tuple[str, ...] = ()) -> list[Step]:
    """The steps of one German sentence (with any commands in it)."""
    if forbids(sentence):
        return [Step(Kind.INERT, why="prohibition")]
    toks = tokenize(sentence)
    out: list[Step] = []
    clause = Clause(tuple(toks), sentence, spans)
    cmd = commands_of(clause, role)
    if cmd is not None and cmd.writes and role in (STATEMENT, CHECK_ROLE) and not cmd.known:
        cmd = None  # a program rcaloop does not know, quoted where checks or statements are listed
    if cmd is not None and cmd.writes and role == STATEMENT and not proposes_command(clause):
        cmd = None  # "erstes Upgrade: `systemd 255.4-1 -> 255.4-2`": what ran, quoted in an account
    if cmd is not None:
        out.append(Step(Kind.CHANGE if cmd.writes else Kind.CHECK, cmd.verb,
                        "command_writes" if cmd.writes else "command_reads"))
    plain = [t.text for t in toks if t.word and not t.code]
    low = [w.lower() for w in plain]
    skip = False
    for i, word in enumerate(low):
        if skip:  # the verb of "neu starten", read with its prefix
            skip = False
            continue
        step = _word(word, plain[i], low, i, role)
        if step is not None:
            out.append(step)
            skip = word in ("neu", "zuruck") and step.verb is not None and len(step.verb) > len(word)
    if not out:
        out.append(Step(Kind.CHECK, why="check_noun") if role == CHECK_ROLE else Step(Kind.INERT))
    return out


def _word(word: str, written: str, low: list[str], i: int, role: str) -> Step | None:
    pair = word + low[i + 1] if i + 1 < len(low) else word  # "neu starten", "zurück rollen"
    joined = word in ("neu", "zuruck")
    change = _stem(pair, Concept.CHANGE) if joined else _stem(word, Concept.CHANGE)
    check = _stem(word, Concept.CHECK)
    stem = max((s for s in (change, check) if s), key=len, default=None)
    if stem is None:
        return None
    form = pair if joined and change else word
    before = low[max(0, i - 3):i]
    if any(w in ("nicht", "kein", "keine", "keinen", "ohne") for w in low[max(0, i - 2):i]):
        return Step(Kind.INERT, stem, "prohibition")
    if _PARTICIPLE.match(form) or (joined and i + 1 < len(low) and low[i + 1].startswith("ge")):
        return Step(Kind.INERT, stem, "report")  # "gelöscht", "neu gestartet", "zurückgerollt"
    if i and low[i - 1] == "zu" and "um" in low[:i - 1]:
        return Step(Kind.INERT, stem, "purpose")  # "um die Route zu setzen": what the step is for
    if any(w in words(Concept.PAST_TIME, "de") for w in before):
        return Step(Kind.INERT, stem, "report")  # "wurde neu gestartet", "ist bereits ausgerollt"
    noun = written[:1].isupper() and i > 0
    if stem == check and stem != change:
        return Step(Kind.CHECK, stem, "check_verb")
    if stem in ("starten", "neustart") and any(w.rsplit("-", 1)[-1] in words(Concept.RERUN_OBJECT, "de")
                                               for w in low[max(0, i - 4):i]):
        return Step(Kind.INERT, stem, "rerun")  # "den Smoke-Job erneut starten": the same run again, no new change
    infinitive = form.endswith(("en", "ern", "eln")) or form == stem
    if role == STATEMENT and not (infinitive and i == len(low) - 1):
        return Step(Kind.INERT, stem, "statement")  # a report states; only a sentence ending in the verb proposes
    if noun and form.endswith("ung") and role == STATEMENT:
        return Step(Kind.INERT, stem, "statement")
    if not infinitive and not noun and _REPORTING_END.search(form):
        return Step(Kind.INERT, stem, "statement")  # "entfernt fremde Regeln": it does, no one is told to
    return Step(Kind.CHANGE, stem, "change_noun" if noun and not infinitive else "change_verb")


def approval(sentence: str) -> bool:
    """The sentence makes the item wait for a person's approval (``Freigabe X``, ``nach Freigabe durch …``,
    ``gleiche Freigabe``), not one waived, given afterwards, by the author or by a bot."""
    low = CODE_TOKEN.sub(" ", sentence).lower()
    if not _has(low, Concept.APPROVAL) or _has(low, Concept.AFTER_THE_FACT) or same_approval(low):
        return False  # "gleiche Freigabe" points at an earlier approval: the sequence finds it, or nothing does
    if re.search(rf"\b(?:ohne|keine?n?)\s+(?:\w+\s+)?{_APPROVAL_NOUN}|"
                 rf"{_APPROVAL_NOUN}\w*\s+(?:\w+\s+)?(?:nicht|unnötig|entfällt)", low):
        return False
    giver = re.search(rf"(?:{_APPROVAL_NOUN}|sign-?off)\w*\s*(?::|durch|von|vom|des|der)?\s*([\w-]+)", low)
    return not (giver and giver.group(1) in words(Concept.NOBODY, "de"))


def guidance(sentence: str) -> bool:
    """The sentence says what the step affects or how it is undone (``Auswirkung: 10 bis 30 s pro Node``,
    ``Rückweg: unmask``); ``Auswirkung: keine`` alone is no guidance."""
    low = fold(CODE_TOKEN.sub(" ", sentence)).lower()
    if not (_has(low, Concept.IMPACT) or _has(low, Concept.ROLLBACK) or _STATED_ROLLBACK.search(low)):
        return False
    return not waves_off(sentence)


def waves_off(sentence: str) -> bool:
    """``Auswirkung: keine``, ``Risiko: keins``: impact dismissed without a reason."""
    low = CODE_TOKEN.sub(" ", sentence).lower().strip(" .")
    m = re.search(r"(?:auswirkung|risiko|impact)\w*\s*:?\s*(.*)$", low)
    rest = _WORD.findall(m.group(1)) if m else []
    return bool(m) and 0 < len(rest) <= 2 and rest[0] in words(Concept.NONE_QUANTITY, "de")


def same_approval(text: str) -> bool:
    """``gleiche Freigabe``, ``mit derselben Freigabe``: the approval given to an earlier step."""
    return re.search(rf"\b(?:gleiche[nr]?|selbe[nr]?|derselben|dieselbe)\s+{_APPROVAL_NOUN}", text.lower()) is not None
