"""The event-loop watchdog: notices when the loop was held (a stall) and names the command that held it.

A task on the loop wakes every ``interval`` and measures how late it woke: that lateness is the stall. It
also tells apart the loop thread's time on a CPU and its time queued for one (another process had the
CPU: the machine was busy, the bot was not holding the loop), from /proc/thread-self/schedstat. Time
the loop thread was blocked while the bot's other threads were queued for a CPU is the machine's too: one
of them held the GIL the loop waited for (``others_waiting_seconds``, from each thread's schedstat).
To name the culprit, a small thread looks in while the loop is overdue and notes the task running on
it; the task's flight (bot.ops.flights) is the command. If the thread saw no labelled task, the stall
names every command in flight instead. Stalls over ``threshold`` are logged (logger
``grievous.watchdog``, WARNING, with a ``stall`` attribute), counted, and kept in ``recent``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bot.ops.flights import Flight, flight_of

log = logging.getLogger("grievous.watchdog")
INTERVAL = 0.05  # seconds between the loop task's wake-ups


@dataclass(frozen=True)
class Role:
    """What the process is, as a stall that no command caused names the work: ``who`` ("the bot"), and whether it
    runs commands at all (a stall in none of them then says so)."""

    who: str
    runs_commands: bool

    @property
    def own_work(self) -> str:
        return f"{self.who}'s own work"


BOT = Role("the bot", runs_commands=True)
PAGE_SERVER = Role("the page server", runs_commands=False)  # grievous web: pages only, no Discord, no command


@dataclass(frozen=True)
class Stall:
    seconds: float  # how late the loop woke: what the users felt
    cpu_seconds: float  # of those, the loop thread on a CPU
    waiting_seconds: float  # of those, the loop thread ready to run but waiting for a CPU (a busy machine)
    culprit: str | None  # the command whose task held the loop (None: no command's, or not seen)
    seen: bool  # whether the thread saw what held the loop (else the commands in flight are named)
    in_flight: tuple[str, ...]  # every command in flight when the loop woke
    task: str | None = None  # the name of the task seen holding the loop, when no command in flight owns it
    # the bot's other threads' time queued for a CPU meanwhile (one of them may have held the GIL the loop
    # thread waited for: a busy machine again, not the bot)
    others_waiting_seconds: float = 0.0
    role: Role = BOT  # the process the loop is in


    @property
    def held(self) -> float:
        """How long the bot itself held the loop (computing or blocked), the machine's queues left out: the
        loop thread's, and its other threads' while the loop thread was blocked."""
        return max(0.0, self.seconds - self.waiting_seconds - min(self.blocked, self.others_waiting_seconds))

    @property
    def blocked(self) -> float:
        """Neither on a CPU nor queued for one: in a blocking call, or waiting for the GIL."""
        return max(0.0, self.seconds - self.cpu_seconds - self.waiting_seconds)

    @property
    def commands(self) -> str:
        if self.culprit:
            return self.culprit
        if self.task:  # e.g. the database writer, or a channel's tracker updates, outliving the command
            return f"{self.role.own_work} (task {self.task})"
        if self.in_flight and not self.seen:
            return "one of " + ", ".join(self.in_flight)
        if self.in_flight:  # the loop was between tasks: blocked, e.g. on the GIL a worker thread held
            return "no task, with " + ", ".join(self.in_flight) + " in flight"
        return f"no command ({self.role.own_work})" if self.role.runs_commands else self.role.own_work


class Watchdog:
    def __init__(self, threshold: float, *, in_flight: Callable[[], list[str]],
                 on_stall: Callable[[Stall], None] | None = None, interval: float = INTERVAL,
                 role: Role = BOT) -> None:
        self.threshold = threshold
        self.role = role
        self.interval = interval
        self._in_flight = in_flight
        self._on_stall = on_stall
        self.recent: deque[Stall] = deque(maxlen=100)
        self._beat = time.monotonic()
        # (the beat it was overdue from, the flight of the task seen running then, that task's name)
        self._seen: tuple[float, Flight | None, str | None] | None = None
        self._task: asyncio.Task[None] | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._beat = time.monotonic()
        self._task = loop.create_task(self._measure(), name="grievous-watchdog")
        self._stop.clear()
        self._thread = threading.Thread(target=self._look_in, args=(loop,), name="grievous-watchdog", daemon=True)
        self._thread.start()

    async def stop(self) -> None:
        self._stop.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._thread is not None:
            await asyncio.to_thread(self._thread.join, 1.0)
            self._thread = None

    async def _measure(self) -> None:
        cpu, waiting = _thread_times()
        me = threading.get_native_id()
        others = _others_waiting(me)
        while True:
            beat = self._beat
            await asyncio.sleep(self.interval)
            now = time.monotonic()
            (cpu_before, waiting_before), (cpu, waiting) = (cpu, waiting), _thread_times()
            others_before, others = others, _others_waiting(me)
            self._beat = now
            late = now - beat - self.interval
            if late > self.threshold:
                seen = self._seen if self._seen is not None and self._seen[0] == beat else None
                flight, task = (seen[1], seen[2]) if seen is not None else (None, None)
                culprit = flight.name if flight is not None else None
                self._report(Stall(late, min(cpu - cpu_before, late), min(waiting - waiting_before, late),
                                   culprit, seen is not None, tuple(self._in_flight()),
                                   None if culprit else task, min(max(0.0, others - others_before), late),
                                   self.role))

    def _look_in(self, loop: asyncio.AbstractEventLoop) -> None:
        """(The thread.) While the loop is overdue, note once which flight's task is running on it."""
        glance = min(self.interval, self.threshold / 2)
        while not self._stop.wait(glance):
            beat = self._beat
            if time.monotonic() - beat < self.interval + self.threshold / 2:
                continue
            if self._seen is not None and self._seen[0] == beat:
                continue
            try:
                task = asyncio.current_task(loop)
            except RuntimeError:
                task = None
            flight = flight_of(task)
            # A task keeps the flight of the command it was started in after that command has landed (a
            # long-lived writer started by the first command): only a command still in flight is named.
            self._seen = (beat, flight if flight is not None and _in_flight(flight) else None,
                          task.get_name() if task is not None else None)

    def _report(self, stall: Stall) -> None:
        self.recent.append(stall)
        log.warning("event loop stalled for %d ms in %s (%d ms on a CPU, %d ms waiting for one, %d ms blocked; "
                    "other threads %d ms waiting for a CPU)",
                    round(stall.seconds * 1000), stall.commands, round(stall.cpu_seconds * 1000),
                    round(stall.waiting_seconds * 1000), round(stall.blocked * 1000),
                    round(stall.others_waiting_seconds * 1000), extra={"stall": stall})
        if self._on_stall is not None:
            self._on_stall(stall)


def _in_flight(flight: Flight) -> bool:
    return flight.owner is None or flight in flight.owner.active


_SCHEDSTAT = Path("/proc/thread-self/schedstat")


def _thread_times() -> tuple[float, float]:
    """This thread's seconds on a CPU and seconds waiting in the run queue (Linux); elsewhere CPU time only."""
    try:
        on_cpu, queued, _slices = _SCHEDSTAT.read_text().split()
        return int(on_cpu) / 1e9, int(queued) / 1e9
    except (OSError, ValueError):
        return time.thread_time(), 0.0


_TASKS = Path("/proc/self/task")


def _others_waiting(me: int) -> float:
    """The seconds the process's threads other than ``me`` have spent queued for a CPU (Linux; else 0)."""
    total = 0
    try:
        tasks = list(_TASKS.iterdir())
    except OSError:
        return 0.0
    for task in tasks:
        if task.name == str(me):
            continue
        try:
            total += int((task / "schedstat").read_text().split()[1])
        except (OSError, ValueError, IndexError):  # a thread that just ended
            continue
    return total / 1e9
