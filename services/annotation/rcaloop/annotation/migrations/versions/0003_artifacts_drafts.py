"""Artifacts travel with the task (content-addressed blobs per analysis), reviewers' drafts,
and the queue's filter columns (red flag count of a task, case type of an evaluation).

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

from rcaloop.annotation.tables import UTCDateTime

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("review_tasks") as batch:
        batch.add_column(sa.Column("red_flags", sa.Integer, nullable=False, server_default="0"))
    with op.batch_alter_table("evaluations") as batch:
        batch.add_column(sa.Column("case_type", sa.String(32)))
    op.create_table(
        "artifact_blobs",
        sa.Column("sha256", sa.String(64), primary_key=True),
        sa.Column("media", sa.String(16), nullable=False),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("created_at", UTCDateTime, nullable=False),
    )
    op.create_table(
        "analysis_artifacts",
        sa.Column("analysis_hash", sa.String(128), primary_key=True),
        sa.Column("name", sa.String(128), primary_key=True),
        sa.Column("job_id", sa.String(256), index=True),
        sa.Column("sha256", sa.String(64)),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("note", sa.String(200)),
        sa.Column("created_at", UTCDateTime, nullable=False),
    )
    op.create_table(
        "drafts",
        sa.Column("task_id", sa.String(64), primary_key=True),
        sa.Column("annotator", sa.String(128), primary_key=True),
        sa.Column("body", sa.JSON, nullable=False),
        sa.Column("updated_at", UTCDateTime, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("drafts")
    op.drop_table("analysis_artifacts")
    op.drop_table("artifact_blobs")
    with op.batch_alter_table("evaluations") as batch:
        batch.drop_column("case_type")
    with op.batch_alter_table("review_tasks") as batch:
        batch.drop_column("red_flags")
