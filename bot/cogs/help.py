"""/help by topic."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.interactions import actor_of
from bot.ui import help_embeds
from bot.ui.publish import reply, slow

if TYPE_CHECKING:
    from bot.app import GrievousBot

TOPICS = [app_commands.Choice(name=title, value=key) for key, (title, _) in help_embeds.HELP.items()]


class HelpCog(commands.Cog):
    def __init__(self, bot: GrievousBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="How to use Grievous, by topic")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    @app_commands.describe(topic="What you want to know about")
    @app_commands.choices(topic=TOPICS)
    async def help(self, interaction: discord.Interaction[GrievousBot], topic: str = "start") -> None:
        # In a server, help speaks of the channel's system (its sheet, options and rolls); in a DM, of all three.
        guide = None
        if interaction.guild_id is not None:
            guide = await slow(interaction, self.bot.services.characters.guide(actor_of(interaction)), ephemeral=True)
        await reply(interaction, embed=help_embeds.help_topic(topic, guide.system if guide else None, guide,
                                                        guide.roll_labels if guide else ()), ephemeral=True)


async def setup(bot: GrievousBot) -> None:
    await bot.add_cog(HelpCog(bot))
