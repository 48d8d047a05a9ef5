"""The encounter page's live part, rendered once per kind of viewer and shared by every stream of that kind.

A live update is the tracker and the fight's log as one viewer may read them. What a viewer reads is decided by
the projection (bot/services/projection.py) from who they are at the table: the GM, a player, or the channel;
whether the server keeps NPC rolls secret; and which channels they may see. Two viewers whose sessions carry the
same of those inputs (``kind_of``) read the same fragment, so one rendering serves them all: one task per
(channel, kind) watches the channel (bot/services/live_events.py), renders on each new event, and hands the
frame to each stream of that kind. Viewers whose inputs differ in anything are never given each other's
rendering: the kind holds every input of the projection except the viewer's user id, which it does not read.

The worded lines of a (channel, kind) are kept between renders (``WordedLog``), so a new event words only its
own line; the encounter page's first render takes them too.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from aiohttp import web

from bot.web.http import CSP, SESSION_ID

if TYPE_CHECKING:
    from bot.services.live_events import EventFeed
    from bot.web.pages import ChannelLink, Entry, Pages
    from bot.web.server import WebServer
    from bot.web.viewer import Viewer

log = logging.getLogger("grievous.web")
KEEPALIVE_SECONDS = 15.0  # a comment line on a quiet stream, so proxies keep it open
RETRY_SECONDS = 1.0  # a render that failed (the database away) is tried again after this
MAX_WORDED = 256  # (channel, kind)s whose worded lines are kept with no stream open

Kind = tuple[Hashable, ...]


def kind_of(viewer: Viewer, channel_id: int | None = None) -> Kind:
    """Everything a page (the live fragment of ``channel_id``; None: any page, bot/web/page_cache.py) depends on
    for ``viewer``, but its user id and name: the seat the services give it (its web role, its roles, whether it
    manages the server, the table's channel) and the channels it may see (a mention of another channel is named
    only if it may see it), with their names. The projection reads the user id only to seat a character's owner
    (bot/services/viewer.py), which reads as any other player's seat: it hides nothing more or less."""
    actor = viewer.actor
    return (channel_id, viewer.role, actor.guild_id, actor.table, actor.is_manager, tuple(sorted(actor.role_ids)),
            viewer.table_channel, viewer.channels, viewer.channel_names)


@dataclass
class WordedLog:
    """A (channel, kind)'s worded log: event id -> (its stamp when worded, its entry)."""

    lines: dict[int, tuple[str, Entry]] = field(default_factory=dict)


class LiveGroup:
    """The streams of one (channel, kind): one watch, one render per new event, one frame for all."""

    def __init__(self, live: LiveRenders, kind: Kind, viewer: Viewer, channel: ChannelLink) -> None:
        self._live = live
        self.kind = kind
        self.viewer = viewer  # the first stream's: any of the kind's renders the same
        self.channel = channel
        self.streams = 0
        self.frame: bytes | None = None  # the newest frame (None: not rendered yet)
        self.generation = 0  # frames made so far
        self.renders = 0
        self._changed = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    async def run(self, feed: EventFeed) -> None:
        """Watch the channel, render, publish a frame when the fragment changed; until cancelled."""
        last = ""
        newest: int | None = None
        async with feed.watch(self.channel.id) as watch:  # before the first render: nothing after it is missed
            while True:
                try:
                    async with self._live.server.gate.render():
                        fragment = await self._live.pages.live_fragment(self.viewer, self.channel,
                                                                        self._live.worded(self.kind))
                    self.renders += 1
                except asyncio.CancelledError:
                    raise
                except Exception:  # the database away: the streams keep their last frame, the render is tried again
                    log.exception("live page of channel %s: render failed", self.channel.id)
                    await asyncio.sleep(RETRY_SECONDS)
                    continue
                digest = hashlib.sha256(fragment.encode()).hexdigest()
                if digest != last:
                    last = digest
                    self._publish((("" if newest is None else f"id: {newest}\n") + "event: update\n"
                                   + "".join(f"data: {line}\n" for line in fragment.split("\n")) + "\n").encode())
                ids: tuple[int, ...] = ()
                while not ids:
                    ids = await watch.next(KEEPALIVE_SECONDS)
                    if not ids and self._live.server.closing.is_set():
                        return
                newest = max(ids)

    def _publish(self, frame: bytes) -> None:
        self.frame = frame
        self.generation += 1
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    def wake(self) -> None:
        """Wake the streams waiting for a frame (with none new: the server is closing)."""
        self._changed.set()

    async def after(self, generation: int, within: float) -> bool:
        """Wait up to ``within`` seconds for a frame newer than ``generation``; whether there is one."""
        if self.generation > generation:
            return True
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._changed.wait(), within)
        return self.generation > generation


