"""Work that never runs on the event loop nor inside a transaction: a parse in a worker thread, and the pack
builds, queued for one build thread and one build process.

Parsing an upload goes to a worker thread (``off_loop``). A homebrew catalog that is not built yet stops the
transaction that needs it (``BuildNeeded``, raised by bot/services/catalog_store.py); the transaction runner
hands it to ``build``, which builds it (one build per key, shared by every command waiting for it; one build at
a time, in a bounded queue), and runs the command again. libyaml holds the GIL for a whole parse, so a real
pack's build runs in the build process; only another process keeps the loop free.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
import multiprocessing
from collections.abc import Callable, Hashable
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.context import BaseContext
from typing import Any, TypeVar

from bot.errors import UserError
from rules.errors import RulesError

T = TypeVar("T")
log = logging.getLogger(__name__)
# Catalog builds run one at a time on one worker thread, so however many servers upload at once, the event
# loop competes with one build for the GIL; past this many waiting, an upload is refused with one line.
MAX_QUEUED_BUILDS = 32
BUSY = "the bot is reading many servers' packs right now, so nothing was changed; try again in a minute"
# The input guard bounds what a parse or a catalog build is given, so each finishes in well under a
# second (a 511 KiB pack: ~0.3 s on an idle core). This is the backstop on a machine under load: past
# it the command answers with one line and changes nothing. A thread cannot be stopped, so the work
# finishes in the background (a pack build is still cached for the next command).
WORK_BUDGET = 10.0
QUEUED_BUDGETS = 6  # a build queued behind others waits for theirs too, up to this many budgets in all
TOO_SLOW = "that took too long to read, so nothing was changed; try again, or with a smaller file"


class BuildNeeded(Exception):
    """A catalog this command needs is not built yet. Raised inside a transaction; the runner leaves the
    transaction, has ``SlowWork.build`` build it off the event loop and ``keep`` it, and runs the command again.

    Code that catches broad exceptions inside a transaction must let this one through.
    """

    def __init__(self, key: Hashable, build: Callable[[], Any], keep: Callable[[Any], None],
                 kept: Callable[[], bool], in_process: Callable[[], Any] | None = None) -> None:
        super().__init__(f"catalog {key} is being built")
        # ``kept()``: another command's build of it finished meanwhile, so there is nothing to build
        self.key, self.build, self.keep, self.kept = key, build, keep, kept
        # a real pack's build, picklable, for the build process; None: ``build`` on the build thread (a catalog
        # loader a test swapped in)
        self.in_process = in_process


class BuildProcessFailed(Exception):
    """The build process died (killed, out of memory) under a job; the next job starts another one."""


class SlowWork:
    """The worker thread's budget, the build queue, its one build thread and its one build process."""

    def __init__(self) -> None:
        # How long reading an upload or building a pack may take (WORK_BUDGET; WORK_SECONDS in the environment).
        self.work_budget = WORK_BUDGET
        # The one worker thread that builds catalogs (a queue in front of it), and how many builds wait there.
        self._builder = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="pack-build")
        self._queued_builds = 0
        self._process: concurrent.futures.ProcessPoolExecutor | None = None  # the real builds
        self._started: concurrent.futures.ProcessPoolExecutor | None = None  # the pool whose process is up
        # builds under way: a second command needing the same catalog waits for the first one's build
        self._builds: dict[Hashable, asyncio.Future[Any]] = {}

    async def off_loop(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` in a worker thread, so the event loop keeps serving everyone else; past
        ``work_budget`` the command is refused with one line."""
        try:
            return await asyncio.wait_for(asyncio.to_thread(work, *args), self.work_budget)
        except TimeoutError:
            raise UserError(TOO_SLOW) from None

    async def on_build_thread(self, work: Callable[[], T]) -> T:
        """``work()`` on the build thread, queued with the builds."""
        loop = asyncio.get_running_loop()
        return await self._queued(lambda: loop.run_in_executor(self._builder, work))

    async def in_build_process(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` (picklable) in the build process, queued with the builds. BuildProcessFailed: the
        process died under it."""
        loop = asyncio.get_running_loop()
        pool = await self._running_build_process()
        try:
            return await self._queued(lambda: loop.run_in_executor(pool, work, *args))
        except BrokenProcessPool as broken:
            self._drop_broken(pool)
            raise BuildProcessFailed() from broken

    async def _queued(self, start: Callable[[], asyncio.Future[T]]) -> T:
        """One job for the build worker, in the queue with the builds (refused with one line when it is full)."""
        if self._queued_builds >= MAX_QUEUED_BUILDS:
            raise UserError(BUSY)
        self._queued_builds += 1
        future = start()
        future.add_done_callback(self._dequeued)
        try:
            return await asyncio.wait_for(asyncio.shield(future), self._queued_budget())
        except TimeoutError:
            raise UserError(TOO_SLOW) from None

    def _queued_budget(self) -> float:
        """How long a queued build may take: a budget for each build queued (its own and those before it)."""
        return self.work_budget * min(QUEUED_BUDGETS, max(1, self._queued_builds))

    def _dequeued(self, _future: asyncio.Future[Any]) -> None:
        self._queued_builds -= 1

    async def build(self, needed: BuildNeeded) -> None:
        """Build what ``needed`` asks for off the event loop (joining a build of the same key already under way)."""
        future = self._builds.get(needed.key)
        if future is None and needed.kept():
            return
        if future is None:
            future = self._start(needed)
        try:
            # A build queued behind others' waits for theirs too (each bounded by the input guard).
            await asyncio.wait_for(asyncio.shield(future), self._queued_budget())
        except TimeoutError:
            raise UserError(TOO_SLOW) from None

    def _start(self, needed: BuildNeeded) -> asyncio.Future[Any]:
        if self._queued_builds >= MAX_QUEUED_BUILDS:
            raise UserError(BUSY)
        self._queued_builds += 1
        future: asyncio.Future[Any]
        if needed.in_process is not None:
            future = asyncio.ensure_future(self._in_process(needed))
        else:  # a catalog loader a test swapped in: on the build thread
            future = asyncio.get_running_loop().run_in_executor(self._builder, needed.build)
        self._builds[needed.key] = future
        future.add_done_callback(functools.partial(self._built, needed))
        return future

    async def _in_process(self, needed: BuildNeeded) -> Any:
        assert needed.in_process is not None
        loop = asyncio.get_running_loop()
        pool = await self._running_build_process()
        try:
            return await loop.run_in_executor(pool, needed.in_process)
        except RulesError:  # the pack's mistakes (they cross the pickle intact)
            raise
        except Exception:  # the build process died (killed, out of memory): built again here
            log.exception("the build process failed; building %s on the build thread", needed.key)
            self._drop_broken(pool)
            return await loop.run_in_executor(self._builder, needed.build)

    def _built(self, needed: BuildNeeded, future: asyncio.Future[Any]) -> None:
        self._queued_builds -= 1
        if self._builds.get(needed.key) is future:
            del self._builds[needed.key]
        if not future.cancelled() and future.exception() is None:  # a failed build is not kept: it is retried
            needed.keep(future.result())

    def _drop_broken(self, pool: concurrent.futures.ProcessPoolExecutor) -> None:
        """A broken pool refuses every later job: the next build starts a new process (unless one did already)."""
        if self._process is pool:
            self.stop()

    async def _running_build_process(self) -> concurrent.futures.ProcessPoolExecutor:
        """The build process, started off the event loop: the start waits for the fork server's answer, and a fork
        server not running yet answers only once it has imported the pack builder (a second or more)."""
        pool = self._build_process()
        if self._started is not pool:
            await asyncio.to_thread(_start, pool)
            self._started = pool
        return pool

    def _build_process(self) -> concurrent.futures.ProcessPoolExecutor:
        """The one build process, started at the first build (and again after one died)."""
        if self._process is None:
            self._process = concurrent.futures.ProcessPoolExecutor(max_workers=1, mp_context=_build_context())
        return self._process

    def stop(self) -> None:
        """End the build process (a build under way is dropped; a later build starts another)."""
        if self._process is not None:
            self._process.shutdown(wait=False, cancel_futures=True)
            self._process = None


# What a build process imports before its first job: the pack builder and everything it reads.
BUILD_PRELOAD = ["bot.services.catalog_store"]


def _start(pool: concurrent.futures.ProcessPoolExecutor) -> None:
    """(A worker thread.) The pool's process started, by a first job that does nothing."""
    pool.submit(int).result()


@functools.cache
def _build_context() -> BaseContext:
    """Build processes are forked from a fork server (never from the bot, whose threads must not be forked) that
    imported the pack builder once: a new build process starts in tens of ms, not the second or more (several
    under load) that spawning a fresh interpreter and importing the bot costs at each start. Where there is no
    fork server (Windows), spawned."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(BUILD_PRELOAD)
    return context
