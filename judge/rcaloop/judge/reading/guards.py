"""The two guards a step states in words: operator approval, and impact or rollback guidance.

Read on the clauses of the item that proposes the change, in any phrasing:

* **approval** counts when the step is made to wait for a person's approval: a condition
  (``once the payments lead approves``, ``if the on-call approves``, ``after sign-off from …``,
  ``with approval from the infra on-call``, ``pending the DBA's OK``, ``subject to a change
  request``), a request (``get approval from …``, ``raise a change request``), or an approval
  ``from``/``by`` someone. It does not count when it is only claimed (``(approved)``,
  ``approval: granted``, ``pre-approved``, ``already approved``), ruled out (``without
  approval``, ``no approval needed``, ``approval optional``) or given by nobody (``approved by
  the pipeline``, ``approval by default``).
* **impact or rollback guidance** counts when the step says who or what it affects (``impact:
  pods restart one by one``, ``users may see 502s for a minute``, ``blast radius: one AZ``), or
  how it is undone (``rollback: re-push edge-cfg-1187``, ``to undo, revert the manifest``,
  ``the revert restores 2.5 s``, ``can be rolled back with helm rollback``). A bare dismissal
  (``impact: none``, ``no risk``) is not guidance; a dismissal with its reason is
  (``impact: none, submissions are idempotent``).

Korean reads the same way: ``운영 책임자 승인 후`` (after the lead's approval), ``영향: …``, ``롤백: …``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rcaloop.judge import lemma
from rcaloop.judge.reading.steps import DETERMINERS
from rcaloop.judge.text import Token
from rcaloop.judge.vocab import Concept, has, phrase_at, words

_WAIT = frozenset("""after once upon following pending until till when if with given require requires requiring need
needs needing only subject contingent conditional via through under on""".split())
"""Words that make what follows a condition the step waits for."""
_REQUEST = frozenset("get obtain ask request seek secure wait await have raise open file submit".split())
"""Verbs that ask for approval (``get sign-off``, ``raise a change request``)."""
_NEGATING = frozenset("""without no not never skip skipping bypass bypassing instead regardless ignore ignoring waive
waiving optional optionally before""".split())
_CLAIMED = frozenset(
    "already previously pre granted given obtained received secured done confirmed approved yes".split())
_REFUSED_AFTER = frozenset("not unnecessary optional waived".split())
"""After an approval word, these say none is needed (``approval not needed``, ``approval optional``);
``approval required`` is the guard itself."""
_FROM = frozenset({"from", "by", "of"})


def _lemmas(toks: Sequence[Token]) -> list[str]:
    return [lemma.lemma(t.text) if t.word and not t.code else t.low for t in toks]


def _approval_at(lemmas: list[str], i: int) -> int:
    """How many lemmas from ``i`` name an approval (or the process of getting one); 0 when none."""
    for concept in (Concept.APPROVAL, Concept.CHANGE_PROCESS, Concept.REVIEW_ROUTE):
        n = phrase_at(lemmas, i, concept)
        if n:
            return n
    return 0


def approval(toks: Sequence[Token]) -> bool:
    """The clause (or sentence) makes the step wait for a person's approval."""
    lemmas = _lemmas(toks)
    low = [t.low for t in toks]
    if any(t.hangul for t in toks):
        return _korean_approval(toks)
    if any(phrase_at(lemmas, i, Concept.AFTER_THE_FACT) for i in range(len(lemmas))):
        return False  # "proceed now and have it ratified retroactively at the change review"
    for i in range(len(lemmas)):
        n = _approval_at(lemmas, i)
        if not n and low[i] in ("go", "call", "decision") and i and low[i - 1].endswith(("'s", "s'", "\u2019s")):
            n = 1  # "on the incident commander's go", "release manager's call"
        if not n:
            continue
        present = toks[i].low.endswith("s") and lemma.verb(toks[i].text).form == lemma.S  # "and the lead approves"
        before = lemmas[:i] if present else lemmas[max(0, i - 10):i]
        after = low[i + n:i + n + 4]
        if any(w in _CLAIMED for w in after[:2]) or any(w in ("optional", "optionally", "unnecessary", "waived")
                                                       for w in low[i + n:i + n + 8]):
            continue  # "with approval already granted", "approval of the change is optional"
        if "not" in low[i + n:i + n + 7] and any(w in ("required", "needed", "necessary", "mandatory")
                                                 for w in low[i + n:i + n + 8]):
            continue  # "approval from the lead is not required"
        if any(w in _NEGATING for w in lemmas[max(0, i - 3):i]) or "no need" in " ".join(lemmas[max(0, i - 4):i]):
            continue
        if after[:1] and (after[0] in _REFUSED_AFTER or (after[0] in ("is", "was", ":") and any(
                w in _REFUSED_AFTER | _CLAIMED for w in after[1:3]))):
            continue
        if (low[i].startswith("pre") and lemmas[i] != "prefer") or (i and low[i - 1] in ("pre", "already", "(",
                                                                                        "previously")):
            continue  # "pre-approved", "(approved)": claimed
        by_person = after[:1] == ["by"] and not _by_nobody(low[i + n:i + n + 4]) and i > 0 and toks[i - 1].word and (
            low[i - 1] not in ("already", "was", "were", "is", "are", "been", "pre"))
        if lemmas[i] == "approve" and toks[i].low.endswith("ed") and not any(w in _WAIT for w in before[-4:]) and (
                not by_person):
            continue  # "(approved)", "the approved change": a claim; "a slot approved by the owner" is a condition
        nobody = _by_nobody(low[i + n:i + n + 4])
        if nobody:
            continue
        opening = all(not t.word for t in toks[:i]) and lemmas[i] in ("change", "cr", "rfc", "cab")
        waited = any(w in _WAIT for w in before) or any(w in _REQUEST for w in before) or opening or _stated(
            toks, low, i, n)
        sourced = bool(after) and after[0] in _FROM and not nobody
        required = bool(after) and after[0] in _REQUIRED_AFTER  # "platform on-call approval required: …"
        owned = low[i] in ("call", "decision") and i > 0  # "release manager's call": theirs to decide
        if waited or sourced or required or owned:
            return True
    return False


