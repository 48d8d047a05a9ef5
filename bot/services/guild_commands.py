"""What a server's own commands depend on (the systems its channels use) and what they were last synced as."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import ChannelSettings, GuildCommandSync, GuildSettings
from bot.services.rulings import DEFAULT_SYSTEM
from bot.services.runtime import Runtime

BATCH = 500  # guild ids per query at start-up


class GuildCommandService:
    def __init__(self, runtime: Runtime) -> None:
        self._rt = runtime

    async def systems(self, guild_ids: Collection[int]) -> dict[int, tuple[str, ...]]:
        """Each server's systems in use: its own (the default if it never chose) and its channels'."""
        wanted = sorted(set(guild_ids))

        async def work(session: AsyncSession) -> dict[int, tuple[str, ...]]:
            used: dict[int, set[str]] = {guild_id: set() for guild_id in wanted}
            for start in range(0, len(wanted), BATCH):
                batch = wanted[start:start + BATCH]
                guilds = await session.execute(select(GuildSettings.guild_id, GuildSettings.system)
                                               .where(GuildSettings.guild_id.in_(batch)))
                channels = await session.execute(select(ChannelSettings.guild_id, ChannelSettings.system)
                                                 .where(ChannelSettings.guild_id.in_(batch),
                                                        ChannelSettings.system.is_not(None)))
                own = {guild_id: system for guild_id, system in guilds}
                for guild_id in batch:
                    used[guild_id].add(own.get(guild_id) or DEFAULT_SYSTEM)
                for guild_id, system in channels:
                    used[guild_id].add(str(system))
            return {guild_id: tuple(sorted(systems)) for guild_id, systems in used.items()}

        return await self._rt.read(work)

    async def synced(self, guild_ids: Collection[int]) -> dict[int, str]:
        """The signature each server's commands were last synced with (absent: never)."""
        wanted = sorted(set(guild_ids))

        async def work(session: AsyncSession) -> dict[int, str]:
            found: dict[int, str] = {}
            for start in range(0, len(wanted), BATCH):
                rows = await session.execute(select(GuildCommandSync.guild_id, GuildCommandSync.signature)
                                             .where(GuildCommandSync.guild_id.in_(wanted[start:start + BATCH])))
                found.update((guild_id, signature) for guild_id, signature in rows)
            return found

        return await self._rt.read(work)

    async def mark_synced(self, signatures: Mapping[int, str]) -> None:
        async def work(session: AsyncSession) -> None:
            for guild_id, signature in signatures.items():
                row = await session.get(GuildCommandSync, guild_id, with_for_update=True)
                if row is None:
                    session.add(GuildCommandSync(guild_id=guild_id, signature=signature, synced_at=self._rt.clock()))
                else:
                    row.signature, row.synced_at = signature, self._rt.clock()

        await self._rt.transact(None, work)
