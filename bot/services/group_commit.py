"""Group commit for SQLite: one writer task commits whatever commands are ready together.

SQLite lets one connection write at a time. With a pool, every other writer sleeps in SQLite's busy
handler, whose back-off (up to 100 ms a try) serves them late and out of order: under a burst of 100
channels the tail reached 1.5 s. Here the process orders its own writes instead. Commands queue in
the order they arrive; the writer takes every command waiting, opens one transaction (``BEGIN
IMMEDIATE``), runs the commands one after another in it, and commits once: one BEGIN, one COMMIT and one
fsync are shared by the batch. Every command learns its result only after the COMMIT, so nothing
acknowledged is ever lost. The busy timeout stays, for another process (``grievous db upgrade``).

A command whose work fails is told its error alone. If it wrote nothing (SQLite's count of changed rows
did not move, and the transaction is still open), the others go on in the same transaction. If it did,
the transaction is rolled back and the others run again at once in a new one, before anything queued
after them: as a retry after a version clash does, they start from a fresh read, and nobody heard of
their first run. A SAVEPOINT per command would undo the failed one alone, but its SAVEPOINT and RELEASE
cost each command in a batch more than its own INSERT (0.27 ms, docs/benchmarks.md), to spare a redo
that a refusal (which comes before any write) never needs. Where the driver cannot count changes
(PostgreSQL, with group commit forced on), each command still gets a savepoint.

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
from bot.db.inline_sqlite import change_counter

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


@dataclass
class _Outcome:
    """What one transaction's commands came to; each is told only after the transaction ends."""

    done: list[tuple[_Job, Any]] = field(default_factory=list)
    failed: list[tuple[_Job, BaseException]] = field(default_factory=list)
    retry: list[_Job] = field(default_factory=list)  # to try again in a later batch
    redo: list[_Job] = field(default_factory=list)  # to run again at once (rolled back for another's writes)

    def retry_or_fail(self, job: _Job, exc: BaseException) -> None:
        if job.retryable(exc) and job.attempts < job.attempts_left:
            self.retry.append(job)
        else:
            self.failed.append((job, exc))

    def roll_back(self, *, rest: list[_Job]) -> None:
        """The transaction is rolled back for one command's writes: the ones done and ``rest`` run again."""
        for other, _ in self.done:
            other.attempts -= 1  # not its own failure
        self.redo = [other for other, _ in self.done] + rest
        self.done = []


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
            retry: list[_Job] = []
            while batch:  # a batch rolled back for one command's writes runs again at once, without it
                try:
                    later, batch = await self._commit(batch)
                except Exception:  # never let the writer die: every job already has its answer
                    log.exception("group commit failed")
                    break
                retry += later
                batch = [job for job in batch if not job.future.done()]
            for job in retry:
                queue.put_nowait(job)

    async def _commit(self, batch: list[_Job]) -> tuple[list[_Job], list[_Job]]:
        """One transaction for ``batch``; returns the jobs to try again in a later batch, and those to run
        again at once (the transaction was rolled back for another's failed writes: see the module's docstring)."""
        outcome = _Outcome()
        try:
            async with self.db.sessions() as session, session.begin():
                await self._run_batch(session, batch, outcome)
        except _RolledBack:
            pass  # the failed command's writes are not stored (it is told so below); ``redo`` runs again
        except Exception as exc:  # the COMMIT itself failed: nothing of this batch is stored
            for job, _ in outcome.done:
                outcome.retry_or_fail(job, exc)
            outcome.done = []
        self._answer(outcome)
        return outcome.retry, outcome.redo

    async def _run_batch(self, session: AsyncSession, batch: list[_Job], outcome: _Outcome) -> None:
        """Runs the batch's commands one after another in the open transaction; raises ``_RolledBack`` where a
        failed command leaves it to be rolled back (then ``outcome.redo`` holds the others to run again).

        A batch of one needs no change count: its error rolls the whole transaction back."""
        solo = len(batch) == 1
        changes = None if solo else await change_counter(await session.connection())
        for index, job in enumerate(batch):
            job.attempts += 1
            before = changes() if changes is not None else 0
            try:
                result = await _run_job(session, job, savepoint=not solo and changes is None)
            except Exception as exc:
                outcome.retry_or_fail(job, exc)
                if solo:
                    raise _RolledBack from exc
                if changes is not None and (not session.is_active or changes() != before):
                    # its writes are in the transaction (or a failed flush rolled it back): undo all
                    outcome.roll_back(rest=batch[index + 1:])
                    raise _RolledBack from exc
            else:
                outcome.done.append((job, result))
            finally:
                session.expunge_all()

    def _answer(self, outcome: _Outcome) -> None:
        """Tells each command its error or, once the batch is committed, its result."""
        for job, error in outcome.failed:
            if not job.future.done():
                job.future.set_exception(error)
        if not outcome.done:
            return
        self.batches += 1
        self.commands += len(outcome.done)
        now = time.perf_counter()
        for job, result in outcome.done:
            if not job.future.done():
                job.future.set_result(result)
            if self.on_transaction is not None:
                self.on_transaction(now - job.started, job.attempts)


async def _run_job(session: AsyncSession, job: _Job, *, savepoint: bool) -> Any:
    """One command's work, in a savepoint of its own where its writes cannot be counted."""
    if not savepoint:
        return await job.work(session)
    async with session.begin_nested():
        return await job.work(session)
