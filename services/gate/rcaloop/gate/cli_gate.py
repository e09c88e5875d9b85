"""``rcaloop gate check | measure | promote | status``: thin adapters over the gate cores.

Exit codes: 0 pass, 1 fail (or promotion refused), 2 unusable input / unreachable store.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

from typing import TYPE_CHECKING

import typer
from rich.markup import escape
from rich.table import Table

from rcaloop.contracts import GateDecision, Issue, Stream
from rcaloop.gate import junit
from rcaloop.gate.intervals import WindowError, parse_window
from rcaloop.gate.release_gate import (
    DEFAULT_MIN_POPULATION,
    METRIC_NAMES,
    THRESHOLDS,
    GateResult,
    check_release_gate,
    exit_code,
)
from rcaloop.gate.rollout import STAGES, Promotion, decide_promotion, state_of, status
from rcaloop.shared.cli_deps import CliDeps
from rcaloop.shared.cli_app import cli_app
from rcaloop.shared.cli_output import err, fail, out, read_input

if TYPE_CHECKING:
    from rcaloop.gate.store import GateStore
    from rcaloop.gate.settings import GateSettings


def _settings() -> GateSettings:
    """Read by the commands that open the store; ``gate check`` reads a file only."""
    from rcaloop.gate.settings import GateSettings  # noqa: PLC0415 - settings and Redis load on use only

    return GateSettings()


def _open_store(settings: GateSettings) -> GateStore:
    from rcaloop.gate.store import GateStore, StoreError  # noqa: PLC0415 - the commands that keep records only

    try:
        return GateStore(settings.store_path())
    except (StoreError, OSError) as exc:
        fail(f"gate store: {exc}")
    raise AssertionError


def _metric_findings(result: GateResult) -> dict[str, Issue]:
    return {e.path.removeprefix("$."): e for e in result.errors if e.path and e.path.removeprefix("$.") in METRIC_NAMES}


def _print_checks(result: GateResult, title: str) -> None:
    table = Table(title=title)
    for col in ("code", "metric", "value", "gate", "result"):
        table.add_column(col)
    codes = {t.metric: t.code for t in THRESHOLDS}
    findings = _metric_findings(result)
    for c in result.checks:
        finding = findings.get(c.metric)
        mark = ("[green]pass[/green]" if c.passed
                else f"[red]FAIL[/red] {finding.code if finding else ''} {escape(c.reason or '')}")
        table.add_row(codes.get(c.metric, ""), c.metric, escape(json.dumps(c.value)), c.threshold, mark)
    out.print(table)
    for e in result.errors:
        if e not in findings.values():
            out.print(f"[red]{e.code}[/red] {escape(e.message)}", highlight=False)


def _gate_junit(result: GateResult) -> str:
    findings = _metric_findings(result)
    cases = [
        junit.JUnitCase(name=c.metric, classname="gate.threshold",
                        failure=None if c.passed else f"{findings[c.metric].code} {c.metric}={c.value!r}: {c.reason}")
        for c in result.checks
    ]
    cases += [junit.JUnitCase(name=e.code, classname="gate.input", failure=e.message) for e in result.errors
              if e not in findings.values()]
    return junit.render("rcaloop gate check", cases)


def _job_revision() -> str:
    if os.environ.get("RCALOOP_JOB_REVISION"):
        return os.environ["RCALOOP_JOB_REVISION"]
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415 - the measuring command only

    try:
        return f"rcaloop-gate {version('rcaloop-gate')}"
    except PackageNotFoundError:
        return "rcaloop-gate (unknown version)"


async def _publish(url: str, decision: GateDecision, prefix: str) -> None:
    from rcaloop.shared.redis_conn import connect  # noqa: PLC0415 - see _settings
    from rcaloop.shared.wire import encode  # noqa: PLC0415

    redis = connect(url)
    try:
        await redis.xadd(Stream.GATE_DECISIONS.key(prefix), encode(decision, producer="rcaloop-gate"))
    finally:
        await redis.aclose()


def register(app: typer.Typer, deps: CliDeps) -> None:  # noqa: ARG001 - the gate needs no other core
    """Add ``rcaloop gate …`` to the ``rcaloop`` CLI."""
    gate_app = cli_app(help="Release gate, measurement and rollout stages.", no_args_is_help=True)
    app.add_typer(gate_app, name="gate")
    _register_check(gate_app)
    _register_measure(gate_app)
    _register_promote(gate_app)
    _register_status(gate_app)


def _register_check(gate_app: typer.Typer) -> None:
    """``gate check`` and the schema of the file it reads, ``gate schema``."""

    @gate_app.command("check")
    def check(
        metrics: Path = typer.Argument(..., help="one metrics JSON object from an external measurement job"),
        allow_synthetic: bool = typer.Option(False, "--allow-synthetic",
                                             help="tests only: accept files marked synthetic"),
        as_json: bool = typer.Option(False, "--json", help="print the per-metric table as JSON"),
        junit_file: Path | None = typer.Option(None, "--junit", help="write JUnit XML for CI"),
        min_population: int = typer.Option(
            DEFAULT_MIN_POPULATION, "--min-population", min=1, envvar="GATE_MIN_POPULATION",
            help="fewest incidents a measurement must count",
        ),
    ) -> None:
        """Release gate on one metrics object: read strictly (the schema of `rcaloop gate schema`), every metric
        typed, ranged and inside its gate, provenance complete, a population of at least --min-population incidents.
        Exit 0 pass, 1 fail, 2 unusable input."""
        result = check_release_gate(read_input(metrics, "metrics"), allow_synthetic=allow_synthetic,
                                    min_population=min_population)
        if junit_file is not None:
            try:
                junit_file.write_text(_gate_junit(result), encoding="utf-8")
            except OSError as exc:
                fail(f"cannot write {junit_file}: {exc.strerror}")
        if as_json:
            typer.echo(result.model_dump_json(indent=2))
        elif not result.usable:
            for e in result.errors:
                err.print(f"[red]{e.code}[/red] {escape(e.message)}", highlight=False)
        else:
            _print_checks(result,
                          f"release gate: {metrics.name}" + (" (SYNTHETIC — not a release decision)" if result.synthetic
                                                             else ""))
            out.print("[green]PASS[/green]" if result.passed else "[red]FAIL[/red]")
        raise typer.Exit(exit_code(result))

    @gate_app.command("schema")
    def schema_cmd() -> None:
        """Print the JSON Schema of the metrics file `rcaloop gate check` reads."""
        from rcaloop.gate.metrics_file import metrics_schema  # noqa: PLC0415 - jsonschema loads on use only

        typer.echo(json.dumps(metrics_schema(), indent=2))


def _register_measure(gate_app: typer.Typer) -> None:
    @gate_app.command("measure")
    def measure(
        window: str = typer.Option(..., "--window", help="incident window START/END (ISO-8601)"),
        out_path: Path | None = typer.Option(None, "--out", help="write the metrics object here (default: stdout)"),
        merge: Path | None = typer.Option(None, "--merge",
                                          help="JSON object of metrics rcaloop keeps no record of "
                                               "(destructive_tool_executions, from the agent's tool audit log)"),
        job_revision: str | None = typer.Option(None, "--job-revision",
                                                help="default: $RCALOOP_JOB_REVISION or the package version"),
    ) -> None:
        """Compute the release-gate metrics object (with provenance) from the gate store."""
        try:
            start, end = parse_window(window, datetime.now(UTC))
        except WindowError as exc:
            fail(str(exc))
        from rcaloop.gate.measure import StoredFacts, metrics_object  # noqa: PLC0415 - see _settings

        merged, merged_from = None, None
        if merge is not None:
            raw = read_input(merge, "merge file")
            try:
                merged = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError):
                fail(f"merge file {merge}: not a JSON object")
            if not isinstance(merged, dict):
                fail(f"merge file {merge}: not a JSON object")
            from rcaloop.gate.release_gate import artifact_hash  # noqa: PLC0415

            merged_from = f"{merge.name} {artifact_hash(raw)}"
        store = _open_store(_settings())
        try:
            verdicts = store.verdicts(start, end)
            reviews = store.reviews(start, end)
            events = store.events(start, end)
            by_hash = store.verdicts_by_hash([v.analysis_hash for v in verdicts] + [r.analysis_hash for r in reviews])
        finally:
            store.close()
        doc = metrics_object(
            StoredFacts(verdicts, by_hash, reviews, events),
            window,
            job_revision=job_revision or _job_revision(),
            artifact=str(out_path.resolve()) if out_path else "stdout",
            measured_at=datetime.now(UTC),
            merged=merged,
            merged_from=merged_from,
        )
        text = json.dumps(doc, indent=2) + "\n"
        if out_path is None:
            typer.echo(text, nl=False)
        else:
            try:
                out_path.parent.mkdir(parents=True, exist_ok=True)
                out_path.write_text(text, encoding="utf-8")
            except OSError as exc:
                fail(f"cannot write {out_path}: {exc.strerror}")
            out.print(f"metrics for {escape(window)} → {out_path}")
            for name, why in doc["missing"].items():
                out.print(f"[yellow]missing[/yellow] {name}: {escape(why)}", highlight=False)


def _register_promote(gate_app: typer.Typer) -> None:
    @gate_app.command("promote")
    def promote(
        stage: str = typer.Argument(..., help=" → ".join(STAGES)),
        artifact: Path = typer.Option(..., "--artifact", help="a fresh, passing metrics file (from gate measure)"),
        decided_by: str | None = typer.Option(None, "--decided-by", help="who promotes (recorded)"),
        publish: bool = typer.Option(True, "--publish/--no-publish", help="publish the decision on gate.decisions"),
        as_json: bool = typer.Option(False, "--json", help="print the decision as JSON"),
    ) -> None:
        """Promote the rollout one stage. Records a GateDecision (also when refused). Exit 0 promoted, 1 refused."""
        if stage not in STAGES:
            fail(f"unknown stage {stage!r} (one of {', '.join(STAGES)})")
        data = read_input(artifact, "artifact")
        settings = _settings()
        gate = check_release_gate(data, allow_synthetic=False, min_population=settings.gate_min_population)
        store = _open_store(settings)
        try:
            state = state_of(store.promotions(), store.last_material_change(), settings.gate_shadow_max_regression)
            decision = decide_promotion(Promotion(stage, gate, state), decided_by=decided_by)
            if publish:
                from redis.exceptions import RedisError  # noqa: PLC0415 - see _settings

                from rcaloop.shared.embedded import EmbeddedRedisError, command_redis  # noqa: PLC0415
                from rcaloop.shared.settings import redact_url  # noqa: PLC0415

                given = settings.redis_url.get_secret_value() if settings.redis_url else None
                try:
                    with command_redis(given, settings.rcaloop_data_dir) as url:
                        import asyncio  # noqa: PLC0415

                        asyncio.run(_publish(url, decision, settings.prefix))
                except EmbeddedRedisError as exc:
                    fail(f"{exc} (or pass --no-publish); nothing recorded")
                except (OSError, RedisError) as exc:
                    fail(f"cannot reach Redis at {redact_url(given or 'the embedded server')}: {exc}; nothing recorded")
            store.record_decision(decision)
        finally:
            store.close()
        if as_json:
            typer.echo(decision.model_dump_json(indent=2))
        elif decision.passed:
            out.print(
                f"[green]promoted to {stage}[/green] with artifact {decision.artifact_hash[:23]}… "
                f"({decision.decision_id})")
        else:
            out.print(f"[red]promotion to {stage} refused[/red] ({decision.decision_id}, recorded)")
            for reason in decision.reasons:
                out.print(f"  {escape(reason)}", highlight=False)
        raise typer.Exit(0 if decision.passed else 1)


def _register_status(gate_app: typer.Typer) -> None:
    @gate_app.command("status")
    def status_cmd(as_json: bool = typer.Option(False, "--json", help="print as JSON")) -> None:
        """Current rollout stage, last promotion, and whether knowledge changed since (gate re-run needed)."""
        store = _open_store(_settings())
        try:
            st = status(store.promotions(), store.last_material_change(), store.counts())
        finally:
            store.close()
        doc = {
            "current_stage": st.current_stage,
            "next_stage": st.next_stage,
            "needs_rerun": st.needs_rerun,
            "last_material_change": st.last_material_change.isoformat() if st.last_material_change else None,
            "last_promotion": st.last_promotion,
            "counts": st.counts,
        }
        if as_json:
            typer.echo(json.dumps(doc, indent=2))
            return
        out.print(f"stage: [bold]{st.current_stage or 'none'}[/bold] (next: {st.next_stage or '—'})")
        if st.last_promotion:
            out.print(
                f"last promotion: {st.last_promotion['decision_id']} artifact "
                f"{st.last_promotion['artifact_hash'][:23]}…")
        if st.needs_rerun:
            out.print(
                f"[yellow]knowledge changed at {doc['last_material_change']}: re-run the gate before the next "
                "promotion[/yellow]")
        out.print("stored: " + ", ".join(f"{k} {v}" for k, v in st.counts.items()))
