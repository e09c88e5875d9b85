"""Wire contracts: every message on every rcaloop stream is one of these models.

Services never import each other; they exchange only these models, serialised as
JSON in the ``payload`` field of a Redis stream entry (see ``docs/wire-format.md``).

A name is imported from its module the first time it is used (``from rcaloop.contracts
import RawResult`` builds the result models and nothing else): a command run once per file
pays only for the models it touches.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rcaloop.contracts.annotation import (
        AlternativeDiagnosis,
        Annotation,
        AnnotationRecord,
        Recommendation,
        ReviewDecision,
        RootCause,
        TraceItem,
    )
    from rcaloop.contracts.common import SCHEMA_VERSION, Contract, Issue
    from rcaloop.contracts.dead_letter import DeadLetter
    from rcaloop.contracts.evaluation import OperatorEvaluation
    from rcaloop.contracts.gate import GateDecision
    from rcaloop.contracts.hashing import analysis_hash
    from rcaloop.contracts.knowledge import KnowledgeEvent
    from rcaloop.contracts.parsed import ParsedRCA, RedFlag
    from rcaloop.contracts.results import EvidenceArtifact, IngestedRecord, RawResult
    from rcaloop.contracts.review import ReviewTask
    from rcaloop.contracts.streams import STREAM_MODELS, Stream
    from rcaloop.contracts.verdict import HarnessVerdict

__all__ = [
    "SCHEMA_VERSION",
    "analysis_hash",
    "STREAM_MODELS",
    "AlternativeDiagnosis",
    "Annotation",
    "AnnotationRecord",
    "Contract",
    "DeadLetter",
    "EvidenceArtifact",
    "GateDecision",
    "HarnessVerdict",
    "IngestedRecord",
    "Issue",
    "KnowledgeEvent",
    "OperatorEvaluation",
    "ParsedRCA",
    "RawResult",
    "Recommendation",
    "RedFlag",
    "ReviewDecision",
    "ReviewTask",
    "RootCause",
    "Stream",
    "TraceItem",
]

_HOME = {
    "AlternativeDiagnosis": "annotation", "Annotation": "annotation", "AnnotationRecord": "annotation",
    "Recommendation": "annotation", "ReviewDecision": "annotation", "RootCause": "annotation",
    "TraceItem": "annotation",
    "SCHEMA_VERSION": "common", "Contract": "common", "Issue": "common",
    "DeadLetter": "dead_letter", "OperatorEvaluation": "evaluation", "GateDecision": "gate",
    "analysis_hash": "hashing", "KnowledgeEvent": "knowledge", "ParsedRCA": "parsed", "RedFlag": "parsed",
    "EvidenceArtifact": "results", "IngestedRecord": "results", "RawResult": "results",
    "ReviewTask": "review", "STREAM_MODELS": "streams", "Stream": "streams", "HarnessVerdict": "verdict",
}
"""Each exported name and the module that defines it."""


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'rcaloop.contracts' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"rcaloop.contracts.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
