"""event_names: the characters each event names (by their names' skeletons), written with the event from now on
(bot/services/event_names.py) and filled here for the events stored before; what the web page's log filtered by a
character reads, where each process parsed a channel's 2,000 newest payloads on its first read
(bot/services/campaign.py, issue 33)

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-07 16:30:00.000000
"""
from collections.abc import Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.engine import Connection

from bot.db import json_text
from bot.text_safety import skeleton

revision: str = '0015'
down_revision: str | Sequence[str] | None = '0014'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 1000  # events read at a time
_EVENTS = sa.table('events', sa.column('id', sa.Integer), sa.column('guild_id'), sa.column('channel_id'),
                   sa.column('kind'), sa.column('payload'))
_NAMES = sa.table('event_names', sa.column('event_id'), sa.column('skeleton'), sa.column('guild_id'),
                  sa.column('channel_id'))


def upgrade() -> None:
    op.create_table(
        'event_names',
        sa.Column('event_id', sa.Integer(), nullable=False),
        sa.Column('skeleton', sa.Text(), nullable=False),
        sa.Column('guild_id', sa.BigInteger(), nullable=False),
        sa.Column('channel_id', sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_event_names_event_id_events'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('event_id', 'skeleton', name=op.f('pk_event_names')),
    )
    fill(op.get_bind())
    op.create_index('ix_event_names_channel', 'event_names', ['channel_id', 'guild_id', 'skeleton', 'event_id'],
                    unique=False)  # after the rows: built once


def downgrade() -> None:
    op.drop_index('ix_event_names_channel', table_name='event_names')
    op.drop_table('event_names')


def fill(connection: Connection) -> None:
    """Every stored event's rows, BATCH events at a time (one SELECT and one executemany INSERT each)."""
    after = 0
    while rows := connection.execute(
            sa.select(_EVENTS.c.id, _EVENTS.c.guild_id, _EVENTS.c.channel_id, _EVENTS.c.kind,
                      sa.cast(_EVENTS.c.payload, sa.Text))
            .where(_EVENTS.c.id > after).order_by(_EVENTS.c.id).limit(BATCH)).all():
        names = [{'event_id': event_id, 'skeleton': name, 'guild_id': guild_id, 'channel_id': channel_id}
                 for event_id, guild_id, channel_id, kind, payload in rows for name in skeletons(str(kind), payload)]
        if names:
            connection.execute(sa.insert(_NAMES), names)
        after = int(rows[-1][0])


def skeletons(kind: str, payload: str | None) -> list[str]:
    """The skeletons of the names a stored event names, each once: what its record's ``named`` gave when this
    revision was written (bot/services/event_records.py, event_kinds.py; read from the payload's keys here, as
    tolerantly as ``read_event``: a key of the wrong type is its field's default), so that a later change to the
    records does not change what this migration does. A payload that is not JSON names nobody: one odd row must
    not stop the bot's start."""
    try:
        loaded = json_text.loads(payload) if payload is not None else None
    except ValueError:
        return []
    data: Mapping[str, Any] = loaded if isinstance(loaded, Mapping) else {}
    return sorted({skeleton(name) for name in _named(kind, data)})


def _text(data: Mapping[str, Any], key: str, default: str = '?') -> str:
    value = data.get(key)
    return value if isinstance(value, str) else default


def _maybe(data: Mapping[str, Any], key: str) -> str | None:
    value = data.get(key)
    return value if isinstance(value, str) else None


def _texts(data: Mapping[str, Any], key: str) -> list[str]:
    value = data.get(key)
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _named(kind: str, data: Mapping[str, Any]) -> list[str]:
    if kind == 'roll':
        return []
    if kind == 'edit':
        return [_text(data, 'character')]
    if 'outcome' in data:  # an engine action: who acted on whom (older payloads: actor_name, target_name)
        actor, target = _text(data, 'actor'), _maybe(data, 'target')
        old_actor, old_target = _maybe(data, 'actor_name'), _maybe(data, 'target_name')
        if not data.get('actor') and old_actor:
            actor = old_actor
        if not data.get('target') and old_target:
            target = old_target
        return [actor, target] if target else [actor]
    if kind in ('join', 'add_npcs', 'leave'):
        return _texts(data, 'names')
    if kind == 'next_turn':
        ended = _maybe(data, 'ended')
        return [ended] if ended else []
    if kind == 'treatment_offer':
        return [_text(data, 'patient'), _text(data, 'healer')]
    if kind == 'defense_prompt':
        return [_text(data, 'target')]
    return []
