"""Group commit for SQLite: one writer task commits whatever commands are ready together.

SQLite lets one connection write at a time. With a pool, every other writer sleeps in SQLite's busy
handler, whose back-off (up to 100 ms a try) serves them late and out of order: under a burst of 100
channels the tail reached 1.5 s. Here the process orders its own writes instead. Commands queue in
the order they arrive; the writer takes every command waiting, opens one transaction (``BEGIN
IMMEDIATE``), runs each command in a SAVEPOINT of its own (a lone command needs none), and commits
once: one BEGIN, one COMMIT and one fsync are shared by the batch. A command whose work fails rolls
back to its savepoint alone; the others still commit. Every command learns its result only after the
COMMIT, so nothing acknowledged is ever lost. The busy timeout stays, for another process (``grievous db upgrade``).

Each command sees the database as the commands before it in the batch left it (the same transaction),
and none sees another's ORM objects: the session's identity map is emptied between commands, so a
command reads fresh rows, just as with a session of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.engine import Database

log = logging.getLogger(__name__)

MAX_BATCH = 8  # commands in one transaction at most: a batch answers together, so it is kept short


@dataclass
class _Job:
    work: Callable[[AsyncSession], Awaitable[Any]]
    future: asyncio.Future[Any]
    retryable: Callable[[BaseException], bool]
    attempts_left: int
    started: float = field(default_factory=time.perf_counter)
    attempts: int = 0


class _RolledBack(Exception):
    """Leaves a batch of one's transaction without committing it (its command failed)."""


class GroupCommitter:
    """The one writer of a process's SQLite database (see the module's docstring)."""

    def __init__(self, db: Database, on_transaction: Callable[[float, int], None] | None = None) -> None:
        self.db = db
        self.on_transaction = on_transaction
        self._queue: asyncio.Queue[_Job] | None = None
        self._writer: asyncio.Task[None] | None = None
        self.batches = 0  # transactions committed (the benchmark reports commands per batch)
        self.commands = 0

    async def submit(self, work: Callable[[AsyncSession], Awaitable[Any]], *,
                     retryable: Callable[[BaseException], bool], retries: int) -> Any:
        """Run ``work`` in the next batch; its result once the batch is committed, or its own error."""
        loop = asyncio.get_running_loop()
        if self._queue is None or self._writer is None or self._writer.done() or self._writer.get_loop() is not loop:
            self._queue = asyncio.Queue()
            # A fresh context: the writer serves every command, not the one whose write started it.
            self._writer = loop.create_task(self._run(self._queue), name="grievous-group-commit",
                                            context=contextvars.Context())
        job = _Job(work, loop.create_future(), retryable, retries)
        self._queue.put_nowait(job)
        return await job.future

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
            self._writer = None

    async def _run(self, queue: asyncio.Queue[_Job]) -> None:
        while True:
            batch = [await queue.get()]
            while len(batch) < MAX_BATCH and not queue.empty():
                batch.append(queue.get_nowait())
            batch = [job for job in batch if not job.future.done()]  # a caller that gave up
            if not batch:
                continue
            try:
                retry = await self._commit(batch)
            except Exception:  # never let the writer die: every job already has its answer
                log.exception("group commit failed")
                continue
            for job in retry:
                queue.put_nowait(job)

    async def _commit(self, batch: list[_Job]) -> list[_Job]:
        """One transaction for ``batch``; returns the jobs to try again in a later batch.

        A batch of one needs no SAVEPOINT (two statements fewer, which is what a quiet server runs): its
        error rolls the whole transaction back instead."""
        done: list[tuple[_Job, Any]] = []
        failed: list[tuple[_Job, BaseException]] = []  # told after the transaction ends, like the results
        retry: list[_Job] = []
        solo = len(batch) == 1
        try:
            async with self.db.sessions() as session, session.begin():
                for job in batch:
                    job.attempts += 1
                    try:
                        if solo:
                            result = await job.work(session)
                        else:
                            async with session.begin_nested():
                                result = await job.work(session)
                    except Exception as exc:
                        if job.retryable(exc) and job.attempts < job.attempts_left:
                            retry.append(job)
                        else:
                            failed.append((job, exc))
                        if solo:
                            raise _RolledBack from exc
                    else:
                        done.append((job, result))
                    finally:
                        session.expunge_all()
        except _RolledBack:
            pass  # the one command failed: nothing of it is stored (it is told so below)
        except Exception as exc:  # the COMMIT itself failed: nothing of this batch is stored
            for job, _ in done:
                if job.retryable(exc) and job.attempts < job.attempts_left:
                    retry.append(job)
                else:
                    failed.append((job, exc))
            done = []
        for job, error in failed:
            if not job.future.done():
                job.future.set_exception(error)
        if not done:
            return retry
        self.batches += 1
        self.commands += len(done)
        now = time.perf_counter()
        for job, result in done:
            if not job.future.done():
                job.future.set_result(result)
            if self.on_transaction is not None:
                self.on_transaction(now - job.started, job.attempts)
        return retry
