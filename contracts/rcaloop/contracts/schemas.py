"""Generate the checked-in JSON Schemas (``contracts/schemas/``) from the models.

    python -m rcaloop.contracts.schemas [OUT_DIR]

A unit test regenerates them in memory and fails when the committed files drift.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pydantic import BaseModel

from rcaloop.contracts.annotation import Annotation, AnnotationRecord
from rcaloop.contracts.catalog import FamilyCatalog
from rcaloop.contracts.dead_letter import DeadLetter
from rcaloop.contracts.evaluation import OperatorEvaluation
from rcaloop.contracts.gate import GateDecision
from rcaloop.contracts.knowledge import KnowledgeEvent
from rcaloop.contracts.parsed import ParsedRCA
from rcaloop.contracts.results import IngestedRecord, RawResult
from rcaloop.contracts.review import ReviewTask
from rcaloop.contracts.verdict import HarnessVerdict

SCHEMA_MODELS: dict[str, type[BaseModel]] = {
    "raw_result": RawResult,
    "ingested_record": IngestedRecord,
    "parsed_rca": ParsedRCA,
    "harness_verdict": HarnessVerdict,
    "review_task": ReviewTask,
    "annotation": Annotation,
    "annotation_record": AnnotationRecord,
    "operator_evaluation": OperatorEvaluation,
    "knowledge_event": KnowledgeEvent,
    "family_catalog": FamilyCatalog,
    "gate_decision": GateDecision,
    "dead_letter": DeadLetter,
}

DEFAULT_DIR = Path(__file__).resolve().parents[2] / "schemas"


def render_schemas() -> dict[str, str]:
    """File name → schema text, deterministic so the drift test can compare bytes."""
    return {
        f"{name}.schema.json": json.dumps(model.model_json_schema(mode="serialization"), indent=2,
                                          sort_keys=True) + "\n"
        for name, model in SCHEMA_MODELS.items()
    }


def write_schemas(out_dir: Path = DEFAULT_DIR) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in render_schemas().items():
        path = out_dir / name
        path.write_text(text)
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write_schemas(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_DIR):
        print(path)
