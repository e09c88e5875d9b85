"""``rcaloop`` sub-commands of the ingestion service (thin adapters).

``download`` / ``upload`` sync a job with the jumpbox (``rcaloop.shared.jumpbox``);
``ingest-check`` runs the ingestion rules on a file offline, exactly as the service does.
Errors print ``error[<code>]: <message>`` and exit with the code ``ERRORS`` gives.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import NoReturn

import typer
from pydantic import ValidationError
from rich.markup import escape
from rich.progress import BarColumn, DownloadColumn, Progress, TaskID, TextColumn, TransferSpeedColumn

from rcaloop.contracts import RawResult
from rcaloop.contracts.results import job_id_problem
from rcaloop.ingestion import core
from rcaloop.shared.cli_deps import CliDeps
from rcaloop.shared.cli_output import err, fail, out
from rcaloop.shared.jumpbox import (REQUIRED_FILES, JumpboxError, JumpboxSettings, analysis_dir, check_job_files,
                                    download_job,
                                    upload_annotation)
from rcaloop.shared.logs import configure_logging
from rcaloop.shared.sources import SourceError, load_result

LARGE_FILE_BYTES = 1024 * 1024
"""Files at least this large get a progress bar."""



class _Bars:
    """A Rich progress bar per large file, started only when one shows up (small files stay quiet)."""

    def __init__(self) -> None:
        self.progress: Progress | None = None
        self.tasks: dict[str, TaskID] = {}

    def __call__(self, name: str, done: int, total: int) -> None:
        if total < LARGE_FILE_BYTES:
            return
        if self.progress is None:
            columns = (TextColumn("{task.description}"), BarColumn(), DownloadColumn(), TransferSpeedColumn())
            self.progress = Progress(*columns, console=err, transient=True)
            self.progress.start()
        if name not in self.tasks:
            self.tasks[name] = self.progress.add_task(name, total=total)
        self.progress.update(self.tasks[name], completed=done)

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()


def _quiet_logs() -> None:
    """Warnings (retries) go to stderr; info lines stay out of stdout, which holds the result."""
    configure_logging("rcaloop", "WARNING", "console")


def _settings() -> JumpboxSettings:
    _quiet_logs()
    try:
        return JumpboxSettings()
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])).upper()}: {e['msg']}" for e in exc.errors()[:5])
        err.print(f"[red]error[/red]{escape(f'[config]: {problems}')}", highlight=False, soft_wrap=True)
        raise typer.Exit(2) from None


def _run(operation, settings: JumpboxSettings):
    """Run a jumpbox operation, with progress bars only when files really travel."""
    if not settings.jumpbox_uri:
        return asyncio.run(operation(None))
    bars = _Bars()
    try:
        return asyncio.run(operation(bars))
    finally:
        bars.close()


def _fail(exc: JumpboxError) -> NoReturn:
    err.print(f"[red]error[/red]{escape(f'[{exc.code}]: {exc.message}')}", highlight=False, soft_wrap=True)
    raise typer.Exit(exc.exit_code)


def register(app: typer.Typer, deps: CliDeps) -> None:
    """Add this service's commands to the ``rcaloop`` CLI."""
    _register_download(app, deps)
    _register_upload(app, deps)
    _register_ingest_check(app)


def _register_download(app: typer.Typer, deps: CliDeps) -> None:
    @app.command()
    def download(job_id: str = typer.Option(..., "--job-id", help="the CI job whose analysis to fetch")) -> None:
        """Fetch JUMPBOX_ROOT/<job_id>/ into .analysis/<job_id>/ (JUMPBOX_URI unset: check the local files).

        A job that arrived on the stream has no directory on the jumpbox or here: its files come
        from the annotation store, where the pipeline keeps them for review.
        """
        settings = _settings()
        try:
            path = _run(lambda bars: download_job(job_id, settings, bars), settings)
        except JumpboxError as exc:
            only_review = (  # the web UI wrote annotation.json here, the run's own files never came
                exc.code == "required_file_missing" and not settings.jumpbox_uri
                and not any(p.is_file() for p in analysis_dir(job_id, settings).glob("step*.json")))
            missing = exc.code in ("local_dir_missing", "remote_dir_missing") or only_review
            stored = deps.stored_job if missing else None
            if stored is None:
                _fail(exc)
            path = analysis_dir(job_id, settings)
            if not stored(job_id, path):
                _fail(JumpboxError(exc.code,
                                   f"{exc.message}; the annotation store keeps no result of job {job_id} either"))
            try:
                check_job_files(path)
            except JumpboxError as incomplete:
                _fail(incomplete)
            out.print(f"{path}/ has the required files ({', '.join(REQUIRED_FILES)})", highlight=False, soft_wrap=True)
            return
        if settings.jumpbox_uri:
            out.print(f"downloaded {job_id} to {path}/", highlight=False, soft_wrap=True)
        else:
            files = ", ".join(REQUIRED_FILES)
            out.print(f"JUMPBOX_URI unset: {path}/ has the required files ({files})", highlight=False, soft_wrap=True)


