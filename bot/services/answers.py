"""Which stored actions the user has seen: an event is committed unanswered, and marked answered once its
interaction's answer (or a late post in the channel, bot/ui/late.py) was sent.

An interaction whose answer failed (Discord's 3 s passed, a 429 on the callback, the gateway gone) or a
process killed between the commit and the answer leaves events unanswered: the bot posts them late, at
once or after its restart, so a user never repeats an action that already happened.

The marks are one UPDATE for every interaction answered meanwhile: while one is written, the next ones
gather (on SQLite the group committer merges it with the commands' own transactions too).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, cast

from sqlalchemy import Table, bindparam, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import Event, PendingDecision
from bot.services.results import EventView, PendingDecisionView, event_view, pending_view

if TYPE_CHECKING:
    from bot.services.runtime import Runtime

log = logging.getLogger(__name__)
EVENTS = cast(Table, Event.__table__)  # Core statements: one UPDATE for many rows (executemany)


def _view(row: Event) -> EventView:
    return event_view(row)
RECOVER_LIMIT = 200  # events posted late after one restart, at most (the oldest first)


class AnswerLog:
    def __init__(self, rt: Runtime) -> None:
        self._rt = rt
        self._recorded: set[int] = set()  # interactions that recorded an event (committed or not)
        self._marks: set[int] = set()  # answered interactions whose events are not marked yet
        # interactions that recorded an event -> the public message showing it, until that is written
        self._posted: dict[int, int] = {}
        self._writer: asyncio.Task[None] | None = None

    def recorded(self, interaction_id: int) -> None:
        """Inside the command's transaction: this interaction stores an event to answer."""
        self._recorded.add(interaction_id)

    def take(self, interaction_id: int) -> bool:
        """At the end of an interaction's handling: did it record an event? (asked once)"""
        if interaction_id in self._recorded:
            self._recorded.discard(interaction_id)
            return True
        return False

    def posted(self, interaction_id: int, message_id: int) -> None:
        """The interaction's first public message was sent: if it stored events, they are shown there (written
        soon, with the marks; /undo marks that message taken back)."""
        if interaction_id in self._recorded and interaction_id not in self._posted:
            self._posted[interaction_id] = message_id
            self._start()

    def posted_in(self, interaction_id: int | None) -> int | None:
        """The message showing the interaction's events, while it is not written yet (else None)."""
        return self._posted.get(interaction_id) if interaction_id is not None else None

    def answered(self, interaction_ids: Iterable[int]) -> None:
        """Their answers were sent: mark their events answered (soon, together with the others)."""
        self._marks.update(interaction_ids)
        self._start()

    def _start(self) -> None:
        if (self._marks or self._posted) and (self._writer is None or self._writer.done()):
            self._writer = asyncio.get_running_loop().create_task(self._write())

    async def _write(self) -> None:
        while self._marks or self._posted:
            ids, self._marks = sorted(self._marks), set()
            posted = dict(self._posted)

            async def work(session: AsyncSession, ids: Sequence[int] = ids, posted: dict[int, int] = posted) -> None:
                if posted:  # first: the events' answered mark may come in this same write
                    events = EVENTS
                    await session.execute(update(events).where(events.c.interaction_id == bindparam("interaction"),
                                                               events.c.answered.is_(False))
                                          .values(message_id=bindparam("message")),
                                          [{"interaction": i, "message": m} for i, m in posted.items()])
                if ids:
                    await session.execute(update(Event).where(Event.interaction_id.in_(ids),
                                                              Event.answered.is_(False))
                                          .values(answered=True).execution_options(synchronize_session=False))

            try:
                await self._rt.transact(None, work)
            except Exception:  # not marked: a restart posts them again, late; never fatal to the bot
                log.exception("could not mark %d answered interactions", len(ids))
            for interaction_id in posted:  # written (or given up on: the message is only not marked)
                self._posted.pop(interaction_id, None)

    async def flush(self) -> None:
        """Every mark asked for so far is written (the bot's shutdown)."""
        while self._writer is not None and not self._writer.done():
            await asyncio.shield(self._writer)

    async def unanswered(self, interaction_id: int) -> list[EventView]:
        """The events of one interaction still waiting for their answer."""

        async def work(session: AsyncSession) -> list[EventView]:
            rows = await session.scalars(select(Event).where(Event.interaction_id == interaction_id,
                                                             Event.answered.is_(False)).order_by(Event.id))
            return [_view(row) for row in rows]

        return await self._rt.read(work)

    async def left_unanswered(self, before: datetime, mine: Callable[[int], bool]) -> list[EventView]:
        """Events committed before ``before`` (this process's start) and never answered, in the servers
        ``mine`` says this process serves (another process answers its own): what a crash left."""

        async def work(session: AsyncSession) -> list[EventView]:
            query = select(Event).where(Event.answered.is_(False), Event.created_at < before)
            rows = await session.scalars(query.order_by(Event.id).limit(RECOVER_LIMIT * 4))
            return [_view(row) for row in rows if mine(row.guild_id)][:RECOVER_LIMIT]

        return await self._rt.read(work)

    async def mark_events(self, shown: Mapping[int, int | None]) -> None:
        """These events were shown (posted late; event id -> the message that shows them, if any): answered."""
        if not shown:
            return

        async def work(session: AsyncSession) -> None:
            await session.execute(update(Event).where(Event.id.in_(list(shown)))
                                  .values(answered=True).execution_options(synchronize_session=False))
            posted = [{"event": e, "message": m} for e, m in shown.items() if m is not None]
            if posted:
                events = EVENTS
                await session.execute(update(events).where(events.c.id == bindparam("event"))
                                      .values(message_id=bindparam("message")), posted)

        await self._rt.transact(None, work)

    async def open_decisions(self, event_ids: Sequence[int]) -> dict[int, list[PendingDecisionView]]:
        """The GM decisions these events asked for that are still open, by event: a late post carries their
        buttons, as the answer would have."""
        if not event_ids:
            return {}

        async def work(session: AsyncSession) -> dict[int, list[PendingDecisionView]]:
            rows = await session.scalars(select(PendingDecision).where(
                PendingDecision.event_id.in_(list(event_ids)), PendingDecision.choice.is_(None),
                PendingDecision.cancelled.is_(False)).order_by(PendingDecision.id))
            found: dict[int, list[PendingDecisionView]] = {}
            for row in rows:
                if row.event_id is not None:
                    found.setdefault(row.event_id, []).append(pending_view(row))
            return found

        return await self._rt.read(work)

    async def decisions_posted(self, channel_id: int, message_id: int, decision_ids: Sequence[int]) -> None:
        """A late post in ``channel_id`` carries these decisions' buttons: remember the message, so that a
        decision settled some other way (/pending-roll, a later action, /undo) takes them off it."""
        if not decision_ids:
            return

        async def work(session: AsyncSession) -> None:
            await session.execute(update(PendingDecision).where(
                PendingDecision.id.in_(list(decision_ids)), PendingDecision.channel_id == channel_id,
                PendingDecision.message_id.is_(None))
                .values(message_id=message_id, version=PendingDecision.version + 1)
                .execution_options(synchronize_session=False))

        await self._rt.transact(channel_id, work)
