"""Which catalog family a root cause is about, and which of its grounds show that family's signatures.

The family catalog (``rcaloop.contracts.catalog``) is data: what supports or refutes each root-cause
family. A root cause is about the family the output names (a capture's family or category, by the
catalog's name or one of its aliases); when it names none the catalog knows, about the families whose
supporting signatures its own statement shows (``… was OOMKilled``). A ground — live evidence tied to
the root cause or corroborating it, never the failure being explained — confirms the cause when its text
shows a supporting signature of that family and no refuting one: a confirmed signature (gate G1).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rcaloop.contracts.catalog import FamilyCatalog
from rcaloop.judge.evidence import Evidence
from rcaloop.shared import signatures
from rcaloop.shared.catalog import bundled_catalog


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.strip().lower()).strip("_")


def of_cause(catalog: FamilyCatalog, named: str | None, statement: str) -> list[str]:
    """The catalog families the root cause is about: the one named, else those its statement shows."""
    if found := known(catalog, named):
        return found
    return sorted({m.family for m in signatures.match(catalog, statement) if m.stance == "supports"})


def known(catalog: FamilyCatalog, named: str | None) -> list[str]:
    """The catalog family the output names (by name or alias); empty when the catalog does not know it."""
    if not named:
        return []
    key = _key(named)
    return [f.name for f in catalog.families if key == f.name or key in f.aliases][:1]


def confirming(catalog: FamilyCatalog, families: list[str], grounds: Iterable[Evidence]) -> list[tuple[str, str]]:
    """``(evidence id, signature)`` for each live ground (no symptom) showing a supporting signature of one of
    ``families`` and no refuting signature of it."""
    if not families:
        return []
    out = []
    for ev in grounds:
        if not ev.live or ev.item.symptom:
            continue
        shown = signatures.match(catalog, f"{ev.item.title}\n{ev.item.text}")
        for family in families:
            if any(m.family == family and m.stance == "refutes" for m in shown):
                continue
            hit = next((m for m in shown if m.family == family and m.stance == "supports"), None)
            if hit is not None:
                out.append((ev.id, f"{family} {hit.signature}"))
                break
    return out


def default() -> FamilyCatalog:
    """The bundled catalog: what the judge reads when the caller holds no active catalog."""
    return bundled_catalog()
