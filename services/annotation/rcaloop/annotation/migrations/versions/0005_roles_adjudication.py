"""Roles bound to stored tokens (reviewer by default), and the outcome of each reviewed task.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

from rcaloop.annotation.tables import UTCDateTime

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("annotator_tokens") as batch:
        batch.add_column(sa.Column("role", sa.String(16), nullable=False, server_default="reviewer"))
    op.create_table(
        "task_outcomes",
        sa.Column("task_id", sa.String(64), sa.ForeignKey("review_tasks.task_id"), primary_key=True),
        sa.Column("analysis_hash", sa.String(128), nullable=False, index=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("state", sa.String(16), nullable=False, index=True),
        sa.Column("overlap", sa.Integer, nullable=False),
        sa.Column("reviews", sa.JSON, nullable=False),
        sa.Column("disputed", sa.JSON, nullable=False),
        sa.Column("document", sa.JSON),
        sa.Column("decided_by", sa.String(256)),
        sa.Column("comment", sa.Text),
        sa.Column("revision", sa.Integer, nullable=False, server_default="0"),
        sa.Column("decided_at", UTCDateTime),
        sa.Column("created_at", UTCDateTime, nullable=False),
        sa.Column("updated_at", UTCDateTime, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("task_outcomes")
    with op.batch_alter_table("annotator_tokens") as batch:
        batch.drop_column("role")
