"""/odds: the exact odds of an attack or spell before you make it. Private, and it changes nothing."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.combat import DICE_HELP, Dice, Modifier, Name
from bot.interactions import actor_of
from bot.services.odds import OddsView
from bot.ui import autocomplete
from bot.ui.odds_embeds import odds_chart, odds_embed
from bot.ui.publish import reply, slow

if TYPE_CHECKING:
    from bot.app import GrievousBot


class OddsCog(commands.Cog):
    def __init__(self, bot: GrievousBot) -> None:
        self.bot = bot

    @app_commands.command(name="odds", description="The exact odds of an attack or spell, before you make it")
    @app_commands.describe(
        target="Whom you would attack", weapon="Your weapon (from your sheet)",
        aspect="Ars Magica: blunt, edge or point", aim="Ars Magica: high, mid or low",
        save_excess="Ars Magica: keep the excess points for next round instead of adding them to damage",
        location="Fading Suns: a called location", modifier="A situational bonus or penalty",
        defense="Fading Suns: the target dodges or parries", mounted="Pendragon: from horseback",
        charge="Pendragon: a mounted lance charge", dice=DICE_HELP + "; odds for the rest",
        attacker="Who attacks (default: whose turn it is, or your character)",
        compare="A second declaration beside the first: what changes, e.g. aim:mid or weapon:Dagger aspect:point",
        spell="Ars Magica: odds of a spell instead (its name)", damage="Ars Magica: a damaging spell's damage",
        kind="Ars Magica: a spell's damage type", body_levels="Ars Magica: a Body Level spell's levels",
        chart="The picture: a bar per outcome, or where blows land (Ars Magica, Fading Suns)")
    @app_commands.autocomplete(target=autocomplete.combatant, weapon=autocomplete.sheet_items("weapon", "attacker"),
                               attacker=autocomplete.combatant, location=autocomplete.hit_location)
    async def odds(self, interaction: discord.Interaction[GrievousBot], target: Name, weapon: Name | None = None,
                   aspect: Literal["blunt", "edge", "point"] | None = None,
                   aim: Literal["high", "mid", "low"] | None = None,
                   location: app_commands.Range[str, 1, 40] | None = None, modifier: Modifier | None = None,
                   defense: Literal["dodge", "parry"] | None = None, save_excess: bool | None = None,
                   mounted: bool | None = None,
                   charge: bool | None = None, dice: Dice | None = None, attacker: Name | None = None,
                   compare: app_commands.Range[str, 1, 200] | None = None,
                   spell: app_commands.Range[str, 1, 100] | None = None,
                   damage: app_commands.Range[int, 0, 200] | None = None,
                   kind: Literal["fire", "blunt", "edge", "point"] | None = None,
                   body_levels: app_commands.Range[int, 1, 10] | None = None,
                   chart: Literal["outcomes", "locations"] | None = None) -> None:
        options = dict(aspect=aspect, aim=aim, location=location, modifier=modifier, defense=defense,
                       save_excess=save_excess, mounted=mounted, charge=charge, spell=spell, damage=damage, kind=kind,
                       body_levels=body_levels)
        actor = actor_of(interaction)

        async def charted() -> tuple[OddsView, discord.File]:  # the chart, too, before the deadline
            view = await self.bot.services.odds.odds(actor, target, weapon, options, dice_text=dice,
                                                     attacker=attacker, compare=compare)
            # the chart's PNG takes ~8 ms to encode: off the event loop, as the body diagrams are
            return view, await asyncio.to_thread(odds_chart, view, chart)

        view, picture = await slow(interaction, charted(), ephemeral=True)
        await reply(interaction, embed=odds_embed(view), file=picture, ephemeral=True)


async def setup(bot: GrievousBot) -> None:
    await bot.add_cog(OddsCog(bot))
