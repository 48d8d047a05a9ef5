"""`grievous run` as in production, plus the benchmark's commands, for ``bench.scaling --mix``; run through
``emulator.launch`` as ``bench.evening_bot:main run``.

``/bench-noop`` (bench/cog.py) is the floor a command costs. The floor of an attack, in the same measure
(``FloorCog``), each one part of what an attack does on top of the no-op:

* ``/bench-save``: one small write transaction through the bot's own runtime (``Runtime.transact``: the channel's
  lock, the group committer on SQLite as in production), inside ``slow`` like every real command, then the
  answer. bench/cog.py's ``/bench-durable-group`` does the same INSERT through a committer of its own, beside the
  runtime's; this one goes the way an attack's transaction goes.
* ``/bench-noop-edit``: the no-op's answer, then one edit of that message through the channel (one PATCH, the
  request bot/ui/publish.py sends to edit a tracker, through the same function).
* ``/bench-engine``: one ``engine.resolve`` of an ars-harn attack that hits (``HIT_DICE``) by a fresh Raider on
  a fresh Bandit (the content's template, validated once; no database), its result read as the attack reads it
  (``to_dict``), then the no-op's answer.

SIGUSR1 starts cProfile on the event loop's thread and SIGUSR2 stops it and writes the profile to
``$BENCH_PROFILE``: the benchmark profiles only the window it measures, not the start.
"""

from __future__ import annotations

import copy
import cProfile
import os
import signal
from collections.abc import Sequence
from datetime import UTC, datetime
from types import FrameType
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncSession

from bench.cog import BenchCog, bench_saves, create_bench_table
from bot import app, cli
from bot.services import Services
from bot.services.dice_option import parse_dice
from bot.services.rulings import scenario_rulings
from bot.ui.publish import _edit_embed, reply, slow
from rules.dice import DiceSource
from rules.model import Scenario

SAVE = "bench-save"
NOOP_EDIT = "bench-noop-edit"
ENGINE = "bench-engine"
# bench/evening.py's HIT: an edge blow that wounds, with a shock roll and (from the third) a kill roll, all passed
HIT_DICE = "attack=9 defense=3 location=12 shock=9 kill=9 amputation=9"


class FloorCog(commands.Cog):
    def __init__(self, services: Services) -> None:
        self.services = services
        runtime = services.runtime
        self.engine = runtime.engine("ars-harn")
        self.catalog = runtime.catalogs.catalog("ars-harn")
        template = self.catalog.npc_templates()["bandit"]
        self.raider, self.bandit = (self.engine.validate_sheet({**copy.deepcopy(dict(template)), "name": name},
                                                               self.catalog) for name in ("Raider 1", "Bandit 1"))
        self.forced = parse_dice(HIT_DICE, self.engine.roll_labels)
        self.rulings = scenario_rulings(self.engine, None)  # a server with no settings of its own

    @app_commands.command(name=SAVE, description="Benchmark: one write through the bot's runtime, then answer")
    async def save(self, interaction: discord.Interaction[Any]) -> None:
        async def work(session: AsyncSession) -> None:
            await session.execute(insert(bench_saves).values(
                channel_id=interaction.channel_id or 0, user_id=interaction.user.id, created_at=datetime.now(UTC)))

        await slow(interaction, self.services.runtime.transact(interaction.channel_id, work))
        await reply(interaction, "saved")

    @app_commands.command(name=NOOP_EDIT, description="Benchmark: answer, then edit that message once")
    async def noop_edit(self, interaction: discord.Interaction[Any]) -> None:
        sent = await interaction.response.send_message("ok")
        if interaction.channel_id is not None and sent.message_id is not None:
            await _edit_embed(interaction.client, interaction.channel_id, sent.message_id,
                              discord.Embed(title="Bench", description="edited"))

    @app_commands.command(name=ENGINE, description="Benchmark: resolve one attack in the engine, then answer")
    async def engine_only(self, interaction: discord.Interaction[Any]) -> None:
        scenario = Scenario("ars-harn", {"type": "attack", "aspect": "edge"}, self.raider, self.bandit,
                            self.rulings, npcs=frozenset({"attacker", "defender"}))
        self.engine.resolve(scenario, DiceSource(dict(self.forced)), self.catalog).to_dict()
        await interaction.response.send_message("ok")


def main(argv: Sequence[str] | None = None) -> int:
    original = app.GrievousBot.sync_tree

    async def sync_tree(self: app.GrievousBot) -> int:  # the services exist by now; run with SYNC_COMMANDS=1
        if self.get_cog(BenchCog.__name__) is None:
            await create_bench_table(self.services.db)
            await self.add_cog(BenchCog(self.services.db))
            await self.add_cog(FloorCog(self.services))
        return await original(self)

    app.GrievousBot.sync_tree = sync_tree  # type: ignore[method-assign]
    profiler = cProfile.Profile()

    def start(_signal: int, _frame: FrameType | None) -> None:
        profiler.enable()

    def stop(_signal: int, _frame: FrameType | None) -> None:
        profiler.disable()
        profiler.dump_stats(os.environ.get("BENCH_PROFILE", "evening.prof"))

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)
    return cli.main(argv)
