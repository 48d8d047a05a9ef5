"""Sending to Discord: answering an interaction (deferring when slow), and the pinned encounter tracker."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord

from bot.interactions import actor_of, bot_of, services_of
from bot.ops import flights
from bot.services.views import EncounterView
from bot.ui import embeds

log = logging.getLogger(__name__)
T = TypeVar("T")


async def reply(interaction: discord.Interaction[Any], content: str | None = None, *,
                embed: discord.Embed | None = None, view: discord.ui.View | None = None,
                ephemeral: bool = False, file: discord.File | None = None,
                mentions: discord.AllowedMentions | None = None) -> int | None:
    """Answer the interaction, or follow up when it was deferred or already answered; the message's id.
    Nobody is pinged unless ``mentions`` says so."""
    kwargs: dict[str, Any] = {"ephemeral": ephemeral, "allowed_mentions": mentions or discord.AllowedMentions.none()}
    if content is not None:
        kwargs["content"] = content
    if embed is not None:
        kwargs["embed"] = embed
    if file is not None:
        kwargs["file"] = file
    if view is not None:
        kwargs["view"] = view
    if interaction.response.is_done():
        sent = await interaction.followup.send(**kwargs)
        interaction.extras["answered"] = True
        message_id = getattr(sent, "id", None)
    else:
        answered = await interaction.response.send_message(**kwargs)
        message_id = getattr(answered, "message_id", None)
    return message_id if isinstance(message_id, int) else None


DEFER_AFTER = 1.5  # seconds; Discord wants an answer within 3


async def slow(interaction: discord.Interaction[Any], work: Awaitable[T], *, ephemeral: bool = False) -> T:
    """Await ``work``; if it takes a while, show "thinking" meanwhile so the interaction does not expire.

    Every service call of a command goes through here: a command queued behind others in its channel
    must still answer within Discord's 3 seconds. Deferring only when needed keeps a quick mistake a
    private line (a deferred reply is public unless ``ephemeral``: say so when the answer is private).
    """
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    if not done:
        await defer(interaction, ephemeral=ephemeral)
    return await task


async def defer(interaction: discord.Interaction[Any], *, ephemeral: bool = False) -> None:
    """Show "thinking" while a slow command runs; ``reply`` then replaces it with the result."""
    if not interaction.response.is_done():
        flight = flights.current()
        if flight is not None:
            flight.deferred = True
        interaction.extras["ephemeral_defer"] = ephemeral
        await interaction.response.defer(thinking=True, ephemeral=ephemeral)


async def to_gm_channel(interaction: discord.Interaction[Any], channel_id: int, embed: discord.Embed) -> None:
    """Post ``embed`` in the server's GM channel (secret rolls); a channel the bot cannot post in is logged."""
    channel = bot_of(interaction).get_partial_messageable(channel_id, guild_id=interaction.guild_id)
    try:
        await channel.send(embed=embed, allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException as exc:
        log.warning("cannot post a secret roll in the GM channel %s: %s", channel_id, exc)


async def refresh_tracker(interaction: discord.Interaction[Any], encounter: EncounterView) -> None:
    """Edit the encounter's pinned tracker; post and pin a new one when there is none (or it was deleted)."""
    bot = bot_of(interaction)
    channel = bot.get_partial_messageable(encounter.channel_id, guild_id=encounter.guild_id)
    embed = embeds.tracker(encounter)
    if encounter.tracker_message_id is not None:
        message = channel.get_partial_message(encounter.tracker_message_id)
        try:
            await message.edit(embed=embed)
            if not encounter.active:
                await _unpin(message)
            return
        except discord.NotFound:
            log.info("tracker %s of encounter %s is gone; posting a new one", message.id, encounter.id)
        except discord.HTTPException as exc:
            log.warning("cannot edit tracker %s: %s", message.id, exc)
            return
    if not encounter.active:
        return
    try:
        posted = await channel.send(embed=embed, allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException as exc:
        log.warning("cannot post the tracker in channel %s: %s", encounter.channel_id, exc)
        return
    try:
        await posted.pin(reason="Grievous encounter tracker")
    except discord.HTTPException as exc:
        log.info("cannot pin the tracker in channel %s: %s", encounter.channel_id, exc)
    await services_of(interaction).encounters.set_tracker_message(actor_of(interaction), posted.id)


async def _unpin(message: discord.PartialMessage) -> None:
    try:
        await message.unpin(reason="Grievous encounter ended")
    except discord.HTTPException as exc:
        log.info("cannot unpin tracker %s: %s", message.id, exc)
