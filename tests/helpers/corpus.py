"""The judge's labelled corpora, loaded the way ``rcaloop harness`` reads an output.

Three folders of one-output YAML files (formats: ``tests/fixtures/redteam/README.md`` and
``tests/fixtures/corpus/README.md``):

* ``tests/fixtures/redteam/``: outputs written to beat a rule, each with its exact expected
  verdict, plus controls that must still pass;
* ``tests/fixtures/corpus/honest/``: careful outputs written by authors who had not read the
  rules: every one must ``pass``;
* ``tests/fixtures/corpus/dishonest/``: outputs written to pass that each carry a defect: none
  may ``pass``.

Used by the corpus tests and by ``benchmarks/judge_accuracy.py``; only the parser's and the
harness's pure cores are called, so the same loader measures any checkout.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from rcaloop.contracts import HarnessVerdict, IngestedRecord, ParsedRCA, analysis_hash
try:
    from rcaloop.judge import core as harness
except ImportError:  # a checkout from before the judge was its own package
    from rcaloop.harness import core as harness  # type: ignore[no-redef]
from rcaloop.parser import core as parser
from rcaloop.parser.registry import Registry
from rcaloop.parser.registry_file import load_registry

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "fixtures" / "redteam"
HONEST = ROOT / "tests" / "fixtures" / "corpus" / "honest"
DISHONEST = ROOT / "tests" / "fixtures" / "corpus" / "dishonest"
DEFAULT_REGISTRY = ROOT / "examples" / "registry.json"
NOT_PASS = "not_pass"
"""The expected verdict of an output that must not pass (any verdict but ``pass``)."""


@dataclass(frozen=True)
class Case:
    name: str
    bypass: str
    """The class of bypass it closes (``control`` for an output that must pass)."""
    why: str
    record: IngestedRecord
    registry: Registry | None
    expected: dict[str, Any]
    corpus: str = "redteam"
    """``redteam``, ``honest`` or ``dishonest``: the folder it comes from."""
    author: str = ""

    @property
    def honest(self) -> bool:
        """It must get ``pass``."""
        return self.expected.get("verdict") == "pass"

    def judge(self) -> tuple[ParsedRCA, HarnessVerdict]:
        parsed = parser.parse_record(self.record, self.registry)
        return parsed, harness.evaluate(parsed)


def _registry(spec: Any) -> Registry | None:
    if spec is None or spec == "default":
        return load_registry(DEFAULT_REGISTRY)
    if spec == "none":
        return None
    return Registry.model_validate(spec)


def load(path: Path, corpus: str = "redteam") -> Case:
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    kind = doc["kind"]
    record = IngestedRecord(
        result_id=f"{corpus}-{path.stem}",
        kind=kind,
        content=doc["content"],
        job_id=str(doc["job_id"]) if doc.get("job_id") else ("7001" if kind == "step_files" else None),
        input_text=doc.get("input_text"),
        evidence=doc.get("evidence") or [],
        analysis_hash=analysis_hash(kind, doc["content"]),
    )
    bypass = doc.get("bypass") or doc.get("attack") or ("control" if corpus == "honest" else "unlabelled")
    return Case(path.stem, bypass, doc.get("why", ""), record, _registry(doc.get("registry")), doc["expected"],
                corpus, doc.get("author", ""))


@cache
def all_cases() -> tuple[Case, ...]:
    """The red-team corpus."""
    return tuple(load(p) for p in sorted(CORPUS.glob("*.yaml")))


@cache
def accuracy_cases() -> tuple[Case, ...]:
    """The honest and dishonest corpora (written apart from the rules)."""
    return tuple(load(p, "honest") for p in sorted(HONEST.glob("*.yaml"))) + tuple(
        load(p, "dishonest") for p in sorted(DISHONEST.glob("*.yaml")))


def folder_cases(folder: Path) -> tuple[Case, ...]:
    """Every output of a folder of labelled YAML files (honest or not by each file's expected verdict)."""
    out = []
    for path in sorted(folder.glob("*.yaml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        corpus = "honest" if (doc.get("expected") or {}).get("verdict") == "pass" else "dishonest"
        out.append(load(path, corpus))
    return tuple(out)
