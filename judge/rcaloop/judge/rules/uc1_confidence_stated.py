"""A confidence (high / medium / low) is stated in a form the contract reads."""

from __future__ import annotations

from rcaloop.judge.facts import Facts
from rcaloop.judge.rules.base import Outcome, rule


@rule("UC1", "confidence_stated", "check", __doc__, dimension="uncertainty_calibration", points=5)
def RULE(f: Facts) -> Outcome:
    return Outcome(f.stated is not None, f"confidence: {f.stated or 'not stated'}")
