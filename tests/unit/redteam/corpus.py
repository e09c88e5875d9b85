"""The red-team corpus (``tests/fixtures/redteam/*.yaml``): outputs written to beat a rule."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from rcaloop.contracts import HarnessVerdict, IngestedRecord, ParsedRCA, analysis_hash
from rcaloop.harness import core as harness
from rcaloop.parser import core as parser
from rcaloop.parser.registry import Registry
from rcaloop.parser.registry_file import load_registry

ROOT = Path(__file__).resolve().parents[3]
CORPUS = ROOT / "tests" / "fixtures" / "redteam"
DEFAULT_REGISTRY = ROOT / "examples" / "registry.json"


@dataclass(frozen=True)
class Case:
    name: str
    bypass: str
    why: str
    record: IngestedRecord
    registry: Registry | None
    expected: dict[str, Any]

    def judge(self) -> tuple[ParsedRCA, HarnessVerdict]:
        parsed = parser.parse_record(self.record, self.registry)
        return parsed, harness.evaluate(parsed)


def _registry(spec: Any) -> Registry | None:
    if spec is None or spec == "default":
        return load_registry(DEFAULT_REGISTRY)
    if spec == "none":
        return None
    return Registry.model_validate(spec)


def load(path: Path) -> Case:
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    record = IngestedRecord(
        result_id=f"redteam-{path.stem}",
        kind=doc["kind"],
        content=doc["content"],
        job_id=doc.get("job_id") or ("7001" if doc["kind"] == "step_files" else None),
        input_text=doc.get("input_text"),
        evidence=doc.get("evidence") or [],
        analysis_hash=analysis_hash(doc["kind"], doc["content"]),
    )
    return Case(path.stem, doc["bypass"], doc["why"], record, _registry(doc.get("registry")), doc["expected"])


@cache
def all_cases() -> tuple[Case, ...]:
    return tuple(load(p) for p in sorted(CORPUS.glob("*.yaml")))
