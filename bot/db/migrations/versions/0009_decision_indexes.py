"""indexes on pending_decisions' character, channel and event: an attack that asked the GM something read
every decision ever made to find its characters' open ones (issue 23)

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02 04:15:00.000000
"""
from collections.abc import Sequence

from alembic import op

revision: str = '0009'
down_revision: str | Sequence[str] | None = '0008'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEXES = {'ix_pending_decisions_character_id': 'character_id', 'ix_pending_decisions_channel_id': 'channel_id',
           'ix_pending_decisions_event_id': 'event_id'}


def upgrade() -> None:
    for name, column in INDEXES.items():
        op.create_index(name, 'pending_decisions', [column], unique=False)


def downgrade() -> None:
    for name in INDEXES:
        op.drop_index(name, table_name='pending_decisions')
