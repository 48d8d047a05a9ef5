"""Interactions in flight: which command is running, for how long, and how it ended.

Every interaction enters the bot through one gateway parser (INTERACTION_CREATE); the bot wraps it so
the handling of each interaction is a ``Flight``. While the parser runs, the flight is the current one
(a context variable), so every task discord.py starts for it, and every task those start in turn (the
service work of ``slow``), carry it: a task factory labels them, and the watchdog can name the command
whose task held the loop. The tasks the parser itself starts are the flight's roots; when the last of
them ends, the flight lands and its metrics are counted.
"""

from __future__ import annotations

import asyncio
import contextvars
import time
import weakref
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from typing import Any

CURRENT: contextvars.ContextVar[Flight | None] = contextvars.ContextVar("grievous_flight", default=None)
# task -> the flight it works for; read by the watchdog's thread (a dict look-up, safe under the GIL).
_LABELS: weakref.WeakKeyDictionary[asyncio.Future[Any], Flight] = weakref.WeakKeyDictionary()
# The flight whose parser is running right now (parsers are synchronous: at most one at a time).
_collecting: Flight | None = None

# Interaction types Discord expects an answer to: slash command, button or menu, modal.
ANSWERED = {2, 3, 5}
KINDS = {2: "command", 3: "component", 4: "autocomplete", 5: "modal"}
USER_ERROR, ERROR = "user_error", "error"


@dataclass(eq=False)
class Flight:
    name: str  # "/attack", "/character import", "button grv:gm", "autocomplete /attack"
    kind: str
    type: int
    started: float = field(default_factory=time.monotonic)
    result: str = "ok"
    deferred: bool = False
    missed: bool = False
    answered: Callable[[], bool] | None = None  # set once the Interaction object exists
    interaction: Any = field(default=None, repr=False)  # that discord.Interaction
    roots: int = 0
    owner: Flights | None = field(default=None, repr=False)

    def fail(self, result: str) -> None:
        """Mark the flight as ended by a user's mistake or by a bug (the worse one wins)."""
        if self.result != ERROR:
            self.result = result


def current() -> Flight | None:
    return CURRENT.get()


def flight_of(task: asyncio.Future[Any] | None) -> Flight | None:
    return _LABELS.get(task) if task is not None else None


def interaction_name(data: Mapping[str, Any], known_commands: Callable[[str], bool]) -> str:
    """A bounded name for an interaction payload: never an id, a user's text or an unknown command's name."""
    kind = data.get("type")
    inner = data.get("data") or {}
    if kind in (2, 4):
        top = str(inner.get("name", ""))
        if not known_commands(top):
            name = "unknown command"
        else:
            words = [top]
            options = inner.get("options") or []
            # Subcommand groups (type 2) and subcommands (type 1) nest as the first option.
            while options and options[0].get("type") in (1, 2):
                words.append(str(options[0].get("name", ""))[:32])
                options = options[0].get("options") or []
            name = "/" + " ".join(words)
        return f"autocomplete {name}" if kind == 4 else name
    custom_id = str(inner.get("custom_id", ""))
    prefix = ":".join(custom_id.split(":")[:2]) if custom_id.startswith("grv:") else ""
    what = "modal" if kind == 5 else "button"
    return f"{what} {prefix}" if prefix else what


class Flights:
    """One bot's interactions in flight; ``land`` is called with each flight once its handling ends."""

    def __init__(self, land: Callable[[Flight], None]) -> None:
        self._land = land
        self.active: set[Flight] = set()

    def names(self) -> list[str]:
        return sorted(flight.name for flight in self.active)

    def wrap_parser(self, parse: Callable[[dict[str, Any]], None], known_commands: Callable[[str], bool],
                    ) -> Callable[[dict[str, Any]], None]:
        def parse_interaction_create(data: dict[str, Any]) -> None:
            global _collecting
            kind = int(data.get("type", 0))
            flight = Flight(interaction_name(data, known_commands), KINDS.get(kind, "other"), kind, owner=self)
            self.active.add(flight)
            token = CURRENT.set(flight)
            _collecting = flight
            try:
                parse(data)
            finally:
                _collecting = None
                CURRENT.reset(token)
                if flight.roots == 0:
                    self._end(flight)

        return parse_interaction_create

    def track(self, task: asyncio.Future[Any], flight: Flight) -> None:
        _LABELS[task] = flight
        if flight is _collecting:
            flight.roots += 1
            task.add_done_callback(lambda _task: self._root_done(flight))

    def _root_done(self, flight: Flight) -> None:
        flight.roots -= 1
        if flight.roots == 0:
            self._end(flight)

    def _end(self, flight: Flight) -> None:
        self.active.discard(flight)
        if flight.type in ANSWERED and flight.answered is not None and not flight.answered():
            flight.missed = True  # the user saw "The application did not respond"
            flight.fail(ERROR)
        self._land(flight)


def install_task_factory(loop: asyncio.AbstractEventLoop) -> None:
    """Label every task created while a flight is current (once per loop; any earlier factory still runs)."""
    previous = loop.get_task_factory()
    if getattr(previous, "grievous_flights", False):
        return

    def factory(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any], **kwargs: Any,
                ) -> asyncio.Future[Any]:
        task = previous(loop, coro, **kwargs) if previous is not None else asyncio.Task(coro, loop=loop, **kwargs)
        context = kwargs.get("context")  # a task given its own context (a fresh one: no command's work)
        flight = context.get(CURRENT) if context is not None else CURRENT.get()
        if flight is not None and flight.owner is not None:
            flight.owner.track(task, flight)
        return task

    factory.grievous_flights = True  # type: ignore[attr-defined]
    loop.set_task_factory(factory)  # type: ignore[arg-type]
