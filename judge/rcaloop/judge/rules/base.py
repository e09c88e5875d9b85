"""What a rule is: an id, the paragraph a user reads, and the function that judges the facts.

A rule judges the facts read once from an output (``rcaloop.judge.facts``), never raw text,
and says whether the output holds it, why, and on which items it fired. Gates decide the
verdict on their own; checks give their points to a dimension of the score; a rule held
``as_written`` judges the output as the agent wrote it (before any repair), and an output
that breaks it is never ``pass``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from rcaloop.judge.facts import Facts

Kind = Literal["gate", "check"]


@dataclass(frozen=True)
class Hit:
    """One item a rule fired on: where it is (``chat.now[1]``, ``E03``) and what it found there."""

    item: str
    detail: str


@dataclass(frozen=True)
class Outcome:
    passed: bool
    detail: str
    hits: tuple[Hit, ...] = field(default=())


@dataclass(frozen=True)
class Rule:
    id: str
    name: str
    kind: Kind
    doc: str
    """What the rule holds the output to, in one paragraph a user reads (docs/harness.md)."""
    judge: Callable[[Facts], Outcome]
    dimension: str | None = None
    points: int = 0
    as_written: bool = False
    """Judged on the output as the agent wrote it: failing it makes the verdict ``degraded`` even
    when a repair mends the report."""


def rule(id: str, name: str, kind: Kind, doc: str | None, *, dimension: str | None = None, points: int = 0,
         as_written: bool = False) -> Callable[[Callable[[Facts], Outcome]], Rule]:
    """Declare a rule from its judging function; ``doc`` is the module's docstring (its one paragraph)."""

    def make(judge: Callable[[Facts], Outcome]) -> Rule:
        text = " ".join((doc or "").split())
        return Rule(id, name, kind, text, judge, dimension, points, as_written)

    return make
