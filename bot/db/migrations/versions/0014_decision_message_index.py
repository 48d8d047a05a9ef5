"""an index on pending_decisions' message: what a message carries (a GM press, a settled decision's buttons taken
off) was found through the channel's index, reading every decision of the channel (issue 38)

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-07 13:20:00.000000
"""
from collections.abc import Sequence

from alembic import op

revision: str = '0014'
down_revision: str | Sequence[str] | None = '0013'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index('ix_pending_decisions_message_id', 'pending_decisions', ['message_id'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_pending_decisions_message_id', table_name='pending_decisions')
