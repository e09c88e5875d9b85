"""Changes that go through review: a lasting fix to a repository, not an incident-time step.

A permanent fix (a recommendation of priority ``medium`` or ``low``, as the parser files the
chat's Permanent fixes, or an item of a report's Permanent fixes section) that changes code or
configuration in a repository reaches a running system only through review and a release:
its approval is that review, and its impact is weighed there. It needs no incident-time
approval or impact note of its own (the read-only check before it is still required).

It counts as such only when it says where it changes: it carries a ``file`` (a code
citation) or names a file path or a repository artifact (a test, a lint, the CI pipeline, a
manifest, an alert rule …). And only when every change in it is authored, not run: a
command (``kubectl …``, SQL, a code span that writes), a verb that is not one of authoring
(restart, delete, drop, scale, roll back, fail over, an unknown verb …) or a running system
as its place (``on the live pods``) makes it an incident-time step again, whatever its
priority (``[low] drop the orders table`` is no permanent fix).
"""

from __future__ import annotations

import re
from functools import lru_cache

from rcaloop.judge.actions.lexicon import Kind
from rcaloop.judge.actions.prose import inflect
from rcaloop.judge.actions.text import fold

LASTING_PRIORITIES = frozenset({"medium", "low", "permanent", "long-term", "long_term", "later", "follow-up"})
"""Priorities of a lasting fix (the parser files Permanent fixes as ``medium``)."""
REPO_ARTIFACTS = frozenset({
    "test", "tests", "lint", "linter", "linting", "ci", "pipeline", "workflow", "code", "manifest", "manifests",
    "chart", "template", "dockerfile", "schema", "alert", "alerts", "alerting", "dashboard", "runbook", "docs",
    "documentation", "readme", "repo", "repository", "library", "module", "playbook", "inventory", "validation",
    "validator", "pr", "commit", "function", "handler", "loader",
})  # fmt: skip
"""Words that name something kept in a repository: a change to it goes through review."""
AUTHORING_VERBS = frozenset({
    "add", "write", "rewrite", "create", "introduce", "implement", "extend", "change", "update", "edit", "modify",
    "fix", "correct", "set", "unset", "pin", "unpin", "bump", "raise", "lower", "increase", "decrease", "make", "move",
    "rename", "refactor", "replace", "remove", "reload", "fail", "cache", "reject", "split", "tune", "adjust",
    "configure", "reconfigure", "enforce", "require", "use", "limit", "cap", "derive", "document", "handle", "guard",
    "wrap", "upgrade", "downgrade", "patch", "alert", "log", "retry",
})  # fmt: skip
"""Verbs that author a change to code or configuration (``add a lint``, ``fail fast on 403``,
``pin the chart version``). A step led by any other verb (``restart``, ``delete``, ``scale``,
``roll back``, ``fail over``, an unknown one) acts on a running system: not a reviewed change."""
_LIVE_PLACE = re.compile(r"\b(?:live|running)\s+(?:pods?|nodes?|hosts?|servers?|containers?|instances?|cluster|"
                         r"databases?|db)\b|\bon\s+(?:the\s+|every\s+|all\s+)?(?:pods?|nodes?|hosts?|servers?|"
                         r"containers?|instances?)\b", re.I)
"""A change made on a running system (``edit prod.yaml on the live pods``) is not made in review."""
_PATH = re.compile(
    r"[\w.-]+/[\w.-]+\.\w{1,8}\b|\b[\w-]+\.(?:ya?ml|json|toml|ini|conf|cfg|py|go|js|ts|rb|java|kt|sh|tf|hcl|sql|xml|"
    r"properties|env|j2|tpl|md)\b"
)


def _authoring(verb: str) -> bool:
    """``verb`` (as a reading names it: ``Add``, ``Fail``, ``Fail over``) authors a change
    (``fail`` only alone: ``fail fast on 403`` is code behaviour, ``fail over`` is not)."""
    words = verb.lower().split()
    if not words:
        return False
    lemma = inflect(words[0])[0] or words[0]
    return lemma in AUTHORING_VERBS and not (lemma == "fail" and words[1:2] in (["over"], ["back"]))


@lru_cache(maxsize=4096)
def is_reviewed_change(text: str, priority: str | None, file: str | None) -> bool:
    """A lasting fix to a repository that names where it changes and runs nothing live."""
    if (priority or "").strip().lower() not in LASTING_PRIORITIES:
        return False
    from rcaloop.judge.actions import said

    changes = [s.reading for s in said(text) if s.reading.kind == Kind.CHANGE]
    if not changes or _LIVE_PLACE.search(text) or any(
            r.why == "a command that is not read-only" or not _authoring(r.verb) for r in changes):
        return False
    if file or _PATH.search(text):
        return True
    return not REPO_ARTIFACTS.isdisjoint(re.findall(r"[a-z][a-z-]*", fold(text).lower()))
