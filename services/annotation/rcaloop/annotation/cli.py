"""``rcaloop annotate`` and ``rcaloop annotation …``: thin adapters over the annotation core.

Exit codes: 0 done / valid, 1 invalid annotation, 2 unreadable input or unusable option
(jumpbox failures exit with the jumpbox's own code, see docs/jumpbox.md).
"""

from __future__ import annotations

import json
import re
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import typer
from pydantic import ValidationError
from rich.markup import escape
from rich.table import Table

from rcaloop.annotation import export as export_schema
from rcaloop.annotation import files, rubric, validation
from rcaloop.annotation.auth import DEFAULT_ROLE, ROLES
from rcaloop.contracts import Annotation, Issue
from rcaloop.contracts.common import CATEGORIES
from rcaloop.shared.cli_deps import CliDeps
from rcaloop.shared.cli_app import cli_app
from rcaloop.shared.cli_output import err, fail, out

_CRITERIA_HELP = f"criteria that apply: {', '.join(rubric.BY_KEY)}"

if TYPE_CHECKING:
    from rcaloop.annotation.settings import AnnotationSettings
    from rcaloop.annotation.store import Store


def _settings() -> AnnotationSettings:
    """The store's settings, imported by the commands that open it (the offline ones need neither)."""
    from rcaloop.annotation.settings import AnnotationSettings  # noqa: PLC0415 - loads the database drivers

    try:
        return AnnotationSettings()
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])).upper()}: {e['msg']}" for e in exc.errors()[:5])
        fail(f"configuration: {problems}")


async def _with_store(settings: AnnotationSettings, work):
    from rcaloop.annotation.store import Store  # noqa: PLC0415 - see _settings

    store = Store(settings.store_url(), schema=settings.rcaloop_db_schema)
    try:
        await store.migrate()
        return await work(store)
    finally:
        await store.close()


def _run_store(work) -> Any:
    settings = _settings()
    try:
        import asyncio  # noqa: PLC0415 - the store's commands only

        return asyncio.run(_with_store(settings, work))
    except OSError as exc:
        fail(f"cannot open the annotation store: {exc.strerror or type(exc).__name__}")
    except Exception as exc:  # noqa: BLE001 - a driver error names the database, never a password
        if type(exc).__module__.startswith(("sqlalchemy", "asyncpg", "alembic", "sqlite3")):
            fail(f"annotation store error: {type(exc).__name__}: {str(exc).splitlines()[0][:200]}")
        raise


def _print_issues(issues: list[Issue], title: str) -> None:
    table = Table(title=title)
    for col in ("code", "path", "message"):
        table.add_column(col)
    for i in issues:
        table.add_row(i.code, escape(i.path or ""), escape(i.message))
    err.print(table)


def _issues_json(issues: list[Issue]) -> list[dict[str, Any]]:
    return [{"code": i.code, "message": i.message, "path": i.path} for i in issues]


def register(app: typer.Typer, deps: CliDeps) -> None:
    """Add this service's commands to the ``rcaloop`` CLI."""
    group = cli_app(
        help="Annotation store: validation, rubric, migrations, export, agreement.", no_args_is_help=True
    )
    app.add_typer(group, name="annotation")
    _register_checks(group)
    _register_migrate(group)
    _register_export(group)
    _register_agreement(group)
    _register_tokens(group)
    _register_annotate(app)


