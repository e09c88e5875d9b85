"""The confidence the agent states matches its evidence, as written: medium needs live support of the
root cause; high needs two independent source groups or a confirmed signature; an output that states
no readable confidence is held to what high needs. When the harness has to lower the confidence, the
repaired report is safe to read but the output as written overclaimed, so it is never ``pass``."""

from __future__ import annotations

from rcaloop.judge.facts import Facts, ids
from rcaloop.judge.rules.base import Outcome, rule


@rule("UC2", "confidence_matches_evidence", "check", __doc__, dimension="uncertainty_calibration", points=6,
      as_written=True)
def RULE(f: Facts) -> Outcome:
    stated = f.stated
    if stated == "low":
        return Outcome(True, "low confidence never overclaims")
    supported = bool(f.root and f.root.supports)
    if f.no_cause and stated != "high":
        return Outcome(True, f"no cause is named, and confidence is {stated or 'not stated'}")
    if stated == "medium":
        return Outcome(supported, "medium confidence with live support" if supported
                       else "medium confidence, but no live evidence supports the root cause")
    ok = len(f.root_groups) >= 2 or bool(f.signature)
    said = "high confidence" if stated == "high" else "no readable confidence (held to what high needs)"
    return Outcome(ok, f"{said} with root-cause evidence {ids(f.root_live)} from "
                       f"{len(f.root_groups)} independent source group(s)")