class LiveRenders:
    """The process's live groups, and the worded logs they and the encounter pages share."""

    def __init__(self, server: WebServer, pages: Pages) -> None:
        self.server = server
        self.pages = pages
        self._groups: dict[Kind, LiveGroup] = {}
        self._worded: OrderedDict[Kind, WordedLog] = OrderedDict()

    def worded(self, kind: Kind) -> WordedLog:
        """The (channel, kind)'s worded log, kept for the newest MAX_WORDED of them."""
        found = self._worded.pop(kind, None) or WordedLog()
        self._worded[kind] = found
        while len(self._worded) > MAX_WORDED:
            self._worded.popitem(last=False)
        return found

    @property
    def groups(self) -> int:
        return len(self._groups)

    @contextlib.contextmanager
    def joined(self, viewer: Viewer, channel: ChannelLink) -> Iterator[LiveGroup]:
        """The (channel, kind)'s group for as long as the block lasts; the last stream to leave ends it."""
        kind = kind_of(viewer, channel.id)
        group = self._groups.get(kind)
        if group is None:
            group = self._groups[kind] = LiveGroup(self, kind, viewer, channel)
            group.task = asyncio.create_task(group.run(self.server.live_feed()), name=f"web live {channel.id}")
        group.streams += 1
        try:
            yield group
        finally:
            group.streams -= 1
            if group.streams == 0 and self._groups.get(kind) is group:
                del self._groups[kind]
                if group.task is not None:
                    group.task.cancel()

    async def close(self) -> None:
        """The server stops: each group's render ends, and its streams wake to see the server closing."""
        groups, self._groups = list(self._groups.values()), {}
        for group in groups:
            group.wake()
            if group.task is not None:
                group.task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await group.task

    async def stream(self, request: web.Request, viewer: Viewer, channel: ChannelLink) -> web.StreamResponse:
        """Server-Sent Events: the live part of the encounter page as this viewer's kind reads it, a frame each
        time it changes, for as long as the session lasts. A frame's ``id`` is the newest event it shows."""
        server = self.server
        session_id = request[SESSION_ID]
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store",
                                               "X-Accel-Buffering": "no"})
        response.headers["Content-Security-Policy"] = CSP
        response.headers["Referrer-Policy"] = "no-referrer"
        await response.prepare(request)

        async def session_ended() -> bool:
            async with server.gate.render():
                return await server.sessions.session(session_id) is None

        try:
            with self.joined(viewer, channel) as group:
                await self._relay(request, response, group, session_ended)
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        return response

    async def _relay(self, request: web.Request, response: web.StreamResponse, group: LiveGroup,
                     session_ended: Callable[[], Awaitable[bool]]) -> None:
        """Each new frame of ``group`` written to the stream (a comment while it is quiet), until the server closes
        or the session ends."""
        server = self.server
        seen = 0
        while not server.closing.is_set():
            if not await group.after(seen, KEEPALIVE_SECONDS):
                if server.closing.is_set() or await session_ended():
                    break
                await response.write(b": quiet\n\n")  # a quiet stream: proxies keep it open
                continue
            if await session_ended():
                break  # revoked or expired: the stream ends with the session
            seen, frame = group.generation, group.frame
            assert frame is not None
            if server.recorder is not None:
                server.recorder.received(request, frame)
            await response.write(frame)

