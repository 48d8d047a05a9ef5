"""The transaction runner: the one way a command touches the database.

Commands in one channel wait on an in-process lock (and, on PostgreSQL, on the channel's advisory lock); each
runs in one session and one transaction, and a version clash (another process saved first) or a transient lock
error retries the whole command from a fresh read. A command may take its channel's encounter from memory
(``encounters``, bot/services/encounter_cache.py); it goes back there only once the command's transaction has
committed. A catalog not built yet (BuildNeeded) leaves the transaction, is built off the event loop, and the
command runs again.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
import weakref
from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.exc import StaleDataError

from bot.db import repositories as repo
from bot.db.engine import Database
from bot.db.repositories import GUILD_SETTINGS
from bot.db.storage import is_storage_full
from bot.db.unreachable import is_unreachable
from bot.errors import Conflict, DatabaseFileGone, DatabaseNotAnswering, StorageFull, UserError
from bot.services.encounter_cache import LENT, OWNER, EncounterCache, Entry
from bot.services.group_commit import GroupCommitter
from bot.services.slow_work import BuildNeeded

T = TypeVar("T")
log = logging.getLogger(__name__)
RETRIES = 8
_CHANNEL_LOCK = text("SELECT pg_advisory_xact_lock(:key)")
# PostgreSQL serialization failure and deadlock; both mean "try the transaction again".
_RETRY_SQLSTATES = {"40001", "40P01"}
CLASHED = "someone else changed this at the same moment; please try again"
PACK_CHANGING = "the server's content pack keeps changing; please try again"

Work = Callable[[AsyncSession], Awaitable[T]]


class Transactions(Protocol):
    """What runs a command's work in the database (``TransactionRunner``; the answer log needs no more)."""

    async def transact(self, channel_id: int | None, work: Work[T]) -> T: ...

    async def read(self, work: Work[T]) -> T: ...


def _retryable(exc: BaseException) -> bool:
    # IntegrityError: a row another command inserted first (same name, same settings row); the
    # retry reads it and answers properly ("already exists").
    if isinstance(exc, StaleDataError | IntegrityError):
        return True
    if isinstance(exc, DBAPIError):
        code = getattr(exc.orig, "sqlstate", None) or getattr(exc.orig, "pgcode", None)
        return code in _RETRY_SQLSTATES or "database is locked" in str(exc.orig)
    return False


