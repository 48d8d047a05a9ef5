"""/roll, /log and /undo: free-form dice and the channel's record."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.interactions import actor_of
from bot.services.results import EventView
from bot.ui import action_embeds, record_embeds
from bot.ui.action_message import close_settled, mark_taken_back, post_decisions
from bot.ui.publish import refresh_tracker, reply, slow, to_gm_channel

# How long /undo waits for an earlier action of its channel to be answered (past 1.5 s it shows "thinking").
EARLIER_WAIT = 3.0

if TYPE_CHECKING:
    from bot.app import GrievousBot


class RecordsCog(commands.Cog):
    def __init__(self, bot: GrievousBot) -> None:
        self.bot = bot

    @app_commands.command(name="roll", description="Roll dice: 3d6+2, stress+5 vs 9, simple+3, d20 vs 14, fs vs 12")
    @app_commands.describe(expression="What to roll", dice="Faces you rolled at the table, e.g. 1,1,4",
                           secret="Only you see it (and the GM channel, if the server has one)")
    async def roll(self, interaction: discord.Interaction[GrievousBot], expression: app_commands.Range[str, 1, 100],
                   dice: app_commands.Range[str, 1, 200] | None = None, secret: bool = False) -> None:
        view = await slow(interaction, self.bot.services.records.roll(actor_of(interaction), expression,
                                                                      dice_text=dice, secret=secret),
                          ephemeral=secret)
        embed = action_embeds.roll(view, interaction.user.display_name)
        await reply(interaction, embed=embed, ephemeral=secret)
        if secret and view.gm_channel_id is not None:
            await to_gm_channel(interaction, view.gm_channel_id, embed, by_gm=view.by_gm)

    @app_commands.command(name="log", description="Show this channel's recent rolls and events")
    @app_commands.describe(limit="How many (1 to 25)")
    async def log(self, interaction: discord.Interaction[GrievousBot],
                  limit: app_commands.Range[int, 1, 25] = 10) -> None:
        events = await slow(interaction, self.bot.services.records.log(actor_of(interaction), limit), ephemeral=True)
        await reply(interaction, embed=record_embeds.log(events), ephemeral=True)

    @app_commands.command(name="undo", description="Take back the last action of this channel's encounter (GM)")
    async def undo(self, interaction: discord.Interaction[GrievousBot]) -> None:
        actor = actor_of(interaction)

        async def undo_after_the_earlier() -> EventView:
            # An action of this channel still being answered is not taken back before its message is known
            # (it would stay unmarked, its GM buttons live): its answer is on its way, a round trip at most.
            await self.bot.earlier_handled(interaction, EARLIER_WAIT)
            return await self.bot.services.records.undo(actor)

        event = await slow(interaction, undo_after_the_earlier())
        # the decisions it had settled wait again, with their buttons here; those it asked for leave their message
        await post_decisions(interaction, event.reopened, embed=record_embeds.undone(event))
        await mark_taken_back(interaction, event)  # with the buttons it carried of the decisions now closed
        await close_settled(interaction, undone=event.closed, skip=event.message_id)
        if event.encounter_id is not None:
            try:
                encounter = await slow(interaction, self.bot.services.encounters.status(actor))
            except Exception:  # the encounter may have ended since; the undo itself stands
                return
            await refresh_tracker(interaction, encounter)


async def setup(bot: GrievousBot) -> None:
    await bot.add_cog(RecordsCog(bot))
