"""The two guards a step states in words: operator approval and impact/rollback guidance.

Approval counts only when the step is made to wait for it: ``after approval from …``,
``once the on-call lead approves``, ``get sign-off from …``, ``raise a change request``.
A claim that approval exists (``(approved)``, ``approval: granted``, ``pre-approved``)
and an approval ruled out (``without approval``, ``no approval needed``) do not count.
Impact/rollback guidance counts when it says who or what is affected or how to undo the
step; a dismissal (``impact: none``, ``no risk``, ``zero-downtime``, ``no customer impact``,
``this will not impact users``) does not. Nor does an approval made optional (``approval of
the change is optional``) or given by nobody (``approval by default``, ``by the pipeline``).
"""

from __future__ import annotations

import re

_APPROVAL_NOUN = (r"(?:approvals?|sign[- ]?off|go[- ]ahead|green[- ]light|consent|authori[sz]ation|permission|"
                  r"buy[- ]in|"
                  r"the ok|an ok|their ok|explicit ok|okay)")
_WHO = r"(?:[\w'.@-]+\s+){0,5}?"
_NOBODY = (r"(?:default|design|itself|themselves|nobody|none|no\s+one|auto\w*|the\s+(?:bot|pipeline|system)|"
           r"(?:bot|ci|pipeline|automation|script|system|agent)\b)")
"""Who approves when nobody does: ``approval by default``, ``approval by the pipeline``."""
_CONDITIONED = re.compile(
    rf"\b(?:after|once|upon|on|following|pending|subject to|contingent (?:on|upon)|conditional on|only with|with|given|"
    rf"until|requires?|requiring|needs?|needing)\s+{_WHO}{_APPROVAL_NOUN}"
    rf"|\b(?:get|gets|getting|obtain|obtaining|ask(?:ing)? for|request(?:ing)?|seek(?:ing)?|secure|securing|"
    rf"wait(?:ing)? for|await(?:ing)?|have|having)\s+{_WHO}{_APPROVAL_NOUN}"
    rf"|\b{_APPROVAL_NOUN}\s+(?:from|by|of)\s+(?:the\s+|an?\s+)?(?!{_NOBODY})[\w'-]+"
    rf"|\b(?:after|once|when|if|until|only if|only after|as soon as)\s+{_WHO}"
    rf"(?:approves?|approved|has approved|have approved|signs? off|signed off|has signed off|gives? (?:the )?"
    rf"(?:go[- ]ahead|ok|okay|approval)|okays|authori[sz]es|authori[sz]ed|agrees?|confirms? (?:it|the change))"
    rf"|\b(?:raise|raising|open|opening|file|filing|submit|submitting|create|get|via|through|with)\s+"
    rf"(?:a|an|the)?\s*(?:approved\s+|reviewed\s+|standard\s+|normal\s+|emergency\s+)?"
    rf"(?:change request|change ticket|change record|change approval|cr|rfc|change management|change process|"
    rf"cab|pull request|merge request|pr|mr|reviewed change|code review)\b"
    rf"|\b(?:after|once|following) (?:code )?review\b|\bonce reviewed\b|\bafter it is reviewed\b",
    re.I,
)
_CLAIMED = re.compile(r"^\W*(?:already|previously|was|were|is|has been|have been|pre-?|granted|given|obtained|received|"
                      r"secured|in hand|in place|done|ok|confirmed|: ?(?:granted|yes|given|done|ok|obtained))\b", re.I)
_NEGATED_BEFORE = re.compile(r"\b(?:without|no|not|never|skip(?:ping)?|bypass(?:ing)?|don't|dont|doesn't|instead of|"
                             r"rather than|regardless of|before|ignore|ignoring|waive|waiving|no need (?:for|to)|"
                             r"optional(?:ly)?|if (?:needed|desired|possible|you (?:want|like|wish))|"
                             r"(?:can|may) (?:also )?skip)\b"
                             r"[\w\s'-]{0,24}$", re.I)
_NEGATED_AFTER = re.compile(r"^[\w\s'-]{0,20}[(:,]?\s*\b(?:not|isn't|is not|unnecessary|not needed|not required|"
                            r"waived|optional|not mandatory|nice to have|if (?:needed|desired|possible|you (?:want|like)))"
                            r"\b", re.I)


def _counts(text: str, m: re.Match) -> bool:
    before = text[max(0, m.start() - 32):m.start()]
    after = text[m.end():m.end() + 28]
    if _NEGATED_BEFORE.search(before) or _NEGATED_AFTER.match(after):
        return False
    opener = m.group(0).split()[0].lower()
    return not (opener in ("with", "given", "have", "having") and _CLAIMED.match(after))


_MAY_APPROVE = re.compile(r"approv|sign|go[- ]ahead|green|consent|authori|permission|buy|\bok|change|\bcr\b|rfc|"
                          r"\bcab\b|review|request|\bpr\b|\bmr\b", re.I)


