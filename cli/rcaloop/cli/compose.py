"""The composition root of the CLI: wires services' pure cores for cross-service commands."""

from __future__ import annotations

from pathlib import Path

from rcaloop.contracts import HarnessVerdict, ParsedRCA, RawResult, analysis_hash
from rcaloop.contracts.results import IngestedRecord
from rcaloop.harness import core as harness_core
from rcaloop.parser import core as parser_core
from rcaloop.shared.cli_deps import CliDeps


def _parse(raw: RawResult, registry: Path | None) -> ParsedRCA:
    record = IngestedRecord(**raw.model_dump(), analysis_hash=analysis_hash(raw.kind, raw.content))
    return parser_core.parse_record(record)


def _evaluate(parsed: ParsedRCA) -> HarnessVerdict:
    return harness_core.evaluate(parsed)


def cli_deps() -> CliDeps:
    return CliDeps(parse=_parse, evaluate=_evaluate)