class TransactionRunner:
    """``committer``: one writer task commits the commands that are ready together (bot/services/group_commit.py),
    None: each command commits alone. ``encounters``: active encounters kept between commands, None: every
    command loads them. ``build``: builds what a BuildNeeded asks for, off the event loop."""

    def __init__(self, db: Database, *, committer: GroupCommitter | None, encounters: EncounterCache | None,
                 build: Callable[[BuildNeeded], Awaitable[None]]) -> None:
        self.db = db
        self.committer = committer
        if committer is not None:
            committer.on_transaction = self._committed
        self.encounters = encounters
        if encounters is not None:
            db.on_change.append(encounters.changed)
        self._build = build
        self.unreachable = False  # the last transaction failed because the database did not answer
        # A lock lives while some command holds or awaits it, so idle channels cost nothing.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        # Told each committed transaction's time (seconds, retries included) and attempts (0 for a read-only
        # session): the bot's metrics.
        self.on_transaction: Callable[[float, int], None] | None = None

    def channel_lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[channel_id] = lock
        return lock

    async def transact(self, channel_id: int | None, work: Work[T]) -> T:
        """Run ``work`` in one transaction, serialized per channel, retried on a version clash. A write refused
        for want of space is StorageFull (one line to the user; ``/healthz`` says so until a write commits); a
        database server that does not answer is DatabaseNotAnswering, a deleted SQLite file DatabaseFileGone."""
        if self.db.file_gone() is not None:
            raise DatabaseFileGone()
        try:
            if channel_id is None:
                result = await self._with_retries(work)
            else:
                async with self.channel_lock(channel_id):
                    result = await self._with_retries(self._channel_locked(channel_id, work))
        except Exception as exc:
            if is_storage_full(exc):
                self.db.storage.failed(exc)
                raise StorageFull() from exc
            self._not_answering(exc)
            raise
        self.db.storage.written()
        self._answering()
        return result

    def _not_answering(self, error: BaseException) -> None:
        """DatabaseNotAnswering when ``error`` says the server is out of reach (logged once until it answers)."""
        if isinstance(error, UserError) or not is_unreachable(error):
            return
        if not self.unreachable:
            self.unreachable = True
            log.warning("the database is not answering: commands are refused until it does (%s)",
                        (str(error).strip().splitlines() or [type(error).__name__])[0][:200])
        raise DatabaseNotAnswering() from error

    def _answering(self) -> None:
        if self.unreachable:
            self.unreachable = False
            log.warning("the database answers again")

    def _channel_locked(self, channel_id: int, work: Work[T]) -> Work[T]:
        """On PostgreSQL, ``work`` first takes the channel's advisory lock, held until its transaction ends: two
        processes writing one channel take turns there instead of clashing on its rows and retrying in
        lockstep (each deadlock between them cost PostgreSQL's deadlock_timeout, 1 s). Within a process the
        channel's asyncio lock already takes turns; SQLite writes one transaction at a time anyway."""
        if self.db.dialect != "postgresql":
            return work
        key = channel_id - (1 << 64) if channel_id >= 1 << 63 else channel_id  # a snowflake as a signed bigint

        async def locked(session: AsyncSession) -> T:
            await session.execute(_CHANNEL_LOCK, {"key": key})
            return await work(session)

        return locked

    async def read(self, work: Work[T]) -> T:
        """A read-only query (autocomplete, status): one session, no lock."""
        started = time.perf_counter()

        async def once() -> T:
            async with self.db.readers() as session:
                return await work(session)

        try:
            result = await self._once_built(once)
        except Exception as exc:
            self._not_answering(exc)
            raise
        if self.on_transaction is not None:
            self.on_transaction(time.perf_counter() - started, 0)
        return result

    async def _once_built(self, run: Callable[[], Awaitable[T]]) -> T:
        """``run()``, again after each catalog it stopped for (BuildNeeded) is built, off the event loop."""
        for _ in range(RETRIES):
            try:
                return await run()
            except BuildNeeded as needed:
                await self._build(needed)
        raise Conflict(PACK_CHANGING)

    def _committed(self, seconds: float, attempts: int) -> None:
        if self.on_transaction is not None:
            self.on_transaction(seconds, attempts)

    async def close(self) -> None:
        """Stop the writer task (the bot's shutdown; nothing is queued by then)."""
        if self.committer is not None:
            await self.committer.close()

    async def _with_retries(self, work: Work[T]) -> T:
        if self.encounters is None:
            return await self._attempts(work)
        cache, lent = self.encounters, list[Entry]()

        async def attempt(session: AsyncSession) -> T:
            for entry in lent:  # a retry: what the last attempt took is stale or half-changed
                cache.release(entry)
            lent.clear()
            session.info[LENT] = (cache, lent)
            try:
                result = await work(session)
                await repo.flush(session)  # its own writes, while the session still knows which entry is its own
                return result
            finally:
                for key in (LENT, OWNER, GUILD_SETTINGS):  # the batch's next command starts clean
                    session.info.pop(key, None)

        try:
            result = await self._attempts(attempt)
        except BaseException:
            for entry in lent:
                cache.release(entry)
            raise
        for entry in lent:  # committed: the next command on the channel starts from here
            cache.put(entry)
        return result

    async def _attempts(self, work: Work[T]) -> T:
        if self.committer is not None:
            return await self._batched(self.committer, work)
        started = time.perf_counter()
        for attempt in range(RETRIES):
            try:
                async with self.db.transaction() as session:
                    result = await work(session)
            except BuildNeeded as needed:
                await self._build(needed)  # out of the transaction, off the event loop; then run it again
            except Exception as exc:
                if not _retryable(exc):
                    raise
                # Back off a little, with jitter, so two processes do not clash in lockstep.
                await asyncio.sleep(random.uniform(0, 0.005 * (2**attempt)))
            else:
                if self.on_transaction is not None:
                    self.on_transaction(time.perf_counter() - started, attempt + 1)
                return result
        raise Conflict(CLASHED)

    async def _batched(self, committer: GroupCommitter, work: Work[T]) -> T:
        """``work`` committed with the other ready commands (the committer retries a clash itself)."""

        async def submitted() -> T:
            result: T = await committer.submit(work, retryable=_retryable, retries=RETRIES)
            return result

        try:
            return await self._once_built(submitted)
        except Exception as exc:
            if _retryable(exc):  # still clashing after every retry
                raise Conflict(CLASHED) from exc
            raise
