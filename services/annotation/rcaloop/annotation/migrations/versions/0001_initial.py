"""Initial annotation store: verdicts, review tasks with leases, annotations, evaluations, outbox.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

from rcaloop.annotation.tables import UTCDateTime

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "verdicts",
        sa.Column("analysis_hash", sa.String(128), primary_key=True),
        sa.Column("subject", sa.String(256), nullable=False, index=True),
        sa.Column("job_id", sa.String(256)),
        sa.Column("result_id", sa.String(256)),
        sa.Column("verdict", sa.JSON, nullable=False),
        sa.Column("evaluated_at", UTCDateTime, nullable=False),
        sa.Column("received_at", UTCDateTime, nullable=False),
    )
    op.create_table(
        "review_tasks",
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
    )
    op.create_table(
        "assignments",
        sa.Column("task_id", sa.String(64), sa.ForeignKey("review_tasks.task_id"), primary_key=True),
        sa.Column("slot", sa.Integer, primary_key=True),
        sa.Column("annotator", sa.String(128), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("lease_id", sa.String(64), nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
        sa.Column("updated_at", UTCDateTime, nullable=False),
        sa.UniqueConstraint("task_id", "annotator", name="uq_assignment_annotator"),
    )
    op.create_table(
        "annotations",
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
    op.create_table(
        "evaluations",
        sa.Column("evaluation_id", sa.String(64), primary_key=True),
        sa.Column("task_id", sa.String(64)),
        sa.Column("analysis_hash", sa.String(128), nullable=False, index=True),
        sa.Column("subject", sa.String(256), nullable=False, index=True),
        sa.Column("annotator", sa.String(128), nullable=False),
        sa.Column("revision", sa.Integer, nullable=False),
        sa.Column("evaluation", sa.JSON, nullable=False),
        sa.Column("created_at", UTCDateTime, nullable=False),
        sa.Column("updated_at", UTCDateTime, nullable=False),
    )
    op.create_table(
        "outbox",
        sa.Column("record_key", sa.String(128), primary_key=True),
        sa.Column("stream", sa.String(64), nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("created_at", UTCDateTime, nullable=False),
        sa.Column("published_at", UTCDateTime, index=True),
    )


def downgrade() -> None:
    for table in ("outbox", "evaluations", "annotations", "assignments", "review_tasks", "verdicts"):
        op.drop_table(table)
