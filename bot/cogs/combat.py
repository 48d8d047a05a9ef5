"""Combat acts: /attack, /cast, /shock, /pending-roll, /advantage, /rearm, /recover, /ready. Each calls one combat
service method."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.interactions import actor_of
from bot.services.results import DefensePrompt
from bot.ui import autocomplete
from bot.ui.action_message import publish_report
from bot.ui.defense_prompts import post_prompt
from bot.ui.publish import slow

if TYPE_CHECKING:
    from bot.app import GrievousBot

Name = app_commands.Range[str, 1, 100]
Dice = app_commands.Range[str, 1, 200]
Modifier = app_commands.Range[int, -100, 100]
DICE_HELP = "Faces you rolled at the table, e.g. attack=7 location=55 (the rest are rolled)"


class CombatCog(commands.Cog):
    def __init__(self, bot: GrievousBot) -> None:
        self.bot = bot

    @app_commands.command(name="attack", description="Attack a combatant in this channel's encounter")
    @app_commands.describe(
        target="Whom to attack", weapon="Your weapon (from your sheet)",
        aspect="Ars Magica: blunt, edge or point", aim="Ars Magica: high, mid or low (high and low are -3)",
        location="Fading Suns: a called location", modifier="A situational bonus or penalty to the attack roll",
        defense="Fading Suns: the target dodges, parries or makes none (its player's or the GM's to choose)",
        save_excess="Ars Magica: keep the excess points for next round instead of adding them to damage",
        mounted="Pendragon: you fight from horseback", charge="Pendragon: a mounted lance charge",
        unopposed="Pendragon: only you roll (default for a bow or javelin at range; false: an exchange)",
        range="Ars Magica: a missile's range band: short, medium, long or extreme (default short)",
        throw="Fading Suns: throw the weapon (a knife or spear) instead of striking with it",
        dice=DICE_HELP, attacker="Who attacks (default: whose turn it is, or your character)")
    @app_commands.autocomplete(target=autocomplete.combatant, weapon=autocomplete.sheet_items("weapon", "attacker"),
                               attacker=autocomplete.combatant, location=autocomplete.hit_location)
    async def attack(self, interaction: discord.Interaction[GrievousBot], target: Name, weapon: Name | None = None,
                     aspect: Literal["blunt", "edge", "point"] | None = None,
                     aim: Literal["high", "mid", "low"] | None = None,
                     location: app_commands.Range[str, 1, 40] | None = None, modifier: Modifier | None = None,
                     save_excess: bool | None = None, mounted: bool | None = None, charge: bool | None = None,
                     dice: Dice | None = None, attacker: Name | None = None,
                     defense: Literal["dodge", "parry", "none"] | None = None, unopposed: bool | None = None,
                     range: Literal["short", "medium", "long", "extreme"] | None = None,
                     throw: bool | None = None) -> None:
        options = dict(aspect=aspect, aim=aim, location=location, modifier=modifier, save_excess=save_excess,
                       mounted=mounted, charge=charge, defense=defense, unopposed=unopposed, range=range,
                       throw=throw)
        report = await slow(interaction, self.bot.services.combat.attack(actor_of(interaction), target, weapon, options,
                                                                         dice_text=dice, attacker=attacker))
        if isinstance(report, DefensePrompt):  # the target's player chooses the defence first
            await post_prompt(interaction, report)
            return
        await publish_report(interaction, report)

    @app_commands.command(name="cast", description="Ars Magica: cast a damaging or Body Level spell at a combatant")
    @app_commands.describe(
        target="Whom the spell strikes", spell="The spell's name", damage="Damage of a damaging spell",
        kind="Damage type: fire uses the armour's fire protection", body_levels="Body Levels a Body Level spell takes",
        aim="High, mid or low (high and low are -3 to targeting)", modifier="A bonus or penalty to the Targeting roll",
        dice=DICE_HELP, caster="Who casts (default: whose turn it is, or your character)")
    @app_commands.autocomplete(target=autocomplete.combatant, caster=autocomplete.combatant)
    async def cast(self, interaction: discord.Interaction[GrievousBot], target: Name,
                   spell: app_commands.Range[str, 1, 100] | None = None,
                   damage: app_commands.Range[int, 0, 200] | None = None,
                   kind: Literal["fire", "blunt", "edge", "point"] | None = None,
                   body_levels: app_commands.Range[int, 1, 10] | None = None,
                   aim: Literal["high", "mid", "low"] | None = None, modifier: Modifier | None = None,
                   dice: Dice | None = None, caster: Name | None = None) -> None:
        options = dict(spell=spell, damage=damage, damage_type=kind, body_levels=body_levels, aim=aim,
                       modifier=modifier)
        report = await slow(interaction, self.bot.services.combat.cast(actor_of(interaction), target, options,
                                                                       dice_text=dice, caster=caster))
        await publish_report(interaction, report)

    @app_commands.command(name="shock", description="Re-roll shock for a character who is in shock")
    @app_commands.describe(character="Who rolls", dice=DICE_HELP)
    @app_commands.autocomplete(character=autocomplete.combatant)
    async def shock(self, interaction: discord.Interaction[GrievousBot], character: Name,
                    dice: Dice | None = None) -> None:
        report = await slow(interaction, self.bot.services.combat.act(actor_of(interaction), "shock", character, {},
                                                                      dice_text=dice))
        await publish_report(interaction, report)

    @app_commands.command(name="pending-roll",
                          description="GM: make a roll that waits for you (/setup rolls mode:gm), with your dice")
    @app_commands.describe(character="Who owes the roll", roll="Which roll (default: the oldest owed)",
                           dice="Faces you rolled at the table, e.g. 7 or shock=7 (empty: the bot rolls)")
    @app_commands.autocomplete(character=autocomplete.combatant)
    async def pending_roll(self, interaction: discord.Interaction[GrievousBot], character: Name,
                           roll: Literal["shock", "kill", "knockdown", "major_wound", "fall", "effect", "stumble",
                                         "fumble"] | None = None,
                           dice: Dice | None = None) -> None:
        report = await slow(interaction, self.bot.services.combat.pending_roll(actor_of(interaction), character, roll,
                                                                               dice_text=dice))
        await publish_report(interaction, report)

    @app_commands.command(name="advantage", description="Ars Magica: use a Tactical Advantage")
    @app_commands.describe(character="Who has the advantage", use="What to do with it",
                           weapon="The weapon to pick up or switch to")
    @app_commands.autocomplete(character=autocomplete.combatant,
                               weapon=autocomplete.sheet_items("weapon", "character"))
    async def advantage(self, interaction: discord.Interaction[GrievousBot], character: Name,
                        use: Literal["pick_up", "switch", "stand_up", "fast_cast"],
                        weapon: Name | None = None) -> None:
        report = await slow(interaction, self.bot.services.combat.act(actor_of(interaction), "tactical_advantage",
                                                                      character, {"use": use, "weapon": weapon}))
        await publish_report(interaction, report)

    @app_commands.command(name="rearm", description="Pick up or draw a weapon after a fumble (the same as /ready)")
    @app_commands.describe(character="Who re-arms", weapon="The weapon (default: the only one to take up)")
    @app_commands.autocomplete(character=autocomplete.combatant, weapon=autocomplete.ways_out(weapons=True))
    async def rearm(self, interaction: discord.Interaction[GrievousBot], character: Name,
                    weapon: Name | None = None) -> None:
        report = await slow(interaction, self.bot.services.combat.recover(actor_of(interaction), character,
                                                                          weapon=weapon))
        await publish_report(interaction, report)


    @app_commands.command(name="recover", description="Get up, remount, come round...: end a condition")
    @app_commands.describe(character="Who recovers",
                           condition="What they recover from (autocompletes what they have)",
                           dice="Faces you rolled at the table, e.g. shock=7 (a roll it needs)")
    @app_commands.autocomplete(character=autocomplete.combatant, condition=autocomplete.ways_out(weapons=False))
    async def recover(self, interaction: discord.Interaction[GrievousBot], character: Name,
                      condition: app_commands.Range[str, 1, 40], dice: Dice | None = None) -> None:
        report = await slow(interaction, self.bot.services.combat.recover(actor_of(interaction), character,
                                                                          condition=condition, dice_text=dice))
        await publish_report(interaction, report)

    @app_commands.command(name="ready", description="Take up a weapon: pick it up, draw it, or replace a broken one")
    @app_commands.describe(character="Who readies it",
                           weapon="The weapon (autocompletes those not in hand; default: the only one)",
                           hand="Ars Magica: the hand it goes in (default: the main hand, or the off hand if "
                                "the main arm is unusable)")
    @app_commands.autocomplete(character=autocomplete.combatant, weapon=autocomplete.ways_out(weapons=True))
    async def ready(self, interaction: discord.Interaction[GrievousBot], character: Name,
                    weapon: Name | None = None, hand: Literal["main", "off"] | None = None) -> None:
        report = await slow(interaction, self.bot.services.combat.recover(actor_of(interaction), character,
                                                                          weapon=weapon, hand=hand))
        await publish_report(interaction, report)


async def setup(bot: GrievousBot) -> None:
    await bot.add_cog(CombatCog(bot))
