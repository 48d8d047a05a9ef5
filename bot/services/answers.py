"""Which stored actions the user has seen: an event is committed unanswered, and marked answered once its
interaction's answer (or a late post in the channel, bot/ui/late.py) was sent.

An interaction whose answer failed (Discord's 3 s passed, a 429 on the callback, the gateway gone) or a
process killed between the commit and the answer leaves events unanswered: the bot posts them late, at
once or after its restart, so a user never repeats an action that already happened.

The marks are one UPDATE for every interaction answered meanwhile, which stores the message each answer was
too (the answer's message id is kept here until then: /undo reads it from ``posted_in``): while one is
written, the next ones gather (on SQLite the group committer merges it with the commands' own transactions
too). The message carrying a GM decision's buttons is written in the same transaction as whatever waits
(``decisions_on``), and awaited: one transaction after an answer, two when it asks the GM something.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, NamedTuple, cast

from sqlalchemy import Table, bindparam, select, text, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import Event, GuildSettings, PendingDecision
from bot.services.event_records import ActionEvent, EventRecord, Hidden, RollEvent, read_event
from bot.services.projection import projected
from bot.services.results import EventView, PendingDecisionView, event_view, pending_view
from bot.services.viewer import GM_SCREEN, TABLE_SCREEN

if TYPE_CHECKING:
    from bot.services.transactions import Transactions

log = logging.getLogger(__name__)
EVENTS = cast(Table, Event.__table__)  # Core statements: one UPDATE for many rows (executemany)
DECISIONS = cast(Table, PendingDecision.__table__)
# Events not answered yet, said as the partial index ix_events_unanswered says it: SQLAlchemy's
# ``answered.is_(False)`` (``answered IS 0`` on SQLite, ``IS false`` on PostgreSQL) does not match the index's
# ``NOT answered``, and both databases then scanned every event the database holds for every answer.
UNANSWERED = text("NOT events.answered")
# How many written answers' message ids stay known to ``posted_in``: far more than answers in flight at once.
WRITTEN_KEPT = 1024


async def _store(session: AsyncSession, *, shown: list[dict[str, int]], only_posted: list[dict[str, int]],
                 only_marked: list[int], on_messages: list[dict[str, int]]) -> None:
    """The answer log's one write: answers' message ids with their marks, message ids alone, marks alone, and
    the messages carrying decisions' buttons; each an executemany of one statement, none when empty."""
    events, unanswered = EVENTS, UNANSWERED
    by_interaction = events.c.interaction_id == bindparam("interaction")
    if shown:
        await session.execute(update(events).where(by_interaction, unanswered)
                              .values(message_id=bindparam("message"), answered=True), shown)
    if only_posted:
        await session.execute(update(events).where(by_interaction, unanswered)
                              .values(message_id=bindparam("message")), only_posted)
    if only_marked:
        await session.execute(update(events).where(events.c.interaction_id.in_(only_marked), unanswered)
                              .values(answered=True))
    if on_messages:
        table = DECISIONS
        await session.execute(update(table).where(table.c.id == bindparam("decision"),
                                                  table.c.guild_id == bindparam("guild"),
                                                  table.c.channel_id == bindparam("channel"))
                              .values(message_id=bindparam("message")), on_messages)


def _view(row: Event) -> EventView:
    """A stored event as its late post in the channel may show it (bot/services/projection.py). Its secret flags
    were set under the server's secret rolls, so the channel reads it with them on."""
    return projected(event_view(row), TABLE_SCREEN)
RECOVER_LIMIT = 200  # events posted late after one restart, at most (the oldest first)
FAILED_KEPT = 600.0  # seconds a failed answer is remembered: a retry within 10 minutes is matched
MARK_RETRY_FIRST, MARK_RETRY_MAX = 0.5, 30.0  # seconds between tries of a mark that failed: doubling, capped


def _secret_with_rolls(record: EventRecord) -> bool:
    """An NPC's secret action, or a secret /roll, with dice the GM is to be given."""
    return isinstance(record, ActionEvent | RollEvent) and record.secret and not isinstance(record.rolls, Hidden) \
        and bool(record.rolls)


