"""Who a bearer token names and what its role lets them do.

Roles, each allowed everything the one before it is:

* ``reviewer`` — claims review tasks and submits annotations and evaluations for the tasks it
  holds a lease on (an incident's evaluation too: only with a lease on its task);
* ``operator`` — also evaluates any incident from its view, without a lease;
* ``lead`` — also adjudicates disputed tasks and reads the agreement figures.

Tokens come from the settings ``RCALOOP_ANNOTATOR_TOKENS`` (reviewers; ``alice:tok1,bob:tok2``),
``RCALOOP_OPERATOR_TOKENS`` and ``RCALOOP_LEAD_TOKENS``, or from the store (``rcaloop annotation
token create NAME --role ROLE``, reviewer by default). The shared token mechanism
(``rcaloop.shared.tokens``): only SHA-256 digests are kept, compared in constant time; a
malformed or weak entry stops the service at start; a token is never logged or echoed. No
token configured → every request is refused (unless the store holds tokens).
"""

from __future__ import annotations

from dataclasses import dataclass

from rcaloop.shared.tokens import NAME as ANNOTATOR_NAME
from rcaloop.shared.tokens import TokenConfigError, Tokens

SETTING = "RCALOOP_ANNOTATOR_TOKENS"
ROLES = ("reviewer", "operator", "lead")
DEFAULT_ROLE = "reviewer"
ROLE_SETTINGS = {"reviewer": SETTING, "operator": "RCALOOP_OPERATOR_TOKENS", "lead": "RCALOOP_LEAD_TOKENS"}
GRANTS: dict[str, frozenset[str]] = {
    "reviewer": frozenset({"annotator"}),
    "operator": frozenset({"annotator", "operator"}),
    "lead": frozenset({"annotator", "operator", "lead"}),
}
"""What each role may do, as the names routes require (``annotator`` is every signed-in reviewer)."""

__all__ = ["ANNOTATOR_NAME", "Annotators", "Identity", "TokenConfigError"]


class Annotators(Tokens):
    @classmethod
    def parse(cls, spec: str | None, setting: str = SETTING) -> Annotators:
        return super().parse(spec, setting)  # type: ignore[return-value]


@dataclass(frozen=True)
class Identity:
    """A signed-in reviewer: the name a token gives and the role bound to that token."""

    name: str
    role: str = DEFAULT_ROLE

    @property
    def grants(self) -> frozenset[str]:
        return GRANTS.get(self.role, GRANTS[DEFAULT_ROLE])

    def may(self, grant: str) -> bool:
        return grant in self.grants