def _register_upload(app: typer.Typer, deps: CliDeps) -> None:
    @app.command()
    def upload(job_id: str = typer.Option(..., "--job-id", help="the CI job whose annotation.json to push")) -> None:
        """Validate, then push .analysis/<job_id>/annotation.json to the jumpbox; the local copy is always kept."""
        settings = _settings()
        if deps.check_annotation is not None and not job_id_problem(job_id):
            if issues := deps.check_annotation(settings.rcaloop_analysis_root / job_id):
                for i in issues:
                    err.print(f"[red]{i.code}[/red] {escape(i.path or '$')}: {escape(i.message)}", highlight=False)
                err.print(
                    f"[red]error[/red]: annotation.json is not valid ({len(issues)} problem(s)); nothing uploaded")
                raise typer.Exit(1)
        try:
            where = _run(lambda bars: upload_annotation(job_id, settings, bars), settings)
        except JumpboxError as exc:
            _fail(exc)
        if settings.jumpbox_uri:
            out.print(f"uploaded annotation.json to {where} (local copy kept)", highlight=False, soft_wrap=True)
        else:
            out.print(f"JUMPBOX_URI unset: annotation.json stays local at {where}", highlight=False, soft_wrap=True)


def _register_ingest_check(app: typer.Typer) -> None:
    @app.command("ingest-check")
    def ingest_check(
        path: Path = typer.Argument(...,
                                    help="a RawResult JSON (as published), a job directory, skill text or capture"),
        as_json: bool = typer.Option(False, "--json",
                                     help="print {accepted, result_id, analysis_hash, size_bytes, errors}"),
        max_bytes: int = typer.Option(
            core.DEFAULT_MAX_RESULT_BYTES, "--max-bytes", min=1, help="RCALOOP_MAX_RESULT_BYTES"
        ),
    ) -> None:
        """Run the ingestion rules on one record offline. Exit 0 accepted, 1 rejected, 2 unreadable."""
        try:
            raw = _read_record(path)
        except SourceError as exc:
            fail(str(exc))
        assessed = core.assess(raw, core.Limits(max_result_bytes=max_bytes))
        issues = assessed.issues
        record = core.ingest(assessed) if assessed.accepted else None
        if as_json:
            doc = {
                "accepted": not issues,
                "result_id": raw.result_id,
                "analysis_hash": record.analysis_hash if record else None,
                "size_bytes": assessed.size,
                "errors": [i.model_dump() for i in issues],
            }
            out.print_json(json.dumps(doc))
        elif record:
            out.print(f"accepted {raw.result_id}: analysis_hash {record.analysis_hash}", highlight=False,
                      soft_wrap=True)
        else:
            for issue in issues:
                where = f" ({issue.path})" if issue.path else ""
                out.print(escape(f"{issue.code}: {issue.message}{where}"), highlight=False, soft_wrap=True)
        raise typer.Exit(1 if issues else 0)


def _read_record(path: Path) -> RawResult:
    """A published ``RawResult`` JSON as-is; anything else the way ``rcaloop submit`` reads it."""
    if path.is_file() and path.suffix == ".json":
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            data = None
        if isinstance(data, dict) and {"result_id", "kind", "content"} <= data.keys():
            try:
                return RawResult.model_validate(data)
            except ValidationError as exc:
                problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()[:5])
                raise SourceError(f"{path}: not a valid RawResult: {problems}") from None
    return load_result(path)
