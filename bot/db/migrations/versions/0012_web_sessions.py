"""web_links and web_sessions: the web page's links and sessions in the database, so that any process serves
any of them and a revoke holds in every process (issue 33, bot/services/web_sessions.py)

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-07 08:40:00.000000
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0012'
down_revision: str | Sequence[str] | None = '0011'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('web_links',
                    sa.Column('token_hash', sa.String(length=64), nullable=False),
                    sa.Column('guild_id', sa.BigInteger(), nullable=False),
                    sa.Column('user_id', sa.BigInteger(), nullable=False),
                    sa.Column('grant', sa.Text(), nullable=False),
                    sa.Column('state', sa.String(length=8), nullable=False),
                    sa.Column('expires', sa.Float(), nullable=False),
                    sa.PrimaryKeyConstraint('token_hash'))
    op.create_index('ix_web_links_member', 'web_links', ['guild_id', 'user_id'])
    op.create_table('web_sessions',
                    sa.Column('id_hash', sa.String(length=64), nullable=False),
                    sa.Column('guild_id', sa.BigInteger(), nullable=False),
                    sa.Column('user_id', sa.BigInteger(), nullable=False),
                    sa.Column('grant', sa.Text(), nullable=False),
                    sa.Column('expires', sa.Float(), nullable=False),
                    sa.PrimaryKeyConstraint('id_hash'))
    op.create_index('ix_web_sessions_member', 'web_sessions', ['guild_id', 'user_id'])


def downgrade() -> None:
    op.drop_index('ix_web_sessions_member', table_name='web_sessions')
    op.drop_table('web_sessions')
    op.drop_index('ix_web_links_member', table_name='web_links')
    op.drop_table('web_links')
