"""The annotation store's tables (SQLAlchemy Core); the Alembic migrations create them.

Lease expiries are epoch seconds (a float compares the same on SQLite and PostgreSQL);
other timestamps are naive UTC ``DateTime`` columns read back as aware UTC.
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa

metadata = sa.MetaData()


class UTCDateTime(sa.TypeDecorator):
    impl = sa.DateTime
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is not None and value.tzinfo is not None:
            value = value.astimezone(UTC).replace(tzinfo=None)
        return value

    def process_result_value(self, value, dialect):
        if isinstance(value, str):
            value = datetime.fromisoformat(value)
        return value.replace(tzinfo=UTC) if value is not None and value.tzinfo is None else value


verdicts = sa.Table(
    "verdicts",
    metadata,
    sa.Column("analysis_hash", sa.String(128), primary_key=True),
    sa.Column("subject", sa.String(256), nullable=False, index=True),
    sa.Column("job_id", sa.String(256)),
    sa.Column("result_id", sa.String(256)),
    sa.Column("verdict", sa.JSON, nullable=False),
    sa.Column("evaluated_at", UTCDateTime, nullable=False),
    sa.Column("received_at", UTCDateTime, nullable=False),
)

review_tasks = sa.Table(
    "review_tasks",
    metadata,
    sa.Column("task_id", sa.String(64), primary_key=True),
    sa.Column("analysis_hash", sa.String(128), nullable=False, unique=True),
    sa.Column("subject", sa.String(256), nullable=False, index=True),
    sa.Column("job_id", sa.String(256)),
    sa.Column("kind", sa.String(32), nullable=False),
    sa.Column("verdict", sa.String(32), nullable=False),
    sa.Column("score", sa.Float, nullable=False),
    sa.Column("overlap", sa.Integer, nullable=False),
    sa.Column("priority", sa.Integer, nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("task", sa.JSON, nullable=False),
    sa.Column("red_flags", sa.Integer, nullable=False, server_default="0"),
)

assignments = sa.Table(
    "assignments",
    metadata,
    sa.Column("task_id", sa.String(64), sa.ForeignKey("review_tasks.task_id"), primary_key=True),
    sa.Column("slot", sa.Integer, primary_key=True),
    sa.Column("annotator", sa.String(128), nullable=False),
    sa.Column("status", sa.String(16), nullable=False),  # leased | released | submitted
    sa.Column("lease_id", sa.String(64), nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
    sa.Column("updated_at", UTCDateTime, nullable=False),
    sa.UniqueConstraint("task_id", "annotator", name="uq_assignment_annotator"),
)

stored_annotations = sa.Table(  # not `annotations`: that name is the __future__ feature
    "annotations",
    metadata,
    sa.Column("annotation_id", sa.String(64), primary_key=True),
    sa.Column("task_id", sa.String(64), index=True),
    sa.Column("analysis_hash", sa.String(128), nullable=False, index=True),
    sa.Column("job_id", sa.String(256), nullable=False, index=True),
    sa.Column("annotator", sa.String(128), nullable=False),
    sa.Column("revision", sa.Integer, nullable=False),
    sa.Column("annotation", sa.JSON, nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("updated_at", UTCDateTime, nullable=False),
)

evaluations = sa.Table(
    "evaluations",
    metadata,
    sa.Column("evaluation_id", sa.String(64), primary_key=True),
    sa.Column("task_id", sa.String(64)),
    sa.Column("analysis_hash", sa.String(128), nullable=False, index=True),
    sa.Column("subject", sa.String(256), nullable=False, index=True),
    sa.Column("annotator", sa.String(128), nullable=False),
    sa.Column("revision", sa.Integer, nullable=False),
    sa.Column("evaluation", sa.JSON, nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("updated_at", UTCDateTime, nullable=False),
    sa.Column("case_type", sa.String(32)),
)

outbox = sa.Table(
    "outbox",
    metadata,
    sa.Column("record_key", sa.String(128), primary_key=True),
    sa.Column("stream", sa.String(64), nullable=False),
    sa.Column("payload", sa.Text, nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("published_at", UTCDateTime, index=True),
)

annotator_tokens = sa.Table(
    "annotator_tokens",
    metadata,
    sa.Column("token_sha256", sa.String(64), primary_key=True),
    sa.Column("annotator", sa.String(128), nullable=False, index=True),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("revoked_at", UTCDateTime),
    sa.Column("role", sa.String(16), nullable=False, server_default="reviewer"),  # reviewer | operator | lead
)

artifact_blobs = sa.Table(
    "artifact_blobs",
    metadata,
    sa.Column("sha256", sa.String(64), primary_key=True),
    sa.Column("media", sa.String(16), nullable=False),  # json | text
    sa.Column("size", sa.Integer, nullable=False),
    sa.Column("body", sa.Text, nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
)

analysis_artifacts = sa.Table(
    "analysis_artifacts",
    metadata,
    sa.Column("analysis_hash", sa.String(128), primary_key=True),
    sa.Column("name", sa.String(128), primary_key=True),
    sa.Column("job_id", sa.String(256), index=True),
    sa.Column("sha256", sa.String(64)),  # null: not kept (the note says why)
    sa.Column("size", sa.Integer, nullable=False),
    sa.Column("note", sa.String(200)),
    sa.Column("created_at", UTCDateTime, nullable=False),
)

drafts = sa.Table(
    "drafts",
    metadata,
    sa.Column("task_id", sa.String(64), primary_key=True),
    sa.Column("annotator", sa.String(128), primary_key=True),
    sa.Column("body", sa.JSON, nullable=False),
    sa.Column("updated_at", UTCDateTime, nullable=False),
)

sessions = sa.Table(  # a UI sign-in: its own random secret, only the digest kept; ends at logout, idle or max age
    "sessions",
    metadata,
    sa.Column("session_sha256", sa.String(64), primary_key=True),
    sa.Column("annotator", sa.String(128), nullable=False, index=True),
    sa.Column("token_sha256", sa.String(64), nullable=False),  # the token it was opened with: revoked → session ends
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("seen_at", sa.Float, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False, index=True),
)

task_outcomes = sa.Table(  # a task several reviewers reviewed: disputed, or decided (agreed, majority, adjudicated)
    "task_outcomes",
    metadata,
    sa.Column("task_id", sa.String(64), sa.ForeignKey("review_tasks.task_id"), primary_key=True),
    sa.Column("analysis_hash", sa.String(128), nullable=False, index=True),
    sa.Column("kind", sa.String(32), nullable=False),
    sa.Column("state", sa.String(16), nullable=False, index=True),
    sa.Column("overlap", sa.Integer, nullable=False),  # the reviewers the task asked for
    sa.Column("reviews", sa.JSON, nullable=False),  # [{annotation_id, annotator, revision}] the outcome was read from
    sa.Column("disputed", sa.JSON, nullable=False),  # [{judgement, values: {annotator: value}}]
    sa.Column("document", sa.JSON),  # the decided review (null while disputed)
    sa.Column("decided_by", sa.String(256)),
    sa.Column("comment", sa.Text),
    sa.Column("revision", sa.Integer, nullable=False, server_default="0"),  # of the published decided review
    sa.Column("decided_at", UTCDateTime),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("updated_at", UTCDateTime, nullable=False),
)
