"""What the emulator remembers for tests: refusals, interactions and the responses they got."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from .errors import flatten_errors
from .models import Channel, Guild, Member, Message, User

if TYPE_CHECKING:
    from .errors import DiscordError

JSONDict = dict[str, Any]
T = TypeVar("T")

# How long a wait for the bot gives up after, by default: a bound that ends a stuck test, not a speed check
# (speed is measured in bench/), so it is generous: a loaded machine must not fail a test by itself.
DEFAULT_TIMEOUT = 30.0
POLL = 0.05

# Interaction types.
PING = 1
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Interaction callback types.
PONG = 1
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9


class Notifier:
    """Wakes every waiter whenever something the emulator records changes."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def notify(self) -> None:
        self._event.set()
        self._event = asyncio.Event()

    async def wait_until(
        self, predicate: Callable[[], T | None], within: float, describe: str | Callable[[], str]
    ) -> T:
        """Wait until `predicate()` returns something truthy and return it. Re-checked on every recorded
        change, and every POLL seconds for predicates about state the emulator does not see (the bot's)."""
        deadline = time.monotonic() + within
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                text = describe() if callable(describe) else describe
                raise TimeoutError(f"timed out after {within:.1f}s waiting for {text}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._event.wait(), min(remaining, POLL))


@dataclass
class Refusal:
    """A request the emulator answered with an error, as Discord would have."""

    method: str
    path: str
    status: int
    code: int
    message: str
    errors: JSONDict | None = None
    request: Any = None
    interaction_id: int | None = None
    note: str = ""
    at: float = field(default_factory=time.monotonic)

    @classmethod
    def from_error(cls, method: str, path: str, error: DiscordError, request: Any = None,
                   interaction_id: int | None = None) -> Refusal:
        return cls(method, path, error.status, error.code, error.message,
                   error.errors.tree if error.errors else None, request, interaction_id, error.note)

    def __str__(self) -> str:
        text = f"{self.method} {self.path} -> {self.status} {self.message} (code {self.code})"
        if self.note:
            text += f" [{self.note}]"
        if self.errors:
            text += "".join(f"\n    {line}" for line in flatten_errors(self.errors))
        return text


@dataclass(frozen=True)
class CommandWrite:
    """A change the bot made to its application commands: who syncs, and how often."""

    method: str  # PUT (a bulk overwrite, what `tree.sync()` sends), POST, PATCH or DELETE
    guild_id: int | None  # None: the global commands
    names: tuple[str, ...]
    at: float = field(default_factory=time.monotonic)


ResponseKind = Literal["callback", "followup", "edit", "delete"]


@dataclass
class ResponseEvent:
    """One thing the bot did to answer an interaction."""

    kind: ResponseKind
    data: JSONDict
    message: Message | None = None
    type: int | None = None  # callback type, for kind == "callback"
    at: float = field(default_factory=time.monotonic)


class InteractionHandle:
    """An interaction the emulator dispatched, and everything the bot answered to it.

    The `await`-able helpers wait (default 30 s) and raise TimeoutError naming what was missing,
    including any refusal the bot's attempt ran into.
    """

    def __init__(
        self,
        *,
        id: int,
        token: str,
        type: int,
        payload: JSONDict,
        user: User,
        member: Member | None,
        channel: Channel,
        guild: Guild | None,
        notifier: Notifier,
        name: str = "",
        message: Message | None = None,
        opened_by: InteractionHandle | None = None,
    ) -> None:
        self.id = id
        self.token = token
        self.type = type
        self.payload = payload
        self.user = user
        self.member = member
        self.channel = channel
        self.guild = guild
        self.name = name
        # The message whose component was used (component interactions, modals opened from one).
        self.source_message = message
        # For a modal submit: the interaction that opened the modal.
        self.opened_by = opened_by
        self.created_at = time.monotonic()
        self.events: list[ResponseEvent] = []
        self.refusals: list[Refusal] = []
        self.original: Message | None = None
        self.followup_messages: list[Message] = []
        self.delivered = 0
        self._notifier = notifier

    # -- state --------------------------------------------------------------------------------------

    @property
    def callback(self) -> ResponseEvent | None:
        return next((e for e in self.events if e.kind == "callback"), None)

    @property
    def acknowledged(self) -> bool:
        return self.callback is not None

    @property
    def callback_count(self) -> int:
        return sum(1 for e in self.events if e.kind == "callback")

    def _describe(self, what: str) -> Callable[[], str]:
        def text() -> str:
            lines = [f"{what} of interaction {self.id} ({self.name or self.type})"]
            lines.append(f"  delivered to the bot {self.delivered} time(s); events so far: "
                         + (", ".join(f"{e.kind}{'/' + str(e.type) if e.type else ''}" for e in self.events) or "none"))
            lines.extend(f"  refusal: {r}" for r in self.refusals)
            return "\n".join(lines)

        return text

    async def wait_for(self, predicate: Callable[[], T | None], what: str, within: float = DEFAULT_TIMEOUT) -> T:
        return await self._notifier.wait_until(predicate, within, self._describe(what))

    # -- what tests await ---------------------------------------------------------------------------

    async def response(self, within: float = DEFAULT_TIMEOUT) -> ResponseEvent:
        """The interaction callback (any type)."""
        return await self.wait_for(lambda: self.callback, "the callback", within)

    async def message(self, within: float = DEFAULT_TIMEOUT, *, loaded: bool = True) -> Message:
        """The message the response created or updated. With `loaded`, a deferred ("thinking")
        response is waited on until the bot edits it into real content. After a deferred update
        (type 6) this is the component's message as it stands: use `wait_events("edit")`."""

        def ready() -> Message | None:
            msg = self.original
            if msg is None or (loaded and msg.loading):
                return None
            return msg

        return await self.wait_for(ready, "the response message", within)

    async def followups(self, count: int = 1, within: float = DEFAULT_TIMEOUT) -> list[Message]:
        def enough() -> list[Message] | None:
            return list(self.followup_messages) if len(self.followup_messages) >= count else None

        return await self.wait_for(enough, f"{count} follow-up message(s)", within)

    async def wait_events(self, kind: ResponseKind, count: int = 1,
                          within: float = DEFAULT_TIMEOUT) -> list[ResponseEvent]:
        """The first `count` events of one kind ("callback", "followup", "edit", "delete"), e.g. the edit
        that follows a deferred update (type 6)."""

        def enough() -> list[ResponseEvent] | None:
            found = [e for e in self.events if e.kind == kind]
            return found if len(found) >= count else None

        return await self.wait_for(enough, f"{count} {kind} event(s)", within)

    async def choices(self, within: float = DEFAULT_TIMEOUT) -> list[JSONDict]:
        """Autocomplete choices (callback type 8)."""
        event = await self.response(within)
        if event.type != AUTOCOMPLETE_RESULT:
            raise AssertionError(f"expected an autocomplete result, the bot answered type {event.type}")
        return list(event.data.get("choices") or [])

    async def modal(self, within: float = DEFAULT_TIMEOUT) -> JSONDict:
        """The modal the bot opened (callback type 9): custom_id, title, components."""
        event = await self.response(within)
        if event.type != MODAL:
            raise AssertionError(f"expected a modal, the bot answered type {event.type}")
        return event.data

    def __repr__(self) -> str:
        return f"<InteractionHandle id={self.id} type={self.type} {self.name!r} events={len(self.events)}>"
