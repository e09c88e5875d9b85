"""The composition root of the CLI: wires services' pure cores for cross-service commands.

Each core is imported the first time a command calls it, so a command pays only for the
cores it uses (``rcaloop parse`` never loads the harness).
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from rcaloop.shared.cli_deps import CliDeps

if TYPE_CHECKING:
    from rcaloop.contracts import HarnessVerdict, Issue, ParsedRCA, RawResult
    from rcaloop.judge.core import HarnessConfig
    from rcaloop.parser.registry import Registry


@lru_cache(maxsize=8)
def _registry(path: Path) -> Registry:
    """Read once per command: ``eval run`` parses every case against the same file."""
    from rcaloop.parser.registry_file import load_registry  # noqa: PLC0415 - see the module docstring

    return load_registry(path)


def _parse(raw: RawResult, registry: Path | None) -> ParsedRCA:
    """Raises ``RegistryError`` (a ``ValueError``) when the registry file is unusable."""
    from rcaloop.contracts import analysis_hash  # noqa: PLC0415
    from rcaloop.contracts.results import IngestedRecord  # noqa: PLC0415
    from rcaloop.parser import core as parser_core  # noqa: PLC0415

    record = IngestedRecord(**raw.model_dump(), analysis_hash=analysis_hash(raw.kind, raw.content))
    return parser_core.parse_record(record, _registry(Path(registry)) if registry else None)


_HARNESS_ENV = ("ENABLE_RCA_OUTPUT_HARNESS", "MAX_RCA_REPAIR_ATTEMPTS", "RCA_HARNESS_PASS_SCORE")


@lru_cache(maxsize=4)
def _harness_config(_env: tuple[str | None, ...]) -> HarnessConfig:
    """Built once per distinct environment, not once per output (it cost as much as judging)."""
    from rcaloop.harness.settings import HarnessSettings  # noqa: PLC0415

    return HarnessSettings().harness_config()


def _evaluate(parsed: ParsedRCA) -> HarnessVerdict:
    from rcaloop.contracts.common import utcnow  # noqa: PLC0415
    from rcaloop.judge import core as harness_core  # noqa: PLC0415
    from rcaloop.shared.catalog import bundled_catalog  # noqa: PLC0415

    config = _harness_config(tuple(os.environ.get(name) for name in _HARNESS_ENV))
    return harness_core.evaluate(parsed, config, now=utcnow(), catalog=bundled_catalog())  # the CLI reads no stream


def _check_annotation(job_dir: Path) -> list[Issue]:
    from rcaloop.annotation.files import job_annotation_issues  # noqa: PLC0415

    return job_annotation_issues(job_dir)


def _stored_job(job_id: str, job_dir: Path) -> bool:
    from rcaloop.annotation.cli import files_from_store  # noqa: PLC0415

    return files_from_store(job_id, job_dir)


def cli_deps() -> CliDeps:
    return CliDeps(parse=_parse, evaluate=_evaluate, check_annotation=_check_annotation, stored_job=_stored_job)
