"""which events' results the user has seen (an answer, or a late post in the channel)

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 22:40:00.000000
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0007'
down_revision: str | Sequence[str] | None = '0006'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('events') as batch:
        batch.add_column(sa.Column('interaction_id', sa.BigInteger(), nullable=True))
        # Events from before this revision were answered (or are past showing): none is posted late.
        batch.add_column(sa.Column('answered', sa.Boolean(), server_default=sa.text('true'), nullable=False))
    op.create_index('ix_events_unanswered', 'events', ['interaction_id'], unique=False,
                    sqlite_where=sa.text('NOT answered'), postgresql_where=sa.text('NOT answered'))


def downgrade() -> None:
    op.drop_index('ix_events_unanswered', table_name='events')
    with op.batch_alter_table('events') as batch:
        batch.drop_column('answered')
        batch.drop_column('interaction_id')
