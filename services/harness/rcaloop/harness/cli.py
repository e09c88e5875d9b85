"""``rcaloop harness PATH``: parse one output, then judge it with the harness core (thin adapter)."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from pydantic import TypeAdapter, ValidationError
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from rcaloop.contracts import EvidenceArtifact, HarnessVerdict, ParsedRCA, RawResult
from rcaloop.shared.cli_deps import CliDeps
from rcaloop.shared.cli_output import fail, out
from rcaloop.shared.sources import SourceError, load_result

VERDICT_STYLE = {"pass": "green", "degraded": "yellow", "insufficient_evidence": "red", "unchecked": "cyan"}
JSON_KEYS = ("verdict", "score", "pass_score", "dimensions", "hard_gates", "repairs", "evidence", "claims",
             "checks", "confidence_breakdown", "repaired_report", "analysis_hash", "result_id", "job_id")
"""What ``--json`` prints: the verdict without the echoed parse (``rcaloop parse`` prints that)."""
_ARTIFACTS = TypeAdapter(list[EvidenceArtifact])


class InputError(ValueError):
    """The input or the evidence file cannot be used; the message says why."""


def load_evidence(path: Path) -> list[EvidenceArtifact]:
    try:
        return _ARTIFACTS.validate_json(path.read_bytes())
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror})") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"]) or "(top level)"
        raise InputError(f"{path}: not a JSON list of evidence artifacts ({where}: {first['msg']})") from None


def parsed_input(path: Path) -> ParsedRCA | None:
    """A file that already holds a canonical parse (``rcaloop parse --json`` output), else None."""
    if path.suffix != ".json" or not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, OSError):
        return None
    if not (isinstance(data, dict) and "analysis_hash" in data and "outcome" in data):
        return None
    try:
        return ParsedRCA.model_validate(data)
    except ValidationError as exc:
        raise InputError(f"{path}: looks like a parse result but is not one ({exc.error_count()} errors)") from None


def verdict_json(verdict: HarnessVerdict) -> str:
    return verdict.model_dump_json(indent=2, include=set(JSON_KEYS))


def register(app: typer.Typer, deps: CliDeps) -> None:
    """Add this service's commands to the ``rcaloop`` CLI."""

    @app.command()
    def harness(
        path: Path = typer.Argument(..., help="job directory, skill text output, capture JSON, or a parse result JSON"),
        registry: Path | None = typer.Option(
            None, "--registry",
            help="citation registry JSON: bot messages, earlier RCAs and projects that citations may name"),
        evidence: Path | None = typer.Option(None, "--evidence",
                                             help="JSON list of EvidenceArtifact the run collected"),
        as_json: bool = typer.Option(False, "--json", help="print the verdict as JSON"),
    ) -> None:
        """Judge one RCA output with the runtime harness. Exit 0 with any verdict; 2 when unreadable."""
        try:
            extra = load_evidence(evidence) if evidence else []
            parsed = parsed_input(path)
            if parsed is None:
                raw: RawResult = load_result(path)
                parsed = deps.parse(raw.model_copy(update={"evidence": raw.evidence + extra}), registry)
            elif extra:
                parsed = parsed.model_copy(update={"artifacts": parsed.artifacts + extra})
        except (SourceError, InputError, ValueError) as exc:
            fail(str(exc))
        verdict = deps.evaluate(parsed)
        if as_json:
            typer.echo(verdict_json(verdict))
        else:
            _summary(out, verdict)


def _summary(console: Console, v: HarnessVerdict) -> None:
    style = VERDICT_STYLE.get(v.verdict, "white")
    console.print(f"verdict: [{style}]{v.verdict}[/{style}]  score {v.score:g}/100 (pass {v.pass_score:g})")
    dims = Table(title="dimensions")
    for col in ("dimension", "points"):
        dims.add_column(col)
    for name, points in v.dimensions.items():
        dims.add_row(name, f"{points:g}")
    console.print(dims)
    for g in v.hard_gates:
        mark = "[green]pass[/green]" if g.passed else "[red]FAIL[/red]"
        console.print(f"{g.gate} {g.name}: {mark} — {escape(g.detail)}", highlight=False)
    for r in v.repairs:
        console.print(f"repair #{r.attempt} {r.kind} ({escape(r.target)}): {escape(r.reason)}", highlight=False)
    for e in v.evidence:
        live = "live" if e.live else "historical"
        console.print(f"{e.id} \\[{escape(e.source_group)}, {live}] {escape(e.text[:100])}", highlight=False)
    for c in v.claims:
        console.print(f"{c.id} {c.kind} {c.status} {', '.join(c.supports) or '-'}: {escape(c.text[:100])}",
                      highlight=False)
