"""what each server's own commands were last synced as

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-30 16:00:00.000000
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0006'
down_revision: str | Sequence[str] | None = '0005'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('guild_command_syncs',
    sa.Column('guild_id', sa.BigInteger(), autoincrement=False, nullable=False),
    sa.Column('signature', sa.String(length=64), nullable=False),
    sa.Column('synced_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('guild_id', name=op.f('pk_guild_command_syncs'))
    )


def downgrade() -> None:
    op.drop_table('guild_command_syncs')
