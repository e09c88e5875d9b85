"""Wire contracts: every message on every rcaloop stream is one of these models.

Services never import each other; they exchange only these models, serialised as
JSON in the ``payload`` field of a Redis stream entry (see ``docs/wire-format.md``).
"""

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
