"""Annotator tokens stored as SHA-256 digests (``rcaloop annotation token create``).

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

from rcaloop.annotation.tables import UTCDateTime

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "annotator_tokens",
        sa.Column("token_sha256", sa.String(64), primary_key=True),
        sa.Column("annotator", sa.String(128), nullable=False, index=True),
        sa.Column("created_at", UTCDateTime, nullable=False),
        sa.Column("revoked_at", UTCDateTime),
    )


def downgrade() -> None:
    op.drop_table("annotator_tokens")
