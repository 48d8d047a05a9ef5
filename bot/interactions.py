"""Reading an interaction into the plain values the services take."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import discord

from bot.errors import UserError
from bot.services.actor import Actor
from bot.ui import replies

if TYPE_CHECKING:
    from bot.app import GrievousBot
    from bot.services import Services


def actor_of(interaction: discord.Interaction[Any]) -> Actor:
    """The caller as an ``Actor``; in a direct message this is a user error."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise UserError(replies.NO_GUILD)
    user = interaction.user
    # Member._roles holds the role ids from the interaction payload even when the guild is not cached.
    roles = tuple(int(r) for r in getattr(user, "_roles", ()))
    permissions = interaction.permissions
    return Actor(
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id,
        user_id=user.id,
        user_name=user.display_name,
        role_ids=roles,
        is_manager=permissions.manage_guild or permissions.administrator,
        parent_channel_id=interaction.channel.parent_id if isinstance(interaction.channel, discord.Thread) else None,
        interaction_id=interaction.id,
    )


def bot_of(interaction: discord.Interaction[Any]) -> GrievousBot:
    return cast("GrievousBot", interaction.client)


def services_of(interaction: discord.Interaction[Any]) -> Services:
    return bot_of(interaction).services


async def read_upload(file: discord.Attachment, max_bytes: int) -> bytes:
    """An attachment's bytes; one user line if it is over ``max_bytes`` or Discord will not hand it over."""
    if file.size > max_bytes:
        limit = f"{max_bytes // 1024} KiB" if max_bytes % 1024 == 0 else f"{max_bytes}-byte"
        raise UserError(f"{file.filename}: is {file.size} bytes, over the {limit} limit")
    try:
        return await file.read()
    except discord.HTTPException as exc:
        raise UserError(f"{file.filename}: could not be downloaded; try again") from exc
