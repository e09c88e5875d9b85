"""A confidence (high / medium / low) is stated in a form the contract reads. An output whose confidence cannot be
read (``confidence: certain``) is held to what high confidence needs, and is never ``pass``."""

from __future__ import annotations

from rcaloop.judge.facts import Facts
from rcaloop.judge.rules.base import Outcome, rule


@rule("UC1", "confidence_stated", "check", __doc__, dimension="uncertainty_calibration", points=5, as_written=True)
def RULE(f: Facts) -> Outcome:
    if f.stated is None and f.draft.early_exit:
        return Outcome(True, "an early exit carries no fields block: it states no confidence")
    return Outcome(f.stated is not None, f"confidence: {f.stated or 'not stated'}")
