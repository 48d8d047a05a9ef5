"""/help by topic."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.ui import embeds
from bot.ui.publish import reply

if TYPE_CHECKING:
    from bot.app import GrievousBot

TOPICS = [app_commands.Choice(name=title, value=key) for key, (title, _) in embeds.HELP.items()]


class HelpCog(commands.Cog):
    def __init__(self, bot: GrievousBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="How to use Grievous, by topic")
    @app_commands.describe(topic="What you want to know about")
    @app_commands.choices(topic=TOPICS)
    async def help(self, interaction: discord.Interaction[GrievousBot], topic: str = "start") -> None:
        await reply(interaction, embed=embeds.help_topic(topic), ephemeral=True)


async def setup(bot: GrievousBot) -> None:
    await bot.add_cog(HelpCog(bot))
