"""Every evidence item the agent cited traces to an artifact of this run: an item whose path does not
resolve to its stated value, or an id no artifact carries, counts against (also once a repair drops it)."""

from __future__ import annotations

from rcaloop.judge.facts import Facts
from rcaloop.judge.rules.base import Hit, Outcome, rule


@rule("EG3", "no_fabricated_evidence", "check", __doc__, dimension="evidence_grounding", points=5)
def RULE(f: Facts) -> Outcome:
    bad = [c for c in f.ledger.cited if c.status == "dropped" or (c.status == "unlinked" and not c.historical)]
    names = [c.id for c in bad] + f.ledger.unknown_ids
    hits = tuple(Hit(c.origin or c.id, c.note or "does not trace") for c in bad)
    hits += tuple(Hit(i, "no artifact of this run carries this id") for i in f.ledger.unknown_ids)
    if names:
        return Outcome(False, f"untraceable cited evidence: {', '.join(names)}", hits)
    return Outcome(True, "every cited item traces")
