"""How much of the database the pages may use at once: a few pages read at a time, the rest queue a little, then
are told to come back (503 with Retry-After), never a 500 nor a wait that starves the bot's own commands.

Each page reads through the services on the same connection pool as the bot's commands (SQLAlchemy's, 5 + 10
connections), and holds its connection while its CPU part runs in a worker thread. Fifty viewers reading at once
took every connection: /attack waited for one, and pages failed after the pool's 30 s. The gate lets ``slots``
pages (and live renders) work at once; up to ``queue`` more wait, each at most ``wait_seconds``; past either, the
page answers 503 at once. A live stream's render waits its turn instead (its frame can come a little later).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

SLOTS = 3  # pages at work at once: the pool keeps 12 of its 15 connections for the bot's commands
QUEUE = 64  # pages waiting for a slot beyond these are answered 503 at once
WAIT_SECONDS = 5.0  # a page waits at most this long for a slot, then is answered 503
RETRY_AFTER = 2  # seconds the 503 asks the browser to wait


class Busy(Exception):
    """The pages are at their limit: answer 503 with Retry-After."""


class PageGate:
    def __init__(self, *, slots: int = SLOTS, queue: int = QUEUE, wait_seconds: float = WAIT_SECONDS) -> None:
        self.slots = slots
        self.queue = queue
        self.wait_seconds = wait_seconds
        self._free = asyncio.Semaphore(slots)
        self.waiting = 0
        self.refused = 0  # pages answered 503 so far

    @contextlib.asynccontextmanager
    async def page(self) -> AsyncIterator[None]:
        """A page's turn: at once if a slot is free, else after waiting in the queue; Busy if the queue is full or
        the wait too long."""
        if self._free.locked() and self.waiting >= self.queue:
            self.refused += 1
            raise Busy
        self.waiting += 1
        try:
            async with asyncio.timeout(self.wait_seconds):  # the semaphore's acquire is safe to cancel
                await self._free.acquire()
        except TimeoutError:
            self.refused += 1
            raise Busy from None
        finally:
            self.waiting -= 1
        try:
            yield
        finally:
            self._free.release()

    @contextlib.asynccontextmanager
    async def render(self) -> AsyncIterator[None]:
        """A live stream's render: it waits for a slot as long as it takes (never refused)."""
        async with self._free:
            yield
