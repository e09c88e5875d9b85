"""The rules a metrics file's provenance must meet beyond its schema (pure).

* **Window and time** — the incident window is a closed ISO-8601 interval; ``measured_at``, when
  given, is a past instant after the window closed.
* **Population** — ``population.incidents`` (an earlier ``rcaloop gate measure`` wrote
  ``harness_verdicts``) counts the incidents measured and is at least the minimum
  (``GATE_MIN_POPULATION``, default 30); each rate is a share of its population: there is a
  whole number ``k`` of its ``n`` items with ``k/n`` equal to the rate at the precision the
  rate is written with (``0.96`` within 0.005, ``0.9583`` within 0.00005). ``n`` is the rate's
  ``denominators`` entry, else any count from 1 to the incident count. A rate of 0.96 over one
  incident is no measurement: no ``k/1`` is 0.96.
* **Synthetic origin** — the file is synthetic when any text of its provenance (keys and
  values: population, job revision, artifact …) says so in a word (synthetic, fake, dummy,
  mock, simulated, fabricated, placeholder), whatever its ``synthetic`` flag says.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from fractions import Fraction
from typing import Any

from rcaloop.contracts import Issue
from rcaloop.gate.intervals import WindowError, in_future, parse_instant, parse_window
from rcaloop.gate.metrics_file import LEGACY_INCIDENTS, Written, path_text, words
from rcaloop.gate.thresholds import RATE_METRICS

SYNTHETIC_WORDS = frozenset({"synthetic", "fake", "dummy", "mock", "mocked", "simulated", "fabricated", "placeholder"})
"""A word of the provenance that says the figures were made up, not measured."""


def window_issues(provenance: dict[str, Any], now: datetime) -> tuple[list[Issue], datetime | None]:
    """The window's findings and, when it reads, its end."""
    window = provenance.get("incident_window")
    if not isinstance(window, str) or not window.strip():
        return [], None  # the schema's finding (GATE202)
    try:
        _, end = parse_window(window, now)
    except WindowError as exc:
        return [Issue(code=exc.code, message=str(exc), path="$.provenance.incident_window")], None
    return [], end


def measured_at_issues(value: Any, window_end: datetime | None, now: datetime) -> list[Issue]:
    path = "$.provenance.measured_at"
    if not isinstance(value, str):
        return []  # the schema's finding (GATE206)
    at = parse_instant(value)
    if at is None:
        return [Issue(code="GATE206",
                      message=f"provenance.measured_at {json.dumps(value)} is not an ISO-8601 date-time", path=path)]
    if in_future(at, now):
        return [Issue(code="GATE207", message=f"provenance.measured_at {at.isoformat()} is in the future", path=path)]
    if window_end is not None and at < window_end:
        return [Issue(code="GATE208", message=f"provenance.measured_at {at.isoformat()} is before the incident window "
                      f"closed ({window_end.isoformat()})", path=path)]
    return []


def incidents_of(population: dict[str, Any]) -> int:
    count = population.get("incidents", population.get(LEGACY_INCIDENTS))
    assert isinstance(count, int)  # the schema holds it
    return count


def tolerance(rate: float) -> float:
    """Half a unit of the last decimal the rate shows (``0.96`` → 0.005); an exact rate gets none."""
    places = rate.places if isinstance(rate, Written) else 0
    return 0.5 * 10.0 ** -places if places else 0.0


def consistent(rate: float, n: int) -> bool:
    """Some whole ``k`` of ``n`` items is ``rate`` at the precision it is written with."""
    k = round(rate * n)
    return n >= 1 and 0 <= k <= n and abs(k / n - rate) <= tolerance(rate) + 1e-12


def share_of_some(rate: float, n_max: int) -> bool:
    """Some population of 1 to ``n_max`` items gives ``rate`` (the closest fraction decides)."""
    if n_max < 1:
        return False
    closest = Fraction(rate).limit_denominator(n_max)
    return abs(float(closest) - rate) <= tolerance(rate) + 1e-12


def population_issues(
    population: dict[str, Any], rates: dict[str, float], min_population: int
) -> list[Issue]:
    """``population`` (schema-valid) against the minimum, and each valid rate against it."""
    path = "$.provenance.population"
    incidents = incidents_of(population)
    issues = []
    if incidents < min_population:
        issues.append(
            Issue(code="GATE211", message=f"the population counts {incidents} incident(s); a release needs at "
                            f"least {min_population} (GATE_MIN_POPULATION)", path=f"{path}.incidents"))
    stated = population.get("denominators") or {}
    for metric in RATE_METRICS if incidents else ():  # no incident: GATE211 says all there is to say
        if metric not in rates:
            continue
        rate = rates[metric]
        if metric in stated:
            n = stated[metric]
            if not consistent(rate, n):
                issues.append(Issue(code="GATE212", message=f"{metric} {rate!r} is no share of its {n} item(s) "
                                    f"(denominators.{metric}) at the precision it is written with",
                                    path=path_text([metric])))
        elif not share_of_some(rate, incidents):
            issues.append(Issue(code="GATE212", message=f"{metric} {rate!r} is no share of any population of 1 to "
                                f"{incidents} incident(s) at the precision it is written with: a rate that no count of "
                                "the measured incidents gives is not a measurement", path=path_text([metric])))
    return issues


def _texts(value: Any, path: list[str | int]) -> Iterator[tuple[str, str]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield path_text([*path, key]), key
            yield from _texts(item, [*path, key])
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _texts(item, [*path, i])
    elif isinstance(value, str):
        yield path_text(path), value


def synthetic_origin(doc: dict[str, Any]) -> list[str]:
    """Where the provenance says its figures are synthetic (JSON paths), whatever the flag says."""
    found = []
    for where, text in _texts(doc.get("provenance"), ["provenance"]):
        if words(text) & SYNTHETIC_WORDS and where not in found:
            found.append(where)
    return found
