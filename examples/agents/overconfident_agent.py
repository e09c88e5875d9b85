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

import re
import sys

from rule_based_agent import Answer, run

QUALIFIER = re.compile(r"^\([^)]*\)\s*")
QUOTES = re.compile(r"\s*\((?:`[^`]*`(?:;\s*)?)+\)")


def overclaim(ans: Answer) -> Answer:
    """The same causal chain, stated as confirmed, with the quoted evidence taken out."""
    ans.confidence = "high"
    ans.cause = "(confirmed) " + QUOTES.sub("", QUALIFIER.sub("", ans.cause))
    ans.cites_evidence = False
    return ans


if __name__ == "__main__":
    sys.exit(run(overclaim))
