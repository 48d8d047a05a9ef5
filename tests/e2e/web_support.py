"""The campaign web page in e2e tests: its server on the running bot, /web links, and a browser-less reader."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import aiohttp

from bot.web.recording import Recorder
from bot.web.server import WebServer
from emulator import Member
from emulator.models import Channel, walk_components


async def serve(table: Any, *, live_seconds: float = 0.2, base_url: str | None = None) -> WebServer:
    """The web page on a free port of the running bot, recording what each session receives."""
    web = WebServer(table.bot, port=0, base_url=base_url, recorder=Recorder(), live_seconds=live_seconds)
    await web.start()
    table.bot.web = web
    return web


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
            text = await response.text()
            self.pages.append(text)
            return response.status, text

    async def close(self) -> None:
        await self.http.close()
