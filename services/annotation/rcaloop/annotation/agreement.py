"""Inter-annotator agreement on overlapping tasks (pure): Cohen's kappa, Krippendorff's alpha.

Both nominal, per judgement the reviewers of a task must agree on (``adjudication.JUDGEMENTS``).
Kappa is given only when exactly two annotators labelled the overlapping items; alpha (the
``krippendorff`` library) handles any number of annotators and missing labels. A figure is
``None`` when it is undefined (fewer than two paired labels, or no variation at all).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable
from dataclasses import asdict, dataclass
from typing import Any

import krippendorff
import numpy as np

from rcaloop.annotation.adjudication import JUDGEMENTS

Rating = tuple[str, str, Hashable]  # (item id, annotator, value)


@dataclass(frozen=True)
class FieldAgreement:
    field: str
    items: int
    annotators: int
    pairs: int
    observed_agreement: float | None
    cohen_kappa: float | None
    krippendorff_alpha: float | None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _by_item(ratings: Iterable[Rating]) -> dict[str, dict[str, Hashable]]:
    items: dict[str, dict[str, Hashable]] = defaultdict(dict)
    for item, annotator, value in ratings:
        if value is not None:
            items[item][annotator] = value
    return {k: v for k, v in items.items() if len(v) >= 2}


def cohen_kappa(pairs: list[tuple[Hashable, Hashable]]) -> float | None:
    if not pairs:
        return None
    n = len(pairs)
    p_o = sum(a == b for a, b in pairs) / n
    first, second = Counter(a for a, _ in pairs), Counter(b for _, b in pairs)
    p_e = sum(first[c] * second[c] for c in first) / (n * n)
    if p_e == 1:
        return None
    return (p_o - p_e) / (1 - p_e)


def krippendorff_alpha(units: list[list[Hashable]]) -> float | None:
    """Nominal alpha from the values each unit received (units with < 2 values ignored)."""
    units = [u for u in units if len(u) >= 2]
    domain = sorted({v for u in units for v in u}, key=repr)
    if len(domain) < 2:
        return None  # no variation at all: agreement is undefined, not perfect
    code = {v: float(i) for i, v in enumerate(domain)}
    width = max(len(u) for u in units)
    data = np.full((width, len(units)), np.nan)  # one row per rating slot, one column per unit
    for col, values in enumerate(units):
        data[: len(values), col] = [code[v] for v in values]
    try:
        return float(krippendorff.alpha(reliability_data=data, level_of_measurement="nominal"))
    except ValueError:  # too few pairable values for the library: undefined
        return None


def field_agreement(field: str, ratings: Iterable[Rating]) -> FieldAgreement:
    items = _by_item(ratings)
    annotators = sorted({a for labels in items.values() for a in labels})
    pairs_total = agree = 0
    for labels in items.values():
        values = list(labels.values())
        for i in range(len(values)):
            for j in range(i + 1, len(values)):
                pairs_total += 1
                agree += values[i] == values[j]
    kappa = None
    if len(annotators) == 2:
        a, b = annotators
        kappa = cohen_kappa([(labels[a], labels[b]) for labels in items.values()])
    alpha = krippendorff_alpha([list(labels.values()) for labels in items.values()])
    return FieldAgreement(
        field=field,
        items=len(items),
        annotators=len(annotators),
        pairs=pairs_total,
        observed_agreement=round(agree / pairs_total, 4) if pairs_total else None,
        cohen_kappa=None if kappa is None else round(kappa, 4),
        krippendorff_alpha=None if alpha is None else round(alpha, 4),
    )


def agreement(reviews: Iterable[tuple[str, str, dict[str, Any]]], kind: str = "annotation") -> list[FieldAgreement]:
    """Per judgement of ``kind``, from (item id, annotator, review document) triples."""
    rows = list(reviews)
    return [field_agreement(j.name, [(item, who, j.read(doc)) for item, who, doc in rows]) for j in JUDGEMENTS[kind]]


def agreed_items(reviews: Iterable[tuple[str, str, dict[str, Any]]], kind: str = "annotation") -> set[str]:
    """Items with two or more reviews that agree on every judgement of ``kind``."""
    values: dict[str, list[tuple[Hashable, ...]]] = defaultdict(list)
    for item, _who, doc in reviews:
        values[item].append(tuple(j.read(doc) for j in JUDGEMENTS[kind]))
    return {item for item, labels in values.items() if len(labels) >= 2 and len(set(labels)) == 1}
