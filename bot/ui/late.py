"""Posting what was stored but never answered (bot/services/answers.py) in its channel, marked late: at once
when an interaction's answer failed, and after a restart for what a crash left between commit and answer."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, TypeVar

import discord

from bot.services.results import EventView
from bot.ui import late_embeds, replies, threads
from bot.ui.action_message import DETAILS_PREFIX, GMDecisionButton, action_view
from bot.ui.late_embeds import late_event_id

if TYPE_CHECKING:
    from bot.app import GrievousBot
    from bot.services.answers import GMPart

log = logging.getLogger(__name__)
T = TypeVar("T")
_DETAILS = re.compile(re.escape(DETAILS_PREFIX) + r"([0-9]{1,20})")
RETRY_FIRST, RETRY_MAX = 0.5, 30.0  # seconds between tries of a late post or its mark that failed: doubling


async def answer_late(bot: GrievousBot, interaction_id: int) -> int:
    """The interaction's answer failed: post its unanswered events in their channels, and mark them; what fails
    (Discord or the database for a moment) is tried again while the bot runs. How many were posted."""
    answers = bot.services.runtime.answers
    events = await _until_it_sticks(bot, lambda: answers.unanswered(interaction_id), "read the unanswered events")
    if events is None:
        return 0
    settled: dict[int, int | None] = {}
    for tries in range(1, 1000):
        settled.update(await post_late(bot, [event for event in events if event.id not in settled]))
        if len(settled) == len(events) or not await _pause(bot, tries):
            break
    posted = [event_id for event_id, message_id in settled.items() if message_id is not None]
    await _until_it_sticks(bot, lambda: answers.mark_events(settled, late=posted), "mark the late posts")
    return len(settled)


async def _pause(bot: GrievousBot, tries: int) -> bool:
    """Wait before the next try; False when the bot is stopping (the next start's recovery takes it over)."""
    loop = asyncio.get_running_loop()
    until = loop.time() + min(RETRY_MAX, RETRY_FIRST * 2 ** (tries - 1))
    while not (bot.draining or bot.is_closed()):
        if loop.time() >= until:
            return True
        await asyncio.sleep(min(0.25, until - loop.time()))
    return False


async def _until_it_sticks(bot: GrievousBot, work: Callable[[], Awaitable[T]], what: str) -> T | None:
    """``work()``, tried again after a failure while the bot runs; None if it never succeeded."""
    for tries in range(1, 1000):
        try:
            return await work()
        except Exception as exc:
            if tries == 1:
                log.warning("could not %s; trying again until it works: %s", what, exc)
            if not await _pause(bot, tries):
                log.warning("could not %s before stopping: the next start finds them", what)
                return None
    return None


async def recover(bot: GrievousBot, before: datetime) -> int:
    """After a restart: post what was committed before ``before`` and never answered, in the servers this
    process serves, unless the channel already shows it (an answer sent just before the crash); how many."""
    answers = bot.services.runtime.answers
    events = await answers.left_unanswered(before, lambda guild_id: bot.get_guild(guild_id) is not None)
    if not events:
        return 0
    # An answer whose message id was written with its event is known; the rest are looked for in the channel.
    shown: dict[int, int | None] = {event.id: event.message_id for event in events if event.message_id is not None}
    for channel_id in {event.channel_id for event in events}:
        here = [event for event in events if event.channel_id == channel_id and event.id not in shown]
        if here:
            shown.update(await _already_shown(bot, channel_id, here))
    waiting = [event for event in events if event.id not in shown]
    posted = await post_late(bot, waiting)
    await answers.mark_events({**shown, **posted}, late=[e for e, message_id in posted.items() if message_id])
    log.info("after the restart: %d actions were stored but not answered; %d posted late, %d had been answered",
             len(events), len(waiting), len(shown))
    return len(waiting)


async def _already_shown(bot: GrievousBot, channel_id: int, events: Sequence[EventView]) -> dict[int, int | None]:
    """Which of ``events`` a message of the bot in the channel already shows, event id -> that message: the
    answer to the interaction that made it (Discord names the interaction on its answer), a message with its
    Details button, or its late post (a crash between a post and its mark). The channel's history is read from
    the oldest event's own snowflake (its interaction's id: its answer comes after) to now, every page."""
    after = discord.Object(min(_since(event) for event in events) - 1)
    channel = bot.get_partial_messageable(channel_id)
    by_interaction: dict[int, list[int]] = {}
    for event in events:
        if event.interaction_id is not None:
            by_interaction.setdefault(event.interaction_id, []).append(event.id)
    found: dict[int, int | None] = {}
    try:
        async for message in channel.history(limit=None, after=after, oldest_first=True):
            if bot.user is None or message.author.id != bot.user.id:
                continue
            shown = set(_event_ids(message.components))
            if message.interaction_metadata is not None:
                shown.update(by_interaction.get(message.interaction_metadata.id, ()))
            shown.update(event_id for event_id in (late_event_id(e.title) for e in message.embeds) if event_id)
            for event_id in shown:
                found.setdefault(event_id, message.id)
    except discord.HTTPException as exc:  # cannot read the channel: post (a repeat beats nothing shown)
        log.info("cannot read channel %s to find answers sent before the restart: %s", channel_id, exc)
    wanted = {event.id for event in events}
    return {event_id: message_id for event_id, message_id in found.items() if event_id in wanted}


def _since(event: EventView) -> int:
    """A snowflake no later than the event's first message: its interaction's id, else its time (less a margin
    for clocks: the event row is written after the interaction was created)."""
    if event.interaction_id is not None:
        return event.interaction_id
    made = event.created_at or datetime.now(UTC)
    return discord.utils.time_snowflake(made - timedelta(seconds=30))


def _event_ids(components: Iterable[object]) -> set[int]:
    ids: set[int] = set()
    for row in components:
        for item in getattr(row, "children", [row]):
            match = _DETAILS.fullmatch(getattr(item, "custom_id", None) or "")
            if match:
                ids.add(int(match[1]))
    return ids


async def post_late(bot: GrievousBot, events: Sequence[EventView]) -> dict[int, int | None]:
    """Post each event, marked late, in its channel; the ids that are settled (posted, or the channel is gone
    or closed to the bot: posting again would never work) -> the message posted."""
    settled: dict[int, int | None] = {}
    answers = bot.services.runtime.answers
    open_decisions = await answers.open_decisions([event.id for event in events])
    gm_parts = await answers.gm_parts([event.id for event in events])
    for event in events:
        channel = bot.get_partial_messageable(event.channel_id)
        # The buttons the answer would have carried: the GM's for every decision still open, then Details.
        view = action_view(event.id if event.record.has_details else None,
                           open_decisions.get(event.id, []))
        try:
            posted = await channel.send(embed=late_embeds.late(event), view=view or discord.utils.MISSING,
                                        allowed_mentions=discord.AllowedMentions.none())
            settled[event.id] = posted.id
        except (discord.Forbidden, discord.NotFound) as exc:
            log.warning("cannot post event %s late in channel %s: %s", event.id, event.channel_id, exc)
            settled[event.id] = None
            continue
        except discord.HTTPException as exc:
            if threads.closed(exc):  # a locked thread: closed to the bot, like a 403
                log.warning("cannot post event %s late in locked thread %s: %s", event.id, event.channel_id, exc)
                settled[event.id] = None
                continue
            log.warning("could not post event %s late in channel %s (tried again): %s",
                        event.id, event.channel_id, exc)
            continue
        if event.id in gm_parts:  # the NPC's dice the table's post leaves out: to the GM channel, once
            await _to_gm(bot, gm_parts[event.id])
        on_message = [item.decision_id for item in (view.children if view is not None else [])
                      if isinstance(item, GMDecisionButton)]
        try:
            await answers.decisions_posted(event.channel_id, posted.id, on_message, event.id)
        except Exception:  # the buttons work anyway; a decision settled elsewhere leaves them on this post
            log.exception("could not note the message of event %s's GM buttons", event.id)
    return settled


async def _to_gm(bot: GrievousBot, part: GMPart) -> None:
    """The GM's part of a late post: to the GM channel, or without one to the server's owner by DM (a live
    answer shows it to the GM who acted; a late post has nobody to answer). One that is refused is logged:
    the GM still has the Details button on the channel's post."""
    whole, embed, mentions = part.for_gm, late_embeds.late_details(part.for_gm), discord.AllowedMentions.none()
    if part.gm_channel_id is not None:
        try:
            await bot.get_partial_messageable(part.gm_channel_id).send(embed=embed, allowed_mentions=mentions)
        except discord.HTTPException as exc:
            log.warning("could not post the GM's part of event %s late in GM channel %s: %s", whole.id,
                        part.gm_channel_id, exc)
        return
    guild = bot.get_guild(part.guild_id)
    if guild is None or guild.owner_id is None:
        log.warning("late secret roll in guild %s: no GM channel and no owner known to send it to", part.guild_id)
        return
    try:
        dm = await bot.create_dm(discord.Object(guild.owner_id))
        await dm.send(content=replies.secret_roll_by_dm(guild.name, None), embed=embed, allowed_mentions=mentions)
    except discord.HTTPException as exc:  # 50007: the owner takes no DMs from the server's members
        log.warning("cannot DM the owner of guild %s the GM's part of event %s: %s", guild.id, whole.id, exc)