_NOT_A_SUBJECT = frozenset("""to please and or then must should will would can could may might not never dont don't
agent""".split())
"""Words before an approval verb that make it no approval stated by someone (``to approve``, ``I approve``)."""
_LATER = frozenset("afterwards afterward later retroactively after".split())


def self_or_nobody(words: Sequence[str]) -> bool:
    """The approver these words name is the author (``I approve``) or nobody (``the bot approves``)."""
    return any(w in ("i", "we", "me", "us") or has(Concept.NOBODY, w) or w.startswith("auto") for w in words)


def _stated(toks: Sequence[Token], low: list[str], i: int, n: int) -> bool:
    """``IC approves: remove the 96 hosts``, ``Identity owner + quota on-call approve -> …``, ``(change owner
    approves, IC agrees)``: someone named approves, in the present, as the step's condition. Not when the
    approver is the author (``I approve``) or nobody (``the bot approves``), nor afterwards."""
    verb = lemma.verb(toks[i].text)
    return bool(i and verb.verb and not low[i].endswith("ed") and toks[i - 1].word and low[i - 1] not in _NOT_A_SUBJECT
                and not self_or_nobody(low[max(0, i - 4):i])
                and not any(w in _LATER for w in low[i + n:i + n + 4]))


_SAME = frozenset({"same", "that", "this", "the above", "above", "earlier", "previous", "prior", "those"})


_REQUIRING = frozenset({"need", "needs", "require", "requires", "required", "must", "only", "subject", "pending",
                        "await", "awaiting", "wait", "waits", "gated", "conditional", "contingent"})
