"""The composition root of the CLI: wires services' pure cores for cross-service commands."""

from __future__ import annotations

from pathlib import Path

from rcaloop.contracts import HarnessVerdict, ParsedRCA, RawResult, analysis_hash
from rcaloop.contracts.common import utcnow
from rcaloop.contracts.results import IngestedRecord
from rcaloop.harness import core as harness_core
from rcaloop.harness.settings import HarnessSettings
from rcaloop.parser import core as parser_core
from rcaloop.parser.registry_file import load_registry
from rcaloop.shared.cli_deps import CliDeps


def _parse(raw: RawResult, registry: Path | None) -> ParsedRCA:
    """Raises ``RegistryError`` (a ``ValueError``) when the registry file is unusable."""
    record = IngestedRecord(**raw.model_dump(), analysis_hash=analysis_hash(raw.kind, raw.content))
    return parser_core.parse_record(record, load_registry(registry) if registry else None)


def _evaluate(parsed: ParsedRCA) -> HarnessVerdict:
    """The harness core with ``ENABLE_RCA_OUTPUT_HARNESS`` & co. from the environment, stamped now."""
    return harness_core.evaluate(parsed, HarnessSettings().harness_config(), now=utcnow())


def cli_deps() -> CliDeps:
    return CliDeps(parse=_parse, evaluate=_evaluate)
