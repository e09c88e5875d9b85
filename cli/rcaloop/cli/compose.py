"""The composition root of the CLI: wires services' pure cores for cross-service commands."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from rcaloop.annotation.files import job_annotation_issues
from rcaloop.contracts import HarnessVerdict, ParsedRCA, RawResult, analysis_hash
from rcaloop.contracts.common import utcnow
from rcaloop.contracts.results import IngestedRecord
from rcaloop.harness import core as harness_core
from rcaloop.harness.settings import HarnessSettings
from rcaloop.parser import core as parser_core
from rcaloop.parser.registry import Registry
from rcaloop.parser.registry_file import load_registry
from rcaloop.shared.cli_deps import CliDeps


@lru_cache(maxsize=8)
def _registry(path: Path) -> Registry:
    """Read once per command: ``eval run`` parses every case against the same file."""
    return load_registry(path)


def _parse(raw: RawResult, registry: Path | None) -> ParsedRCA:
    """Raises ``RegistryError`` (a ``ValueError``) when the registry file is unusable."""
    record = IngestedRecord(**raw.model_dump(), analysis_hash=analysis_hash(raw.kind, raw.content))
    return parser_core.parse_record(record, _registry(Path(registry)) if registry else None)


_HARNESS_ENV = ("ENABLE_RCA_OUTPUT_HARNESS", "MAX_RCA_REPAIR_ATTEMPTS", "RCA_HARNESS_PASS_SCORE")


@lru_cache(maxsize=4)
def _harness_config(_env: tuple[str | None, ...]):
    """Built once per distinct environment, not once per output (it cost as much as judging)."""
    return HarnessSettings().harness_config()


def _evaluate(parsed: ParsedRCA) -> HarnessVerdict:
    config = _harness_config(tuple(os.environ.get(name) for name in _HARNESS_ENV))
    return harness_core.evaluate(parsed, config, now=utcnow())


def cli_deps() -> CliDeps:
    return CliDeps(parse=_parse, evaluate=_evaluate, check_annotation=job_annotation_issues)