_REQUIRED_AFTER = frozenset({"required", "needed", "first", "beforehand", "mandatory", "necessary"})


def approval_required(toks: Sequence[Token]) -> bool:
    """The sentence states that the item's step waits for an approval (``Needs sign-off from the ui-kit owner``,
    ``thumbs-up from #db-oncall first``, ``only with the IC's OK``, ``approval required``): a requirement that
    holds for the whole item, wherever in it the sentence stands. A later step of asking (``then post for the
    owners to sign off``) is no requirement."""
    if not approval(toks):
        return False
    lemmas = _lemmas(toks)
    low = [t.low for t in toks]
    for i in range(len(lemmas)):
        n = _approval_at(lemmas, i) or (1 if low[i] in ("go", "call", "decision") and i and low[i - 1].endswith(
            ("'s", "s'")) else 0)
        if n and (any(w in _REQUIRING for w in low[max(0, i - 8):i]) or
                  any(w in _REQUIRED_AFTER for w in low[i + n:i + n + 4])):
            return True
    return False


_SAME_KO = ("같은", "동일한", "동일", "위", "앞의", "앞서", "해당")


def same_approval(toks: Sequence[Token]) -> bool:
    """``same approval``, ``with the earlier sign-off``, ``as approved above``, ``같은 승인 범위에서``: the
    step points to an approval given to an earlier step (it counts only when one was)."""
    lemmas = _lemmas(toks)
    low = [t.low for t in toks]
    ko = words(Concept.APPROVAL, "ko")
    if any(k and any(t.text.startswith(a) for a in ko) and toks[k - 1].text in _SAME_KO for k, t in enumerate(toks)):
        return True
    for i in range(len(lemmas)):
        n = _approval_at(lemmas, i)
        if n and (any(w in _SAME for w in low[max(0, i - 2):i]) or low[i + n:i + n + 1] == ["above"]):
            return True
    return False


def _by_nobody(after: list[str]) -> bool:
    """``approval by the pipeline``, ``approved by change-bot``, ``approval by default``: nobody approves."""
    if not after or after[0] not in ("by", "from"):
        return False
    rest = [w for w in after[1:] if w not in ("the", "a", "an", "its", "our")]
    return bool(rest) and any(has(Concept.NOBODY, p) for p in re.split(r"[-_.]", rest[0]) if p) or bool(
        rest) and rest[0].startswith("auto")


def dismissed(toks: Sequence[Token]) -> bool:
    """The text only dismisses (``none``, ``not needed``, ``n/a``): no guidance in it."""
    low = [t.low for t in toks if t.word]
    return bool(low) and len(low) <= 3 and (has(Concept.NONE_QUANTITY, low[0]) or low[:1] == ["not"] or
                                            low[0] in ("na", "n/a", "unnecessary", "nothing"))


def _korean_approval(toks: Sequence[Token]) -> bool:
    """``승인 후``, ``승인받은 뒤``, ``승인을 받고``, ``결재 완료 후``: waiting for an approval; ``승인 없이`` is
    not."""
    texts = [t.text for t in toks]
    for i, w in enumerate(texts):
        if not any(w.startswith(stem) for stem in words(Concept.APPROVAL, "ko")):
            continue
        near = "".join(texts[i:i + 8])
        if "없이" in near or "불필요" in near or "생략" in near:
            continue
        if any(marker in near for marker in words(Concept.CONDITION, "ko")):
            return True
    return False


_CONSEQUENCE_MODALS = frozenset({"will", "may", "might", "would", "could", "can", "'ll"})


def impact(toks: Sequence[Token]) -> bool:
    """The sentence says who or what the step affects, or how it is undone (not a bare dismissal)."""
    return consequence(toks) or (not any(t.hangul for t in toks) and rollback_plan(toks))