class GMPart(NamedTuple):
    """The GM's part of a secret action's late post: the whole event, and where it goes."""
    for_gm: EventView  # projected for the GM (GM_SCREEN): whole
    guild_id: int
    gm_channel_id: int | None  # None: the server has no GM channel (its owner gets it by DM)


def _writes(ids: set[int], posted: dict[int, int],
            decisions: dict[tuple[int, int, int], set[int]]) -> Callable[[AsyncSession], Awaitable[None]]:
    """The answer log's write of these marks, message ids and decisions' messages: one statement per kind of write,
    each an executemany; an answer's message id and its mark together."""
    shown = [{"interaction": i, "message": m} for i, m in sorted(posted.items()) if i in ids]
    only_posted = [{"interaction": i, "message": m} for i, m in sorted(posted.items()) if i not in ids]
    only_marked = sorted(ids - posted.keys())
    on_messages = [{"message": m, "decision": d, "guild": g, "channel": c}
                   for (g, c, m), wanted in decisions.items() for d in sorted(wanted)]
    return functools.partial(_store, shown=shown, only_posted=only_posted, only_marked=only_marked,
                             on_messages=on_messages)


class AnswerLog:
    def __init__(self, transactions: Transactions) -> None:
        """``transactions``: where its reads and writes run (the runtime's ``TransactionRunner``)."""
        self._transactions = transactions
        self._recorded: set[int] = set()  # interactions that recorded an event (committed or not)
        self._failed: dict[int, float] = {}  # interactions whose answer failed -> when (time.monotonic)
        self._marks: set[int] = set()  # answered interactions whose events are not marked yet
        # interactions that recorded an event -> the public message showing it, until that is written
        self._posted: dict[int, int] = {}
        # ... and those written lately: /undo's read of an event may have begun before their write committed
        # (PostgreSQL's READ COMMITTED), so it finds neither the row's message id nor a ``_posted`` entry
        self._written: OrderedDict[int, int] = OrderedDict()
        # decisions' buttons posted, (guild, channel, message) -> decision ids, and who waits for their write
        self._decisions: dict[tuple[int, int, int], set[int]] = {}
        self._waiting: list[asyncio.Future[None]] = []
        # a message whose decisions are noted and not written yet -> the write that stores them (``placed``)
        self._unplaced: dict[tuple[int, int, int], asyncio.Future[None]] = {}
        self._flushing = False  # flush(): write message ids whose marks never came too
        self._writer: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()  # ends the wait between a failed mark's tries (flush)

    def recorded(self, interaction_id: int) -> None:
        """Inside the command's transaction: this interaction stores an event to answer."""
        self._recorded.add(interaction_id)

    def failed(self, interaction_id: int) -> None:
        """The interaction's answer failed: until its late post is marked (``late``), a retry is matched by it."""
        now = time.monotonic()
        self._failed = {i: t for i, t in self._failed.items() if now - t < FAILED_KEPT}
        self._failed[interaction_id] = now

    def failed_ids(self) -> list[int]:
        """Interactions whose answer failed lately (bot/services/retries.py)."""
        return list(self._failed)

    def stored(self, interaction_id: int) -> bool:
        """Whether the interaction recorded an event (not yet taken): its answer is owed."""
        return interaction_id in self._recorded

    def take(self, interaction_id: int) -> bool:
        """At the end of an interaction's handling: did it record an event? (asked once)"""
        if interaction_id in self._recorded:
            self._recorded.discard(interaction_id)
            return True
        return False

    def posted(self, interaction_id: int, message_id: int) -> None:
        """The interaction's first public message was sent: if it stored events, they are shown there (written
        with the interaction's answered mark, in one UPDATE; /undo meanwhile reads it from here)."""
        if interaction_id in self._recorded and interaction_id not in self._posted:
            self._posted[interaction_id] = message_id

    def posted_in(self, interaction_id: int | None) -> int | None:
        """The message showing the interaction's events, while it is not written yet or was written lately
        (else None)."""
        if interaction_id is None:
            return None
        return self._posted.get(interaction_id) or self._written.get(interaction_id)

    def answered(self, interaction_ids: Iterable[int]) -> None:
        """Their answers were sent: mark their events answered (soon, together with the others)."""
        self._marks.update(interaction_ids)
        self._start()

    async def decisions_on(self, guild_id: int, channel_id: int, message_id: int, decision_ids: Iterable[int]) -> None:
        """These decisions' buttons are on ``message_id`` in the channel (the answer that asks them): stored in
        the same transaction as whatever else waits to be written (the answer's own message id), and returned
        once committed, so that a later command settling one finds the message to take its buttons off.
        Decisions of another channel or server are left alone."""
        wanted = set(decision_ids)
        if not wanted:
            return
        self._decisions.setdefault((guild_id, channel_id, message_id), set()).update(wanted)
        written = asyncio.get_running_loop().create_future()
        self._waiting.append(written)
        self._unplaced[(guild_id, channel_id, message_id)] = written
        self._start()
        await asyncio.shield(written)

    async def placed(self, guild_id: int, channel_id: int, message_id: int) -> None:
        """Returns once the decisions this process noted on ``message_id`` are written (at once when none wait):
        the answer is sent before its message id is known, so a GM pressing within milliseconds of it comes before
        the write, and would read the message as carrying nothing. Whether the write stuck is not said here: a
        message the database still does not place is the press's to leave alone (``CombatService.press``)."""
        written = self._unplaced.get((guild_id, channel_id, message_id))
        if written is not None:
            await asyncio.wait([written])  # its failure is the poster's to hear

    def _tell(self, waiting: list[asyncio.Future[None]], error: Exception | None) -> None:
        """Those waiting for a write hear that it is done, or its error; its messages are no longer unplaced."""
        for future in waiting:
            if future.done():
                continue
            if error is None:
                future.set_result(None)
            else:
                future.set_exception(error)
        self._unplaced = {key: written for key, written in self._unplaced.items() if not written.done()}

    def _due(self) -> bool:
        """Something to write: marks or decisions (a message id alone waits for its mark, unless flushing)."""
        return bool(self._marks or self._decisions or (self._flushing and self._posted))

    def _start(self) -> None:
        if self._due() and (self._writer is None or self._writer.done()):
            self._writer = asyncio.get_running_loop().create_task(self._write())

    async def _write(self) -> None:
        failures = 0
        while self._due():
            ids, self._marks = set(self._marks), set()
            posted = dict(self._posted)
            decisions, self._decisions = self._decisions, {}
            waiting, self._waiting = self._waiting, []
            try:
                await self._transactions.transact(None, _writes(ids, posted, decisions))
            except Exception as exc:
                self._tell(waiting, exc)  # whoever waits on a decision's message hears of it (its buttons still work)
                if self._flushing:  # the bot is closing: what is left unmarked, the next start finds in the channel
                    log.warning("could not mark %d answered interactions before closing: %s", len(ids), exc)
                    for interaction_id in posted:
                        self._posted.pop(interaction_id, None)
                    return
                failures += 1
                await self._retry_later(ids, failures, exc)
                continue
            self._tell(waiting, None)
            if failures:
                log.warning("the answered marks stuck after %d failed tries", failures)
                failures = 0
            for interaction_id, message_id in posted.items():  # written (unless a newer one came meanwhile)
                if self._posted.get(interaction_id) == message_id:
                    del self._posted[interaction_id]
                self._written[interaction_id] = message_id
            while len(self._written) > WRITTEN_KEPT:
                self._written.popitem(last=False)

    async def _retry_later(self, ids: set[int], failures: int, exc: Exception) -> None:
        """Not marked, they would be posted again after a restart: kept, and written again until it sticks, after
        a pause that doubles with each failed try (flush() ends it: one last try before closing)."""
        self._marks |= ids
        if failures == 1:
            log.warning("could not mark %d answered interactions; trying again until it sticks: %s", len(ids), exc)
        self._wake.clear()
        pause = min(MARK_RETRY_MAX, MARK_RETRY_FIRST * 2 ** (failures - 1))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), pause)

    async def flush(self) -> None:
        """Every mark and message id noted so far is written (the bot's shutdown)."""
        self._flushing = True
        self._wake.set()
        try:
            self._start()
            while self._writer is not None and not self._writer.done():
                await asyncio.shield(self._writer)
        finally:
            self._flushing = False

    async def unanswered(self, interaction_id: int) -> list[EventView]:
        """The events of one interaction still waiting for their answer."""

        async def work(session: AsyncSession) -> list[EventView]:
            query = select(Event).where(Event.interaction_id == interaction_id, UNANSWERED)
            rows = await session.scalars(query.order_by(Event.id))
            return [_view(row) for row in rows]

        return await self._transactions.read(work)

    async def left_unanswered(self, before: datetime, mine: Callable[[int], bool]) -> list[EventView]:
        """Events committed before ``before`` (this process's start) and never answered, in the servers
        ``mine`` says this process serves (another process answers its own): what a crash left."""

        async def work(session: AsyncSession) -> list[EventView]:
            query = select(Event).where(UNANSWERED, Event.created_at < before)
            rows = await session.scalars(query.order_by(Event.id).limit(RECOVER_LIMIT * 4))
            return [_view(row) for row in rows if mine(row.guild_id)][:RECOVER_LIMIT]

        return await self._transactions.read(work)

    async def mark_events(self, shown: Mapping[int, int | None], late: Iterable[int] = ()) -> None:
        """These events were shown (event id -> the message that shows them, if any): answered; those in
        ``late`` by a late post (what a player's retry is matched against). The decisions an event asked that no
        message holds yet are on the message showing it: an answer found in the channel after a crash between its
        sending and the write of its message (bot/ui/late.py: recover) carries them, and a press on it then finds
        them (bot/services/decision_messages.py)."""
        if not shown:
            return
        posted_late = [event_id for event_id in late if event_id in shown]

        async def work(session: AsyncSession) -> None:
            await session.execute(update(Event).where(Event.id.in_(list(shown)))
                                  .values(answered=True).execution_options(synchronize_session=False))
            if posted_late:
                await session.execute(update(Event).where(Event.id.in_(posted_late))
                                      .values(late=True).execution_options(synchronize_session=False))
            posted = [{"event": e, "message": m} for e, m in shown.items() if m is not None]
            if posted:
                events, decisions = EVENTS, DECISIONS
                await session.execute(update(events).where(events.c.id == bindparam("event"))
                                      .values(message_id=bindparam("message")), posted)
                await session.execute(update(decisions).where(decisions.c.event_id == bindparam("event"),
                                                              decisions.c.message_id.is_(None))
                                      .values(message_id=bindparam("message")), posted)

        await self._transactions.transact(None, work)

    async def gm_parts(self, event_ids: Sequence[int]) -> dict[int, GMPart]:
        """The GM's part of these events' late posts, as a live answer sends it: an NPC's secret action with
        dice -> the event as the GM reads it (projected for the GM: whole), its server and that server's GM
        channel (None: the server has none, and the GM's part goes to its owner, a manager, by DM)."""
        if not event_ids:
            return {}

        async def work(session: AsyncSession) -> dict[int, GMPart]:
            rows = await session.execute(
                select(Event, GuildSettings.gm_channel_id).join(GuildSettings, GuildSettings.guild_id == Event.guild_id)
                .where(Event.id.in_(list(event_ids))))
            return {row.id: GMPart(projected(event_view(row), GM_SCREEN), row.guild_id, gm_channel)
                    for row, gm_channel in rows if _secret_with_rolls(read_event(row.kind, row.payload))}

        return await self._transactions.read(work)

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

        return await self._transactions.read(work)

    async def decisions_posted(self, channel_id: int, message_id: int, decision_ids: Sequence[int],
                               event_id: int | None = None) -> None:
        """A late post in ``channel_id`` of ``event_id`` carries these decisions' buttons: remember the message
        (the event's too, as its answer's is: bot/services/decision_messages.py reads what a message carries from
        both), so that a decision settled some other way (/pending-roll, a later action, /undo) takes them off it."""
        if not decision_ids:
            return

        async def work(session: AsyncSession) -> None:
            await session.execute(update(PendingDecision).where(
                PendingDecision.id.in_(list(decision_ids)), PendingDecision.channel_id == channel_id,
                PendingDecision.message_id.is_(None))
                .values(message_id=message_id, version=PendingDecision.version + 1)
                .execution_options(synchronize_session=False))
            if event_id is not None:
                await session.execute(update(EVENTS).where(EVENTS.c.id == event_id, EVENTS.c.channel_id == channel_id,
                                                           EVENTS.c.message_id.is_(None)).values(message_id=message_id))

        await self._transactions.transact(channel_id, work)
