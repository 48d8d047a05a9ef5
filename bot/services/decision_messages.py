"""The buttons on a message of the bot's, as the database records them: the one memory of sent messages (issue 38).

A GM decision's row names the message carrying its buttons (``PendingDecision.message_id``, written by the answer
log in one transaction with the id of the answer that shows its event, ``Event.message_id``; a late post writes
both too). So what a message carries is read here, never remembered by a process nor parsed back out of the
message: the GM's buttons of the decisions on it still open, in the order they were asked, then the Details
button of the action it answers. A restart changes nothing: a press or a settled decision after one finds the
same buttons as before it.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import Event, PendingDecision
from bot.services.results import ActionReport, PendingDecisionView, pending_view


@dataclass(frozen=True)
class MessageButtons:
    """What one message carries: the decisions whose GM buttons are on it (open ones only, oldest first) and the
    event whose Details button it has (the action it answers; None: none)."""

    decisions: tuple[PendingDecisionView, ...] = ()
    details: int | None = None


@dataclass(frozen=True)
class Pressed:
    """A GM press's result: the decision's report, and what the pressed message carries after it (None: not known,
    no message or one no decision row names yet: its buttons are left as they are)."""

    report: ActionReport
    left: MessageButtons | None = None


async def buttons_on(session: AsyncSession, guild_id: int, channel_id: int,
                     message_ids: Collection[int]) -> dict[int, MessageButtons]:
    """The buttons on each of ``message_ids`` in the channel (a message no decision row names is left out: it
    carries no GM button, or its record is not written yet).

    The decisions on a message were asked by one action; the message answers it (and has its Details) when that
    event's own message is this one: the message /undo posts with the decisions it opened again answers /undo,
    and carries no Details."""
    if not message_ids:
        return {}
    # One statement: the decisions found by their message (ix_pending_decisions_message_id, not every decision of
    # the channel), each with the message of the event that asked it.
    rows = await session.execute(
        select(PendingDecision, Event.message_id)
        .outerjoin(Event, (Event.id == PendingDecision.event_id) & (Event.guild_id == guild_id))
        .where(PendingDecision.message_id.in_(list(message_ids)), PendingDecision.guild_id == guild_id,
               PendingDecision.channel_id == channel_id)
        .order_by(PendingDecision.id))
    found: dict[int, MessageButtons] = {}
    for row, shown in rows:
        message_id = row.message_id or 0  # (selected by it: never None)
        was = found.get(message_id, MessageButtons())
        answers = row.event_id is not None and shown == message_id
        still_open = row.choice is None and not row.cancelled
        found[message_id] = MessageButtons(was.decisions + ((pending_view(row),) if still_open else ()),
                                           was.details or (row.event_id if answers else None))
    return found
