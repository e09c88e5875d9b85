"""``rcaloop up``, ``demo``, ``submit``, ``status``: the pipeline as a whole, over one Redis."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import typer
from rich.table import Table

from rcaloop.cli import streams
from rcaloop.cli.runtime import embedded_socket, producer_hint, with_redis
from rcaloop.shared.embedded import EmbeddedRedis, EmbeddedRedisError
from rcaloop.shared.logs import configure_logging
from rcaloop.shared.metrics import MetricsPortError, serve_metrics
from rcaloop.shared.redis_conn import connect
from rcaloop.shared.service import HostError, docs_enabled, install_stop_signals, run_services, tune_gc
from rcaloop.shared.settings import RuntimeSettings, redact_url
from rcaloop.shared.tokens import HOW_TO_MAKE, STRENGTH_RULE
from rcaloop.shared.sources import SourceError, load_result
from rcaloop.shared.status import stream_status
from rcaloop.shared.cli_deps import CliDeps
from rcaloop.shared.cli_output import err, fail, out

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
DEFAULT_METRICS_PORT = 9100
DEFAULT_HTTP_PORT = 8080


async def _run_pipeline(settings: RuntimeSettings, http_port: int | None, demo_paths: list[Path] | None) -> int:
    """Runs every service; with ``demo_paths`` submits them, waits for the drain, exits.

    The embedded Redis (``REDIS_URL`` unset) is the data directory's one server: started
    here or shared with another command (``up`` running while ``demo`` runs), and left by
    this command however it ends — stopped only when no other command uses it.
    """
    from rcaloop.cli.pipeline import all_services  # noqa: PLC0415 - every service: up and demo only

    services = all_services()  # configuration errors surface before an embedded Redis starts
    embedded = EmbeddedRedis(embedded_socket(settings).parent) if settings.redis_url is None else None
    if embedded:
        url = embedded.start()
        how = "started here" if embedded.started_here else "shared with another rcaloop command"
        out.print(f"embedded Redis on {url} ({how}; set REDIS_URL to use your own)", highlight=False)
    elif settings.redis_url is not None:
        url = settings.redis_url.get_secret_value()
        out.print(f"Redis at {redact_url(url)}", highlight=False)
    if demo_paths is None:
        for line in producer_hint(url, settings.prefix, embedded=embedded is not None):
            out.print(line, highlight=False, soft_wrap=True)
    try:
        return await _serve(services, settings, url, http_port, demo_paths)
    finally:
        if embedded:
            embedded.stop()


async def _serve(services, settings: RuntimeSettings, url: str, http_port: int | None,
                 demo_paths: list[Path] | None) -> int:
    stop = asyncio.Event()
    install_stop_signals(stop)
    def ready() -> None:
        tune_gc()
        if demo_paths is None:
            _print_greeting(settings, http_port)

    host = asyncio.create_task(run_services(services, settings, stop, url=url, http_port=http_port, on_ready=ready))
    code = 0
    try:
        if demo_paths is None:
            await host
            return 0
        ids = await streams.submit_paths(url, demo_paths, settings.prefix)
        out.print(f"submitted {len(ids)} sample results to rca.results")
        drained = await streams.wait_until_drained(url, settings.prefix, timeout_s=120)
        if not drained:
            err.print("[red]the pipeline did not drain within 120 s[/red]")
            code = 1
        redis = connect(url)
        try:
            _print_status(await stream_status(redis, settings.prefix))
            _print_verdicts(await streams.verdicts(redis, settings.prefix))
        finally:
            await redis.aclose()
    finally:
        stop.set()
        await host
    return code


def use_default_registry(examples: Path = EXAMPLES) -> None:
    """The citation registry every pipeline this CLI runs judges with, unless ``RCALOOP_REGISTRY``
    names one: ``examples/registry.json`` (the file docker-compose mounts too). ``up`` and ``demo``
    both take it here, so a sample gets one verdict whichever way it was submitted."""
    default = examples / "registry.json"
    if default.is_file():
        os.environ.setdefault("RCALOOP_REGISTRY", str(default))


def review_hint(settings: RuntimeSettings, http_port: int) -> list[str]:
    """Where reviewers go and how they (and scripts) get in: printed by ``rcaloop up``."""
    base = f"http://{settings.http_host}:{http_port}"
    docs = f"API docs on {base}/docs" if docs_enabled(settings) else "API docs off: HTTP_DOCS=true serves them"
    return [
        f"review UI on {base}/ui/ ({docs})",
        "  every request needs a token; sign in with an annotator token:",
        "  `rcaloop annotation token create <name> [--role operator|lead]` prints one, or list tokens in",
        "  RCALOOP_ANNOTATOR_TOKENS (reviewers), RCALOOP_OPERATOR_TOKENS, RCALOOP_LEAD_TOKENS=name:token,…",
        "  before `rcaloop up`; knowledge: RCALOOP_LEAD_TOKENS decide, RCALOOP_REVIEWER_TOKENS reject,",
        "  RCALOOP_READER_TOKENS read;",
        f"  a token has {STRENGTH_RULE}: {HOW_TO_MAKE}",
    ]


def _print_greeting(settings: RuntimeSettings, http_port: int | None) -> None:
    for line in review_hint(settings, http_port) if http_port else []:
        out.print(line, highlight=False)
    out.print("pipeline running; Ctrl-C to stop")


def up(
    http_port: int | None = typer.Option(
        None, min=0, max=65535,
        help="port of the HTTP API (annotation, knowledge); default HTTP_PORT, else 8080; 0 = none"),
    metrics_port: int | None = typer.Option(
        None, min=0, max=65535,
        help="port of /metrics, /healthz and /readyz; default METRICS_PORT, else 9100; 0 = none"),
) -> None:
    """Run every service plus the HTTP API locally (embedded Redis when REDIS_URL is unset)."""
    use_default_registry()
    settings = RuntimeSettings()
    explicit = "log_format" in settings.model_fields_set  # LOG_FORMAT set: every line in it; else readable lines
    configure_logging("rcaloop", settings.log_level, settings.log_format if explicit else "console")
    if http_port is None:
        http_port = DEFAULT_HTTP_PORT if settings.http_port is None else settings.http_port
    port = (settings.metrics_port or DEFAULT_METRICS_PORT) if metrics_port is None else metrics_port
    try:
        serve_metrics(port or None, settings.metrics_host)
    except MetricsPortError as exc:
        fail(str(exc), code=1)
    if port:
        out.print(f"metrics on http://{settings.metrics_host}:{port}/metrics (and /healthz, /readyz)", highlight=False)
    try:
        raise typer.Exit(asyncio.run(_run_pipeline(settings, http_port or None, None)))
    except (EmbeddedRedisError, HostError) as exc:
        fail(str(exc), code=1)


def demo(
    examples: Path = typer.Option(EXAMPLES, help="directory of sample results"),
) -> None:
    """Bring the pipeline up, run the bundled samples through it, print where results are."""
    use_default_registry(examples)  # a samples directory's own registry, else the one `up` judges with
    use_default_registry()
    settings = RuntimeSettings()
    configure_logging("rcaloop", "WARNING", "console")
    paths = streams.example_paths(examples)
    if not paths:
        fail(f"no sample results under {examples}")
    try:
        code = asyncio.run(_run_pipeline(settings, None, paths))
    except (EmbeddedRedisError, SourceError, HostError) as exc:
        fail(str(exc), code=1)
    data = settings.rcaloop_data_dir.resolve()
    out.print(f"\nresults: streams in Redis (AOF under {data / 'redis'}), review store and files under {data}")
    out.print("inspect: ./run status, ./run show job-1234567 (each uses this Redis); "
              "./run up runs every service and the review UI (http://127.0.0.1:8080/ui/)", soft_wrap=True)
    raise typer.Exit(code)


def submit(
    paths: list[Path] = typer.Argument(..., help="job directories, skill text outputs or capture JSON files")) -> None:
    """Publish RCA results to rca.results (as an upstream agent would)."""
    try:
        results = [load_result(p) for p in paths]
    except SourceError as exc:
        fail(str(exc))
    for result_id in with_redis(lambda redis, settings: streams.publish(redis, results, settings.prefix)):
        out.print(f"submitted {result_id}", highlight=False)


def _print_status(rows) -> None:
    table = Table(title="rcaloop streams")
    gaps = any(r.trimmed_unread for r in rows)  # a column only when something was lost
    for col in ("stream", "group", "length", "lag", "pending", "dlq",
                "consumers") + (("trimmed unread",) if gaps else ()):
        table.add_column(col, justify="left" if col in ("stream", "group") else "right")
    for r in rows:
        cells = [r.stream, r.group or "-", str(r.length), "-" if r.lag is None else str(r.lag), str(r.pending),
                 str(r.dlq),
                 str(r.consumers)]
        table.add_row(*cells, *([str(r.trimmed_unread)] if gaps else []))
    out.print(table)
    if gaps:
        err.print(
            "entries were trimmed before a group read them: raise STREAM_MAXLEN above the backlog, or add consumers")


def _print_verdicts(rows) -> None:
    table = Table(title="harness verdicts (rca.evaluated)")
    for col in ("result_id", "kind", "outcome", "verdict", "score", "failed gates", "repairs"):
        table.add_column(col, justify="right" if col in ("score", "repairs") else "left")
    for v in rows:
        failed = ", ".join(g.gate for g in v.hard_gates if not g.passed) or "-"
        table.add_row(
            v.result_id or "-", v.parsed.source_kind, v.parsed.outcome, v.verdict, f"{v.score:.0f}", failed,
            str(len(v.repairs))
        )
    out.print(table)


def status() -> None:
    """Per-stream length, group lag, pending and DLQ counts."""
    _print_status(with_redis(lambda redis, settings: stream_status(redis, settings.prefix)))


def register(app: typer.Typer, deps: CliDeps) -> None:  # noqa: ARG001 - these commands need no service core
    """Add the pipeline's own commands to the ``rcaloop`` CLI."""
    for command in (up, demo, submit, status):
        app.command()(command)
