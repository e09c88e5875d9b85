"""The labelled harness fixtures (``tests/fixtures/harness/cases/*.json``)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from rcaloop.contracts import ParsedRCA
from rcaloop.judge.config import HarnessConfig

CASES_DIR = Path(__file__).resolve().parents[2] / "fixtures" / "harness" / "cases"


@dataclass(frozen=True)
class Case:
    name: str
    label: str
    description: str
    expected: dict
    config: HarnessConfig
    parsed: ParsedRCA


@cache
def all_cases() -> tuple[Case, ...]:
    out = []
    for path in sorted(CASES_DIR.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        out.append(
            Case(
                name=path.stem,
                label=doc["label"],
                description=doc["description"],
                expected=doc["expected"],
                config=HarnessConfig(**doc.get("config", {})),
                parsed=ParsedRCA.model_validate(doc["parsed"]),
            )
        )
    return tuple(out)


def case(name: str) -> Case:
    return next(c for c in all_cases() if c.name == name)
