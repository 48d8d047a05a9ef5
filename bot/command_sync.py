"""Keeping each server's own commands (bot/system_commands.py) in step with the systems it uses.

A server is sent its commands when the bot joins it, when ``/setup system`` changes what it uses, and at
start-up only if what it was last sent (stored in the database) differs from what it should have now: a
restart does not write to every server, and a release that changes a command reaches the servers one at
a time, behind Discord's rate limits (discord.py waits them out). See docs/decisions/per-server-commands.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Collection, Iterable
from typing import TYPE_CHECKING, Any

import discord

from bot.system_commands import guild_payload, shared_payload, signature

if TYPE_CHECKING:
    from bot.app import GrievousBot

log = logging.getLogger("grievous.commands")


class CommandSync:
    """``dev_guild_id`` (SYNC_GUILD_ID, for development) gets the shared commands too, instead of globally."""

    def __init__(self, bot: GrievousBot, dev_guild_id: int | None = None) -> None:
        self.bot = bot
        self.dev_guild_id = dev_guild_id
        self._queue: asyncio.Queue[tuple[int, bool]] = asyncio.Queue()  # (guild id, force)
        self._queued: set[int] = set()
        self._worker: asyncio.Task[None] | None = None
        self._writing = asyncio.Lock()  # one command write at a time from this process
        self.checked = asyncio.Event()  # set once the start-up check has queued what it found
        self.problems: dict[int, discord.HTTPException] = {}  # guild id -> why its last command write failed

    def _tree_payloads(self) -> list[dict[str, Any]]:
        return [command.to_dict(self.bot.tree) for command in self.bot.tree.get_commands()]

    def payload_for(self, guild_id: int, systems: Collection[str]) -> list[dict[str, Any]]:
        payloads = self._tree_payloads()
        own = guild_payload(payloads, systems)
        return shared_payload(payloads) + own if guild_id == self.dev_guild_id else own

    async def sync_shared(self) -> int:
        """Register the commands every server shares, globally (never the per-server ones)."""
        if self.dev_guild_id is not None:
            return 0  # they go to the development server with its own
        payload = shared_payload(self._tree_payloads())
        async with self._writing:
            await self.bot.http.bulk_upsert_global_commands(self._application_id(), payload)
        log.info("synced %d shared commands", len(payload))
        return len(payload)

    async def sync_guild(self, guild_id: int, *, force: bool = False) -> bool:
        """Send a server its commands if they changed (or ``force``); True if they were sent. A failure is
        logged, not raised: the server keeps its old commands and is tried again at the next start."""
        services = self.bot.services.guild_commands
        systems = (await services.systems([guild_id]))[guild_id]
        payload = self.payload_for(guild_id, systems)
        wanted = signature(payload)
        if not force and (await services.synced([guild_id])).get(guild_id) == wanted:
            self.problems.pop(guild_id, None)
            return False
        try:
            async with self._writing:
                await self.bot.http.bulk_upsert_guild_commands(self._application_id(), guild_id, payload)
        except discord.HTTPException as exc:
            log.warning("could not sync the commands of guild %s (%s systems): %s", guild_id, "+".join(systems), exc)
            self.problems[guild_id] = exc
            return False
        self.problems.pop(guild_id, None)
        await services.mark_synced({guild_id: wanted})
        log.info("synced %d commands to guild %s for %s", len(payload), guild_id, "+".join(systems))
        return True

    async def current(self, guild_id: int) -> bool:
        """Whether the server has the commands it should have now (as last sent, by the database)."""
        services = self.bot.services.guild_commands
        systems = (await services.systems([guild_id]))[guild_id]
        return (await services.synced([guild_id])).get(guild_id) == signature(self.payload_for(guild_id, systems))

    async def check(self, guild_ids: Iterable[int]) -> int:
        """Queue the servers whose commands are not what they should be now; how many were queued."""
        ids = list(guild_ids)
        if not ids:
            self.checked.set()
            return 0
        services = self.bot.services.guild_commands
        systems, synced = await services.systems(ids), await services.synced(ids)
        signatures: dict[tuple[tuple[str, ...], bool], str] = {}
        queued = 0
        for guild_id in ids:
            key = (systems[guild_id], guild_id == self.dev_guild_id)
            if key not in signatures:
                signatures[key] = signature(self.payload_for(guild_id, key[0]))
            if synced.get(guild_id) != signatures[key]:
                self.queue(guild_id)
                queued += 1
        self.checked.set()
        return queued

    def queue(self, guild_id: int, *, force: bool = False) -> None:
        """Sync a server in the background (one at a time, in order)."""
        if guild_id in self._queued and not force:
            return
        self._queued.add(guild_id)
        self._queue.put_nowait((guild_id, force))
        if self._worker is None or self._worker.done():
            self._worker = asyncio.create_task(self._work(), name="grievous-command-sync")

    async def idle(self) -> None:
        """Wait until every queued server has been synced (tests)."""
        await self._queue.join()

    async def close(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._worker

    async def _work(self) -> None:
        while True:
            guild_id, force = await self._queue.get()
            self._queued.discard(guild_id)
            try:
                await self.sync_guild(guild_id, force=force)
            except Exception:  # a bug or the database: the next start tries again
                log.exception("syncing the commands of guild %s failed", guild_id)
            finally:
                self._queue.task_done()

    def _application_id(self) -> int:
        if self.bot.application_id is None:
            raise RuntimeError("the bot has no application id before it logs in")
        return self.bot.application_id
