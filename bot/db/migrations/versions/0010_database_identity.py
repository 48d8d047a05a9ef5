"""the database's own random id, also written beside a SQLite file: a start that finds the id file without its
database, or another database, refuses (issue 35, bot/db/identity.py)

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-07 04:30:00.000000
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0010'
down_revision: str | Sequence[str] | None = '0009'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('database_identity',
                    sa.Column('id', sa.String(length=64), nullable=False),
                    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
                    sa.PrimaryKeyConstraint('id'))


def downgrade() -> None:
    op.drop_table('database_identity')
