"""/encounter: one per channel; combatants, initiative, turns and the pinned tracker."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.interactions import actor_of
from bot.services.results import EncounterView
from bot.ui import autocomplete, encounter_embeds
from bot.ui.encounter_embeds import gm_initiative
from bot.ui.publish import refresh_tracker, reply, slow

if TYPE_CHECKING:
    from bot.app import GrievousBot

Name = app_commands.Range[str, 1, 100]


class EncountersCog(commands.GroupCog, group_name="encounter", group_description="The encounter in this channel"):
    def __init__(self, bot: GrievousBot) -> None:
        self.bot = bot

    async def _show(self, interaction: discord.Interaction[GrievousBot], encounter: EncounterView,
                    line: str | None = None) -> None:
        """Answer with a short line, then bring the pinned tracker up to date (answering first: the tracker
        waits on the channel's rate limit, which a busy channel empties, and the answer must not)."""
        await reply(interaction, line or encounter_embeds.tracker_moved())
        await refresh_tracker(interaction, encounter)

    @app_commands.command(name="start", description="Start an encounter in this channel")
    async def start(self, interaction: discord.Interaction[GrievousBot]) -> None:
        encounter = await slow(interaction, self.bot.services.encounters.start(actor_of(interaction)))
        await self._show(interaction, encounter, encounter_embeds.encounter_started(encounter))

    @app_commands.command(name="add", description="Add a character to this channel's encounter")
    @app_commands.describe(character="The character to add")
    @app_commands.autocomplete(character=autocomplete.character)
    async def add(self, interaction: discord.Interaction[GrievousBot], character: Name) -> None:
        encounter = await slow(interaction, self.bot.services.encounters.add(actor_of(interaction), character))
        await self._show(interaction, encounter, encounter_embeds.joined(list(encounter.joined) or [character]))

    @app_commands.command(name="npcs", description="Add NPCs from a content template, e.g. five bandits (GM)")
    @app_commands.describe(template="The NPC template from the content pack", count="How many (1 to 20)",
                           name_prefix="Their names' first part (default: the template's name)")
    @app_commands.autocomplete(template=autocomplete.npc_template)
    async def npcs(self, interaction: discord.Interaction[GrievousBot], template: Name,
                   count: app_commands.Range[int, 1, 20] = 1,
                   name_prefix: app_commands.Range[str, 1, 60] | None = None) -> None:
        encounter = await slow(interaction, self.bot.services.encounters.add_npcs(actor_of(interaction), template,
                                                                                  count, name_prefix))
        await self._show(interaction, encounter, encounter_embeds.npcs_joined(encounter.npc_kind or template, count,
                                                                                  encounter.npcs_added))

    @app_commands.command(name="remove", description="Take a character out of this channel's encounter")
    @app_commands.describe(character="The combatant to remove")
    @app_commands.autocomplete(character=autocomplete.combatant)
    async def remove(self, interaction: discord.Interaction[GrievousBot], character: Name) -> None:
        encounter = await slow(interaction, self.bot.services.encounters.remove(actor_of(interaction), character))
        await self._show(interaction, encounter, encounter_embeds.left(character, encounter))

    @app_commands.command(name="initiative", description="Roll initiative and set the turn order")
    @app_commands.describe(dice="Faces rolled at the table, by name: Wulf=9; Archer 1=1,4 (others are rolled)")
    async def initiative(self, interaction: discord.Interaction[GrievousBot],
                         dice: app_commands.Range[str, 1, 200] | None = None) -> None:
        encounter = await slow(interaction, self.bot.services.encounters.roll_initiative(actor_of(interaction),
                                                                                         dice_text=dice))
        await reply(interaction, embed=encounter_embeds.initiative(encounter.public))
        behind_screen = gm_initiative(encounter)  # secret rolls: the NPCs' initiative, for the GM alone
        if behind_screen is not None:
            await interaction.followup.send(embed=behind_screen, ephemeral=True)
        await refresh_tracker(interaction, encounter)

    @app_commands.command(name="order", description="Change the turn order: move one combatant, or give the order (GM)")
    @app_commands.describe(character="Who moves", position="Their place in the order (1 = first)",
                           before="Put them just before this combatant", after="Put them just after this combatant",
                           names="The order, e.g. Wulf, Archer 1 (the rest follow as they were)")
    @app_commands.autocomplete(character=autocomplete.combatant, before=autocomplete.combatant,
                               after=autocomplete.combatant)
    async def order(self, interaction: discord.Interaction[GrievousBot], character: Name | None = None,
                    position: app_commands.Range[int, 1, 50] | None = None, before: Name | None = None,
                    after: Name | None = None, names: app_commands.Range[str, 1, 1000] | None = None) -> None:
        encounter = await slow(interaction, self.bot.services.encounters.set_order(
            actor_of(interaction), character, position=position, before=before, after=after, names=names))
        await self._show(interaction, encounter, encounter_embeds.order_changed(encounter))

    @app_commands.command(name="delay", description="Hold the current turn: act after someone later this round")
    @app_commands.describe(after="Act just after this combatant (default: last this round)")
    @app_commands.autocomplete(after=autocomplete.combatant)
    async def delay(self, interaction: discord.Interaction[GrievousBot], after: Name | None = None) -> None:
        encounter = await slow(interaction, self.bot.services.encounters.delay(actor_of(interaction), after))
        await self._show(interaction, encounter, encounter_embeds.delayed(encounter))

    @app_commands.command(name="declare", description="Ars Magica movement phase: declare aspect, aim and target")
    @app_commands.describe(character="Who declares", aspect="Blunt, edge or point", aim="High, mid or low",
                           target="Whom they will attack")
    @app_commands.autocomplete(character=autocomplete.combatant, target=autocomplete.combatant)
    async def declare(self, interaction: discord.Interaction[GrievousBot], character: Name,
                      aspect: Literal["blunt", "edge", "point"], aim: Literal["high", "mid", "low"],
                      target: Name) -> None:
        encounter = await slow(interaction, self.bot.services.encounters.declare(actor_of(interaction), character,
                                                                                 aspect, aim, target))
        await self._show(interaction, encounter, encounter_embeds.declared(character, aspect, aim, target))

    @app_commands.command(name="next", description="End the current turn and move to the next")
    async def next_(self, interaction: discord.Interaction[GrievousBot]) -> None:
        encounter = await slow(interaction, self.bot.services.encounters.next_turn(actor_of(interaction)))
        await self._show(interaction, encounter, encounter_embeds.next_turn(encounter))

    @app_commands.command(name="status", description="Show the round, turn order and everyone's condition")
    async def status(self, interaction: discord.Interaction[GrievousBot]) -> None:
        encounter = await slow(interaction, self.bot.services.encounters.status(actor_of(interaction)),
                               ephemeral=True)
        await reply(interaction, embed=encounter_embeds.tracker(encounter.public), ephemeral=True)

    @app_commands.command(name="end", description="End this channel's encounter; wounds stay on the sheets (GM)")
    @app_commands.describe(keep_npcs="Keep the NPCs made for this encounter (by default they go with it)")
    async def end(self, interaction: discord.Interaction[GrievousBot], keep_npcs: bool = False) -> None:
        encounter = await slow(interaction, self.bot.services.encounters.end(actor_of(interaction), keep_npcs))
        await self._show(interaction, encounter, encounter_embeds.encounter_ended(encounter))

    @app_commands.command(name="clear-npcs", description="Delete NPCs encounters made, now in none (GM)")
    async def clear_npcs(self, interaction: discord.Interaction[GrievousBot]) -> None:
        gone = await slow(interaction, self.bot.services.encounters.clear_npcs(actor_of(interaction)), ephemeral=True)
        await reply(interaction, encounter_embeds.npcs_cleared(gone), ephemeral=True)


async def setup(bot: GrievousBot) -> None:
    await bot.add_cog(EncountersCog(bot))
