"""When a source was degraded in the run (a tool error, timeout or missing data), the report says so."""

from __future__ import annotations

import re
from functools import lru_cache

from rcaloop.judge.facts import Facts, degraded_sources, ids, report_text
from rcaloop.judge.rules.base import Outcome, rule

LIMITATION = re.compile(
    r"\bunavailable\b|\bmissing\b|\bcould(?: not|n't)\b|\bnot available\b|\bno data\b|\bdegraded\b|\bfailed to\b|"
    r"\btimed out\b|\bincomplete\b|\bnot found\b|\b404\b|\bgap\b|\bwithout access\b",
    re.I,
)


@lru_cache(maxsize=512)
def _mentions_limits(text: str) -> bool:
    return LIMITATION.search(text) is not None


@rule("UC3", "missing_data_acknowledged", "check", __doc__, dimension="uncertainty_calibration", points=4)
def RULE(f: Facts) -> Outcome:
    degraded = degraded_sources(f.draft)
    if not degraded:
        return Outcome(True, "no degraded source in this run")
    said = _mentions_limits(report_text(f.draft))
    return Outcome(said,
                   f"degraded sources {ids(degraded)} {'acknowledged' if said else 'not mentioned'} in the report")