def _register_checks(group: typer.Typer) -> None:
    """The offline checks: ``validate``, ``rules``, ``rubric``."""

    @group.command("validate")
    def validate_cmd(
        path: Path = typer.Argument(..., help="a job directory (its annotation.json) or an annotation.json"),
        job_dir: Path | None = typer.Option(None, "--job-dir", help="the step files' directory (default: the file's)"),
        as_json: bool = typer.Option(False, "--json", help='print {"valid": bool, "errors": [{code, message, path}]}'),
    ) -> None:
        """Check an annotation: json_paths must resolve in the job's step files. Exit 1 invalid (or not JSON), 2
        unreadable path."""
        try:
            document, job_files, job_id = files.load_for_validation(path, job_dir)
            issues = validation.validate(document, job_files, job_id)
        except files.NotJson as exc:  # read, but not JSON: an invalid annotation (exit 1)
            issues = [Issue(code=validation.NOT_AN_OBJECT, message=str(exc), path="$")]
        except files.AnnotationFileError as exc:  # the path can't be read (exit 2)
            fail(str(exc))
        if as_json:
            typer.echo(json.dumps({"valid": not issues, "errors": _issues_json(issues)}, indent=2, ensure_ascii=False))
        elif issues:
            _print_issues(issues, f"{len(issues)} problem(s) in {path}")
        else:
            out.print(f"[green]valid[/green] {escape(str(path))}")
        raise typer.Exit(1 if issues else 0)

    @group.command("rules")
    def rules_cmd(as_json: bool = typer.Option(False, "--json", help="print as JSON")) -> None:
        """The validation rules with their stable codes."""
        rows = [{"code": r.code, "name": r.name, "rule": r.summary} for r in validation.RULES]
        if as_json:
            typer.echo(json.dumps(rows, indent=2))
            return
        table = Table(title="annotation validation rules")
        for col in ("code", "name", "rule"):
            table.add_column(col)
        for r in rows:
            table.add_row(r["code"], r["name"], escape(r["rule"]))
        out.print(table)

    @group.command("rubric")
    def rubric_cmd(
        criteria: list[str] = typer.Argument(None, help=_CRITERIA_HELP),
        as_json: bool = typer.Option(False, "--json", help="print as JSON"),
    ) -> None:
        """Score difficulty with the seven-criterion rubric (capped at 10)."""
        try:
            result = rubric.score(criteria or [])
        except KeyError as exc:
            fail(str(exc.args[0]))
        doc = {
            "difficulty": result.difficulty,
            "difficulty_score": result.score,
            "difficulty_justification": result.justification,
            "criteria": list(result.criteria),
        }
        if as_json:
            typer.echo(json.dumps(doc, indent=2))
        else:
            out.print(f"[bold]{result.score}/10 {result.difficulty}[/bold] — {escape(result.justification)}")


def _register_migrate(group: typer.Typer) -> None:
    @group.command("migrate")
    def migrate_cmd() -> None:
        """Bring the annotation store (SQLite file or DATABASE_URL) to the latest schema."""

        async def noop(store: Store) -> str:
            return store.engine.url.render_as_string(hide_password=True)

        out.print(f"annotation store at the latest migration: {escape(_run_store(noop))}")


def _register_export(group: typer.Typer) -> None:
    @group.command("export")
    def export_cmd(
        fmt: str = typer.Option("jsonl", "--format", help="jsonl | csv"),
        since: str | None = typer.Option(
            None, "--since", help="only annotations stored/revised at or after (ISO date/time, UTC)"
        ),
        category: str | None = typer.Option(None, "--category", help="only this human root-cause category"),
        agreed_only: bool = typer.Option(False, "--agreed-only", help="only overlapping tasks whose annotators agree"),
        layout: str = typer.Option(
            "records", "--layout", help="records | seed (.analysis/<job_id>/annotation.json under --out)"
        ),
        out: Path | None = typer.Option(
            None, "--out", help="output file (records) or directory (seed); default stdout"
        ),
    ) -> None:
        """Export annotations as a dataset: agent diagnosis, harness verdict and human labels side by side."""
        if fmt not in ("jsonl", "csv"):
            fail(f"--format must be jsonl or csv, not {fmt!r}")
        if layout not in ("records", "seed"):
            fail(f"--layout must be records or seed, not {layout!r}")
        if layout == "seed" and out is None:
            fail("--layout seed needs --out DIR")
        if category and category not in CATEGORIES:
            fail(f"--category must be one of {' | '.join(CATEGORIES)}")
        since_at = _parse_since(since) if since else None

        async def work(store: Store):
            from rcaloop.annotation.reports import export_records  # noqa: PLC0415 - see _settings

            return await export_records(store, since=since_at, category=category, agreed_only=agreed_only)

        records = _run_store(work)
        if layout == "seed":
            latest: dict[str, dict[str, Any]] = {}
            for rec in records:  # oldest first: the last decided annotation of a job wins (never one reviewer's
                if rec["decision"] in export_schema.DECIDING:  # review of a task several reviewers review)
                    latest[rec["job_id"]] = rec
            assert out is not None  # checked before the store was opened
            try:
                for rec in latest.values():
                    files.write_annotation(out, Annotation.model_validate(rec["annotation"]))
            except OSError as exc:
                fail(f"cannot write under {out}: {exc.strerror or type(exc).__name__}")
            err.print(f"wrote {len(latest)} annotation.json file(s) under {out}")
            return
        text = _render(records, fmt)
        if out is None:
            sys.stdout.write(text)
        else:
            try:
                out.write_text(text, encoding="utf-8")
            except OSError as exc:
                fail(f"cannot write {out}: {exc.strerror or type(exc).__name__}")
            err.print(f"wrote {len(records)} record(s) to {out}")


