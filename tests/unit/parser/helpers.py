"""Building ingested records for parser tests (pure: no I/O beyond reading fixtures)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rcaloop.contracts import IngestedRecord, ParsedRCA, analysis_hash
from rcaloop.parser.core import parse_record
from rcaloop.parser.registry import Registry

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples"
FIXTURES = ROOT / "tests" / "fixtures" / "parser"
REGISTRY = Registry.model_validate(json.loads((FIXTURES / "registry.json").read_text()))

BASE = """# checkout 503s

## Summary
Pool shrunk to 5 by cfg-2291; see the [alert log](msg:m-1001).

RCA_CHAT
**checkout 503s: DB pool at 5**
`checkout-api` | prod, since 14:02

**TL;DR:** the pool is 5.
**Cause** (likely, to be confirmed) cfg-2291 set the pool to 5 ([prod.yaml](code:shop@4f2c9e1/config/prod.yaml#L42)).
**Steps to verify**
- read the pool size on a live pod
**Now**
- roll back cfg-2291 after approval
END_RCA_CHAT
RCA_FIELDS
origin: internal
confidence: high
self_healing: no
repo: shop
commit: 4f2c9e1
sensitive_data: none
"""


def record(content: Any, kind: str = "skill_text", **extra: Any) -> IngestedRecord:
    return IngestedRecord(
        result_id="r-test", kind=kind, content=content, analysis_hash=analysis_hash(kind, content), **extra
    )


def parse(content: Any, kind: str = "skill_text", registry: Registry | None = REGISTRY, **extra: Any) -> ParsedRCA:
    return parse_record(record(content, kind, **extra), registry)


def step_files() -> dict[str, Any]:
    job = EXAMPLES / "jobs" / "1234567"
    return {p.name: json.loads(p.read_text()) for p in sorted(job.glob("step*.json"))}


def capture(name: str = "checkout-db-pool.json") -> dict[str, Any]:
    return json.loads((EXAMPLES / "captures" / name).read_text())


def codes_of(parsed: ParsedRCA) -> set[str]:
    """Every finding code of the result: errors, warnings and red flags."""
    return {i.code for i in parsed.errors + parsed.warnings} | {f.code for f in parsed.red_flags}
