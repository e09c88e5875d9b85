"""The annotation store (SQLAlchemy 2 async): SQLite file by default, PostgreSQL by URL.

Every write is keyed by its natural id (``analysis_hash``, annotation id, evaluation id)
with insert-if-absent semantics, so a redelivered verdict or a retried request changes
nothing. Leases are slots ``(task_id, slot)`` with ``slot < overlap``: taking a slot is one
conditional ``UPDATE`` or one ``INSERT`` guarded by the primary key, so two annotators can
never hold the same non-overlap task, on either backend, without table locks. Stored
annotations and evaluations enter an outbox in the same transaction (see ``outbox``).

A task several reviewers review (overlap of 2 or more) publishes no reviewer's own review:
each submission takes the task's row lock first (one ``UPDATE``, a row lock on PostgreSQL
and the write lock on SQLite), stores the review and settles the task's outcome in the same
transaction (``adjudication``) — the decided review, once agreed or adjudicated, is what
enters the outbox.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pydantic_core
import sqlalchemy as sa
from pydantic import BaseModel
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from rcaloop.annotation import adjudication, core
from rcaloop.annotation.adjudication import DECIDED, Decided, Review
from rcaloop.annotation.artifacts import Artifact, loaded
from rcaloop.annotation.tables import (
    analysis_artifacts,
    stored_annotations,
    annotator_tokens,
    artifact_blobs,
    assignments,
    drafts,
    evaluations,
    outbox,
    review_tasks,
    sessions,
    task_outcomes,
    verdicts,
)
from rcaloop.contracts import Annotation, AnnotationRecord, HarnessVerdict, OperatorEvaluation, ReviewTask, Stream
from rcaloop.contracts.common import utcnow
from rcaloop.shared.analysis_subject import subject_of

MIGRATIONS = Path(__file__).resolve().parent / "migrations"



def _matches(text: str) -> sa.ColumnElement[bool]:
    """A task whose job id, result id, title or subject holds ``text`` (case aside; ``%`` and ``_``
    are plain characters)."""
    term = text.lower()

    def holds(column: Any) -> sa.ColumnElement[bool]:
        return sa.func.lower(column).contains(term, autoescape=True)

    by_result = sa.select(verdicts.c.analysis_hash).where(holds(verdicts.c.result_id))
    return sa.or_(
        holds(review_tasks.c.job_id),
        holds(review_tasks.c.task["title"].as_string()),
        holds(review_tasks.c.subject),
        review_tasks.c.analysis_hash.in_(by_result),
    )

class StoreError(Exception):
    """A request the store refuses; ``status`` is the HTTP status the API answers with."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


@dataclass(frozen=True)
class Lease:
    task: ReviewTask
    annotator: str
    lease_id: str
    expires_at: float
    slot: int


def database_url(url: str | None, data_dir: Path) -> str:
    """``DATABASE_URL`` with an async driver, else the SQLite file under the data dir."""
    if not url:
        data_dir.mkdir(parents=True, exist_ok=True)
        return f"sqlite+aiosqlite:///{(data_dir / 'annotation.db').resolve()}"
    for sync, async_ in (
        ("postgresql://", "postgresql+asyncpg://"),
        ("postgres://", "postgresql+asyncpg://"),
        ("sqlite://", "sqlite+aiosqlite://"),
    ):
        if url.startswith(sync):
            return async_ + url[len(sync) :]
    return url


def _run_migrations(sync_conn, revision: str) -> None:
    from alembic import command  # noqa: PLC0415 - only needed at startup
    from alembic.config import Config  # noqa: PLC0415

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = sync_conn
    command.upgrade(cfg, revision)


def _occupied(now: float):
    """A slot counts while submitted or leased and not yet expired."""
    return sa.or_(
        assignments.c.status == "submitted", sa.and_(assignments.c.status == "leased", assignments.c.expires_at > now)
    )


def _free(now: float):
    return sa.or_(
        assignments.c.status == "released", sa.and_(assignments.c.status == "leased", assignments.c.expires_at <= now)
    )


def _verdict_row(verdict: HarnessVerdict, now: datetime) -> dict[str, Any]:
    return {
        "analysis_hash": verdict.analysis_hash,
        "subject": subject_of(verdict),
        "job_id": verdict.job_id,
        "result_id": verdict.result_id,
        "verdict": verdict,  # a model: written as its own JSON (_json_text)
        "evaluated_at": verdict.evaluated_at,
        "received_at": now,
    }


def _task_row(verdict: HarnessVerdict, task: ReviewTask) -> dict[str, Any]:
    return {
        "task_id": task.task_id,
        "analysis_hash": task.analysis_hash,
        "subject": subject_of(verdict),
        "job_id": task.job_id,
        "kind": task.kind,
        "verdict": task.verdict,
        "score": task.score,
        "overlap": task.overlap,
        "priority": task.priority,
        "created_at": task.created_at,
        "task": task,
        "red_flags": len(verdict.parsed.red_flags),
    }


def _json_text(value: Any) -> str:
    """A JSON column's text: a model serialises itself, anything else through pydantic's encoder
    (several times faster than the json module on a 15 KB verdict, the hot path of a batch)."""
    if isinstance(value, BaseModel):
        return value.model_dump_json()
    return pydantic_core.to_json(value).decode()


