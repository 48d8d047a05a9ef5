"""initial tables

Revision ID: 0001
Revises: 
Create Date: 2026-11-29 14:18:50.592579
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = '0001'
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    
    op.create_table('channel_settings',
    sa.Column('guild_id', sa.BigInteger(), nullable=False),
    sa.Column('channel_id', sa.BigInteger(), autoincrement=False, nullable=False),
    sa.Column('system', sa.String(length=32), nullable=True),
    sa.PrimaryKeyConstraint('channel_id', name=op.f('pk_channel_settings'))
    )
    op.create_table('characters',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('guild_id', sa.BigInteger(), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('name_key', sa.String(length=100), nullable=False),
    sa.Column('owner_id', sa.BigInteger(), nullable=False),
    sa.Column('npc', sa.Boolean(), nullable=False),
    sa.Column('system', sa.String(length=32), nullable=False),
    sa.Column('sheet', sa.JSON().with_variant(postgresql.JSONB(), 'postgresql'), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_characters')),
    sa.UniqueConstraint('guild_id', 'name_key', name=op.f('uq_characters_guild_id_name_key'))
    )
    with op.batch_alter_table('characters', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_characters_guild_id'), ['guild_id'], unique=False)

    op.create_table('encounters',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('guild_id', sa.BigInteger(), nullable=False),
    sa.Column('channel_id', sa.BigInteger(), nullable=False),
    sa.Column('system', sa.String(length=32), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('turn', sa.Integer(), nullable=False),
    sa.Column('order', sa.JSON().with_variant(postgresql.JSONB(), 'postgresql'), nullable=False),
    sa.Column('active', sa.Boolean(), nullable=False),
    sa.Column('tracker_message_id', sa.BigInteger(), nullable=True),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_encounters'))
    )
    with op.batch_alter_table('encounters', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_encounters_channel_id'), ['channel_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_encounters_guild_id'), ['guild_id'], unique=False)
        batch_op.create_index('uq_encounters_active_channel', ['channel_id'], unique=True, sqlite_where=sa.text('active'), postgresql_where=sa.text('active'))

    op.create_table('guild_settings',
    sa.Column('guild_id', sa.BigInteger(), autoincrement=False, nullable=False),
    sa.Column('system', sa.String(length=32), nullable=True),
    sa.Column('gm_role_id', sa.BigInteger(), nullable=True),
    sa.Column('rolls_mode', sa.String(length=8), server_default='auto', nullable=False),
    sa.Column('rulings', sa.JSON().with_variant(postgresql.JSONB(), 'postgresql'), nullable=False),
    sa.PrimaryKeyConstraint('guild_id', name=op.f('pk_guild_settings'))
    )
    op.create_table('combatants',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('encounter_id', sa.Integer(), nullable=False),
    sa.Column('character_id', sa.Integer(), nullable=False),
    sa.Column('initiative', sa.Integer(), nullable=True),
    sa.Column('declaration', sa.JSON().with_variant(postgresql.JSONB(), 'postgresql'), nullable=False),
    sa.ForeignKeyConstraint(['character_id'], ['characters.id'], name=op.f('fk_combatants_character_id_characters'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['encounter_id'], ['encounters.id'], name=op.f('fk_combatants_encounter_id_encounters'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_combatants')),
    sa.UniqueConstraint('encounter_id', 'character_id', name=op.f('uq_combatants_encounter_id_character_id'))
    )
    with op.batch_alter_table('combatants', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_combatants_character_id'), ['character_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_combatants_encounter_id'), ['encounter_id'], unique=False)

    op.create_table('events',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('guild_id', sa.BigInteger(), nullable=False),
    sa.Column('channel_id', sa.BigInteger(), nullable=False),
    sa.Column('encounter_id', sa.Integer(), nullable=True),
    sa.Column('user_id', sa.BigInteger(), nullable=False),
    sa.Column('user_name', sa.String(length=100), nullable=False),
    sa.Column('kind', sa.String(length=32), nullable=False),
    sa.Column('payload', sa.JSON().with_variant(postgresql.JSONB(), 'postgresql'), nullable=False),
    sa.Column('before', sa.JSON().with_variant(postgresql.JSONB(), 'postgresql'), nullable=True),
    sa.Column('undone', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['encounter_id'], ['encounters.id'], name=op.f('fk_events_encounter_id_encounters'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_events'))
    )
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.create_index('ix_events_channel_id_id', ['channel_id', 'id'], unique=False)
        batch_op.create_index(batch_op.f('ix_events_encounter_id'), ['encounter_id'], unique=False)

    op.create_table('pending_decisions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('guild_id', sa.BigInteger(), nullable=False),
    sa.Column('channel_id', sa.BigInteger(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=True),
    sa.Column('character_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=32), nullable=False),
    sa.Column('who', sa.String(length=100), nullable=False),
    sa.Column('options', sa.JSON().with_variant(postgresql.JSONB(), 'postgresql'), nullable=False),
    sa.Column('choice', sa.String(length=64), nullable=True),
    sa.Column('decided_by', sa.BigInteger(), nullable=True),
    sa.Column('cancelled', sa.Boolean(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['character_id'], ['characters.id'], name=op.f('fk_pending_decisions_character_id_characters'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_pending_decisions_event_id_events'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_pending_decisions'))
    )
    with op.batch_alter_table('pending_decisions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_pending_decisions_guild_id'), ['guild_id'], unique=False)



def downgrade() -> None:
    
    with op.batch_alter_table('pending_decisions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_pending_decisions_guild_id'))

    op.drop_table('pending_decisions')
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_events_encounter_id'))
        batch_op.drop_index('ix_events_channel_id_id')

    op.drop_table('events')
    with op.batch_alter_table('combatants', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_combatants_encounter_id'))
        batch_op.drop_index(batch_op.f('ix_combatants_character_id'))

    op.drop_table('combatants')
    op.drop_table('guild_settings')
    with op.batch_alter_table('encounters', schema=None) as batch_op:
        batch_op.drop_index('uq_encounters_active_channel', sqlite_where=sa.text('active'), postgresql_where=sa.text('active'))
        batch_op.drop_index(batch_op.f('ix_encounters_guild_id'))
        batch_op.drop_index(batch_op.f('ix_encounters_channel_id'))

    op.drop_table('encounters')
    with op.batch_alter_table('characters', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_characters_guild_id'))

    op.drop_table('characters')
    op.drop_table('channel_settings')
