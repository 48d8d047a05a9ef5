"""/web: a private link to the campaign web page (bot/web/), a table link, or ending web sessions."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.interactions import actor_of
from bot.services.access import require_manager
from bot.ui import web_embeds
from bot.ui.publish import reply, slow
from bot.web.sessions import Grant
from bot.web.viewer import channel_names, visible_channels

if TYPE_CHECKING:
    from bot.app import GrievousBot


class WebCog(commands.Cog):
    def __init__(self, bot: GrievousBot) -> None:
        self.bot = bot

    @app_commands.guild_only()
    @app_commands.command(name="web", description="A private link to the campaign web page: roster, wounds, fights")
    @app_commands.describe(revoke="End your web sessions (a manager may name a member)",
                           member="With revoke: the member whose sessions end (managers only)",
                           view="table: a read-only link that sees what this channel sees (GM)")
    async def web(self, interaction: discord.Interaction[GrievousBot], revoke: bool = False,
                  member: discord.Member | None = None, view: Literal["table"] | None = None) -> None:
        actor = actor_of(interaction)
        web = self.bot.web
        if web is None:
            await reply(interaction, web_embeds.OFF, ephemeral=True)
            return
        if member is not None and not revoke:
            raise UserError(web_embeds.MEMBER_NEEDS_REVOKE)
        if revoke:
            if member is not None and member.id != actor.user_id:
                require_manager(actor, "end another member's web sessions")
            whose = member or interaction.user
            ended = await web.sessions.revoke(actor.guild_id, whose.id)
            await reply(interaction, web_embeds.revoked(ended, member.display_name if member is not None else None),
                        ephemeral=True)
            return
        # the services seat the asker (and refuse a table link to anyone but the GM)
        seat = await slow(interaction, self.bot.services.campaign.viewer(actor, table_link=view == "table"),
                          ephemeral=True)
        gm = seat.is_gm
        if view == "table":
            seen: frozenset[int] | None = frozenset({actor.channel_id})
            grant = Grant(actor.guild_id, actor.user_id, actor.user_name, "table", (), False, seen, actor.channel_id)
        else:
            seen = None if gm else visible_channels(interaction.guild, interaction.user, actor.channel_id)
            grant = Grant(actor.guild_id, actor.user_id, actor.user_name, "gm" if gm else "player", actor.role_ids,
                          actor.is_manager, seen)
        guild = interaction.guild
        grant = replace(grant, guild_name=guild.name if guild is not None else "",
                        channel_names=channel_names(guild, seen))
        url = await web.link(grant)
        await reply(interaction, web_embeds.link_line(grant.role, actor.channel_id), view=web_embeds.link_view(url),
                    ephemeral=True)


async def setup(bot: GrievousBot) -> None:
    await bot.add_cog(WebCog(bot))