def _register_agreement(group: typer.Typer) -> None:
    @group.command("agreement")
    def agreement_cmd(
        batch: str | None = typer.Option(None, "--batch",
                                         help="one batch: the UTC day its tasks were created (YYYY-MM-DD)"),
        as_json: bool = typer.Option(False, "--json", help="print as JSON"),
    ) -> None:
        """Agreement per judgement on tasks several reviewers review, overall and per batch (the tasks created on one
        UTC day): observed agreement, Cohen's kappa (two reviewers), Krippendorff's alpha."""
        if batch is not None and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", batch):
            fail(f"--batch must be a UTC day YYYY-MM-DD, not {batch!r}")

        async def work(store: Store) -> dict[str, Any]:
            from rcaloop.annotation.reports import agreement_figures  # noqa: PLC0415 - see _settings

            return await agreement_figures(store, batch=batch)

        figures = _run_store(work)
        if as_json:
            typer.echo(json.dumps(figures, indent=2))
            return
        for title, kinds in [("all batches", figures["kinds"])] + [
            (f"batch {b['batch']} ({b['tasks']} task(s))", b["kinds"]) for b in figures["batches"]
        ]:
            table = Table(title=f"inter-annotator agreement (nominal), {title}")
            for col in ("kind", "judgement", "items", "annotators", "pairs", "observed", "cohen_kappa",
                        "krippendorff_alpha"):
                table.add_column(col)
            for kind, rows in kinds.items():
                for r in rows:
                    table.add_row(
                        kind, r["field"], str(r["items"]), str(r["annotators"]), str(r["pairs"]),
                        *("-" if r[k] is None else f"{r[k]:.3f}"
                          for k in ("observed_agreement", "cohen_kappa", "krippendorff_alpha")),
                    )
            out.print(table)


def _register_tokens(group: typer.Typer) -> None:
    """``token create`` and ``token revoke``."""
    tokens = cli_app(
        help="Annotator tokens for the HTTP API (stored as SHA-256 digests only).", no_args_is_help=True
    )
    group.add_typer(tokens, name="token")

    @tokens.command("create")
    def token_create(
        annotator: str = typer.Argument(..., help="the annotator's name (letters, digits, . _ @ -)"),
        role: str = typer.Option(
            DEFAULT_ROLE, "--role",
            help="reviewer: reviews the tasks it leases; operator: also evaluates any incident; lead: also adjudicates "
            "disputed tasks and reads agreement",
        ),
    ) -> None:
        """Create a token for ANNOTATOR with a role (reviewer unless --role says otherwise); it is printed once and
        never stored in clear."""
        from rcaloop.annotation.auth import ANNOTATOR_NAME  # noqa: PLC0415

        if not ANNOTATOR_NAME.match(annotator):
            fail(f"invalid annotator name {annotator!r}")
        if role not in ROLES:
            fail(f"--role must be one of {', '.join(ROLES)}, not {role!r}")

        async def work(store: Store) -> str:
            return await store.create_token(annotator, role)

        token = _run_store(work)
        err.print(f"{role} token for {escape(annotator)} (shown once; use it as 'Authorization: Bearer <token>'):")
        typer.echo(token)

    @tokens.command("revoke")
    def token_revoke(
        annotator: str = typer.Argument(..., help="the annotator's name (letters, digits, . _ @ -)")) -> None:
        """Revoke every stored token of ANNOTATOR (exit 1 when it had none)."""
        from rcaloop.annotation.auth import ANNOTATOR_NAME  # noqa: PLC0415

        if not ANNOTATOR_NAME.match(annotator):
            fail(f"invalid annotator name {annotator!r}")

        async def work(store: Store) -> int:
            return await store.revoke_tokens(annotator)

        revoked = _run_store(work)
        if not revoked:
            fail(f"{annotator} has no active token", code=1)
        out.print(f"revoked {revoked} token(s) of {annotator}")


