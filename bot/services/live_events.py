"""The events table as a feed of ids, for the live pages: one poller per process, fanned out to its watchers.

Every change a live page shows (an action, a turn, an undo, a fight started or ended) records an event in its
channel, whichever process made it. So a process learns of them all the same way: a poll, on a connection of its
own, of the ids committed since the last one it saw. Each watcher of a channel (one live page) is handed that
channel's new ids and re-reads the page through the services, as its viewer, once per wake. A mark carries where
something happened (ids), never what: what a viewer reads of it goes through the projection like any page.

Why a poll and not PostgreSQL's LISTEN/NOTIFY (docs/architecture.md): it is the same code on SQLite and
PostgreSQL; it needs no trigger or NOTIFY in every writer (an event written by any process, an old one or a tool,
is seen); one indexed query of the primary key every ``poll_seconds``, and none while no page watches; and a
dropped connection loses nothing: the next poll reconnects and reads on from the last id it saw. NOTIFY would
still need that read to catch up after a drop, and would wake the page no sooner than the poll's half second.

PostgreSQL hands ids out when a row is inserted, not when it commits: a poll may see id 12 while 11 is still being
written. An id skipped that way is looked for again (``also``) for ``GAP_SECONDS``; one rolled back never comes.
Each id is handed out once: only ids over the last seen, or a gap found, are news.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable

from sqlalchemy.ext.asyncio import AsyncConnection

from bot.db import repositories as repo
from bot.db.engine import Database
from bot.db.inline_sqlite import off_the_loop

log = logging.getLogger("grievous.live")
POLL_SECONDS = 0.5
GAP_SECONDS = 30.0  # how long an id skipped by a poll is looked for (a transaction that took it still writing)
MAX_GAPS = 1000  # ids skipped at once beyond this are not looked for (a sequence jump, not transactions in flight)
BATCH = 1000  # marks read per poll; more wait for the next (which comes at once)
MAX_BACKOFF = 5.0
START_WINDOW = 100  # ids below the newest looked at when the feed starts: those missing may still be written


class Watch:
    """One live page's subscription to a channel: the ids of its new events, since the last ``next``."""

    def __init__(self, channel_id: int) -> None:
        self.channel_id = channel_id
        self._ids: list[int] = []
        self._woken = asyncio.Event()

    def _hand(self, event_id: int | None) -> None:
        if event_id is not None:
            self._ids.append(event_id)
        self._woken.set()

    async def next(self, within: float) -> tuple[int, ...]:
        """The ids handed to this watch since the last call, waiting up to ``within`` seconds for one; () if none
        came (or the feed closed)."""
        if not self._ids:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._woken.wait(), within)
        self._woken.clear()
        ids, self._ids = tuple(self._ids), []
        return ids


