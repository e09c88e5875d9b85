"""Korean steps: a word is a stem and its endings, so a step is read word by word.

``파드를 재시작하세요`` (restart the pods) is a change: the word starts with a change stem
(``재시작``) and its ending proposes (``하세요``). ``재시작했다`` (restarted) reports, ``재시작하지
마세요`` (do not restart) forbids, ``로그를 확인하세요`` (check the logs) checks. A change stem
with no ending that reports or forbids is a step to take (fail closed: ``삭제하고 다시 배포``
deletes and redeploys). Commands in code spans are read as shell, as in English.
"""

from __future__ import annotations

from rcaloop.judge.reading.steps import ACTION, CHECK_ROLE, STATEMENT, Clause, Kind, Step, commands_of
from rcaloop.judge.text import tokenize
from rcaloop.judge.vocab import Concept, words


def has_hangul(text: str) -> bool:
    return any("\uac00" <= ch <= "\ud7a3" for ch in text)


def _stem(word: str, concept: Concept) -> str | None:
    """The concept's stem this word starts with (the longest)."""
    found = [s for s in words(concept, "ko") if word.startswith(s)]
    return max(found, key=len) if found else None


def _ends(rest: str, concept: Concept) -> bool:
    return any(e.replace(" ", "") in rest for e in words(concept, "ko"))


def read(text: str, role: str = ACTION, spans: tuple[str, ...] = ()) -> list[Step]:
    """The steps of a Korean sentence (with any commands in it), in the order they would happen:
    a step written before ``전에`` (``재시작 전에 로그를 확인`` — check the logs before restarting)
    comes after the step that follows it."""
    toks = tokenize(text)
    if _forbids(text):  # "RDS 재시작이나 인스턴스 증설 금지", "노드에서 `date -s`로 바꾸지 말 것"
        return [Step(Kind.INERT, why="prohibition")]
    out: list[Step] = []
    cmd = commands_of(Clause(tuple(toks), text, spans), role)
    if (cmd is not None and cmd.writes and role == STATEMENT
            and not _ends(text.rstrip(" .")[-8:], Concept.COMMAND_ENDING)):
        cmd = None  # a command quoted in a statement ("kubectl `-o wide`로 확인된 노드"): what ran, not a step
    if cmd is not None and cmd.writes and not cmd.known and role == CHECK_ROLE:
        cmd = None  # where checks are listed, a program rcaloop does not know is what the check runs
    if cmd is not None:
        out.append(Step(Kind.CHANGE if cmd.writes else Kind.CHECK, cmd.verb,
                        "command_writes" if cmd.writes else "command_reads"))
    joined = [t.text for t in toks]
    held: Step | None = None
    for i, word in enumerate(joined):
        step, before = _word(word, joined[i + 1] if i + 1 < len(joined) else "", role)
        if step is None:
            continue
        if before:
            held = step
            continue
        out.append(step)
        if held is not None:
            out.append(held)
            held = None
    if held is not None:
        out.append(held)
    if not out:
        out.append(Step(Kind.CHECK, why="check_noun") if role == CHECK_ROLE else Step(Kind.INERT))
    return out


def _forbids(text: str) -> bool:
    """The sentence ends in a prohibition (``… 금지``, ``… 말 것``, ``… 하지 마세요``): it forbids all it names."""
    tail = text.rstrip(" .。)!").replace(" ", "")[-8:]
    return any(e.replace(" ", "") in tail for e in words(Concept.PROHIBITION, "ko"))


def _word(word: str, nxt: str, role: str) -> tuple[Step | None, bool]:
    """(the step one word names, whether it is written before ``전에``); ``nxt`` is the next word."""
    if not has_hangul(word):
        return None, False
    change = _stem(word, Concept.CHANGE)
    check = _stem(word, Concept.CHECK) or _stem(word.removeprefix("재"), Concept.CHECK)  # "재확인": a check again
    if check and not _stem(word, Concept.CHECK):
        check = "재" + check
    stem = max((s for s in (change, check) if s), key=len, default=None)
    if stem is None:
        return None, False
    own = word[len(stem):]
    rest = own + nxt
    if own.startswith(("되", "될", "된", "돼")):
        return Step(Kind.INERT, stem, "statement"), False  # "Splunk가 복구되면": the system recovers, no one acts
    if own.startswith(("없", "여부")) or nxt.startswith(("없", "여부")) or "수없" in rest.replace(" ", "")[:8] or (
            own.startswith(("할", "될")) and nxt.strip() == "수") or (
            own.startswith(("하는", "할")) and nxt.startswith(("방법", "것", "경우", "방안", "작업"))):
        # "재시작 없음" (no restart), "반영 여부" (whether applied), "복구할 수 없는" (cannot be recovered),
        # "제거하는 방법은 …" (the way of removing …): the step is named, not proposed
        return Step(Kind.INERT, stem, "statement"), False  # "재시작 없음" (no restart), "반영 여부" (whether applied)
    if (not own.strip("을를이가은는도와과") and role in (CHECK_ROLE, STATEMENT)
            and not _ends(nxt[:6], Concept.IMPERATIVE)):
        return Step(Kind.CHECK if stem == check else Kind.INERT, stem, "statement"), False  # "적용 규칙": a noun
    if own in ("이", "가", "은", "는") and not _ends(nxt[:6], Concept.IMPERATIVE):
        return Step(Kind.INERT, stem, "statement"), False  # "교체가 안전하다": the subject of a statement
    is_check = stem == check and stem != change
    if _ends(rest[:8], Concept.PROHIBITION):
        return Step(Kind.INERT, stem, "prohibition"), False
    if _ends(rest[:6], Concept.PAST_TIME) and not _ends(rest[:4], Concept.IMPERATIVE):
        return Step(Kind.INERT, stem, "report"), False
    if rest.lstrip("을를이가은는").startswith(("후", "뒤", "다음")):
        return Step(Kind.INERT, stem, "statement"), False  # "적용 후 …": after a step named earlier
    before = rest.lstrip("을를이가은는").startswith("전")
    if is_check:
        return Step(Kind.CHECK, stem, "check_verb"), before
    if role == STATEMENT and not _ends(rest[:8], Concept.COMMAND_ENDING):
        return Step(Kind.INERT, stem, "statement"), False
    return Step(Kind.CHANGE, stem, "change_verb"), before