def waves_off(toks: Sequence[Token]) -> bool:
    """The sentence dismisses the step's impact without a reason (``impact: none``, ``no risk``)."""
    if any(t.hangul for t in toks):
        text = " ".join(t.text for t in toks)
        return any(f"{stem}" in text and ("없음" in text or "없습니다" in text) for stem in words(Concept.IMPACT, "ko"))
    lemmas = _lemmas(toks)
    for i in range(len(lemmas)):
        n = phrase_at(lemmas, i, Concept.IMPACT)
        if n and _dismissed(lemmas, i, n):
            return True
    return False


def consequence(toks: Sequence[Token]) -> bool:
    """The sentence says who or what the step affects (not a bare dismissal, not only how it is undone)."""
    if any(t.hangul for t in toks):
        return _korean_impact(toks)
    lemmas = _lemmas(toks)
    low = [t.low for t in toks]
    for i in range(len(lemmas)):
        n = phrase_at(lemmas, i, Concept.IMPACT)
        if n:
            if _dismissed(lemmas, i, n) or _describes(toks, lemmas, i):
                continue
            return True
        if _duration(low, i) and (has(Concept.CHANGE, lemmas[i + 1] if i + 1 < len(lemmas) else "") or any(
                phrase_at(lemmas, k, Concept.IMPACT) for k in range(i, min(i + 4, len(lemmas))))):
            return True  # "~2 min restart", "about 30 s of downtime"
        if has(Concept.AFFECTED, lemmas[i]) and any(w in _CONSEQUENCE_MODALS for w in low[i + 1:i + 4]) and not any(
                w in ("not", "never") for w in low[i + 1:i + 5]):
            return True  # "users may see 502s for a minute"
    return False


_UNITS = frozenset("s sec secs second seconds m min mins minute minutes h hr hrs hour hours ms".split())


def _duration(low: list[str], i: int) -> bool:
    """``low[i]`` is the unit of a duration (``2 min``, ``30 s``, ``~5m``)."""
    word = low[i]
    if word in _UNITS:
        return i > 0 and low[i - 1].lstrip("~").replace(".", "").isdigit()
    return bool(re.fullmatch(r"~?\d+(?:\.\d+)?(?:s|m|min|h|ms)", word))


def _describes(toks: Sequence[Token], lemmas: list[str], i: int) -> bool:
    """``the pods affected by the leak``: a participle describing a noun, not what the step affects."""
    t = toks[i]
    return lemmas[i] in ("affect", "disrupt", "interrupt") and lemma.verb(t.text).form == lemma.PAST and not (
        i and toks[i - 1].low in ("is", "are", "be", "been", "get", "gets", "who", "was", "were", "being"))


def _dismissed(lemmas: list[str], i: int, n: int) -> bool:
    """``impact: none``, ``no downtime``, ``zero risk``: a dismissal, unless a reason follows it."""
    before = lemmas[max(0, i - 2):i]
    after = [w for w in lemmas[i + n:i + n + 3] if w not in (":", "=", "-", "is", "be", "expected")]
    negated = any(has(Concept.NONE_QUANTITY, w) or w in _NOT for w in before) or (
        bool(after) and has(Concept.NONE_QUANTITY, after[0]))
    if not negated:
        return False
    if any(w in ("so", "therefore", "hence", "because", "since") for w in lemmas[max(0, i - 8):i]) and i >= 6:
        return False  # "etcd re-raises the alarm by itself, so this step cannot make things worse": reason first
    reason = [w for w in lemmas[i + n:] if w.isalpha() and not has(Concept.NONE_QUANTITY, w) and w not in (
        "impact", "expected", "risk", "downtime", "be", "is", "the", "a", "an", "to", "for", "customer", "user")]
    return len(reason) < 3  # "impact: none, submissions are idempotent" gives its reason


_IDENTIFIER = re.compile(r"^[\w.-]*\d[\w.-]*$|^[a-z]+[-_][\w.-]+$")
"""``cfg-2291``, ``edge-cfg-1187``, ``v2.14.0``: what a step acts on, not a verb."""
_NOT = frozenset("not never without avoid wont cant cannot doesnt dont shouldnt isnt wouldnt".split())
_PLAN_VERBS = frozenset("restore revert reset return bring put mean be take".split())


