"""Run discord.py against an Emulator: the two redirections, and starting/stopping a bot cleanly."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any, Generic, TypeVar

import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from .server import Emulator

ClientT = TypeVar("ClientT", bound=discord.Client)
log = logging.getLogger(__name__)


@contextlib.contextmanager
def redirect_discord(emu: Emulator) -> Iterator[None]:
    """Point discord.py's REST base and default gateway at the emulator; restore them afterwards.
    These are class attributes, so this is process-wide: one emulator at a time."""
    with redirect_discord_to(emu.base_url):
        yield


@contextlib.contextmanager
def redirect_discord_to(base_url: str) -> Iterator[None]:
    """The same, by the emulator's address (``http://127.0.0.1:PORT``): for a bot in another process."""
    host = yarl.URL(base_url)
    old_base, old_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = str(host / "api" / "v10")
    DiscordWebSocket.DEFAULT_GATEWAY = host.with_scheme("ws").with_path("/")
    try:
        yield
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = old_base, old_gateway


@asynccontextmanager
async def running_emulator(emulator: Emulator | None = None, **options: Any) -> AsyncIterator[Emulator]:
    """Start an emulator on a free 127.0.0.1 port with discord.py redirected to it."""
    emu = emulator or Emulator(**options)
    await emu.start()
    try:
        with redirect_discord(emu):
            yield emu
    finally:
        await emu.stop()


class RunningBot(Generic[ClientT]):
    """A client logged in to the emulator with its gateway loop running as a task."""

    def __init__(self, client: ClientT, task: asyncio.Task[None]) -> None:
        self.client = client
        self.task = task

    @property
    def crashed(self) -> BaseException | None:
        """The exception that ended the gateway loop, if it ended on its own."""
        if self.task.done() and not self.task.cancelled():
            return self.task.exception()
        return None

    async def stop(self, within: float = 10.0) -> None:
        await self.client.close()
        try:
            await asyncio.wait_for(asyncio.shield(self.task), within)
        except TimeoutError:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        except Exception:
            log.exception("the bot's gateway loop ended with an error")


async def start_bot(emu: Emulator, client: ClientT, *, token: str | None = None, within: float = 10.0,
                    guild_ready_timeout: float | None = 0.05) -> RunningBot[ClientT]:
    """`login()` + `connect()` (as a task), then wait until the client is ready.

    discord.py waits `guild_ready_timeout` (2 s by default) after the last GUILD_CREATE before it
    fires on_ready; the emulator sends them all at once, so the wait is shortened unless None.
    """
    if guild_ready_timeout is not None:
        client._connection.guild_ready_timeout = guild_ready_timeout
    await client.login(token or emu.token)
    task = asyncio.create_task(client.connect(reconnect=True), name=f"discord-connect-{id(client)}")
    ready = asyncio.create_task(client.wait_until_ready())
    done, _ = await asyncio.wait({task, ready}, timeout=within, return_when=asyncio.FIRST_COMPLETED)
    if ready in done:
        return RunningBot(client, task)
    ready.cancel()
    await client.close()
    if task.done() and not task.cancelled() and task.exception() is not None:
        raise RuntimeError("the bot's gateway connection failed") from task.exception()
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await task
    raise TimeoutError(f"the bot was not ready within {within}s")


@asynccontextmanager
async def running_bot(emu: Emulator, client: ClientT, **options: Any) -> AsyncIterator[ClientT]:
    """`async with running_bot(emu, MyBot()) as bot:` — started, ready, and closed on exit.
    Restarting is just another `running_bot` with a new client instance on the same emulator."""
    runner = await start_bot(emu, client, **options)
    try:
        yield client
    finally:
        await runner.stop()
