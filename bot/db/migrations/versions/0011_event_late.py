"""events.late: the event was shown by a late post (its answer failed), what a player's retry of it is matched
against (bot/services/retries.py, issue 35)

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-07 04:45:00.000000
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0011'
down_revision: str | Sequence[str] | None = '0010'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('events') as batch:
        batch.add_column(sa.Column('late', sa.Boolean(), server_default=sa.text('false'), nullable=False))


def downgrade() -> None:
    with op.batch_alter_table('events') as batch:
        batch.drop_column('late')
