"""``rcaloop parse FILE``: the parser's pure core on one output, offline (a thin adapter)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from rcaloop.contracts import ParsedRCA
from rcaloop.parser.registry_file import RegistryError
from rcaloop.shared.cli_deps import CliDeps
from rcaloop.shared.cli_output import fail, out
from rcaloop.shared.sources import SourceError, load_result

OUTCOME_STYLE = {"report": "green", "not_applicable": "cyan", "insufficient_context": "yellow", "incomplete": "red"}


def register(app: typer.Typer, deps: CliDeps) -> None:
    """Add this service's commands to the ``rcaloop`` CLI."""

    @app.command()
    def parse(
        path: Path = typer.Argument(..., help="skill text output, capture JSON or job directory"),
        registry: Path | None = typer.Option(None, "--registry",
                                             help="citation registry JSON (message, RCA and project links)"),
        as_json: bool = typer.Option(False, "--json", help="print the canonical parse result as JSON"),
    ) -> None:
        """Parse one RCA output against the output contract. Exit 0 with any outcome; 2 when unreadable."""
        try:
            parsed = deps.parse(load_result(path), registry)
        except (SourceError, RegistryError) as exc:
            fail(str(exc))
        if as_json:
            typer.echo(parsed.model_dump_json(indent=2))
        else:
            _summary(out, parsed)


def _summary(console: Console, p: ParsedRCA) -> None:
    style = OUTCOME_STYLE.get(p.outcome, "white")
    console.print(f"[bold]{escape(p.title or '(no title)')}[/bold]", highlight=False)
    console.print(
        f"outcome: [{style}]{p.outcome}[/{style}]" + (f" — {escape(p.outcome_reason)}" if p.outcome_reason else "")
    )
    f = p.fields
    console.print(
        escape(
            f"origin {f.origin or '-'} · confidence {f.confidence or '-'} · self_healing {f.self_healing or '-'}"
            f" · repo {f.repo or '-'} · commit {f.commit or '-'}"
        ),
        highlight=False,
    )
    d = p.diagnosis
    if d and d.root_cause and d.root_cause.summary:
        console.print(f"cause: {escape(' '.join(d.root_cause.summary.split()))}", highlight=False)
    if d and (d.family or d.candidates):
        ranked = ", ".join(d.candidates[:3]) or "-"
        console.print(escape(f"family: {d.family or '-'} · candidates: {ranked}"), highlight=False)
    if d:
        console.print(
            f"{len(d.claims)} claims · {len(p.artifacts)} evidence artifacts · {len(d.recommendations)} recommendations"
        )
    for flag in p.red_flags:
        where = f"{flag.where}, line {flag.line}" if flag.line else flag.where
        console.print(f"[red]red flag {flag.code}:[/red] {escape(f'{flag.type} ({flag.source}, {where})')}",
                      highlight=False)
    if p.citations:
        table = Table(title="citations")
        for col in ("kind", "label", "resolved", "href / reason"):
            table.add_column(col)
        for c in p.citations:
            table.add_row(c.kind, escape(c.label), "yes" if c.resolved else "no", escape(c.href or c.reason or ""))
        console.print(table)
    for level, issues in (("error", p.errors), ("warning", p.warnings)):
        for i in issues:
            where = f" (line {i.line})" if i.line else (f" ({i.path})" if i.path else "")
            console.print(
                f"[{'red' if level == 'error' else 'yellow'}]{i.code}[/] {escape(i.message)}{where}", highlight=False
            )
    console.print(f"analysis_hash {p.analysis_hash}", style="dim")
