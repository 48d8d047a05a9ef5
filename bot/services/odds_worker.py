"""Exact odds off the bot's interpreter: one warm worker process, started by the first /odds.

An enumeration is pure Python for tens to hundreds of milliseconds. In a thread it holds the interpreter lock
the event loop needs (the watchdog saw 400-550 ms stalls on a loaded machine); a worker process has a lock of
its own and the machine's second core. Inputs go as plain data (the system's id, the scenario, the pack's
catalog, the forced faces, the time to stop by) and the answer comes back the same way (under 1 ms each way).

One worker: a second /odds at the same moment waits for it, inside its own time budget (the budget is a time
to stop by, not a duration). Until the worker is up (about half a second after the first /odds, which runs in
a thread meanwhile), and if it ever breaks, the enumeration runs in a thread as before.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import multiprocessing
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from time import time

from rules.model import Catalog, Scenario
from rules.odds.api import Odds, compute_for, compute_odds, warm
from rules.registry import get_engine


class OddsWorker:
    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._ready: concurrent.futures.Future[list[str]] | None = None

    def _start(self) -> None:
        # spawn, not fork: the bot's process has an event loop and database threads a fork would copy mid-step
        self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        self._ready = self._pool.submit(warm)

    def _warm(self) -> bool:
        if self._ready is None:
            self._start()
        ready = self._ready
        return ready is not None and ready.done() and ready.exception() is None

    async def compute(self, system: str, scenario: Scenario, catalog: Catalog,
                      forced: Mapping[str, Sequence[int]] | None, budget: float) -> Odds:
        """The exact odds within ``budget`` seconds (what is exact so far past it)."""
        until = time() + budget
        if self._warm() and self._pool is not None:
            try:
                return await asyncio.wrap_future(self._pool.submit(compute_for, system, scenario, catalog, forced,
                                                                   until))
            except BrokenProcessPool:
                self.close()  # the next /odds starts a new worker; this one runs in a thread
        return await in_thread(system, scenario, catalog, forced, until)

    def close(self) -> None:
        pool, self._pool, self._ready = self._pool, None, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


async def in_thread(system: str, scenario: Scenario, catalog: Catalog, forced: Mapping[str, Sequence[int]] | None,
                    until: float) -> Odds:
    """The enumeration in a thread of the bot's process, stopping by ``until`` (an epoch time)."""
    return await asyncio.to_thread(compute_odds, get_engine(system), scenario, catalog, forced,
                                   max(0.05, until - time()))


async def compute(worker: OddsWorker | None, system: str, scenario: Scenario, catalog: Catalog,
                  forced: Mapping[str, Sequence[int]] | None, budget: float) -> Odds:
    """The exact odds within ``budget`` seconds: in ``worker`` (None: in a thread)."""
    if worker is None:
        return await in_thread(system, scenario, catalog, forced, time() + budget)
    return await worker.compute(system, scenario, catalog, forced, budget)


# one per bot process, shared by every Services (the tests build many)
WORKER = OddsWorker()
atexit.register(WORKER.close)
