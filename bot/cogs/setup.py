"""/setup: the server's system (or one channel's), GM role, who rolls shock and kill, rulings."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.interactions import actor_of
from bot.ui import autocomplete, embeds
from bot.ui.publish import reply, slow
from rules.registry import system_ids

if TYPE_CHECKING:
    from bot.app import GrievousBot

T = TypeVar("T")
SYSTEM_CHOICES = [app_commands.Choice(name=embeds.system_title(s), value=s) for s in system_ids()]


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
def cannot_post(interaction: discord.Interaction[Any], channel: discord.abc.GuildChannel) -> str | None:
    """Why the bot cannot post the GM's rolls in ``channel`` (its permissions there, from the gateway's cache),
    or None if it can."""
    me = interaction.guild.me if interaction.guild is not None else None
    if me is None:
        return None  # no member cache to judge from: Discord will say so when the bot posts
    allowed = channel.permissions_for(me)
    # Discord takes away the later ones with the earlier (no Send Messages: no Embed Links either): name the first
    missing = next(([name] for name, has in (("View Channel", allowed.view_channel),
                                             ("Send Messages", allowed.send_messages),
                                             ("Embed Links", allowed.embed_links)) if not has), [])
    return embeds.cannot_post(channel.mention, missing) if missing else None


class SetupCog(commands.GroupCog, group_name="setup", group_description="Server settings (Manage Server)"):
    def __init__(self, bot: GrievousBot) -> None:
        self.bot = bot

    @app_commands.command(name="show", description="Show the system, GM role, rolls mode and rulings in this channel")
    async def show(self, interaction: discord.Interaction[GrievousBot]) -> None:
        actor = actor_of(interaction)
        settings = self.bot.services.settings
        view = await slow(interaction, settings.show(actor), ephemeral=True)
        rulings = await slow(interaction, settings.ruling_names(actor), ephemeral=True)
        await reply(interaction, embed=embeds.settings(view, rulings), ephemeral=True)

    @app_commands.command(name="system", description="Choose the rule system for this server or one channel")
    @app_commands.describe(system="The rule system", channel_only="Only this channel (overrides the server's)")
    @app_commands.choices(system=SYSTEM_CHOICES)
    async def system(self, interaction: discord.Interaction[GrievousBot], system: str,
                     channel_only: bool = False) -> None:
        actor = actor_of(interaction)
        await slow(interaction, self._resynced(actor.guild_id, self.bot.services.settings.set_system(
            actor, system, channel_only)), ephemeral=True)
        await reply(interaction, embed=embeds.system_set(system, channel_only), ephemeral=True)

    @app_commands.command(name="channel-reset", description="Let this channel follow the server's system again")
    async def channel_reset(self, interaction: discord.Interaction[GrievousBot]) -> None:
        actor = actor_of(interaction)
        view = await slow(interaction, self._resynced(actor.guild_id, self.bot.services.settings.clear_channel_system(
            actor)), ephemeral=True)
        await reply(interaction, embed=embeds.system_set(view.system, False), ephemeral=True)

    async def _resynced(self, guild_id: int, change: Awaitable[T]) -> T:
        """The change of system, then the server's commands brought in step (before the answer, so that the
        next /attack already shows the new system's options)."""
        result = await change
        await self.bot.resync_guild(guild_id)
        return result

    @app_commands.command(name="gm-role", description="Choose the role whose members are GMs")
    @app_commands.describe(role="Members with this role adjudicate and run GM commands")
    async def gm_role(self, interaction: discord.Interaction[GrievousBot], role: discord.Role) -> None:
        await slow(interaction, self.bot.services.settings.set_gm_role(actor_of(interaction), role.id), ephemeral=True)
        await reply(interaction, embed=embeds.gm_role_set(role.id), ephemeral=True)

    @app_commands.command(name="rolls", description="Whether the bot rolls shock and kill, or they wait for the GM")
    @app_commands.describe(mode="auto: the bot rolls them; gm: they wait for the GM's buttons")
    async def rolls(self, interaction: discord.Interaction[GrievousBot], mode: Literal["auto", "gm"]) -> None:
        await slow(interaction, self.bot.services.settings.set_rolls(actor_of(interaction), mode), ephemeral=True)
        await reply(interaction, embed=embeds.rolls_set(mode), ephemeral=True)

    @app_commands.command(name="turns", description="Whether players may act out of turn in encounters")
    @app_commands.describe(mode="enforce: only on their turn; warn: they may, and it is said; off: any time")
    async def turns(self, interaction: discord.Interaction[GrievousBot],
                    mode: Literal["enforce", "warn", "off"]) -> None:
        await slow(interaction, self.bot.services.settings.set_turns(actor_of(interaction), mode), ephemeral=True)
        await reply(interaction, embed=embeds.turns_set(mode), ephemeral=True)

    @app_commands.command(name="secret-rolls", description="Keep the NPCs' rolls from the players")
    @app_commands.describe(on="Players see only what their characters would; the GM sees every die",
                           gm_channel="Post the full rolls here (else only the GM who rolled sees them)")
    async def secret_rolls(self, interaction: discord.Interaction[GrievousBot], on: bool,
                           gm_channel: discord.TextChannel | None = None) -> None:
        if gm_channel is not None:
            refusal = cannot_post(interaction, gm_channel)
            if refusal is not None:
                raise UserError(refusal)
        view = await slow(interaction, self.bot.services.settings.set_secret_rolls(
            actor_of(interaction), on, gm_channel.id if gm_channel is not None else None), ephemeral=True)
        await reply(interaction, embed=embeds.secret_rolls_set(view.secret_rolls, view.gm_channel_id),
                    ephemeral=True)

    @app_commands.command(name="ruling", description="Change one of the rule engine's rulings")
    @app_commands.describe(name="The ruling (see /setup show)", value="Its new value")
    @app_commands.autocomplete(name=autocomplete.ruling, value=autocomplete.ruling_value)
    async def ruling(self, interaction: discord.Interaction[GrievousBot], name: app_commands.Range[str, 1, 60],
                     value: app_commands.Range[str, 1, 60]) -> None:
        view = await slow(interaction, self.bot.services.settings.set_ruling(actor_of(interaction), name, value),
                          ephemeral=True)
        shown = view.rulings.get(name, value)
        await reply(interaction, embed=embeds.ruling_set(name, str(shown).lower() if isinstance(shown, bool)
                                                         else str(shown)), ephemeral=True)


async def setup(bot: GrievousBot) -> None:
    await bot.add_cog(SetupCog(bot))
