"""characters.owner_name: the owner's display name when they made the character, how a page with no gateway cache
(grievous web) names an owner who has not acted since ("@a member" before)

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-07 16:30:00.000000
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0016'
down_revision: str | Sequence[str] | None = '0015'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('characters') as batch:
        batch.add_column(sa.Column('owner_name', sa.String(length=100), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('characters') as batch:
        batch.drop_column('owner_name')
