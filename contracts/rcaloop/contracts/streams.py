"""Stream names and which contract travels on each."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic import BaseModel

    STREAM_MODELS: dict[Stream, type[BaseModel]]


class Stream(StrEnum):
    RESULTS = "rca.results"
    INGESTED = "rca.ingested"
    PARSED = "rca.parsed"
    EVALUATED = "rca.evaluated"
    REVIEW_TASKS = "review.tasks"
    REVIEW_ANNOTATIONS = "review.annotations"
    KNOWLEDGE_EVENTS = "knowledge.events"
    GATE_DECISIONS = "gate.decisions"

    def key(self, prefix: str = "") -> str:
        """The Redis key, with the deployment's prefix (``RCALOOP_STREAM_PREFIX``)."""
        return f"{prefix}{self.value}"

    def dlq_key(self, prefix: str = "") -> str:
        return f"{self.key(prefix)}.dlq"


def _models() -> dict[Stream, type[BaseModel]]:
    from rcaloop.contracts.annotation import AnnotationRecord
    from rcaloop.contracts.gate import GateDecision
    from rcaloop.contracts.knowledge import KnowledgeEvent
    from rcaloop.contracts.parsed import ParsedRCA
    from rcaloop.contracts.results import IngestedRecord, RawResult
    from rcaloop.contracts.review import ReviewTask
    from rcaloop.contracts.verdict import HarnessVerdict

    return {
        Stream.RESULTS: RawResult,
        Stream.INGESTED: IngestedRecord,
        Stream.PARSED: ParsedRCA,
        Stream.EVALUATED: HarnessVerdict,
        Stream.REVIEW_TASKS: ReviewTask,
        Stream.REVIEW_ANNOTATIONS: AnnotationRecord,
        Stream.KNOWLEDGE_EVENTS: KnowledgeEvent,
        Stream.GATE_DECISIONS: GateDecision,
    }


def __getattr__(name: str) -> dict[Stream, type[BaseModel]]:
    """``STREAM_MODELS``: every stream's contract, built on first use (``Stream`` alone imports no model)."""
    if name != "STREAM_MODELS":
        raise AttributeError(f"module 'rcaloop.contracts.streams' has no attribute {name!r}")
    models = globals()["STREAM_MODELS"] = _models()
    return models
