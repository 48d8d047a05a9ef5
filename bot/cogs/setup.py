"""/setup: the server's system (or one channel's), GM role, who makes the rolls a wound calls for, rulings."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot import discord_permissions as perms
from bot.errors import UserError
from bot.interactions import actor_of
from bot.ui import autocomplete, embed_common, replies, setup_embeds
from bot.ui.publish import defer, reply, slow
from rules.registry import system_ids

if TYPE_CHECKING:
    from bot.app import GrievousBot

T = TypeVar("T")
SYSTEM_CHOICES = [app_commands.Choice(name=embed_common.system_title(s), value=s) for s in system_ids()]


def cannot_post(interaction: discord.Interaction[Any], channel: discord.abc.GuildChannel) -> str | None:
    """Why the bot cannot post the GM's rolls in ``channel`` (its permissions there, from the gateway's cache),
    or None if it can."""
    me = interaction.guild.me if interaction.guild is not None else None
    if me is None:
        return None  # no member cache to judge from: Discord will say so when the bot posts
    # Discord takes away the later ones with the earlier (no Send Messages: no Embed Links either): name the first
    missing = perms.missing(channel.permissions_for(me), perms.to_post(isinstance(channel, discord.Thread)))
    return replies.cannot_post(channel.mention, [missing[0].name]) if missing else None


def _can(have: discord.Permissions, in_thread: bool, *, gm_channel: bool = False) -> list[tuple[perms.Needed, bool]]:
    """Each permission the bot uses in a channel and whether it has it there: in a thread, posting is Send
    Messages in Threads; in a channel both are shown, the second for its threads and forum posts. The GM
    channel only takes secret rolls (embeds)."""
    send = perms.SEND_IN_THREADS if in_thread else perms.SEND
    if gm_channel:
        shown = [perms.VIEW, send, perms.EMBED]
    else:
        shown = [perms.VIEW, send, perms.EMBED, perms.ATTACH, perms.HISTORY, perms.PIN]
        if not in_thread:
            shown.insert(2, perms.SEND_IN_THREADS)
    return [(needed, bool(getattr(have, needed.flag))) for needed in shown]


@app_commands.default_permissions(manage_guild=True)
class SetupCog(commands.GroupCog, group_name="setup", group_description="Server settings (Manage Server)"):
    def __init__(self, bot: GrievousBot) -> None:
        self.bot = bot

    @app_commands.command(name="show", description="Show the system, GM role, rolls mode and rulings in this channel")
    async def show(self, interaction: discord.Interaction[GrievousBot]) -> None:
        actor = actor_of(interaction)
        server_setup = self.bot.services.setup
        # Two reads that do not depend on each other: side by side, so the answer waits for the slower only.
        view, rulings = await slow(interaction, asyncio.gather(
            server_setup.show(actor), server_setup.ruling_names(actor)), ephemeral=True)
        await reply(interaction, embed=setup_embeds.setup_shown(view, rulings), ephemeral=True)

    @app_commands.command(name="system", description="Choose the rule system for this server or one channel")
    @app_commands.describe(system="The rule system", channel_only="Only this channel (overrides the server's)")
    @app_commands.choices(system=SYSTEM_CHOICES)
    async def system(self, interaction: discord.Interaction[GrievousBot], system: str,
                     channel_only: bool = False) -> None:
        actor = actor_of(interaction)
        await defer(interaction, ephemeral=True)  # the server's commands are sent (REST) before the answer
        _, problem = await slow(interaction, self._resynced(actor.guild_id, self.bot.services.setup.set_system(
            actor, system, channel_only)), ephemeral=True)
        await reply(interaction, embed=setup_embeds.system_set(system, channel_only, problem), ephemeral=True)

    @app_commands.command(name="channel-reset", description="Let this channel follow the server's system again")
    async def channel_reset(self, interaction: discord.Interaction[GrievousBot]) -> None:
        actor = actor_of(interaction)
        await defer(interaction, ephemeral=True)  # as /setup system: a command sync (REST) precedes the answer
        view, problem = await slow(interaction, self._resynced(
            actor.guild_id, self.bot.services.setup.clear_channel_system(actor)), ephemeral=True)
        await reply(interaction, embed=setup_embeds.system_set(view.system, False, problem), ephemeral=True)

    async def _resynced(self, guild_id: int, change: Awaitable[T]) -> tuple[T, discord.HTTPException | None]:
        """The change of system, then the server's commands brought in step (before the answer, so that the
        next /attack already shows the new system's options; the caller has deferred, since Discord wants the
        interaction answered before any other REST call); and why they could not be, if so."""
        result = await change
        return result, await self.bot.resync_guild(guild_id)

    @app_commands.command(name="check", description="What the bot can and cannot do here, and what to change")
    async def check(self, interaction: discord.Interaction[GrievousBot]) -> None:
        actor = actor_of(interaction)
        sync = self.bot.command_sync

        async def commands_current() -> bool:
            return not self.bot.guild_commands or await sync.current(actor.guild_id)

        view, current = await slow(interaction, asyncio.gather(self.bot.services.setup.show(actor),
                                                               commands_current()), ephemeral=True)
        here = _can(interaction.app_permissions, isinstance(interaction.channel, discord.Thread))
        gm_mention = can_gm = None
        if view.secret_rolls and view.gm_channel_id is not None:
            gm_mention = f"<#{view.gm_channel_id}>"
            guild = interaction.guild
            gm = guild.get_channel_or_thread(view.gm_channel_id) if guild is not None else None
            if gm is not None and guild is not None and guild.me is not None:
                can_gm = _can(gm.permissions_for(guild.me), isinstance(gm, discord.Thread), gm_channel=True)
        await reply(interaction, embed=setup_embeds.setup_check(
            f"<#{interaction.channel_id}>", here, gm_mention,
            can_gm, current, sync.problems.get(actor.guild_id)), ephemeral=True)

    @app_commands.command(name="gm-role", description="Choose the role whose members are GMs")
    @app_commands.describe(role="Members with this role adjudicate and run GM commands")
    async def gm_role(self, interaction: discord.Interaction[GrievousBot], role: discord.Role) -> None:
        await slow(interaction, self.bot.services.setup.set_gm_role(actor_of(interaction), role.id), ephemeral=True)
        await reply(interaction, embed=setup_embeds.gm_role_set(role.id), ephemeral=True)

    @app_commands.command(name="rolls",
                          description="Whether the bot makes the rolls a wound calls for, or they wait for the GM")
    @app_commands.describe(mode="auto: the bot rolls them (shock, knockdown, wound effect...); gm: the GM's buttons")
    async def rolls(self, interaction: discord.Interaction[GrievousBot], mode: Literal["auto", "gm"]) -> None:
        view = await slow(interaction, self.bot.services.setup.set_rolls(actor_of(interaction), mode),
                          ephemeral=True)
        await reply(interaction, embed=setup_embeds.rolls_set(mode, view.system), ephemeral=True)

    @app_commands.command(name="turns", description="Whether players may act out of turn in encounters")
    @app_commands.describe(mode="enforce: only on their turn; warn: they may, and it is said; off: any time")
    async def turns(self, interaction: discord.Interaction[GrievousBot],
                    mode: Literal["enforce", "warn", "off"]) -> None:
        await slow(interaction, self.bot.services.setup.set_turns(actor_of(interaction), mode), ephemeral=True)
        await reply(interaction, embed=setup_embeds.turns_set(mode), ephemeral=True)

    @app_commands.command(name="secret-rolls", description="Keep the NPCs' rolls from the players")
    @app_commands.describe(on="Players see only what their characters would; the GM sees every die",
                           gm_channel="Post the full rolls here (else only the GM who rolled sees them)")
    async def secret_rolls(self, interaction: discord.Interaction[GrievousBot], on: bool,
                           gm_channel: discord.TextChannel | None = None) -> None:
        if gm_channel is not None:
            refusal = cannot_post(interaction, gm_channel)
            if refusal is not None:
                raise UserError(refusal, markup=(gm_channel.mention,))
        view = await slow(interaction, self.bot.services.setup.set_secret_rolls(
            actor_of(interaction), on, gm_channel.id if gm_channel is not None else None), ephemeral=True)
        await reply(interaction, embed=setup_embeds.secret_rolls_set(view.secret_rolls, view.gm_channel_id),
                    ephemeral=True)

    @app_commands.command(name="ruling", description="Change one of the rule engine's rulings")
    @app_commands.describe(name="The ruling (see /setup show)", value="Its new value")
    @app_commands.autocomplete(name=autocomplete.ruling, value=autocomplete.ruling_value)
    async def ruling(self, interaction: discord.Interaction[GrievousBot], name: app_commands.Range[str, 1, 60],
                     value: app_commands.Range[str, 1, 60]) -> None:
        view = await slow(interaction, self.bot.services.setup.set_ruling(actor_of(interaction), name, value),
                          ephemeral=True)
        shown = view.rulings.get(name, value)
        await reply(interaction, embed=setup_embeds.ruling_set(name, str(shown).lower() if isinstance(shown, bool)
                                                         else str(shown)), ephemeral=True)


async def setup(bot: GrievousBot) -> None:
    await bot.add_cog(SetupCog(bot))
