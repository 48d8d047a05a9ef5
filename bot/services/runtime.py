"""What every service shares: the database, dice, clock, engines and catalogs, and the transaction runner.

``transact`` is the one way a command touches the database: commands in one channel wait on an
in-process lock, each runs in one session and one transaction, and a version clash (another
process saved first) or a transient lock error retries the whole command from a fresh read.
"""

from __future__ import annotations

import asyncio
import random
import weakref
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.exc import StaleDataError

from bot.db.engine import Database
from bot.errors import Conflict
from rules.model import Engine
from rules.registry import get_engine

T = TypeVar("T")
RETRIES = 8
# PostgreSQL serialization failure and deadlock; both mean "try the transaction again".
_RETRY_SQLSTATES = {"40001", "40P01"}


def utcnow() -> datetime:
    return datetime.now(UTC)


def _load_catalog(system: str) -> Any:
    from content import load_catalog

    return load_catalog(system)


def _retryable(exc: BaseException) -> bool:
    # IntegrityError: a row another command inserted first (same name, same settings row); the
    # retry reads it and answers properly ("already exists").
    if isinstance(exc, StaleDataError | IntegrityError):
        return True
    if isinstance(exc, DBAPIError):
        code = getattr(exc.orig, "sqlstate", None) or getattr(exc.orig, "pgcode", None)
        return code in _RETRY_SQLSTATES or "database is locked" in str(exc.orig)
    return False


class Runtime:
    def __init__(
        self,
        db: Database,
        *,
        rng: Callable[[], random.Random] = random.Random,
        clock: Callable[[], datetime] = utcnow,
        catalogs: Callable[[str], Any] = _load_catalog,
    ) -> None:
        self.db = db
        self.rng = rng
        self.clock = clock
        self.catalogs = catalogs
        # A lock lives while some command holds or awaits it, so idle channels cost nothing.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def engine(self, system: str) -> Engine:
        return get_engine(system)

    def catalog(self, system: str) -> Any:
        return self.catalogs(system)

    def channel_lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[channel_id] = lock
        return lock

    async def transact(self, channel_id: int | None, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
        """Run ``work`` in one transaction, serialized per channel, retried on a version clash."""
        if channel_id is None:
            return await self._with_retries(work)
        async with self.channel_lock(channel_id):
            return await self._with_retries(work)

    async def read(self, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
        """A read-only query (autocomplete, status): one session, no lock."""
        async with self.db.readers() as session:
            return await work(session)

    async def _with_retries(self, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
        for attempt in range(RETRIES):
            try:
                async with self.db.transaction() as session:
                    return await work(session)
            except Exception as exc:
                if not _retryable(exc):
                    raise
                # Back off a little, with jitter, so two processes do not clash in lockstep.
                await asyncio.sleep(random.uniform(0, 0.005 * (2**attempt)))
        raise Conflict("someone else changed this at the same moment; please try again")