def _register_annotate(app: typer.Typer) -> None:
    """``rcaloop annotate``: the walkthrough."""

    @app.command("annotate")
    def annotate_cmd(
        job_id: str = typer.Option(..., "--job-id", help="the job under RCALOOP_ANALYSIS_ROOT (.analysis/)"),
        answers: Path | None = typer.Option(
            None, "--answers", help="scripted answers, one per line ('#' lines skipped)"
        ),
        fresh: bool = typer.Option(False, "--fresh", help="discard a saved draft and start over"),
    ) -> None:
        """Walk through annotating a CI-job RCA and write .analysis/<job_id>/annotation.json.

        The job's files come from the jumpbox (JUMPBOX_URI), else .analysis/<job_id>/, else the
        annotation store (a result that arrived on the stream). Each answered question is saved
        to a draft (.analysis/<job_id>/.annotation-draft.json); a later run resumes from it.
        """
        from rcaloop.annotation.walkthrough import Asker, AnswersEnded, Walkthrough, section_of  # noqa: PLC0415

        settings = _settings()
        try:
            files.check_job_id(job_id)
        except files.AnnotationFileError as exc:
            fail(str(exc))
        job_dir = _fetch(job_id, settings)
        job_files = files.job_files(job_dir)
        if not isinstance(job_files.get("step5_summary.json"), dict):
            fail(f"{job_dir}/step5_summary.json is missing or not JSON: run the root-cause-analysis skill first")
        draft_path = job_dir / files.DRAFT_FILE
        if fresh:
            draft_path.unlink(missing_ok=True)
        try:
            draft = files.read_draft(draft_path, job_id)
        except files.AnnotationFileError as exc:
            fail(f"{exc} (run with --fresh to discard it)")
        stream: TextIO
        if answers is not None:
            try:
                stream, interactive = answers.open(encoding="utf-8"), False
            except OSError as exc:
                fail(f"{answers}: cannot be read ({exc.strerror})")
        else:
            stream, interactive = sys.stdin, sys.stdin.isatty()
        asker = Asker(out, stream, interactive=interactive, skip_comments=answers is not None)
        kept = f"; your answers so far are kept in {draft_path}: run again to resume"
        walk = Walkthrough(out, asker, job_id, job_files, draft, lambda d: files.write_draft(draft_path, d))
        try:
            annotation = walk.run()
        except AnswersEnded as exc:
            fail(f"the answers ended early: {exc}{kept if walk.done else ''}")
        except (EOFError, KeyboardInterrupt):
            fail(f"annotation interrupted; nothing written{kept if walk.done else ''}")
        except UnicodeDecodeError:
            fail(f"{answers or 'stdin'}: the answers are not UTF-8 text; nothing written")
        finally:
            if answers is not None:
                stream.close()
        document = json.loads(files.annotation_json(annotation))
        issues = validation.validate(document, job_files, job_id)
        if issues:
            redo = {section_of(i.path) for i in issues}
            walk.done = {k: v for k, v in walk.done.items() if k not in redo}
            files.write_draft(draft_path, walk.draft())
            _print_issues(issues, "the annotation is not valid; nothing written")
            err.print(f"your other answers are kept in {draft_path}: run again to answer only the questions above")
            raise typer.Exit(1)
        path = files.write_annotation(settings.rcaloop_analysis_root, annotation)
        draft_path.unlink(missing_ok=True)
        out.print(f"[green]wrote[/green] {escape(str(path))}")
        _upload(job_id, settings)


