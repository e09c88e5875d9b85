"""``rcaloop up`` / ``demo``: every service in one process over one Redis (imports them all)."""

from __future__ import annotations

from collections.abc import Callable

from rcaloop.annotation.app import AnnotationSettings
from rcaloop.annotation.app import build as build_annotation
from rcaloop.gate.app import GateSettings
from rcaloop.gate.app import build as build_gate
from rcaloop.harness.app import HarnessSettings
from rcaloop.harness.app import build as build_harness
from rcaloop.ingestion.app import IngestionSettings
from rcaloop.ingestion.app import build as build_ingestion
from rcaloop.knowledge.app import KnowledgeSettings
from rcaloop.knowledge.app import build as build_knowledge
from rcaloop.parser.app import ParserSettings
from rcaloop.parser.app import build as build_parser
from rcaloop.shared.service import Service
from rcaloop.shared.settings import RuntimeSettings

BUILDERS: list[tuple[Callable[..., Service], type[RuntimeSettings]]] = [
    (build_ingestion, IngestionSettings),
    (build_parser, ParserSettings),
    (build_harness, HarnessSettings),
    (build_annotation, AnnotationSettings),
    (build_knowledge, KnowledgeSettings),
    (build_gate, GateSettings),
]


def all_services() -> list[Service]:
    return [build(settings_cls()) for build, settings_cls in BUILDERS]
