"""the GM's table tools: turn order, secret NPC rolls and the GM channel; NPCs that belong to an encounter

Revision ID: 0005
Revises: 0003
Create Date: 2026-11-30 17:00:00.000000
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0005'
down_revision: str | Sequence[str] | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('guild_settings', schema=None) as batch_op:
        batch_op.add_column(sa.Column('turns', sa.String(length=8), server_default='warn', nullable=False))
        batch_op.add_column(sa.Column('secret_rolls', sa.Boolean(), server_default=sa.text('false'), nullable=False))
        batch_op.add_column(sa.Column('gm_channel_id', sa.BigInteger(), nullable=True))
    with op.batch_alter_table('characters', schema=None) as batch_op:
        batch_op.add_column(sa.Column('encounter_id', sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f('ix_characters_encounter_id'), ['encounter_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('characters', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_characters_encounter_id'))
        batch_op.drop_column('encounter_id')
    with op.batch_alter_table('guild_settings', schema=None) as batch_op:
        batch_op.drop_column('gm_channel_id')
        batch_op.drop_column('secret_rolls')
        batch_op.drop_column('turns')
