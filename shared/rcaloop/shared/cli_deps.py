"""What the ``rcaloop`` composition root hands to each service's CLI commands.

Services never import each other. A command that needs another service's pure core
(``rcaloop harness FILE`` must parse first; ``rcaloop eval run`` parses and judges every
output) receives it here, built once in ``rcaloop.cli.main``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the models are built when a command first uses them, not when the CLI starts
    from rcaloop.contracts import HarnessVerdict, Issue, ParsedRCA, RawResult

ParseFn = Callable[["RawResult", Path | None], "ParsedRCA"]
"""(raw result, registry file or None) → canonical parse, as the parser service does it."""
EvaluateFn = Callable[["ParsedRCA"], "HarnessVerdict"]
"""canonical parse → harness verdict with the harness settings from the environment."""
CheckAnnotationFn = Callable[[Path], "list[Issue]"]
"""job directory → the annotation validator's findings on its annotation.json (none: valid or absent)."""
StoredJobFn = Callable[[str, Path], bool]
"""(job id, job directory) → writes the files the annotation store keeps for the job's newest
analysis into the directory; False when it keeps none (the job never arrived on the stream)."""


@dataclass(frozen=True)
class CliDeps:
    parse: ParseFn
    evaluate: EvaluateFn
    check_annotation: CheckAnnotationFn | None = None
    """``rcaloop upload`` refuses an annotation this finds problems in, before any connection."""
    stored_job: StoredJobFn | None = None
    """``rcaloop download`` reads a job that arrived on the stream from the annotation store."""

    def analyze(self, raw: RawResult, registry: Path | None = None) -> HarnessVerdict:
        """The whole offline path of one output: parse, then judge."""
        return self.evaluate(self.parse(raw, registry))
