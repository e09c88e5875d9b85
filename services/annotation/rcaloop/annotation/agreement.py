"""Inter-annotator agreement on overlapping tasks (pure): Cohen's kappa, Krippendorff's alpha.

Both nominal. Kappa is given only when exactly two annotators labelled the overlapping
items; alpha handles any number of annotators and missing labels. A figure is ``None``
when it is undefined (fewer than two paired labels, or no variation at all).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable
from dataclasses import asdict, dataclass
from itertools import permutations
from typing import Any

Rating = tuple[str, str, Hashable]  # (item id, annotator, value)

FIELDS: dict[str, Callable[[dict[str, Any]], Hashable]] = {
    "category_correct": lambda a: a.get("category_correct"),
    "root_cause.category": lambda a: (a.get("root_cause") or {}).get("category"),
}
"""The labels whose agreement is reported, read from an annotation.json document."""


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
    coincidence: dict[tuple[Any, Any], float] = defaultdict(float)
    for values in units:
        m = len(values)
        if m < 2:
            continue
        for a, b in permutations(values, 2):
            coincidence[(a, b)] += 1 / (m - 1)
    n = sum(coincidence.values())
    if n <= 1:
        return None
    totals: dict[Any, float] = defaultdict(float)
    for (a, _b), weight in coincidence.items():
        totals[a] += weight
    observed = sum(w for (a, b), w in coincidence.items() if a != b) / n
    expected = sum(totals[a] * totals[b] for a in totals for b in totals if a != b) / (n * (n - 1))
    if expected == 0:
        return None
    return 1 - observed / expected


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


def agreement(annotations: Iterable[tuple[str, str, dict[str, Any]]]) -> list[FieldAgreement]:
    """Per field of ``FIELDS``, from (item id, annotator, annotation document) triples."""
    rows = list(annotations)
    return [field_agreement(name, [(item, who, read(doc)) for item, who, doc in rows]) for name, read in FIELDS.items()]


def agreed_items(annotations: Iterable[tuple[str, str, dict[str, Any]]]) -> set[str]:
    """Items with two or more annotations that agree on every field of ``FIELDS``."""
    values: dict[str, list[tuple[Hashable, ...]]] = defaultdict(list)
    for item, _who, doc in annotations:
        values[item].append(tuple(read(doc) for read in FIELDS.values()))
    return {item for item, labels in values.items() if len(labels) >= 2 and len(set(labels)) == 1}
