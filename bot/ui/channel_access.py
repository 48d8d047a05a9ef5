"""Before the bot writes to a channel (the tracker, GM-channel posts, taking GM buttons off a message): may it?

What the bot may do is read without asking Discord: in the interaction's own channel from
``interaction.app_permissions``, elsewhere from the cached guild (its role and the channel's overwrites).
A call that would be refused is not made, and a refusal Discord gives anyway is remembered
(bot.discord_permissions.Refusals). Either way a GM is told once, in one line naming the permission.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot.discord_permissions import (
    EMBED,
    HISTORY,
    PIN,
    SEND,
    SEND_IN_THREADS,
    VIEW,
    Needed,
    missing,
    missing_line,
)
from bot.interactions import actor_of, bot_of, services_of
from bot.services.viewer import Seat, Viewer, viewer_of

log = logging.getLogger(__name__)
TOLD = "permission_lines"  # interaction.extras: lines waiting for the interaction's first answer


def _channel(interaction: discord.Interaction[Any], channel_id: int) -> Any:
    if interaction.channel_id == channel_id and interaction.channel is not None:
        return interaction.channel
    guild = interaction.guild or (bot_of(interaction).get_guild(interaction.guild_id or 0))
    return guild.get_channel_or_thread(channel_id) if guild is not None else None


def in_thread(interaction: discord.Interaction[Any], channel_id: int) -> bool:
    return isinstance(_channel(interaction, channel_id), discord.Thread)


def posting(interaction: discord.Interaction[Any], channel_id: int) -> tuple[Needed, ...]:
    """What an embed-only message needs in the channel (a thread's own right to send)."""
    return (VIEW, SEND_IN_THREADS if in_thread(interaction, channel_id) else SEND, EMBED)


EDITING = (VIEW, EMBED)  # an embed edit of the bot's own message
FETCHING = (VIEW, HISTORY)
REWRITING = (*FETCHING, EMBED)  # fetching an older message of the bot's to edit its embed
PINNING = (VIEW, PIN)


def _known(interaction: discord.Interaction[Any], channel_id: int) -> discord.Permissions | None:
    """The bot's permissions in the channel, if they can be known without asking Discord."""
    if interaction.channel_id == channel_id:
        return interaction.app_permissions
    channel = _channel(interaction, channel_id)
    me = channel.guild.me if channel is not None else None
    if channel is None or me is None or (isinstance(channel, discord.Thread) and channel.is_private()):
        return None  # a private thread's membership is not in the cache
    have: discord.Permissions = channel.permissions_for(me)
    return have


def lacking(interaction: discord.Interaction[Any], channel_id: int, needed: Sequence[Needed]) -> Needed | None:
    """The first of ``needed`` the bot is known to lack in the channel (remembered as refused), or None."""
    refusals = bot_of(interaction).refusals
    have = _known(interaction, channel_id)
    if have is not None:
        refusals.update(channel_id, have)
        lacks = missing(have, tuple(needed))
    else:
        lacks = tuple(n for n in needed if refusals.refused(channel_id, n))
    if not lacks:
        return None
    refusals.remember(channel_id, lacks[0])
    return lacks[0]


async def allowed(interaction: discord.Interaction[Any], channel_id: int, needed: Sequence[Needed]) -> bool:
    """True if the bot may do what needs ``needed`` in the channel; else the user is told (once) what is
    missing, and nothing is sent to Discord."""
    lacks = lacking(interaction, channel_id, needed)
    if lacks is None:
        return True
    await _tell_gm_once(interaction, channel_id, lacks)
    return False


async def refused(interaction: discord.Interaction[Any], channel_id: int, needed: Sequence[Needed],
                  exc: discord.HTTPException, what: str) -> None:
    """Discord refused ``what``: a 403 is remembered and told once; anything else is only logged."""
    if not isinstance(exc, discord.Forbidden):
        log.warning("cannot %s in channel %s: %s", what, channel_id, exc)
        return
    blamed = VIEW if exc.code == 50001 else needed[-1]
    log.info("Discord refused to %s in channel %s (%s): %s", what, channel_id, blamed.name, exc)
    bot_of(interaction).refusals.remember(channel_id, blamed)
    await _tell_gm_once(interaction, channel_id, blamed)


async def _tell_gm_once(interaction: discord.Interaction[Any], channel_id: int, needed: Needed) -> None:
    """Tell the user what is missing if they are a GM (or a manager) and no GM was told yet."""
    if (await viewer(interaction)).is_gm and bot_of(interaction).refusals.tell_once(channel_id, needed):
        await tell(interaction, line_for(interaction, channel_id, needed))


async def viewer(interaction: discord.Interaction[Any]) -> Viewer:
    """Who acted, as the services' ``viewer_of`` sees them (a DM or a failing database: another player)."""
    try:
        actor = actor_of(interaction)
    except Exception:  # a DM: nobody's table
        return Viewer(Seat.PLAYER)
    try:
        return await services_of(interaction).setup.viewer(actor)
    except Exception:  # the database: not worth failing the action over (a manager is the GM without it)
        log.info("could not tell whether the user is a GM", exc_info=True)
        return viewer_of(actor, None)


def line_for(interaction: discord.Interaction[Any], channel_id: int, needed: Needed) -> str:
    channel = _channel(interaction, channel_id)
    if needed is VIEW and isinstance(channel, discord.Thread) and channel.is_private():
        return (f"\u26a0 I can't see the private thread <#{channel_id}>: add me to it (mention me there), "
                "or give my role **Manage Threads**.")
    return missing_line(needed, f"<#{channel_id}>")


async def tell(interaction: discord.Interaction[Any], line: str) -> None:
    """Show ``line`` to whoever acted, privately: now if the interaction is answered, else right after its
    answer (``flush``), so that the answer stays the command's own."""
    if not interaction.response.is_done():
        interaction.extras.setdefault(TOLD, []).append(line)
        return
    try:
        await interaction.followup.send(line, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException as exc:
        log.warning("cannot tell the user about a missing permission: %s", exc)


async def flush(interaction: discord.Interaction[Any]) -> None:
    """Send the lines ``tell`` held back until the interaction was answered."""
    for line in interaction.extras.pop(TOLD, []):
        await tell(interaction, line)
