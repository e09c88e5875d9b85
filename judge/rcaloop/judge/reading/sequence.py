"""Which mutating steps of one place lack their guards, in the order an operator reads them.

A mutating or stopping step must come after a read-only check (in the step, or an earlier
step of the same place), with impact/rollback guidance and operator approval of its own.
Approval and guidance carry to later steps only from a standalone guard step, one that
changes nothing (``Get approval from the DB owner before any change``, the guards the harness
inserts): the approval of a rollback says nothing of the ``DROP TABLE`` after it, unless the later
step points back to it (``same approval``, ``as approved above``). A change that
goes through review (a permanent fix delivered as a merge request) has the review as its read-only
check, its approval and where its impact is weighed: it is no incident-time step (a command in it is
still read as one).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from rcaloop.judge.reading.items import ItemReading

READ_ONLY_CHECK, IMPACT, APPROVAL = "read-only check", "impact/rollback guidance", "operator approval"


@dataclass(frozen=True)
class Unguarded:
    index: int  # in the sequence given
    verb: str
    missing: tuple[str, ...]
    why: str = ""  # the reading that made the step a change (``rcaloop.judge.reading.steps.READINGS``)


def unguarded(items: Sequence[ItemReading], reviewed: Collection[int] = (), checked: bool = False,
              stated: Collection[int] = ()) -> list[Unguarded]:
    """Mutating steps, in reading order, that lack a guard (see the module's rule); ``checked``: the output
    lists read-only checks in a place of their own (Steps to verify), which come before its changes;
    ``stated``: items where statements are made (a summary, evidence, context): a guard word in them is no
    guard step, so it carries to nothing."""
    found: list[Unguarded] = []
    seen_read, carried_impact, carried_approval, approved_before = checked, False, False, False
    for i, item in enumerate(items):
        if item.prohibition:
            continue
        verb = item.verb
        if verb and i in reviewed:
            continue  # a change under review is no incident-time step: the review checks, weighs and approves it
        if verb:
            in_review = False
            guided = carried_impact or (item.impact and not (item.destructive and item.waved_off))
            checks = ((READ_ONLY_CHECK, seen_read or item.checked),
                      (IMPACT, guided or in_review),
                      (APPROVAL, carried_approval or item.approval or in_review or (
                          item.same_approval and approved_before)))
            missing = tuple(name for name, ok in checks if not ok)
            if missing:
                found.append(Unguarded(i, verb, missing, item.why))
        elif i not in stated:
            carried_impact = carried_impact or item.impact
            carried_approval = carried_approval or item.approval
        seen_read = seen_read or (item.checked and i not in stated)  # a summary or evidence line is no check
        approved_before = approved_before or item.approval
    return found