def _jumpbox_settings(settings: AnnotationSettings):
    from rcaloop.shared.jumpbox import JumpboxSettings  # noqa: PLC0415 - only with a jumpbox

    return JumpboxSettings(rcaloop_analysis_root=settings.rcaloop_analysis_root)


def _fetch(job_id: str, settings: AnnotationSettings) -> Path:
    """Step 0: download with JUMPBOX_URI set, else use (and check) the local directory."""
    job_dir = settings.rcaloop_analysis_root / job_id
    if not settings.jumpbox_uri:
        # a directory holding only what a review wrote (the web UI's annotation.json, a draft) is no
        # job directory: the job's own files then come from the store, as if it did not exist
        if not files.has_step_files(job_dir) and not files_from_store(job_id, job_dir):
            what = "has no step files" if job_dir.is_dir() else "does not exist"
            fail(
                f"{job_dir}/ {what} and the annotation store holds no result of job {job_id}: "
                "run the root-cause-analysis skill first, publish its result, or set JUMPBOX_URI"
            )
        return job_dir
    import asyncio  # noqa: PLC0415

    from rcaloop.shared.jumpbox import JumpboxError, download_job  # noqa: PLC0415

    try:
        return asyncio.run(download_job(job_id, _jumpbox_settings(settings)))
    except JumpboxError as exc:
        fail(f"[{exc.code}] {exc.message}", exc.exit_code)


def files_from_store(job_id: str, job_dir: Path) -> bool:
    """Lay out the files kept with the job's newest analysis (a result that arrived on the
    stream) as ``job_dir``; False when the store keeps none. ``rcaloop annotate`` and, through
    the composition root, ``rcaloop download`` read a job that never had a job directory here."""
    settings = _settings()
    if settings.database_url is None and not (settings.rcaloop_data_dir / "annotation.db").is_file():
        return False  # no store here yet: nothing to read, and none is created for the asking

    async def work(store: Store) -> dict[str, Any]:
        latest = await store.latest_job_analysis(job_id)
        return await store.artifact_files(latest) if latest else {}

    kept = _run_store(work)
    if not kept:
        return False
    try:
        files.write_job_files(job_dir, kept)
    except OSError as exc:
        fail(f"cannot write {job_dir}: {exc.strerror or type(exc).__name__}")
    out.print(f"job {escape(job_id)}: the result's files from the annotation store are in {escape(str(job_dir))}/")
    return True


def _upload(job_id: str, settings: AnnotationSettings) -> None:
    """Step 4: push annotation.json when JUMPBOX_URI is set; the local copy always stays."""
    if not settings.jumpbox_uri:
        out.print("JUMPBOX_URI is unset: the annotation stays local")
        return
    import asyncio  # noqa: PLC0415

    from rcaloop.shared.jumpbox import JumpboxError, upload_annotation  # noqa: PLC0415

    try:
        remote = asyncio.run(upload_annotation(job_id, _jumpbox_settings(settings)))
    except JumpboxError as exc:
        fail(f"upload failed, the local annotation.json is kept: [{exc.code}] {exc.message}", exc.exit_code)
    out.print(f"[green]uploaded[/green] {escape(remote)}")


def _parse_since(text: str) -> datetime:
    try:
        value = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        fail(f"--since {text!r} is not an ISO date or date-time (e.g. 2026-03-19 or 2026-03-19T12:00:00Z)")
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _render(records: list[dict[str, Any]], fmt: str) -> str:
    return export_schema.render(records, fmt)
