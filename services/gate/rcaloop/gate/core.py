"""Pure gate logic (walking-skeleton version; the gate issue replaces it)."""

from __future__ import annotations

from rcaloop.contracts import KnowledgeEvent

MATERIAL_CHANGES = ("approved", "activated")


def requires_gate_rerun(event: KnowledgeEvent) -> bool:
    """Any material knowledge-package change re-runs the release gate (SPEC §7)."""
    return event.kind in MATERIAL_CHANGES
