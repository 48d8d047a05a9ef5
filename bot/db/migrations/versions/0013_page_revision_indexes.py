"""indexes on events' guild and id and on channel_settings' guild: the web pages' revision reads a guild's newest
event and its channels' systems at every request, which without them scanned the tables (bot/services/campaign.py,
issue 33)

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-07 13:10:00.000000
"""
from collections.abc import Sequence

from alembic import op

revision: str = '0013'
down_revision: str | Sequence[str] | None = '0012'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index('ix_events_guild_id_id', 'events', ['guild_id', 'id'], unique=False)
    op.create_index('ix_channel_settings_guild_id', 'channel_settings', ['guild_id'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_channel_settings_guild_id', table_name='channel_settings')
    op.drop_index('ix_events_guild_id_id', table_name='events')
