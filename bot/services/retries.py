"""A player's retry is never a second wound. Discord never sends an interaction twice: a retry is a new
interaction. It is known by its declaration instead: the same member, in the same channel, asking the same
actor for the same action on the same target with the same options and the same typed dice, within ``WINDOW``
of an event whose answer failed or was posted late (bot/ui/late.py). That one is refused with a line saying
when it was applied. An earlier action whose answer the player saw never refuses the next one: that is a real
second attack.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import Event
from bot.errors import UserError
from bot.services.event_records import ActionEvent, read_event

if TYPE_CHECKING:
    from bot.services.actions import ActionCall
    from bot.services.actor import Actor
    from bot.services.runtime import Runtime

WINDOW = timedelta(minutes=10)
RECENT = 50  # the channel's newest events looked at (by the channel's index), newest first


class AlreadyApplied(UserError):
    """The action was applied already; its answer failed, and the player sent it again."""


def _same(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


async def refuse_a_retry(rt: Runtime, session: AsyncSession, actor: Actor, call: ActionCall,
                         typed_dice: Mapping[str, list[int]]) -> None:
    """AlreadyApplied when ``call`` repeats an action of the same member whose answer failed or was posted
    late, within WINDOW; else nothing. ``typed_dice`` are the faces its dice option forced (parsed: the same
    faces typed in another order are the same declaration; other faces are a new one)."""
    if actor.interaction_id is None:  # the playground, a test: no answer that could have failed
        return
    failed = rt.answers.failed_ids()
    since = _aware(rt.clock()) - WINDOW
    rows = (await session.execute(
        select(Event.id, Event.user_id, Event.kind, Event.created_at, Event.undone, Event.late, Event.interaction_id)
        .where(Event.channel_id == actor.channel_id).order_by(Event.id.desc()).limit(RECENT))).all()
    candidates = [row.id for row in rows if row.user_id == actor.user_id and row.kind == call.kind
                  and not row.undone and _aware(row.created_at) >= since
                  and (row.late or row.interaction_id in failed)]
    if not candidates:
        return
    target = call.target.name if call.target is not None else None
    wanted, dice = _same(dict(call.action)), _same(dict(typed_dice))
    for payload, created_at in (await session.execute(
            select(Event.payload, Event.created_at).where(Event.id.in_(candidates))
            .order_by(Event.id.desc()))).all():
        done = read_event(call.kind, payload) if isinstance(payload, Mapping) else None
        if not isinstance(done, ActionEvent):
            continue
        if done.actor == call.actor_character.name and done.target == target and _same(done.action) == wanted \
                and _same(done.typed_dice) == dice:
            when = _aware(created_at)
            raise AlreadyApplied(applied_line(call.kind, target, when), markup=(_time_of(when),))


def applied_line(kind: str, target: str | None, when: datetime) -> str:
    """"Your attack on Bandit 1 was applied at 20:14; see above." (the time in the reader's own zone)"""
    what = kind.replace("_", " ") + (f" on {target}" if target else "")
    return f"Your {what} was applied at {_time_of(when)}; see above."


def _time_of(when: datetime) -> str:
    """Discord's timestamp markup: the time in the reader's own zone."""
    return f"<t:{int(when.timestamp())}:t>"
