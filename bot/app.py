"""The bot: a typed AutoShardedBot that loads the cogs, registers the GM buttons and (when told) syncs."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord
from discord.ext import commands

from bot.cogs import EXTENSIONS
from bot.db.engine import DEFAULT_DATABASE_URL, Database
from bot.services import Services
from bot.tree import GrievousTree
from bot.ui.decisions import DetailsButton, GMDecisionButton

log = logging.getLogger("grievous")


def default_intents() -> discord.Intents:
    """Slash commands and buttons need only the guilds intent (no privileged intents)."""
    intents = discord.Intents.none()
    intents.guilds = True
    return intents


class GrievousBot(commands.AutoShardedBot):
    """Construct with a ready ``services`` (tests, the playground), a ``db``/``database``, or a ``database_url``;
    ``settings`` (bot.settings.Settings) supplies database_url, sync_commands and the shard settings.

    ``sync_commands`` pushes the command tree to Discord in ``setup_hook``: globally, or to
    ``sync_guild_id`` only (instant, for development). Only one process of several should sync.
    """

    services: Services
    db: Database | None
    tree: GrievousTree

    def __init__(
        self,
        *,
        settings: Any = None,
        services: Services | None = None,
        db: Database | None = None,
        database: Database | None = None,
        database_url: str = DEFAULT_DATABASE_URL,
        migrate: bool = True,
        sync_commands: bool = False,
        sync_guild_id: int | None = None,
        extensions: Sequence[str] = EXTENSIONS,
        shard_ids: list[int] | None = None,
        shard_count: int | None = None,
        intents: discord.Intents | None = None,
        **options: Any,
    ) -> None:
        database = database or db
        if settings is not None:  # bot.settings.Settings: its values win over the defaults above
            database_url = getattr(settings, "database_url", None) or database_url
            sync_commands = bool(getattr(settings, "sync_commands", sync_commands))
            sync_guild_id = getattr(settings, "sync_guild_id", None) or sync_guild_id
            ids = getattr(settings, "shard_ids", None)
            shard_ids = list(ids) if ids is not None else shard_ids
            shard_count = getattr(settings, "shard_count", None) or shard_count
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=intents or default_intents(),
            tree_cls=GrievousTree,
            allowed_mentions=discord.AllowedMentions.none(),
            shard_ids=shard_ids,  # type: ignore[arg-type]  # None means every shard
            shard_count=shard_count,
            **options,
        )
        if services is not None:
            self.services = services
        self.db = getattr(services, "db", None) if services is not None else database
        self._owns_db = services is None and database is None
        self._database_url = database_url
        self._migrate = migrate and self._owns_db
        self.sync_commands = sync_commands
        self.sync_guild_id = sync_guild_id
        self.extension_names = tuple(extensions)

    async def setup_hook(self) -> None:
        if not hasattr(self, "services"):
            if self.db is None:
                self.db = Database.from_url(self._database_url)
            if self._migrate:
                from bot.db.migrate import upgrade

                await upgrade(self.db)
            self.services = Services(self.db)
        for name in self.extension_names:
            await self.load_extension(name)
        # Persistent GM buttons: any message's grv:gm:<id>:<choice> button is handled, even after a restart.
        self.add_dynamic_items(GMDecisionButton, DetailsButton)
        if self.sync_commands:
            await self.sync_tree()

    async def sync_tree(self) -> list[discord.app_commands.AppCommand]:
        if self.sync_guild_id is not None:
            guild = discord.Object(id=self.sync_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d commands%s", len(synced), f" to guild {self.sync_guild_id}" if self.sync_guild_id else "")
        return synced

    async def on_ready(self) -> None:
        log.info("ready as %s in %d guilds (shards %s)", self.user, len(self.guilds), self.shard_ids or "all")

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            if self._owns_db and self.db is not None:
                await self.db.dispose()