_IF_IT_FAILS = re.compile(
    r"\b(?:if|should|when) (?:it|this|that|the (?:step|change|revert|rollback|rollout|undo|upgrade|fix)|a member|a "
    r"node|anything) (?:goes wrong|fails|breaks|gets worse|misbehaves|regresses|does ?n[o']t (?:come back|help|work|"
    r"recover)|is not healthy|does not come back healthy)\b")
_UNDOES = re.compile(r"\b(?:undoes|reverts|reverses|rolls back|restores) (?:it|this|that|the (?:change|step|fix))\b")


def rollback_plan(toks: Sequence[Token]) -> bool:
    """How the step is undone: ``rollback: …``, ``to undo, …``, ``undo by …``, ``the revert restores …``,
    ``rollback is re-pushing …``, ``can be reverted with …``, ``if it gets worse, roll back``, ``if it goes wrong,
    undo the undo``, ``re-activating v112 undoes it``."""
    lemmas = _lemmas(toks)
    low = [t.low for t in toks]
    joined = " ".join(low)
    if _UNDOES.search(joined) or (_IF_IT_FAILS.search(joined) and len(low) > 6):
        return True
    for i in range(len(lemmas)):
        n = phrase_at(lemmas, i, Concept.ROLLBACK)
        if not n:
            continue
        nxt = low[i + n:i + n + 2]
        prev = low[max(0, i - 2):i]
        opens = i >= 1 and low[i - 1] in ("to", "how") and (i == 1 or not toks[i - 2].word)
        if nxt[:1] == [":"] and dismissed(toks[i + n + 1:]):
            continue  # "rollback: not needed" plans nothing
        commanded = (i == 0 or not toks[i - 1].word or has(Concept.FILLER, low[i - 1])) and i + n < len(toks) and (
            toks[i + n].code or toks[i + n].low in DETERMINERS or _IDENTIFIER.match(toks[i + n].text))
        if commanded and not any(w in ("if", "should", "when", "whenever") for w in low[:i]):
            continue  # "roll back `cfg-2291` now" is the change itself, not how it is undone
        if nxt and (nxt[0].startswith("\x1a") or toks[i + n].code):
            return True  # "undo `helm rollback auth-gateway 42`"
        if low[max(0, i - 2):i] in (["nothing", "to"], ["no", "need"]) or low[max(0, i - 2):i] == ["needs", "no"]:
            return True  # "nothing to roll back on our side": the undo plan is that none is needed
        if lemmas[i] in ("reversible", "restorable", "revertible", "undoable", "recoverable"):
            return True
        if (nxt and nxt[0] in (":", "=", "by", "with", "via", "path", "plan", "step", "command", "procedure")) or (
                opens or prev[-2:] == ["can", "be"] or prev[-1:] == ["be"]):
            return True
        if nxt and (nxt[0] in ("is", "are", "restores", "reverts", "returns", "brings", "puts", "means", "takes")
                    or lemma.verb(toks[i + n].text).form == lemma.S and i + n < len(toks)):
            return True  # "rollback restores 50", "the revert is a re-push of edge-cfg-1187"
        if prev and prev[-1] in ("the", "a", "our", "its") and nxt and lemma.verb(toks[i + n].text).verb:
            return True
    return False


def _korean_impact(toks: Sequence[Token]) -> bool:
    text = " ".join(t.text for t in toks)
    for stem in words(Concept.IMPACT, "ko") | words(Concept.ROLLBACK, "ko"):
        at = text.find(stem)
        if at < 0:
            continue
        rest = text[at + len(stem):at + len(stem) + 12]
        if any(w in rest[:4] for w in ("없음", "없다", "없습니다")) and len(text[at:].split()) < 4:
            continue  # "영향: 없음" alone dismisses
        return True
    return False
