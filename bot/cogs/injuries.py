"""/injuries, /heal and /rest: wounds kept across sessions and their treatment."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.interactions import actor_of
from bot.services.results import CharacterView, PartyView, TreatmentOffer
from bot.systems.pictures import WoundPicture
from bot.ui import autocomplete, character_embeds, diagram, pictures
from bot.ui.action_message import publish_report
from bot.ui.offers import post_offer
from bot.ui.publish import reply, slow

if TYPE_CHECKING:
    from bot.app import GrievousBot

Name = app_commands.Range[str, 1, 100]


class InjuriesCog(commands.Cog):
    def __init__(self, bot: GrievousBot) -> None:
        self.bot = bot

    @app_commands.command(name="injuries", description="List a character's wounds: location, code, levels, bleeding")
    @app_commands.describe(character="The character (default: your own)",
                           party="Everyone instead: the player characters of this encounter, or of the server")
    @app_commands.autocomplete(character=autocomplete.character)
    async def injuries(self, interaction: discord.Interaction[GrievousBot], character: Name | None = None,
                       party: bool = False) -> None:
        if party:
            await self._party(interaction)
            return
        actor = actor_of(interaction)

        async def drawn() -> tuple[CharacterView, diagram.Png | None]:  # the drawing, too, before the deadline
            view = await self.bot.services.injuries.list(actor, character)
            return view, await pictures.body_picture(view.picture)

        view, png = await slow(interaction, drawn())
        embed = character_embeds.injuries(view)
        await reply(interaction, embed=embed, file=pictures.attach(embed, png) if png else None,
                    ephemeral=view.private)

    async def _party(self, interaction: discord.Interaction[GrievousBot]) -> None:
        actor = actor_of(interaction)

        async def drawn() -> tuple[PartyView, list[WoundPicture], diagram.Png | None]:
            found = await self.bot.services.injuries.party(actor)
            shown = [v.picture for v in found.characters if v.picture is not None][:diagram.PARTY_MAX]
            return found, shown, await pictures.party_picture(shown)

        found, shown, png = await slow(interaction, drawn())
        embed = character_embeds.party_injuries(found, len(shown))
        await reply(interaction, embed=embed, file=pictures.attach(embed, png) if png else None)

    @app_commands.command(name="heal", description="Treat a character: first aid, chirurgy or a healing spell")
    @app_commands.describe(character="Who is treated", method="The treatment (offers what this channel's rules have)",
                           wound="The wound's number from /injuries (default: the worst)",
                           healer="Who treats (their skill is used)", body_levels="Body Levels a healing spell heals",
                           modifier="A bonus or penalty to the treatment roll",
                           dice="Faces you rolled at the table, e.g. chirurgy=7")
    @app_commands.autocomplete(character=autocomplete.character, healer=autocomplete.character,
                               method=autocomplete.treatment)
    async def heal(self, interaction: discord.Interaction[GrievousBot], character: Name,
                   method: app_commands.Range[str, 1, 40],
                   wound: app_commands.Range[int, 1, 100] | None = None, healer: Name | None = None,
                   body_levels: app_commands.Range[int, 1, 10] | None = None,
                   modifier: app_commands.Range[int, -100, 100] | None = None,
                   dice: app_commands.Range[str, 1, 200] | None = None) -> None:
        options = {"wound": wound, "healer": healer, "body_levels": body_levels, "modifier": modifier}
        done = await slow(interaction, self.bot.services.injuries.heal(actor_of(interaction), character, method,
                                                                       options, dice_text=dice))
        if isinstance(done, TreatmentOffer):  # someone else's character: its owner accepts first
            await post_offer(interaction, done)
        else:
            await publish_report(interaction, done)

    @app_commands.command(name="rest", description="Let days pass: the healing rolls for each wound")
    @app_commands.describe(character="Who rests", days="How many days (1 to 365; Pendragon heals by the week)",
                           dice="Faces you rolled at the table, e.g. healing=2,1")
    @app_commands.autocomplete(character=autocomplete.character)
    async def rest(self, interaction: discord.Interaction[GrievousBot], character: Name,
                   days: app_commands.Range[int, 1, 365], dice: app_commands.Range[str, 1, 200] | None = None) -> None:
        report = await slow(interaction, self.bot.services.injuries.rest(actor_of(interaction), character, days,
                                                                         dice_text=dice))
        await publish_report(interaction, report)


async def setup(bot: GrievousBot) -> None:
    await bot.add_cog(InjuriesCog(bot))
