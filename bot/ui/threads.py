"""The bot's writes in a thread or forum post that Discord archived (idle for its auto-archive time) or a
moderator locked (topics/threads.mdx "Active & Archived Threads", "Locked Threads").

A message sent into an archived thread unarchives it by itself; an edit or a pin there is refused (50083). So
before a write in a thread the bot knows is archived (the interaction came from it: discord.py drops archived
threads from its cache), the bot unarchives it (Modify Channel, which it may do in a thread it is in); a write
that meets one all the same unarchives it and is tried once more. A locked thread refuses the bot without
Manage Threads (160005, or 50083 when it is archived too): the GM is told once, in one line, and the fight goes
on without the thread's tracker, which is not tried while the bot knows the thread locked (``locked_to_bot``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord

from bot.discord_permissions import Needed
from bot.interactions import bot_of
from bot.ui import channel_access, replies

log = logging.getLogger(__name__)
T = TypeVar("T")

THREAD_ARCHIVED = 50083  # topics/opcodes-and-status-codes.mdx
THREAD_LOCKED = 160005
CLOSED = (THREAD_ARCHIVED, THREAD_LOCKED)
REOPENED = "threads_reopened"  # interaction.extras: the threads it unarchived (its payload still says archived)
# Not asked for at invite (a server locks a thread to stop posts): remembered as refused per thread, so a locked
# thread is not asked to unarchive again (a 403 counts against the bot) and its GM is told once.
MANAGE_THREADS = Needed("manage_threads", "Manage Threads", "post in a locked thread")


def closed(exc: BaseException) -> bool:
    """Discord refused a write because the thread is archived or locked."""
    return isinstance(exc, discord.HTTPException) and exc.code in CLOSED


async def write(interaction: discord.Interaction[Any], channel_id: int, work: Callable[[], Awaitable[T]]) -> T:
    """``work()``, a write in the channel. In a thread that archived meanwhile: the thread unarchived, and
    ``work()`` tried once more. One the bot may not reopen or write in (locked) raises Discord's refusal, once
    the GM is told."""
    thread = _known_thread(interaction, channel_id)
    reopened: set[int] = interaction.extras.setdefault(REOPENED, set())
    if (thread is not None and thread.archived and channel_id not in reopened
            and _may_reopen(interaction, channel_id, thread)):
        await _unarchive(interaction, channel_id)
    try:
        result = await work()
    except discord.HTTPException as exc:
        if not closed(exc):
            raise
        reopen = exc.code == THREAD_ARCHIVED and _may_reopen(interaction, channel_id, thread)
        if not reopen or not await _unarchive(interaction, channel_id):
            await _tell_locked(interaction, channel_id)
            raise
        try:
            result = await work()
        except discord.HTTPException as again:
            if closed(again):
                await _tell_locked(interaction, channel_id)
            raise
    bot_of(interaction).refusals.forget(channel_id, MANAGE_THREADS)
    return result


async def locked_to_bot(interaction: discord.Interaction[Any], channel_id: int) -> bool:
    """True, once the GM is told (once), when the channel is a thread known to be locked and the bot has no
    Manage Threads there: a write would only be refused (160005), so none is tried."""
    thread = _known_thread(interaction, channel_id)
    if thread is None or not thread.locked or _manages_threads(thread):
        return False
    await _tell_locked(interaction, channel_id)
    return True


def _manages_threads(thread: discord.Thread) -> bool:
    me = thread.guild.me
    return me is not None and thread.permissions_for(me).manage_threads


def _known_thread(interaction: discord.Interaction[Any], channel_id: int) -> discord.Thread | None:
    """The thread as the cache holds it (discord.py keeps active threads only, updated by THREAD_UPDATE), else
    as the interaction showed it when it came (an archived one, perhaps reopened since)."""
    guild = interaction.guild or bot_of(interaction).get_guild(interaction.guild_id or 0)
    cached = guild.get_thread(channel_id) if guild is not None else None
    if cached is not None:
        return cached
    if interaction.channel_id == channel_id and isinstance(interaction.channel, discord.Thread):
        return interaction.channel
    return None


def _may_reopen(interaction: discord.Interaction[Any], channel_id: int, thread: discord.Thread | None) -> bool:
    """Whether to ask Discord to unarchive the thread: not one that refused (a 403 counts against the bot), nor
    one known locked while the bot lacks Manage Threads there."""
    if bot_of(interaction).refusals.refused(channel_id, MANAGE_THREADS):
        return False
    return thread is None or not thread.locked or _manages_threads(thread)


async def _unarchive(interaction: discord.Interaction[Any], channel_id: int) -> bool:
    """Unarchive the thread (resources/channel.mdx "Modify Channel": a thread the bot is in, not locked, or
    with Manage Threads); False when Discord refuses it."""
    try:
        await bot_of(interaction).http.edit_channel(channel_id, archived=False, reason="Grievous: the fight goes on")
    except discord.HTTPException as exc:
        log.info("cannot unarchive thread %s: %s", channel_id, exc)
        if isinstance(exc, discord.Forbidden):
            bot_of(interaction).refusals.remember(channel_id, MANAGE_THREADS)
        return False
    log.info("unarchived thread %s, archived while its fight went on", channel_id)
    interaction.extras.setdefault(REOPENED, set()).add(channel_id)
    return True


async def _tell_locked(interaction: discord.Interaction[Any], channel_id: int) -> None:
    """One line to a GM (a player is not told: they cannot unlock it), once while it stays locked."""
    log.info("thread %s is locked to the bot", channel_id)
    refusals = bot_of(interaction).refusals
    refusals.remember(channel_id, MANAGE_THREADS)
    if (await channel_access.viewer(interaction)).is_gm and refusals.tell_once(channel_id, MANAGE_THREADS):
        await channel_access.tell(interaction, replies.thread_locked(f"<#{channel_id}>"))