class EventFeed:
    """The process's one poller of the events table (``run``), and the watches it hands ids to."""

    def __init__(self, db: Database, *, poll_seconds: float = POLL_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._db = db
        self.poll_seconds = poll_seconds
        self._clock = clock
        self._watches: dict[int, set[Watch]] = {}
        self._connection: AsyncConnection | None = None
        self.last_id: int | None = None  # None: nothing read yet (the next poll starts from the newest event)
        self._gaps: dict[int, float] = {}  # skipped id -> until when it is looked for
        self.polls = 0
        self.failures = 0  # polls that failed (the connection dropped): the next one reconnects and catches up
        self.backend: int | None = None  # PostgreSQL: the server process of the feed's connection
        self._closed = False
        self._lock = asyncio.Lock()  # one user of the connection at a time: the poller, or a new watch's start

    # -- watchers ----------------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def watch(self, channel_id: int) -> AsyncIterator[Watch]:
        """Watch a channel for as long as the block lasts. Enter it before reading the page the first time: every
        event committed once the block is entered wakes the watch."""
        watch = Watch(channel_id)
        self._watches.setdefault(channel_id, set()).add(watch)
        try:
            async with self._lock:  # where "new" starts, if the feed was idle
                if self.last_id is None and not self._closed:
                    await self._read(self._start)
            yield watch
        finally:
            watchers = self._watches.get(channel_id)
            if watchers is not None:
                watchers.discard(watch)
                if not watchers:
                    del self._watches[channel_id]

    @property
    def watching(self) -> int:
        return sum(len(w) for w in self._watches.values())

    # -- the poller --------------------------------------------------------------------------------

    async def run(self) -> None:
        """Poll until closed; a failed poll is logged and retried, slower each time, from where it was."""
        failing = 0
        while not self._closed:
            try:
                more = await self.poll()
                if failing:
                    log.info("event feed reconnected after %d failed polls; read on from event %s", failing,
                             self.last_id)
                failing = 0
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the connection dropped, the database restarted: read on from last_id
                failing += 1
                self.failures += 1
                if failing == 1:
                    log.warning("event feed: poll failed (%s); reconnecting", type(exc).__name__)
                more = False
            delay = 0.0 if more else min(MAX_BACKOFF, self.poll_seconds * (2 ** failing if failing else 1))
            await asyncio.sleep(delay)

    async def poll(self) -> bool:
        """One read of the new marks, handed to the watches; whether more are waiting. No watch: no read (the
        next watch starts from the newest event then)."""
        async with self._lock:
            if self._closed:
                return False
            if not self._watches:
                self.last_id = None
                self._gaps.clear()
                await self._disconnect()
                return False
            if self.last_id is None:
                await self._read(self._start)
                return False
            return await self._read(self._news)

    async def _read(self, work: Callable[[AsyncConnection], Awaitable[bool]]) -> bool:
        """``work`` in a short read-only transaction on the feed's connection; a failure drops the connection. On
        SQLite its fetches run in the driver's thread: a poll after a busy half second reads up to BATCH rows, which
        fetched inline held the event loop ~10 ms idle and hundreds under the bench's /attack load (issue 33)."""
        try:
            connection = await self._connect()
            with off_the_loop():
                async with connection.begin():
                    return await work(connection)
        except Exception:
            await self._disconnect()
            raise

    async def _start(self, connection: AsyncConnection) -> bool:
        """Nothing committed before now is news: the newest id is the last seen; ids missing just below it may
        belong to transactions still writing (PostgreSQL), so they are looked for as gaps."""
        recent = await repo.newest_event_ids(connection, START_WINDOW)
        self.last_id = recent[0] if recent else 0
        until = self._clock() + GAP_SECONDS
        self._gaps = dict.fromkeys(set(range(max(1, self.last_id - START_WINDOW + 1), self.last_id)) - set(recent),
                                   until)
        return False

    async def _news(self, connection: AsyncConnection) -> bool:
        assert self.last_id is not None
        now = self._clock()
        self._gaps = {i: until for i, until in self._gaps.items() if until > now}
        rows = await repo.event_marks(connection, self.last_id, self._gaps.keys(), BATCH)
        self.polls += 1
        gaps, last_id, watches = self._gaps, self.last_id, self._watches
        for event_id, channel_id in rows:  # up to BATCH rows: a plain loop, on the event loop
            if event_id in gaps:
                del gaps[event_id]
            elif event_id > last_id:
                if 0 < event_id - last_id - 1 <= MAX_GAPS:
                    gaps.update(dict.fromkeys(range(last_id + 1, event_id), now + GAP_SECONDS))
                last_id = event_id
            else:
                continue  # neither new nor a gap: already handed out
            for watch in watches.get(channel_id, ()):  # most ids are of channels no page here watches
                watch._hand(event_id)
        self.last_id = last_id
        return len(rows) >= BATCH

    async def _connect(self) -> AsyncConnection:
        if self._connection is None:
            connection = await self._db.engine.execution_options(read_only=True).connect()
            if self._db.dialect == "postgresql":
                self.backend = int(await connection.scalar(repo.BACKEND_PID) or 0)
                await connection.commit()
            self._connection = connection
        return self._connection

    async def _disconnect(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                await connection.invalidate()
            with contextlib.suppress(Exception):
                await connection.close()

    async def close(self) -> None:
        """Stop: every watch wakes with nothing, and the connection is closed once no read is using it. A read in
        flight is waited for (the lock): closing a SQLite connection in aiosqlite's thread while a poll's SELECT
        runs on the loop's (bot/db/inline_sqlite.py) failed with "closed database", or crashed the process."""
        self._closed = True
        for watchers in self._watches.values():
            for watch in watchers:
                watch._hand(None)
        async with self._lock:
            await self._disconnect()
