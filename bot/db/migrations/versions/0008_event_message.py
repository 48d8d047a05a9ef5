"""the message that shows an event in its channel (its answer, or its late post), so /undo can mark it

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02 00:50:00.000000
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0008'
down_revision: str | Sequence[str] | None = '0007'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('events') as batch:
        # Events from before this revision have none: /undo takes them back without marking a message.
        batch.add_column(sa.Column('message_id', sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('events') as batch:
        batch.drop_column('message_id')