def approval(text: str) -> bool:
    """The step waits for operator approval (stated as a condition, not as a claim)."""
    return bool(_MAY_APPROVE.search(text)) and any(_counts(text, m) for m in _CONDITIONED.finditer(text))


_IMPACT: tuple[tuple[str, re.Pattern], ...] = tuple((literal, re.compile(pattern, re.I)) for literal, pattern in (
    ("impact", r"\bimpacts?\b|\b(?:is|are|be|been)\s+impacted\b|"
               r"\b(?:will|may|might|would|could|can)\s+(?:\w+\s+)?impact\b"),
    ("affect", r"\b(?:is|are|be|been)\s+affected\b|\bwho is affected\b|\baffects\b|"
               r"\b(?:will|may|might|would|could|can)\s+(?:\w+\s+)?affect\b"),
    ("disrupt", r"\b(?:will|may|might|would|could|can)\s+(?:\w+\s+)?disrupt\b|\bdisruption\b"),
    ("interrupt", r"\b(?:will|may|might|would|could|can)\s+(?:\w+\s+)?interrupt\b|\binterruption\b"),
    ("blast", r"\bblast[- ]radius\b"), ("downtime", r"\bdowntime\b"), ("outage", r"\boutages?\b"),
    ("side", r"\bside[- ]effects?\b"), ("risk", r"\brisks?\b"), ("degradation", r"\bdegradation\b"),
    ("once", r"\bfails? once\b"),
    *((f"{modal} ", rf"\b(?:users?|customers?|clients?|traffic|requests|jobs|deploys|pods|connections|webhooks|"
                    rf"queries|writes)\b[^.;]{{0,30}}\b{modal}\s+(?:see|get|fail|drop|lose|queue|retry|error|be\s+"
                    rf"(?:dropped|interrupted|affected|unavailable|slow|delayed|retried|queued|lost))\b")
      for modal in ("will", "may", "might", "would", "could")),
    ("undo", r"(?:^|[.;:(]\s*)to undo\b|\b(?:how|plan|steps?|way) to undo\b|\bundo (?:by|with|via|plan|step|path)\b|"
             r"\bundo\s*:|\bcan be undone\b"),
    ("roll", r"(?:^|[.;:(]\s*)to roll ?back\b|\b(?:how|plan|steps?|way) to roll ?back\b|\bcan be rolled back\b|"
             r"\broll ?back (?:plan|path|by|with|via)\b|"
             r"\brollback (?:plan|path|step|procedure|note|command|strategy)\b|"
             r"\brollback\s*:|\brollback restores\b"),
    ("revert", r"(?:^|[.;:(]\s*)to revert\b|\b(?:how|plan|steps?|way) to revert\b|\bcan be reverted\b|"
               r"\brevert(?:ing)? (?:by|with|via)\b"),
    ("restored", r"\bcan be restored\b"), ("back", r"\bback-?out plan\b|\bback(?:ing)? up\b"),
    ("fallback", r"\bfallback\b"), ("recovery", r"\brecovery (?:plan|time)\b"),
    ("backup", r"\b(?:take|taking|make|making) (?:a )?backup\b"),
    ("snapshot", r"\b(?:take|taking|make|making) (?:a )?snapshot\b"),
))
"""Impact (who or what is affected, the blast radius, downtime) or how to undo the step: each
pattern runs only when its literal is in the text."""
_DISMISSED_BEFORE = re.compile(r"\b(?:no|zero|without|minimal|negligible|ignore|ignoring|skip|nil|low|little|avoid|"
                               r"avoiding|prevent|preventing|not|never|won't|wont|doesn't|don't|shouldn't|cannot|"
                               r"can't|non)[\s-]+(?:(?:any|real|customer|user|users'?|user-facing|visible|service|"
                               r"expected|noticeable|production|prod)[\s-]+){0,2}$", re.I)
_DISMISSED_AFTER = re.compile(r"^\s*[:=-]?\s*(?:none|nil|n/?a|no|zero|minimal|negligible|low|nothing|free|unlikely|"
                              r"not expected|-)\b", re.I)


_NEGATED = re.compile(r"\b(?:not|never|won't|wont|cannot|can't|shouldn't|doesn't)\b", re.I)
"""A modal phrase that denies the impact it names: ``will not impact users``."""


def impact(text: str) -> bool:
    """The step says what it affects or how to undo it (a bare ``impact: none`` is not guidance)."""
    low = text.lower()
    for literal, pattern in _IMPACT:
        if literal not in low:
            continue
        for m in pattern.finditer(text):
            if _DISMISSED_BEFORE.search(text[max(0, m.start() - 40):m.start()]) or _NEGATED.search(m.group(0)):
                continue
            if _DISMISSED_AFTER.match(text[m.end():m.end() + 16]):
                continue
            return True
    return False
