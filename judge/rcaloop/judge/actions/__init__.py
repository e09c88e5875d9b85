"""What a proposed action line says, and which mutating steps lack their guards.

One vocabulary for the harness (hard gate 3 and its repair) and the gate (the eval's
"destructive action without guardrail" check): ``rcaloop.judge.reading.items`` reads a step,
``rcaloop.judge.reading.sequence`` finds the unguarded ones; the shell commands in a step are
read by ``commands``, ``sql`` and ``tools`` here. Pure.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache

from rcaloop.judge.reading import items, sequence
from rcaloop.judge.reading.items import MAX_ACTION_CHARS
from rcaloop.judge.reading.sequence import Unguarded
from rcaloop.judge.reading.steps import ACTION

__all__ = ["MAX_ACTION_CHARS", "Step", "Unguarded", "classify", "is_prohibition", "unguarded"]


@dataclass(frozen=True)
class Step:
    """What one action line says: its first mutating verb and which guards it carries."""

    verb: str | None  # the first mutating or stopping action, as written (``restart``, ``kubectl set image``)
    read_only_before: bool  # a read-only check before the verb (or anywhere, without a verb)
    impact: bool  # impact/rollback guidance
    approval: bool  # the step waits for operator approval
    why: str = ""  # the reading that made it a change (``rcaloop.judge.reading.steps.READINGS``)


@lru_cache(maxsize=8192)
def classify(text: str, role: str = ACTION) -> Step:
    r = items.read(text, role)
    return Step(r.verb, r.checked, r.impact, r.approval, r.why)


def is_prohibition(text: str) -> bool:
    """``Do not …``, ``Never …``: forbids an action and proposes none."""
    return items.read(text).prohibition


def unguarded(texts: Sequence[str], reviewed: Collection[int] = ()) -> list[Unguarded]:
    """Mutating steps among ``texts`` (one place, in reading order) that lack a guard."""
    return sequence.unguarded([items.read(t) for t in texts], reviewed)
