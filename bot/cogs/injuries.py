"""/injuries, /heal and /rest: wounds kept across sessions and their treatment."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.interactions import actor_of
from bot.ui import autocomplete, embeds
from bot.ui.publish import publish_report, reply, slow

if TYPE_CHECKING:
    from bot.app import GrievousBot

Name = app_commands.Range[str, 1, 100]
# Treatments as the engines name them; "action:method" is an action that takes a method option.
TREATMENTS = [
    app_commands.Choice(name="First aid (Pendragon)", value="first_aid"),
    app_commands.Choice(name="Chirurgery (Pendragon)", value="chirurgery"),
    app_commands.Choice(name="Chirurgy (Ars Magica)", value="heal:chirurgy"),
    app_commands.Choice(name="Healing spell (Ars Magica)", value="heal:spell"),
]


class InjuriesCog(commands.Cog):
    def __init__(self, bot: GrievousBot) -> None:
        self.bot = bot

    @app_commands.guild_only()
    @app_commands.command(name="injuries", description="List a character's wounds: location, code, levels, bleeding")
    @app_commands.describe(character="The character (default: your own)")
    @app_commands.autocomplete(character=autocomplete.character)
    async def injuries(self, interaction: discord.Interaction[GrievousBot], character: Name | None = None) -> None:
        actor = actor_of(interaction)
        if character is None:
            mine = [c for c in await self.bot.services.characters.list(actor, mine=True) if not c.npc]
            if len(mine) != 1:
                raise UserError(embeds.name_the_character(len(mine)))
            character = mine[0].name
        view = await self.bot.services.injuries.list(actor, character)
        await reply(interaction, embed=embeds.injuries(view))

    @app_commands.guild_only()
    @app_commands.command(name="heal", description="Treat a character: first aid, chirurgy or a healing spell")
    @app_commands.describe(character="Who is treated", method="The treatment",
                           wound="The wound's number from /injuries (default: the worst)",
                           healer="Who treats (their skill is used)", body_levels="Body Levels a healing spell heals",
                           modifier="A bonus or penalty to the treatment roll",
                           dice="Faces you rolled at the table, e.g. chirurgy=7")
    @app_commands.choices(method=TREATMENTS)
    @app_commands.autocomplete(character=autocomplete.character, healer=autocomplete.character)
    async def heal(self, interaction: discord.Interaction[GrievousBot], character: Name,
                   method: str,
                   wound: app_commands.Range[int, 1, 100] | None = None, healer: Name | None = None,
                   body_levels: app_commands.Range[int, 1, 10] | None = None,
                   modifier: app_commands.Range[int, -100, 100] | None = None,
                   dice: app_commands.Range[str, 1, 200] | None = None) -> None:
        action, _, how = method.partition(":")
        options = {k: v for k, v in {"method": how or None, "wound": wound, "healer": healer,
                                      "body_levels": body_levels, "modifier": modifier}.items() if v is not None}
        report = await slow(interaction, self.bot.services.injuries.heal(actor_of(interaction), character, action,
                                                                         options, dice_text=dice))
        await publish_report(interaction, report)

    @app_commands.guild_only()
    @app_commands.command(name="rest", description="Let days pass: the healing rolls for each wound")
    @app_commands.describe(character="Who rests", days="How many days (1 to 365)")
    @app_commands.autocomplete(character=autocomplete.character)
    async def rest(self, interaction: discord.Interaction[GrievousBot], character: Name,
                   days: app_commands.Range[int, 1, 365]) -> None:
        report = await slow(interaction, self.bot.services.injuries.rest(actor_of(interaction), character, days))
        await publish_report(interaction, report)


async def setup(bot: GrievousBot) -> None:
    await bot.add_cog(InjuriesCog(bot))
