"""The campaign web page in e2e tests: its server on the running bot, /web links, and a browser-less reader."""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from bot.services.web_sessions import WebSessionService
from bot.web.recording import Recorder
from bot.web.server import WebServer
from emulator import Member
from emulator import permissions as perms
from emulator.models import Channel, walk_components


async def serve(table: Any, *, live_seconds: float = 0.2, base_url: str | None = None,
                sessions: WebSessionService | None = None) -> WebServer:
    """The web page on a free port of the running bot, recording what each session receives."""
    web = WebServer(table.bot, port=0, base_url=base_url, recorder=Recorder(), live_seconds=live_seconds,
                    sessions=sessions)
    await web.start()
    table.bot.web = web
    return web


async def campaign(table: Any) -> Channel:
    """ars-harn with secret rolls: Bjorn (Alice's) and a bandit fight in #combat; in #prep, which only the GM
    role may view, the GM has seated a Cutthroat the players have not met. #prep is returned."""
    await table.bjorn_against_bandits(settings={"setup secret-rolls": {"on": True}},
                                      bjorn={**table.BJORN, "armour": "Leather Cap"}, bjorn_joins_first=True)
    guild = table.world.guild
    prep = table.emu.add_channel(guild, "prep", overwrites=[
        perms.Overwrite(guild.id, 0, deny=perms.VIEW_CHANNEL),
        perms.Overwrite(table.world.gm_role.id, 0, allow=perms.VIEW_CHANNEL)])
    await table.emu.wait_until(lambda: table.bot.get_channel(prep.id), what="the bot to see #prep")
    await table.run("encounter start", channel=prep)
    await table.run("encounter npcs", {"template": "bandit", "name_prefix": "Cutthroat"}, channel=prep)
    return prep


async def link(table: Any, user: Member, options: dict[str, Any] | None = None,
               channel: Channel | None = None) -> str:
    """The URL of the link button /web answers ``user`` with, privately."""
    message = await table.run("web", options or {}, user=user, channel=channel)
    assert message.ephemeral, message
    urls = [c.get("url") for c in walk_components(message.components) if c.get("url")]
    assert len(urls) == 1 and len(urls[0]) <= 512, urls
    return str(urls[0])


@dataclass
class Reader:
    """One browser without JavaScript: a cookie jar and the pages it read."""

    http: aiohttp.ClientSession
    pages: list[str] = field(default_factory=list)

    @classmethod
    def new(cls) -> Reader:
        return cls(aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)))

    async def open(self, url: str) -> tuple[int, str]:
        async with self.http.get(url) as response:
            text = await response.text(errors="replace")
            self.pages.append(text)
            return response.status, text

    async def close(self) -> None:
        await self.http.close()


@dataclass
class Stream:
    """A live encounter page's Server-Sent Events, read as they come: each frame's id and data."""

    reader: Reader
    frames: list[tuple[str | None, str]] = field(default_factory=list)
    task: asyncio.Task[None] | None = None

    async def open(self, url: str) -> Stream:
        self.task = asyncio.create_task(self._read(url))
        return self

    async def _read(self, url: str) -> None:
        async with self.reader.http.get(url) as response:
            assert response.status == 200, response.status
            frame_id, data = None, []
            async for raw in response.content:
                line = raw.decode().rstrip("\n")
                if line.startswith("id: "):
                    frame_id = line[4:]
                elif line.startswith("data: "):
                    data.append(line[6:])
                elif not line and data:
                    self.frames.append((frame_id, "\n".join(data)))
                    frame_id, data = None, []

    async def shows(self, wanted: str, within: float) -> float:
        """Seconds until a frame holding ``wanted`` came."""
        start = time.monotonic()
        while not any(wanted in data for _, data in self.frames):
            assert time.monotonic() - start < within, f"{wanted!r} not streamed within {within} s: {self.frames}"
            await asyncio.sleep(0.02)
        return time.monotonic() - start

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
