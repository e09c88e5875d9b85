"""A generic status alert (not ready / waiting / replicas missing / rollout / crash loop, with no error,
denial, OOM kill, image-pull failure or HTTP error status of its own) may not name a specific
root-cause family (a capture's family, a category other than unknown, or a skill report's Cause
unless it says the cause is unknown) without at least one live observation of the alert's own
target that supports the root cause. The alert is read for what it reports (a failed task's outcome,
not its name; names and label keys are not status words) and for its targets (workload kind and name,
pod, labels, an Argo Rollout) and their namespace. The observation must name the target (in its
text, or in its title when its text names no other workload) and not place it in another namespace,
must not restate the alert, and, when the family is one the catalog
knows, must show a supporting signature of that family and no refuting one (an OOM kill, a bare
``Pending`` or a status line verifies no image-pull failure)."""

from __future__ import annotations

from rcaloop.judge.draft import STATED_CAUSE
from rcaloop.judge.facts import Facts, ids
from rcaloop.judge.rules.base import Outcome, rule


@rule("G4", "generic_alert_family", "gate", __doc__)
def RULE(f: Facts) -> Outcome:
    if not f.alert_status:
        return Outcome(True, "the alert is not a generic status alert")
    if not f.family:
        return Outcome(True, f"generic status alert ({f.alert_status!r}) and no specific family is named")
    named = "a specific cause" if f.family == STATED_CAUSE else f"family {f.family!r}"
    if f.target_verified:
        return Outcome(True, f"{named} backed by target-verified observation {', '.join(f.target_verified)}")
    return Outcome(False, f"generic status alert ({f.alert_status!r}) names {named} without a live observation of "
                          f"the alert's own target supporting it (root-cause evidence: {ids(f.root_live)})")
