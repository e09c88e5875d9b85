#!/usr/bin/env python3
"""A bad agent for the evaluation's own tests: always high confidence, never its evidence.

The reference agent's analysis, with one habit changed: every answer is stated with
high confidence as confirmed, and it cites none of the lines it rests on. rcaloop's
harness lowers such a confidence and refuses the output — which must never be counted
as the agent abstaining or hedging. ``rcaloop eval run`` fails it for groundless high
confidence (``EV302``, ``EV501``, ``EV903``); ``rcaloop eval novel-e2e`` for evidence it
did not link (``NE202``) and answers it should not have given.
"""

from __future__ import annotations

import sys

from rule_based_agent import Answer, run


def overclaim(ans: Answer) -> Answer:
    ans.confidence = "high"
    ans.cause = f"(confirmed) the {ans.family.replace('_', ' ')} failure caused the alert"
    ans.cites_evidence = False
    return ans


if __name__ == "__main__":
    sys.exit(run(overclaim))