class Store:
    def __init__(self, url: str, *, schema: str | None = None, clock=time.time):
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"timeout": 30}
        elif schema:
            kwargs["connect_args"] = {"server_settings": {"search_path": schema}}
        self.url, self.schema = url, schema
        self.engine: AsyncEngine = create_async_engine(url, json_serializer=_json_text, **kwargs)
        self.clock = clock
        if url.startswith("sqlite"):
            self._sqlite_pragmas()

    def _sqlite_pragmas(self) -> None:
        @sa.event.listens_for(self.engine.sync_engine, "connect")
        def _on_connect(dbapi_conn, _record):  # WAL: readers never block the writer
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

    async def migrate(self, revision: str = "head") -> None:
        async with self.engine.begin() as conn:
            await conn.run_sync(_run_migrations, revision)

    async def close(self) -> None:
        await self.engine.dispose()

    async def check_writable(self) -> None:
        """Commit a write that leaves nothing behind (the service's readiness); raises while the
        database refuses writes (a read-only replica, a full disk, unreachable)."""
        key = f"readiness-probe:{secrets.token_hex(8)}"
        now = utcnow()
        async with self.engine.begin() as conn:
            await conn.execute(
                outbox.insert().values(record_key=key, stream="", payload="", created_at=now, published_at=now))
            await conn.execute(outbox.delete().where(outbox.c.record_key == key))

    # -- verdicts and tasks -------------------------------------------------------------
    async def add_verdict(self, verdict: HarnessVerdict, task: ReviewTask) -> bool:
        """Store the verdict and its review task unless present; True when newly created."""
        return (await self.add_verdicts([(verdict, task)]))[0]

    async def add_verdicts(self, pairs: Sequence[tuple[HarnessVerdict, ReviewTask]]) -> list[bool]:
        """Store verdicts and their review tasks unless present, in one transaction (one
        commit for a worker's whole batch); True for each newly created.

        If a concurrent consumer stored one of them first, the batch is retried one pair at
        a time so the others still land.
        """
        now = utcnow()
        hashes = list({task.analysis_hash for _, task in pairs})
        try:
            async with self.engine.begin() as conn:
                have_tasks = set(await conn.scalars(
                    sa.select(review_tasks.c.analysis_hash).where(review_tasks.c.analysis_hash.in_(hashes))))
                have_verdicts = set(await conn.scalars(
                    sa.select(verdicts.c.analysis_hash).where(verdicts.c.analysis_hash.in_(hashes))))
                created: list[bool] = []
                verdict_rows: dict[str, dict[str, Any]] = {}
                task_rows: dict[str, dict[str, Any]] = {}
                for verdict, task in pairs:
                    new = task.analysis_hash not in have_tasks and task.analysis_hash not in task_rows
                    created.append(new)
                    if verdict.analysis_hash not in have_verdicts:
                        verdict_rows.setdefault(verdict.analysis_hash, _verdict_row(verdict, now))
                    if new:
                        task_rows[task.analysis_hash] = _task_row(verdict, task)
                if verdict_rows:
                    await conn.execute(verdicts.insert(), list(verdict_rows.values()))
                if task_rows:
                    await conn.execute(review_tasks.insert(), list(task_rows.values()))
        except IntegrityError:  # a concurrent consumer stored one first
            if len(pairs) == 1:
                return [False]
            return [(await self.add_verdicts([pair]))[0] for pair in pairs]
        return created

    async def task(self, task_id: str) -> ReviewTask | None:
        async with self.engine.connect() as conn:
            row = await conn.scalar(sa.select(review_tasks.c.task).where(review_tasks.c.task_id == task_id))
        return ReviewTask.model_validate(row) if row else None

    async def list_tasks(
        self,
        *,
        state: str | None = None,
        kind: str | None = None,
        verdict: str | None = None,
        job_id: str | None = None,
        search: str | None = None,
        case_type: str | None = None,
        red_flags: bool | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[dict[str, Any]]:
        """Tasks with their slot counts; ``state`` = open (a slot is free) | done (all submitted).

        ``search`` is a piece of text found, case aside, in the job id, the result id, the title or
        the subject (``_matches``); ``case_type`` the case type an
        operator gave the analysis; ``red_flags`` true keeps tasks with red flags, false those without.
        """
        now = self.clock()
        leased = sa.func.sum(
            sa.case((sa.and_(assignments.c.status == "leased", assignments.c.expires_at > now), 1), else_=0)
        )
        submitted = sa.func.sum(sa.case((assignments.c.status == "submitted", 1), else_=0))
        counts = (
            sa.select(assignments.c.task_id, leased.label("leased"), submitted.label("submitted"))
            .group_by(assignments.c.task_id)
            .subquery()
        )
        leased_n = sa.func.coalesce(counts.c.leased, 0)
        submitted_n = sa.func.coalesce(counts.c.submitted, 0)
        case = (
            sa.select(evaluations.c.case_type)
            .where(evaluations.c.analysis_hash == review_tasks.c.analysis_hash)
            .order_by(evaluations.c.updated_at.desc())
            .limit(1)
            .scalar_subquery()
        )
        query = sa.select(
            review_tasks.c.task,
            leased_n.label("leased"),
            submitted_n.label("submitted"),
            review_tasks.c.red_flags,
            case.label("case_type"),
        ).select_from(review_tasks.outerjoin(counts, counts.c.task_id == review_tasks.c.task_id))
        if search:
            query = query.where(_matches(search))
        if case_type:
            query = query.where(case == case_type)
        if red_flags is not None:
            query = query.where(review_tasks.c.red_flags > 0 if red_flags else review_tasks.c.red_flags == 0)
        if kind:
            query = query.where(review_tasks.c.kind == kind)
        if verdict:
            query = query.where(review_tasks.c.verdict == verdict)
        if job_id:
            query = query.where(review_tasks.c.job_id == job_id)
        if state == "open":
            query = query.where(leased_n + submitted_n < review_tasks.c.overlap)
        elif state == "done":
            query = query.where(submitted_n >= review_tasks.c.overlap)
        query = query.order_by(review_tasks.c.priority.desc(), review_tasks.c.created_at, review_tasks.c.task_id)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query.limit(limit).offset(offset))).all()
        return [
            {
                "task": r.task,
                "leased": int(r.leased),
                "submitted": int(r.submitted),
                "red_flags": int(r.red_flags or 0),
                "case_type": r.case_type,
            }
            for r in rows
        ]

    async def progress(self) -> list[dict[str, Any]]:
        """Per annotator: tasks submitted and leases held now (the queue page's progress table)."""
        now = self.clock()
        active = sa.and_(assignments.c.status == "leased", assignments.c.expires_at > now)
        query = (
            sa.select(
                assignments.c.annotator,
                sa.func.sum(sa.case((assignments.c.status == "submitted", 1), else_=0)).label("submitted"),
                sa.func.sum(sa.case((active, 1), else_=0)).label("leased"),
            )
            .group_by(assignments.c.annotator)
            .order_by(assignments.c.annotator)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [{"annotator": r.annotator, "submitted": int(r.submitted), "leased": int(r.leased)} for r in rows]

    async def _assignment(self, task_id: str, annotator: str):
        async with self.engine.connect() as conn:
            return (
                await conn.execute(
                    sa.select(assignments).where(assignments.c.task_id == task_id, assignments.c.annotator == annotator)
                )
            ).first()

    async def lease_of(self, task_id: str, annotator: str) -> dict[str, Any] | None:
        """The annotator's assignment on a task: status and expiry (None: never claimed)."""
        row = await self._assignment(task_id, annotator)
        if row is None:
            return None
        status = "expired" if row.status == "leased" and row.expires_at <= self.clock() else row.status
        return {"status": status, "expires_at": row.expires_at}

    # -- leases ---------------------------------------------------------------------------
    async def claim(self, annotator: str, ttl_s: float, *, kind: str | None = None) -> Lease | None:
        """Lease the next task this annotator has not reviewed, or None when the queue is empty."""
        for _ in range(3):  # candidates may be taken under us; re-query a few times
            now = self.clock()
            mine = sa.select(assignments.c.task_id).where(assignments.c.annotator == annotator, _occupied(now))
            taken = (
                sa.select(sa.func.count())
                .select_from(assignments)
                .where(assignments.c.task_id == review_tasks.c.task_id, _occupied(now))
                .scalar_subquery()
            )
            query = (
                sa.select(review_tasks.c.task_id, review_tasks.c.overlap, review_tasks.c.task)
                .where(review_tasks.c.task_id.not_in(mine), taken < review_tasks.c.overlap)
                .order_by(review_tasks.c.priority.desc(), review_tasks.c.created_at, review_tasks.c.task_id)
                .limit(20)
            )
            if kind:
                query = query.where(review_tasks.c.kind == kind)
            async with self.engine.connect() as conn:
                candidates = (await conn.execute(query)).all()
            if not candidates:
                return None
            for cand in candidates:
                lease = await self._take_slot(cand.task_id, cand.overlap, annotator, ttl_s)
                if lease:
                    return Lease(ReviewTask.model_validate(cand.task), annotator, *lease)
        return None

    async def claim_task(self, task_id: str, annotator: str, ttl_s: float) -> Lease:
        """Lease this task (a reviewer picked it in the queue); refused past its overlap."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(review_tasks.c.overlap, review_tasks.c.task).where(review_tasks.c.task_id == task_id)
                )
            ).first()
        if row is None:
            raise StoreError(404, "task_not_found", f"no review task {task_id!r}")
        mine = await self._assignment(task_id, annotator)
        if mine is not None and mine.status == "leased" and mine.expires_at > self.clock():
            expires = await self.extend(task_id, annotator, ttl_s)  # taking your own task again renews it
            return Lease(ReviewTask.model_validate(row.task), annotator, mine.lease_id, expires, mine.slot)
        lease = await self._take_slot(task_id, row.overlap, annotator, ttl_s)
        if lease is None:
            if mine is not None and mine.status == "submitted":
                raise _already_submitted(task_id, annotator)
            raise StoreError(
                409,
                "task_full",
                f"task {task_id!r} already has {row.overlap} reviewer(s), as many as its overlap allows",
            )
        return Lease(ReviewTask.model_validate(row.task), annotator, *lease)

    async def _take_slot(
        self, task_id: str, overlap: int, annotator: str, ttl_s: float
    ) -> tuple[str, float, int] | None:
        now = self.clock()
        lease_id, expires = secrets.token_hex(16), now + ttl_s
        values = dict(annotator=annotator, status="leased", lease_id=lease_id, expires_at=expires, updated_at=utcnow())
        own = (
            assignments.update()
            .where(assignments.c.task_id == task_id, assignments.c.annotator == annotator, _free(now))
            .values(**values)
            .returning(assignments.c.slot)
        )
        try:
            async with self.engine.begin() as conn:
                slot = await conn.scalar(own)
            if slot is not None:
                return lease_id, expires, slot
            for slot in range(overlap):
                stmt = (
                    assignments.update()
                    .where(assignments.c.task_id == task_id, assignments.c.slot == slot, _free(now))
                    .values(**values)
                )
                async with self.engine.begin() as conn:
                    if (await conn.execute(stmt)).rowcount == 1:
                        return lease_id, expires, slot
                try:
                    async with self.engine.begin() as conn:
                        await conn.execute(assignments.insert().values(task_id=task_id, slot=slot, **values))
                    return lease_id, expires, slot
                except IntegrityError:
                    continue  # slot held by someone else (or we already hold this task)
        except IntegrityError:
            return None
        return None

    async def _active(self, conn: AsyncConnection, task_id: str, annotator: str):
        now = self.clock()
        row = (
            await conn.execute(
                sa.select(assignments).where(assignments.c.task_id == task_id, assignments.c.annotator == annotator)
            )
        ).first()
        if row is None or row.status != "leased" or row.expires_at <= now:
            if await conn.scalar(sa.select(review_tasks.c.task_id).where(review_tasks.c.task_id == task_id)) is None:
                raise StoreError(404, "task_not_found", f"no review task {task_id!r}")
            if row is not None and row.status == "submitted":
                raise _already_submitted(task_id, annotator)
            raise StoreError(
                409,
                "no_active_lease",
                f"{annotator} holds no active lease on task {task_id!r} (expired or never claimed)",
            )
        return row

    async def require_lease(self, task_id: str, annotator: str) -> None:
        """Raise the lease ``StoreError`` a submission would meet, before its body is validated.

        An annotator who already submitted may resubmit (idempotent, or a new revision).
        """
        async with self.engine.connect() as conn:
            try:
                await self._active(conn, task_id, annotator)
            except StoreError as exc:
                if exc.code != "already_submitted":
                    raise

    async def extend(self, task_id: str, annotator: str, ttl_s: float) -> float:
        async with self.engine.begin() as conn:
            row = await self._active(conn, task_id, annotator)
            expires = self.clock() + ttl_s
            await conn.execute(
                assignments.update()
                .where(
                    assignments.c.task_id == task_id,
                    assignments.c.slot == row.slot,
                    assignments.c.lease_id == row.lease_id,
                )
                .values(expires_at=expires, updated_at=utcnow())
            )
        return expires

    async def release(self, task_id: str, annotator: str) -> None:
        async with self.engine.begin() as conn:
            row = await self._active(conn, task_id, annotator)
            await conn.execute(
                assignments.update()
                .where(
                    assignments.c.task_id == task_id,
                    assignments.c.slot == row.slot,
                    assignments.c.lease_id == row.lease_id,
                )
                .values(status="released", updated_at=utcnow())
            )

    async def _finish_lease(self, conn: AsyncConnection, task_id: str, annotator: str) -> None:
        row = await self._active(conn, task_id, annotator)
        result = await conn.execute(
            assignments.update()
            .where(
                assignments.c.task_id == task_id, assignments.c.slot == row.slot, assignments.c.lease_id == row.lease_id
            )
            .values(status="submitted", updated_at=utcnow())
        )
        if result.rowcount != 1:
            raise StoreError(409, "no_active_lease", f"the lease on task {task_id!r} was lost")

    # -- annotations and evaluations ------------------------------------------------------
    async def save_annotation(
        self,
        annotation: Annotation,
        *,
        annotator: str,
        analysis_hash: str,
        task_id: str | None = None,
        annotation_id: str | None = None,
        lease_required: bool = True,
    ) -> tuple[AnnotationRecord, bool]:
        """Insert or revise; (record, changed). Another annotator's id is refused (403)."""
        annotation_id = annotation_id or core.annotation_id_for(analysis_hash, annotator)
        body = annotation.model_dump(mode="json")
        now = utcnow()
        async with self.engine.begin() as conn:
            overlap = await self._lock_task(conn, task_id)
            row = (
                await conn.execute(
                    sa.select(stored_annotations).where(stored_annotations.c.annotation_id == annotation_id))
            ).first()
            if row is not None and row.annotator != annotator:
                raise StoreError(
                    403, "not_your_annotation", f"annotation {annotation_id!r} belongs to another annotator"
                )
            if row is not None and row.annotation == body:
                return _annotation_record(row), False  # a retried request: nothing changes
            if task_id and lease_required:
                await self._finish_lease(conn, task_id, annotator)
            revision = 1 if row is None else row.revision + 1
            values = dict(annotation=body, revision=revision, updated_at=now)
            if row is None:
                await conn.execute(
                    stored_annotations.insert().values(
                        annotation_id=annotation_id,
                        task_id=task_id,
                        analysis_hash=analysis_hash,
                        job_id=annotation.job_id,
                        annotator=annotator,
                        created_at=now,
                        **values,
                    )
                )
            else:
                await conn.execute(
                    stored_annotations.update().where(
                        stored_annotations.c.annotation_id == annotation_id).values(**values)
                )
            record = AnnotationRecord(
                annotation_id=annotation_id,
                task_id=task_id or (row.task_id if row else None),
                analysis_hash=analysis_hash,
                annotator=annotator,
                kind="annotation",
                annotation=annotation,
                created_at=now,
                revision=revision,
            )
            await self._publish_or_settle(conn, record, overlap, now)
        return record, True

    async def annotation_owner(self, annotation_id: str) -> tuple[str, str, str | None] | None:
        """(annotator, analysis_hash, task_id) of a stored annotation."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(stored_annotations.c.annotator, stored_annotations.c.analysis_hash,
                              stored_annotations.c.task_id).where(
                        stored_annotations.c.annotation_id == annotation_id
                    )
                )
            ).first()
        return tuple(row) if row else None

    async def save_evaluation(
        self, evaluation: OperatorEvaluation, *, annotator: str, task_id: str | None = None, lease_required: bool = True
    ) -> tuple[AnnotationRecord, bool]:
        evaluation = core.finalize_evaluation(evaluation, evaluation.analysis_hash, annotator)
        now = utcnow()
        async with self.engine.begin() as conn:
            overlap = await self._lock_task(conn, task_id)
            row = (
                await conn.execute(
                    sa.select(evaluations).where(evaluations.c.evaluation_id == evaluation.evaluation_id)
                )
            ).first()
            body = evaluation.model_dump(mode="json", exclude={"created_at"})
            if row is not None and {k: v for k, v in row.evaluation.items() if k != "created_at"} == body:
                return _evaluation_record(row), False  # a retried request: nothing changes
            subject = await conn.scalar(
                sa.select(verdicts.c.subject).where(verdicts.c.analysis_hash == evaluation.analysis_hash)
            )
            if subject is None:  # an evaluation judges a stored analysis: nothing is kept or published otherwise
                raise StoreError(404, "analysis_not_found",
                                 f"no analysis {evaluation.analysis_hash[:100]!r}: an evaluation needs the verdict it "
                                 "judges")
            if task_id and lease_required:
                await self._finish_lease(conn, task_id, annotator)
            revision = 1 if row is None else row.revision + 1
            evaluation = evaluation.model_copy(update={"created_at": now})
            values = dict(evaluation=evaluation.model_dump(mode="json"), revision=revision, updated_at=now)
            if row is None:
                await conn.execute(
                    evaluations.insert().values(
                        case_type=evaluation.case_type,
                        evaluation_id=evaluation.evaluation_id,
                        task_id=task_id,
                        analysis_hash=evaluation.analysis_hash,
                        subject=subject,
                        annotator=annotator,
                        created_at=now,
                        **values,
                    )
                )
            else:
                await conn.execute(
                    evaluations.update()
                    .where(evaluations.c.evaluation_id == evaluation.evaluation_id)
                    .values(case_type=evaluation.case_type, **({"task_id": task_id} if task_id else {}), **values)
                )
            record = AnnotationRecord(
                annotation_id=evaluation.evaluation_id,
                task_id=task_id,
                analysis_hash=evaluation.analysis_hash,
                annotator=annotator,
                kind="operator_evaluation",
                evaluation=evaluation,
                created_at=now,
                revision=revision,
            )
            await self._publish_or_settle(conn, record, overlap, now)
        return record, True

    # -- tasks several reviewers review: outcome and adjudication --------------------------
    async def _lock_task(self, conn: AsyncConnection, task_id: str | None) -> int:
        """Take the task's row lock for this transaction; the reviewers the task asked for (1 without a task)."""
        if not task_id:
            return 1
        await conn.execute(review_tasks.update().where(review_tasks.c.task_id == task_id)
                           .values(priority=review_tasks.c.priority))
        task = await conn.scalar(sa.select(review_tasks.c.task).where(review_tasks.c.task_id == task_id))
        return ReviewTask.model_validate(task).overlap if task else 1

    async def _publish_or_settle(self, conn: AsyncConnection, record: AnnotationRecord, overlap: int,
                                 now: datetime) -> None:
        """One reviewer decides a task without overlap: publish the review; else settle the task."""
        if overlap < 2 or not record.task_id:
            await self._enqueue(conn, record, record.revision, now)
        else:
            await self._settle(conn, record.task_id, overlap, now)

    async def _task_reviews(self, conn: AsyncConnection, task_id: str, kind: str) -> list[Review]:
        """Each reviewer's current review of the task."""
        if kind == "annotation":
            t = stored_annotations
            rows = (await conn.execute(
                sa.select(t.c.annotation_id.label("id"), t.c.annotator, t.c.annotation.label("doc"),
                                                 t.c.created_at, t.c.revision).where(t.c.task_id == task_id))).all()
        else:
            e = evaluations
            rows = (await conn.execute(
                sa.select(e.c.evaluation_id.label("id"), e.c.annotator, e.c.evaluation.label("doc"),
                                                 e.c.created_at, e.c.revision).where(e.c.task_id == task_id))).all()
        return [Review(r.id, r.annotator, r.doc, r.created_at, r.revision) for r in rows]

    async def _settle(self, conn: AsyncConnection, task_id: str, overlap: int, now: datetime) -> None:
        """The task's outcome from its reviews: disputed (one more reviewer's slot opens), or
        decided (its decided review enters the outbox). A decided task stays decided."""
        task = (await conn.execute(sa.select(review_tasks.c.kind, review_tasks.c.analysis_hash)
                                   .where(review_tasks.c.task_id == task_id))).first()
        current = (await conn.execute(sa.select(task_outcomes).where(task_outcomes.c.task_id == task_id))).first()
        if task is None or (current is not None and current.state in DECIDED):
            return
        reviews = await self._task_reviews(conn, task_id, task.kind)
        result = adjudication.outcome(task.kind, reviews, overlap)
        if result.state == "collecting":
            return
        if result.state == "disputed":
            values = dict(state="disputed", reviews=_listed(reviews), updated_at=now,
                          disputed=[{"judgement": d.judgement, "values": d.values} for d in result.disputed])
            if current is None:
                await conn.execute(task_outcomes.insert().values(task_id=task_id, analysis_hash=task.analysis_hash,
                                                                 kind=task.kind, overlap=overlap, created_at=now,
                                                                 **values))
                await conn.execute(review_tasks.update().where(review_tasks.c.task_id == task_id)
                                   .values(overlap=overlap + 1))  # a third reviewer may settle it
            else:
                await conn.execute(task_outcomes.update().where(task_outcomes.c.task_id == task_id).values(**values))
            return
        decided = Decided(
            task_id=task_id, analysis_hash=task.analysis_hash, kind=task.kind, how=result.state,  # type: ignore[arg-type]
            decided_by=adjudication.agreeing_reviewers(result.basis),
            document=adjudication.decided_document(task.kind, result.basis), reviews=reviews,
            disputed=[d.judgement for d in result.disputed], revision=(current.revision if current else 0) + 1,
            decided_at=now,
        )
        await self._decide(conn, decided, overlap, exists=current is not None)

    async def _decide(self, conn: AsyncConnection, decided: Decided, overlap: int, *, exists: bool) -> AnnotationRecord:
        """Keep the decided review, close the task's extra slot and publish the decided review."""
        now = decided.decided_at or utcnow()
        values = dict(state=decided.how, reviews=_listed(decided.reviews), document=decided.document,
                      decided_by=decided.decided_by, comment=decided.comment, revision=decided.revision,
                      decided_at=now, updated_at=now,
                      disputed=[{"judgement": d.judgement, "values": d.values}
                                for d in adjudication.disagreements(decided.kind, decided.reviews)])
        if exists:
            await conn.execute(
                task_outcomes.update().where(task_outcomes.c.task_id == decided.task_id).values(**values))
        else:
            await conn.execute(
                task_outcomes.insert().values(task_id=decided.task_id, analysis_hash=decided.analysis_hash,
                                                             kind=decided.kind, overlap=overlap, created_at=now,
                                              **values))
        await conn.execute(review_tasks.update().where(review_tasks.c.task_id == decided.task_id)
                           .values(overlap=max(overlap, len(decided.reviews))))
        record = adjudication.final_record(decided, core.finalize_evaluation)
        await self._enqueue(conn, record, record.revision, now)
        return record

    async def adjudicate(
        self, task_id: str, lead: str, *, document: dict[str, Any] | None = None, adopt: str | None = None,
        comment: str | None = None,
    ) -> AnnotationRecord:
        """A lead decides the task: adopting one reviewer's review (``adopt``: its id) or writing the
        decided review (``document``, already validated). Decides again a task decided before."""
        now = utcnow()
        async with self.engine.begin() as conn:
            overlap = await self._lock_task(conn, task_id)
            task = (await conn.execute(sa.select(review_tasks.c.kind, review_tasks.c.analysis_hash)
                                       .where(review_tasks.c.task_id == task_id))).first()
            if task is None:
                raise StoreError(404, "task_not_found", f"no review task {task_id!r}")
            current = (await conn.execute(sa.select(task_outcomes).where(task_outcomes.c.task_id == task_id))).first()
            if current is None:
                raise StoreError(409, "nothing_to_adjudicate", f"task {task_id!r} is not disputed: its reviewers have "
                                 "not all reviewed it, or one reviewer decides it")
            reviews = await self._task_reviews(conn, task_id, task.kind)
            if adopt is not None:
                chosen = next((r for r in reviews if r.annotation_id == adopt), None)
                if chosen is None:
                    raise StoreError(422, "unknown_review", f"{adopt!r} is not a review of task {task_id!r}")
                document = chosen.document
            if document is None:
                raise StoreError(422, "no_decision",
                                 "a decision adopts a reviewer's review or gives the decided review")
            decided = Decided(task_id=task_id, analysis_hash=task.analysis_hash, kind=task.kind, how="adjudicated",
                              decided_by=lead, document=document, reviews=reviews, comment=comment,
                              disputed=[d.judgement for d in adjudication.disagreements(task.kind, reviews)],
                              revision=current.revision + 1, decided_at=now)
            return await self._decide(conn, decided, overlap, exists=True)

    async def task_outcome(self, task_id: str) -> dict[str, Any] | None:
        """One task's outcome with every reviewer's review (what a lead reads to adjudicate)."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(task_outcomes).where(task_outcomes.c.task_id == task_id))).first()
            if row is None:
                return None
            reviews = await self._task_reviews(conn, task_id, row.kind)
        return {**_outcome(row), "reviews": [
            {"annotation_id": r.annotation_id, "annotator": r.annotator, "revision": r.revision,
             "submitted_at": r.submitted_at.isoformat(), "review": r.document} for r in reviews]}

    async def outcomes(self, *, state: str | None = None, limit: int = 100, offset: int = 0) -> list[dict[str, Any]]:
        """Task outcomes, newest first; ``state`` = disputed | decided | one of agreed, majority, adjudicated."""
        query = sa.select(task_outcomes).order_by(task_outcomes.c.updated_at.desc(), task_outcomes.c.task_id)
        if state == "decided":
            query = query.where(task_outcomes.c.state.in_(sorted(DECIDED)))
        elif state:
            query = query.where(task_outcomes.c.state == state)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query.limit(limit).offset(offset))).all()
        return [_outcome(r) for r in rows]

    async def decided_document(self, task_id: str) -> dict[str, Any] | None:
        """The task's decided review (None while it is undecided)."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(task_outcomes.c.state, task_outcomes.c.document)
                                      .where(task_outcomes.c.task_id == task_id))).first()
        return row.document if row is not None and row.state in DECIDED else None

    async def task_for_analysis(self, analysis_hash: str) -> ReviewTask | None:
        async with self.engine.connect() as conn:
            row = await conn.scalar(sa.select(review_tasks.c.task).where(review_tasks.c.analysis_hash == analysis_hash))
        return ReviewTask.model_validate(row) if row else None

    async def review_batches(self) -> list[dict[str, Any]]:
        """Every reviewer's review of a task several reviewers review, with its task's batch
        (the UTC day the task was created), for the agreement figures."""
        rows = []
        async with self.engine.connect() as conn:
            for table, id_col, doc_col, kind in (
                (stored_annotations, stored_annotations.c.annotation_id, stored_annotations.c.annotation, "annotation"),
                (evaluations, evaluations.c.evaluation_id, evaluations.c.evaluation, "operator_evaluation"),
            ):
                query = (sa.select(table.c.task_id, table.c.annotator, doc_col.label("doc"), review_tasks.c.task,
                                   review_tasks.c.created_at)
                         .select_from(table.join(review_tasks, review_tasks.c.task_id == table.c.task_id))
                         .order_by(review_tasks.c.created_at, table.c.task_id, id_col))
                for r in (await conn.execute(query)).all():
                    if ReviewTask.model_validate(r.task).overlap >= 2:
                        rows.append({"task_id": r.task_id, "annotator": r.annotator, "kind": kind, "review": r.doc,
                                     "batch": r.created_at.date().isoformat()})
        return rows

    async def _enqueue(self, conn: AsyncConnection, record: AnnotationRecord, revision: int, now: datetime) -> None:
        await conn.execute(
            outbox.insert().values(
                record_key=core.record_key(record, revision),
                stream=Stream.REVIEW_ANNOTATIONS.value,
                payload=record.model_dump_json(),
                created_at=now,
                published_at=None,
            )
        )

    # -- reads ----------------------------------------------------------------------------
    async def verdict(self, analysis_hash: str) -> tuple[HarnessVerdict, str] | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(verdicts.c.verdict, verdicts.c.subject).where(verdicts.c.analysis_hash == analysis_hash)
                )
            ).first()
        return (HarnessVerdict.model_validate(row.verdict), row.subject) if row else None

    async def latest_verdict(self, subject: str) -> HarnessVerdict | None:
        async with self.engine.connect() as conn:
            row = await conn.scalar(
                sa.select(verdicts.c.verdict)
                .where(verdicts.c.subject == subject)
                .order_by(verdicts.c.evaluated_at.desc(), verdicts.c.received_at.desc())
                .limit(1)
            )
        return HarnessVerdict.model_validate(row) if row else None

    async def evaluations_for(self, subject: str) -> list[OperatorEvaluation]:
        async with self.engine.connect() as conn:
            rows = (
                (
                    await conn.execute(
                        sa.select(evaluations.c.evaluation)
                        .where(evaluations.c.subject == subject)
                        .order_by(evaluations.c.created_at, evaluations.c.evaluation_id)
                    )
                )
                .scalars()
                .all()
            )
        return [OperatorEvaluation.model_validate(r) for r in rows]

    async def review_of(self, analysis_hash: str) -> dict[str, Any]:
        """One analysis's review as stored (``rcaloop show``): its task, each slot's annotator and
        state, its annotations and operator evaluations (latest revision each)."""
        async with self.engine.connect() as conn:
            task = await conn.scalar(
                sa.select(review_tasks.c.task).where(review_tasks.c.analysis_hash == analysis_hash))
            slots = (await conn.execute(
                sa.select(assignments.c.annotator, assignments.c.status, assignments.c.expires_at)
                .select_from(assignments.join(review_tasks, review_tasks.c.task_id == assignments.c.task_id))
                .where(review_tasks.c.analysis_hash == analysis_hash).order_by(assignments.c.slot))).all()
            notes = (
                await conn.execute(
                    sa.select(stored_annotations).where(stored_annotations.c.analysis_hash == analysis_hash)
                                        .order_by(stored_annotations.c.created_at))).all()
            evals = (await conn.execute(sa.select(evaluations).where(evaluations.c.analysis_hash == analysis_hash)
                                        .order_by(evaluations.c.created_at))).all()
            outcome = (await conn.execute(sa.select(task_outcomes)
                                          .where(task_outcomes.c.analysis_hash == analysis_hash))).first()
        now = self.clock()
        return {
            "task": ReviewTask.model_validate(task) if task else None,
            "slots": [{"annotator": s.annotator,
                       "state": "lease expired" if s.status == "leased" and s.expires_at <= now else s.status}
                      for s in slots],
            "reviews": [_annotation_record(r) for r in notes] + [_evaluation_record(r) for r in evals],
            "outcome": _outcome(outcome) if outcome is not None else None,
        }

    async def annotation_rows(self, *, since: datetime | None = None) -> list[dict[str, Any]]:
        """Every stored annotation with its task's overlap and verdict, oldest first (export, agreement)."""
        query = (
            sa.select(stored_annotations, verdicts.c.verdict.label("harness"), review_tasks.c.task.label("task"))
            .select_from(stored_annotations
                         .outerjoin(verdicts, verdicts.c.analysis_hash == stored_annotations.c.analysis_hash)
                         .outerjoin(review_tasks, review_tasks.c.task_id == stored_annotations.c.task_id))
            .order_by(stored_annotations.c.created_at, stored_annotations.c.annotation_id)
        )
        if since is not None:
            query = query.where(stored_annotations.c.updated_at >= since)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).mappings().all()
        return [{**r, "overlap": (r["task"] or {}).get("overlap", 1)} for r in rows]

    # -- artifacts (content-addressed) and drafts -------------------------------------------
    async def add_artifacts(self, analysis_hash: str, job_id: str | None, items: Sequence[Artifact]) -> int:
        """Keep an analysis's files unless present; a blob is stored once per content hash.

        Returns how many files were newly listed (0 for a redelivery).
        """
        return (await self.add_artifacts_batch([(analysis_hash, job_id, items)]))[0]

    async def add_artifacts_batch(self, entries: Sequence[tuple[str, str | None, Sequence[Artifact]]]) -> list[int]:
        """``add_artifacts`` of each (analysis hash, job id, files) in one transaction (a worker's
        batch); if a concurrent consumer stored one of them first, one entry at a time."""
        now = utcnow()
        hashes = list({analysis_hash for analysis_hash, _, _ in entries})
        try:
            async with self.engine.begin() as conn:
                have = set((await conn.execute(
                    sa.select(analysis_artifacts.c.analysis_hash, analysis_artifacts.c.name)
                    .where(analysis_artifacts.c.analysis_hash.in_(hashes)))).tuples())
                rows, counts = [], []
                for analysis_hash, job_id, items in entries:
                    new = [a for a in items if (analysis_hash, a.name) not in have]
                    have.update((analysis_hash, a.name) for a in new)
                    counts.append(len(new))
                    rows += [(analysis_hash, job_id, a) for a in new]
                digests = list({a.sha256 for _, _, a in rows if a.sha256})
                stored = set(
                    await conn.scalars(sa.select(artifact_blobs.c.sha256).where(artifact_blobs.c.sha256.in_(digests)))
                ) if digests else set()
                blobs = {
                    a.sha256: dict(sha256=a.sha256, media=a.media, size=a.size, body=a.body, created_at=now)
                    for _, _, a in rows
                    if a.sha256 and a.sha256 not in stored
                }
                if blobs:
                    await conn.execute(artifact_blobs.insert(), list(blobs.values()))
                if rows:
                    await conn.execute(analysis_artifacts.insert(), [
                        dict(analysis_hash=analysis_hash, name=a.name, job_id=job_id, sha256=a.sha256, size=a.size,
                             note=a.note, created_at=now)
                        for analysis_hash, job_id, a in rows
                    ])
        except IntegrityError:
            if len(entries) == 1:
                raise  # retried by the worker: the other consumer's files are then present
            return [(await self.add_artifacts_batch([entry]))[0] for entry in entries]
        return counts

    async def artifact_files(self, analysis_hash: str) -> dict[str, Any]:
        """The analysis's files as validation reads them (name → JSON, text or ``Unreadable``)."""
        query = (
            sa.select(analysis_artifacts.c.name, analysis_artifacts.c.note, artifact_blobs.c.media,
                      artifact_blobs.c.body)
            .select_from(
                analysis_artifacts.outerjoin(artifact_blobs, artifact_blobs.c.sha256 == analysis_artifacts.c.sha256)
            )
            .where(analysis_artifacts.c.analysis_hash == analysis_hash)
            .order_by(analysis_artifacts.c.name)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return {r.name: loaded(r.media or "json", r.body, r.note) for r in rows}

    async def latest_job_analysis(self, job_id: str) -> str | None:
        """The most recent analysis of a job whose files are kept (``rcaloop annotate`` without a job directory)."""
        async with self.engine.connect() as conn:
            return await conn.scalar(
                sa.select(analysis_artifacts.c.analysis_hash)
                .where(analysis_artifacts.c.job_id == job_id)
                .order_by(analysis_artifacts.c.created_at.desc(), analysis_artifacts.c.analysis_hash)
                .limit(1)
            )

    async def save_draft(self, task_id: str, annotator: str, body: dict[str, Any]) -> None:
        now = utcnow()
        async with self.engine.begin() as conn:
            done = await conn.execute(
                drafts.update()
                .where(drafts.c.task_id == task_id, drafts.c.annotator == annotator)
                .values(body=body, updated_at=now)
            )
            if done.rowcount == 0:
                try:
                    async with conn.begin_nested():
                        await conn.execute(
                            drafts.insert().values(task_id=task_id, annotator=annotator, body=body, updated_at=now)
                        )
                except IntegrityError:  # a concurrent save of the same draft inserted first
                    await conn.execute(
                        drafts.update()
                        .where(drafts.c.task_id == task_id, drafts.c.annotator == annotator)
                        .values(body=body, updated_at=now)
                    )

    async def draft(self, task_id: str, annotator: str) -> dict[str, Any] | None:
        async with self.engine.connect() as conn:
            return await conn.scalar(
                sa.select(drafts.c.body).where(drafts.c.task_id == task_id, drafts.c.annotator == annotator)
            )

    async def drop_draft(self, task_id: str, annotator: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(drafts.delete().where(drafts.c.task_id == task_id, drafts.c.annotator == annotator))

    # -- annotator tokens (only digests are stored) ----------------------------------------
    async def create_token(self, annotator: str, role: str = "reviewer") -> str:
        """A new random token for ``annotator`` with ``role``; returned once, stored only as its SHA-256."""
        token = secrets.token_urlsafe(32)
        async with self.engine.begin() as conn:
            await conn.execute(
                annotator_tokens.insert().values(
                    token_sha256=hashlib.sha256(token.encode()).hexdigest(), annotator=annotator, role=role,
                    created_at=utcnow(),
                )
            )
        return token

    async def revoke_tokens(self, annotator: str) -> int:
        async with self.engine.begin() as conn:
            result = await conn.execute(
                annotator_tokens.update()
                .where(annotator_tokens.c.annotator == annotator, annotator_tokens.c.revoked_at.is_(None))
                .values(revoked_at=utcnow())
            )
        return result.rowcount

    async def token_identity(self, token: str) -> tuple[str, str] | None:
        """(annotator, role) a stored, unrevoked token names."""
        return await self.token_digest_identity(hashlib.sha256(token.encode()).hexdigest())

    async def token_digest_identity(self, token_sha256: str) -> tuple[str, str] | None:
        """(annotator, role) a stored, unrevoked token names, by the token's SHA-256 (hex)."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(
                sa.select(annotator_tokens.c.annotator, annotator_tokens.c.role).where(
                    annotator_tokens.c.token_sha256 == token_sha256, annotator_tokens.c.revoked_at.is_(None)
                )
            )).first()
        return (row.annotator, row.role) if row else None

    # -- UI sessions (only digests are stored) ---------------------------------------------
    async def open_session(self, annotator: str, token_sha256: str, max_s: float) -> str:
        """A new random session secret for ``annotator``; returned once, stored only as its SHA-256."""
        secret, now = secrets.token_urlsafe(32), self.clock()
        async with self.engine.begin() as conn:
            await conn.execute(sessions.insert().values(
                session_sha256=_sha256(secret), annotator=annotator, token_sha256=token_sha256,
                created_at=now, seen_at=now, expires_at=now + max_s))
        return secret

    async def session(self, secret: str, idle_s: float) -> tuple[str, str] | None:
        """(annotator, token digest) of a live session; an expired or idle one is ended here.
        Use is recorded at most once a minute (a page view is not a write)."""
        key, now = _sha256(secret), self.clock()
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(sessions).where(sessions.c.session_sha256 == key))).first()
        if row is None:
            return None
        if now >= row.expires_at or now - row.seen_at > idle_s:
            await self.end_session(secret)
            return None
        if now - row.seen_at > 60:
            async with self.engine.begin() as conn:
                await conn.execute(sessions.update().where(sessions.c.session_sha256 == key).values(seen_at=now))
        return row.annotator, row.token_sha256

    async def end_session(self, secret: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(sessions.delete().where(sessions.c.session_sha256 == _sha256(secret)))

    async def end_sessions(self, annotator: str) -> int:
        """End every session of ``annotator`` (its tokens were revoked)."""
        async with self.engine.begin() as conn:
            return (await conn.execute(sessions.delete().where(sessions.c.annotator == annotator))).rowcount

    # -- retention ------------------------------------------------------------------------
    async def purge(self, *, drafts_older_than_s: float, outbox_older_than_s: float) -> dict[str, int]:
        """Delete what no one needs any more: ended sessions, drafts untouched for
        ``drafts_older_than_s`` and outbox rows published ``outbox_older_than_s`` ago. Reviews,
        evaluations, verdicts and the files they were judged against are never purged."""
        now = self.clock()
        wall = utcnow()
        async with self.engine.begin() as conn:
            ended = await conn.execute(sessions.delete().where(sessions.c.expires_at <= now))
            old_drafts = await conn.execute(drafts.delete().where(
                drafts.c.updated_at < wall - timedelta(seconds=drafts_older_than_s)))
            sent = await conn.execute(outbox.delete().where(
                outbox.c.published_at.is_not(None),
                outbox.c.published_at < wall - timedelta(seconds=outbox_older_than_s)))
        return {"sessions": ended.rowcount, "drafts": old_drafts.rowcount, "outbox": sent.rowcount}

    # -- outbox ---------------------------------------------------------------------------
    async def pending_outbox(self, limit: int = 100) -> list[tuple[str, str, str]]:
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(outbox.c.record_key, outbox.c.stream, outbox.c.payload)
                    .where(outbox.c.published_at.is_(None))
                    .order_by(outbox.c.created_at, outbox.c.record_key)
                    .limit(limit)
                )
            ).all()
        return [tuple(r) for r in rows]

    async def mark_published(self, keys: list[str]) -> None:
        if keys:
            async with self.engine.begin() as conn:
                await conn.execute(outbox.update().where(outbox.c.record_key.in_(keys)).values(published_at=utcnow()))


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _already_submitted(task_id: str, annotator: str) -> StoreError:
    return StoreError(409, "already_submitted", f"{annotator} already submitted task {task_id!r}")


def _listed(reviews: list[Review]) -> list[dict[str, Any]]:
    return [{"annotation_id": r.annotation_id, "annotator": r.annotator, "revision": r.revision} for r in reviews]


def _outcome(row) -> dict[str, Any]:
    """A task outcome row as the API shows it."""
    return {
        "task_id": row.task_id,
        "analysis_hash": row.analysis_hash,
        "kind": row.kind,
        "state": row.state,
        "overlap": row.overlap,
        "reviews": row.reviews,
        "disputed": row.disputed,
        "decided_by": row.decided_by,
        "decided_at": row.decided_at.isoformat() if row.decided_at else None,
        "comment": row.comment,
        "decided_review_id": adjudication.final_id(row.task_id) if row.state in DECIDED else None,
        "decided_review": row.document if row.state in DECIDED else None,
        "revision": row.revision,
    }


def _annotation_record(row) -> AnnotationRecord:
    return AnnotationRecord(
        annotation_id=row.annotation_id,
        task_id=row.task_id,
        analysis_hash=row.analysis_hash,
        annotator=row.annotator,
        kind="annotation",
        annotation=Annotation.model_validate(row.annotation),
        created_at=row.updated_at,
        revision=row.revision,
    )


def _evaluation_record(row) -> AnnotationRecord:
    return AnnotationRecord(
        annotation_id=row.evaluation_id,
        task_id=row.task_id,
        analysis_hash=row.analysis_hash,
        annotator=row.annotator,
        kind="operator_evaluation",
        evaluation=OperatorEvaluation.model_validate(row.evaluation),
        created_at=row.updated_at,
        revision=row.revision,
    )


async def open_store(url: str, *, schema: str | None = None) -> Store:
    """Create the engine and bring the schema to the latest migration."""
    store = Store(url, schema=schema)
    await store.migrate()
    return store
