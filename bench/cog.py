"""Benchmark-only slash commands, added to the bot by ``bench.latency`` and never to the production tree.

``/bench-noop`` answers at once: what discord.py (and the emulator) cost by themselves.
``/bench-durable`` does one bare INSERT and COMMIT through the bot's own engine (``bot.db.Database``),
then answers: the least a command that saves anything can cost when it commits on its own.
``/bench-durable-group`` does the same INSERT through a group committer (bot/services/group_commit.py): on
SQLite one COMMIT for whatever is ready together, the honest floor for a command that saves anything.
Both defer like every real command (``slow``), so under load they answer "thinking" rather than miss
Discord's deadline.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from sqlalchemy import BigInteger, Column, DateTime, Integer, MetaData, Table, insert
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.engine import Database
from bot.services.group_commit import GroupCommitter
from bot.ui.publish import reply, slow

NOOP = "bench-noop"
DURABLE = "bench-durable"
DURABLE_GROUP = "bench-durable-group"

# Its own metadata: the table is the benchmark's, created by it, unknown to the migrations.
bench_metadata = MetaData()
bench_saves = Table(
    "bench_saves",
    bench_metadata,
    Column("id", Integer, primary_key=True),
    Column("channel_id", BigInteger, nullable=False),
    Column("user_id", BigInteger, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)


async def create_bench_table(db: Database) -> None:
    async with db.engine.begin() as connection:
        await connection.run_sync(bench_metadata.create_all)


class BenchCog(commands.Cog):
    def __init__(self, db: Database) -> None:
        self.db = db
        self.committer = GroupCommitter(db)

    @app_commands.command(name=NOOP, description="Benchmark: answer at once")
    async def noop(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("ok")

    @app_commands.command(name=DURABLE, description="Benchmark: one insert and commit, then answer")
    async def durable(self, interaction: discord.Interaction[Any]) -> None:
        async def save() -> None:
            async with self.db.engine.begin() as connection:
                await connection.execute(_row(interaction))

        await slow(interaction, save())
        await reply(interaction, "saved")

    @app_commands.command(name=DURABLE_GROUP, description="Benchmark: one insert through the services, then answer")
    async def durable_group(self, interaction: discord.Interaction[Any]) -> None:
        async def save(session: AsyncSession) -> None:
            await session.execute(_row(interaction))

        await slow(interaction, self.committer.submit(save, retryable=lambda _exc: False, retries=1))
        await reply(interaction, "saved")


def _row(interaction: discord.Interaction[Any]) -> Any:
    return insert(bench_saves).values(channel_id=interaction.channel_id or 0, user_id=interaction.user.id,
                                      created_at=datetime.now(UTC))
