"""Sending to Discord: answering an interaction (deferring when slow), and the pinned encounter tracker."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord
from discord.http import handle_message_parameters

from bot.discord_permissions import VIEW
from bot.interactions import actor_of, bot_of, services_of
from bot.ops import flights
from bot.services.results import EncounterView
from bot.ui import channel_access, encounter_embeds, replies, threads

log = logging.getLogger(__name__)
T = TypeVar("T")
SHOWN = "shown"  # interaction.extras: its result reached the user (else it is posted late: bot/ui/late.py)
POSTED = "posted"  # interaction.extras: its first public message, which shows what it stored (/undo marks it)


async def reply(interaction: discord.Interaction[Any], content: str | None = None, *,
                embed: discord.Embed | None = None, view: discord.ui.View | None = None,
                ephemeral: bool = False, file: discord.File | None = None,
                mentions: discord.AllowedMentions | None = None) -> int | None:
    """Answer the interaction: its first response; after a defer, the "thinking" message edited into the
    answer; after an answer, a follow-up message. The message's id. Nobody is pinged unless ``mentions``
    says so. A private answer after a public "thinking" deletes the thinking and follows up privately."""
    mentions = mentions or discord.AllowedMentions.none()
    kwargs: dict[str, Any] = {"allowed_mentions": mentions}
    if content is not None:
        kwargs["content"] = content
    if embed is not None:
        kwargs["embed"] = embed
    if view is not None:
        kwargs["view"] = view
    message_id, public = await _answer(interaction, kwargs, ephemeral, file)
    if message_id is not None and public and POSTED not in interaction.extras:
        interaction.extras[POSTED] = message_id  # the first public message shows what the command stored
        services_of(interaction).runtime.answers.posted(interaction.id, message_id)
    await channel_access.flush(interaction)  # a missing permission found before this answer
    return message_id


async def _answer(interaction: discord.Interaction[Any], kwargs: dict[str, Any], ephemeral: bool,
                  file: discord.File | None) -> tuple[int | None, bool]:
    """The answer's message id, and whether everyone sees it."""
    if still_thinking(interaction) and ephemeral and not interaction.extras.get("ephemeral_defer"):
        # A private answer after a public "thinking" (the service decided it is private: the GM's look at an
        # NPC): the thinking cannot turn private, so it goes and the answer follows privately.
        interaction.extras["answered"] = True
        with contextlib.suppress(discord.HTTPException):
            await interaction.delete_original_response()
    if still_thinking(interaction):
        # Discord's Create Followup only edits "thinking" for backwards compatibility (deprecated): edit it.
        if file is not None:
            kwargs["attachments"] = [file]
        edited = await interaction.edit_original_response(**kwargs)
        interaction.extras["answered"] = interaction.extras[SHOWN] = True
        return edited.id, not interaction.extras.get("ephemeral_defer")
    if file is not None:
        kwargs["file"] = file
    if interaction.response.is_done():
        sent = await interaction.followup.send(ephemeral=ephemeral, wait=True, **kwargs)
        interaction.extras["answered"] = interaction.extras[SHOWN] = True
        return sent.id, not ephemeral
    answered = await interaction.response.send_message(ephemeral=ephemeral, **kwargs)
    interaction.extras[SHOWN] = True  # what the command stored has been seen (bot/services/answers.py)
    message_id = getattr(answered, "message_id", None)
    return (message_id if isinstance(message_id, int) else None), not ephemeral


def still_thinking(interaction: discord.Interaction[Any]) -> bool:
    """Deferred with "thinking" and not yet answered: the answer is an edit of the original response."""
    deferred = interaction.response.type == discord.InteractionResponseType.deferred_channel_message
    return deferred and not interaction.extras.get("answered")


DEFER_AFTER = 1.5  # seconds after the user's press; Discord wants an answer within 3


def defer_budget(interaction: discord.Interaction[Any]) -> float:
    """How long work may still run before the interaction must be deferred: DEFER_AFTER counted from when
    Discord created the interaction (its snowflake), not from now; a command queued behind others has
    less. A clock ahead of Discord's only defers sooner."""
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    return min(DEFER_AFTER, max(0.0, DEFER_AFTER - age))


async def slow(interaction: discord.Interaction[Any], work: Awaitable[T], *, ephemeral: bool = False) -> T:
    """Await ``work``; if it takes a while, show "thinking" meanwhile so the interaction does not expire.

    Every service call of a command goes through here: a command queued behind others in its channel
    must still answer within Discord's 3 seconds of the press. Deferring only when needed keeps a quick
    mistake a private line (a deferred reply is public unless ``ephemeral``: say so when the answer is private).
    """
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=defer_budget(interaction))
    if not done:
        try:
            await defer(interaction, ephemeral=ephemeral)
        except BaseException:
            # Too late to answer (10062, a 429 past the deadline): the work goes on and may store an action.
            # It ends before the interaction does, so that what it stored is known and posted late (late.py).
            await asyncio.wait({task})
            if not task.cancelled():
                task.exception()  # its own failure is not the one to report: retrieved, so not logged as lost
            raise
    return await task


async def defer(interaction: discord.Interaction[Any], *, ephemeral: bool = False) -> None:
    """Show "thinking" while a slow command runs; ``reply`` then replaces it with the result."""
    if not interaction.response.is_done():
        flight = flights.current()
        if flight is not None:
            flight.deferred = True
        interaction.extras["ephemeral_defer"] = ephemeral
        await interaction.response.defer(thinking=True, ephemeral=ephemeral)


async def to_gm_channel(interaction: discord.Interaction[Any], channel_id: int, embed: discord.Embed, *,
                        by_gm: bool) -> None:
    """Post ``embed`` in the server's GM channel (secret rolls). A GM channel that is gone or refuses the bot
    loses no dice: they go to the GM privately instead (``by_gm``, the services' word: the one who acted is the
    GM; else the server's owner by DM), and the GM is told once that the channel is not working."""
    trouble = await _post_in_gm_channel(interaction, channel_id, embed)
    refusals = bot_of(interaction).refusals
    if trouble is None:
        refusals.mended(channel_id, GM_CHANNEL_DOWN)
        return
    line = (replies.gm_channel_down(f"<#{channel_id}>", trouble)
            if refusals.first_trouble(channel_id, GM_CHANNEL_DOWN) else None)
    await _to_gm_privately(interaction, channel_id, embed, line, by_gm)


GM_CHANNEL_DOWN = "gm channel down"
GONE = "it was deleted, or I cannot see it"


async def _post_in_gm_channel(interaction: discord.Interaction[Any], channel_id: int,
                              embed: discord.Embed) -> str | None:
    """None once posted; else why it could not be (in a GM's words)."""
    guild = interaction.guild or bot_of(interaction).get_guild(interaction.guild_id or 0)
    if guild is not None and guild.get_channel_or_thread(channel_id) is None and not guild.unavailable:
        # a text channel (what /setup secret-rolls takes) the guilds intent does not show: deleted, or hidden
        return GONE
    needed = channel_access.posting(interaction, channel_id)
    lacks = channel_access.lacking(interaction, channel_id, needed)
    if lacks is not None:
        return f"I lack **{lacks.name}** there"
    channel = bot_of(interaction).get_partial_messageable(channel_id, guild_id=interaction.guild_id)
    try:
        await channel.send(embed=embed, allowed_mentions=discord.AllowedMentions.none())
        return None
    except discord.NotFound:
        log.info("GM channel %s is gone; the secret roll goes to the GM privately", channel_id)
        bot_of(interaction).refusals.remember(channel_id, VIEW)  # not asked again for a while
        return GONE
    except discord.Forbidden as exc:
        blamed = VIEW if exc.code == 50001 else needed[-1]
        log.info("Discord refused a secret roll in the GM channel %s (%s): %s", channel_id, blamed.name, exc)
        bot_of(interaction).refusals.remember(channel_id, blamed)
        return f"Discord refuses my posts there: I need **{blamed.name}**"
    except discord.HTTPException as exc:
        log.warning("cannot post a secret roll in the GM channel %s: %s", channel_id, exc)
        return f"Discord answered {exc.status}"


async def _to_gm_privately(interaction: discord.Interaction[Any], channel_id: int, embed: discord.Embed,
                           line: str | None, by_gm: bool) -> None:
    """The secret roll to the GM: the GM who acted sees it here, privately (an ephemeral follow-up is the only
    private answer a bot may give, and only to whoever acted); anyone else's goes by DM to the server's owner,
    a manager and so a GM (Discord asks that DMs follow from a user's action: this one does)."""
    mentions = discord.AllowedMentions.none()
    if by_gm:
        try:
            if line is None:
                await interaction.followup.send(embed=embed, ephemeral=True, allowed_mentions=mentions)
            else:
                await interaction.followup.send(line, embed=embed, ephemeral=True, allowed_mentions=mentions)
        except discord.HTTPException as exc:
            log.warning("cannot show the GM a secret roll privately: %s", exc)
        return
    guild = interaction.guild or bot_of(interaction).get_guild(interaction.guild_id or 0)
    if guild is None or guild.owner_id is None:
        log.warning("secret roll in guild %s: no GM channel and no owner known to send it to", interaction.guild_id)
        return
    heading = replies.secret_roll_by_dm(guild.name, f"<#{channel_id}>")
    try:
        dm = await bot_of(interaction).create_dm(discord.Object(guild.owner_id))
        await dm.send(content=heading if line is None else f"{heading}\n{line}", embed=embed,
                      allowed_mentions=mentions)
    except discord.HTTPException as exc:  # 50007: the owner takes no DMs from the server's members
        log.warning("cannot DM the owner of guild %s a secret roll: %s", guild.id, exc)


async def refresh_tracker(interaction: discord.Interaction[Any], encounter: EncounterView) -> None:
    """Bring the channel's pinned tracker to ``encounter`` (or a newer state); returns once it shows that.

    Call it after answering: it waits on the channel's message bucket, which a busy channel empties.
    Updates of one channel go through one task, newest state first: a burst of commands costs one edit
    for the last of them, not one each, and an older state never overwrites a newer one."""
    channels = _trackers.setdefault(bot_of(interaction), {})
    updates = channels.get(encounter.channel_id)
    if updates is None:
        updates = channels[encounter.channel_id] = _ChannelTracker(encounter.channel_id)
    await updates.show(interaction, encounter)


class _ChannelTracker:
    """One channel's tracker updates: the newest state asked for of each encounter, and the one task that
    shows them (an older encounter first: its end, and its unpin, is shown before the next one starts)."""

    def __init__(self, channel_id: int) -> None:
        self.channel_id = channel_id
        self.wanted: dict[int, tuple[discord.Interaction[Any], EncounterView]] = {}  # by encounter id
        self.shown: dict[int, int] = {}  # encounter id -> the newest version shown (the last few encounters)
        # encounter id -> the tracker posted here (the last few encounters). Kept after the database has it: a
        # command that read its encounter before that write (the next one typed at once) must not post another.
        self.posted: dict[int, int] = {}
        # tracker message id -> the embed it shows (as sent; the last few trackers): an edit that would show the
        # same is not sent. A tracker deleted meanwhile is posted again with the next change.
        self.drawn: dict[int, dict[str, Any]] = {}
        self.waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self.task: asyncio.Task[None] | None = None

    async def show(self, interaction: discord.Interaction[Any], encounter: EncounterView) -> None:
        if encounter.version <= self.shown.get(encounter.id, -1):
            return
        wanted = self.wanted.get(encounter.id)
        if wanted is None or encounter.version > wanted[1].version:
            self.wanted[encounter.id] = (interaction, encounter)
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.append((encounter.id, encounter.version, done))
        if self.task is None:
            self.task = asyncio.create_task(self._run(), name=f"tracker {self.channel_id}")
        await done

    async def _run(self) -> None:
        try:
            while self.wanted:
                interaction, encounter = self.wanted.pop(min(self.wanted))
                if encounter.version <= self.shown.get(encounter.id, -1):
                    # asked for while a newer state of it was being drawn (a GM's press answered before the
                    # attack it follows had its tracker edit): that newer state stands
                    self._release()
                    continue
                try:
                    await self._edit(interaction, encounter)
                except Exception:
                    log.exception("tracker update of encounter %s failed", encounter.id)
                self.shown[encounter.id] = max(self.shown.get(encounter.id, -1), encounter.version)
                for old in sorted(self.shown)[:-4]:
                    del self.shown[old]
                for old in sorted(self.posted)[:-4]:
                    del self.posted[old]
                for old in sorted(self.drawn)[:-4]:
                    del self.drawn[old]
                self._release()
        finally:
            self._release(everyone=True)
            self.task = None

    def _release(self, *, everyone: bool = False) -> None:
        keep = []
        for encounter_id, version, done in self.waiting:
            if everyone or version <= self.shown.get(encounter_id, -1):
                if not done.done():
                    done.set_result(None)
            else:
                keep.append((encounter_id, version, done))
        self.waiting = keep

    async def _edit(self, interaction: discord.Interaction[Any], encounter: EncounterView) -> None:
        """Edit the encounter's pinned tracker; post and pin a new one when there is none (or it was deleted).
        What the bot may not do in the channel is not tried, and is told to the user once."""
        embed = encounter_embeds.tracker(encounter.public)
        drawn: dict[str, Any] = dict(embed.to_dict())
        tracker_id = encounter.tracker_message_id or self.posted.get(encounter.id)
        if await threads.locked_to_bot(interaction, encounter.channel_id):  # the GM is told once; Discord is not asked
            return
        if tracker_id is not None and await self._edit_shown(interaction, encounter, tracker_id, embed, drawn):
            return
        if encounter.active:
            await self._post(interaction, encounter, embed, drawn)

    async def _edit_shown(self, interaction: discord.Interaction[Any], encounter: EncounterView, tracker_id: int,
                          embed: discord.Embed, drawn: dict[str, Any]) -> bool:
        """Edit the tracker message ``tracker_id`` (unpinned once the encounter ended); False when it is gone
        and a new one is to be posted."""
        if self.drawn.get(tracker_id) == drawn:
            return True  # it shows this already (a miss, a roll that changed nothing on it): no edit
        bot = bot_of(interaction)
        channel_id = encounter.channel_id
        if not await channel_access.allowed(interaction, channel_id, channel_access.EDITING):
            return True
        message = bot.get_partial_messageable(channel_id, guild_id=encounter.guild_id).get_partial_message(tracker_id)
        try:
            await threads.write(interaction, channel_id, lambda: _edit_embed(bot, channel_id, tracker_id, embed))
            self.drawn[tracker_id] = drawn
            if not encounter.active:
                await _unpin(interaction, message)
            return True
        except discord.NotFound:
            log.info("tracker %s of encounter %s is gone; posting a new one", message.id, encounter.id)
            return False
        except discord.HTTPException as exc:
            if not threads.closed(exc):  # a locked thread: the GM was told (bot/ui/threads.py)
                await channel_access.refused(interaction, channel_id, channel_access.EDITING, exc, "edit the tracker")
            return True

    async def _post(self, interaction: discord.Interaction[Any], encounter: EncounterView, embed: discord.Embed,
                    drawn: dict[str, Any]) -> None:
        """Post and pin a new tracker, and keep its message id with the encounter."""
        channel_id = encounter.channel_id
        channel = bot_of(interaction).get_partial_messageable(channel_id, guild_id=encounter.guild_id)
        needed = channel_access.posting(interaction, channel_id)
        if not await channel_access.allowed(interaction, channel_id, needed):
            return
        try:
            posted = await threads.write(interaction, channel_id, lambda: channel.send(
                embed=embed, allowed_mentions=discord.AllowedMentions.none()))
        except discord.HTTPException as exc:
            if not threads.closed(exc):
                await channel_access.refused(interaction, channel_id, needed, exc, "post the tracker")
            return
        self.posted[encounter.id] = posted.id
        self.drawn[posted.id] = drawn
        await _pin(interaction, channel_id, posted)
        await services_of(interaction).encounters.set_tracker_message(actor_of(interaction), posted.id,
                                                                      encounter.id)


async def _edit_embed(bot: discord.Client, channel_id: int, message_id: int, embed: discord.Embed) -> None:
    """``PartialMessage.edit(embed=embed)`` without its answer read into a Message: the same request (discord.py's own
    parameters, tests/e2e/test_e2e_payloads.py holds its bytes) and the same errors, and nothing built that nobody
    reads (a tracker edit's answer is the whole message: its author, member, embeds). discord.py's HTTPClient is
    not its documented API: tests/bot/test_publish_http.py fails when these two calls change."""
    with handle_message_parameters(embed=embed) as params:
        await bot.http.edit_message(channel_id, message_id, params=params)


# Per bot (a test process runs several in turn): channel id -> its tracker updates (kept: a few dozen bytes a
# channel, so that an answer that comes late never puts an older state back).
_trackers: weakref.WeakKeyDictionary[discord.Client, dict[int, _ChannelTracker]] = weakref.WeakKeyDictionary()


async def _pin(interaction: discord.Interaction[Any], channel_id: int, posted: discord.Message) -> None:
    if not await channel_access.allowed(interaction, channel_id, channel_access.PINNING):
        return
    try:
        await threads.write(interaction, channel_id, lambda: posted.pin(reason="Grievous encounter tracker"))
    except discord.HTTPException as exc:
        if not threads.closed(exc):
            await channel_access.refused(interaction, channel_id, channel_access.PINNING, exc, "pin the tracker")


async def _unpin(interaction: discord.Interaction[Any], message: discord.PartialMessage) -> None:
    if not await channel_access.allowed(interaction, message.channel.id, channel_access.PINNING):
        return
    try:
        await threads.write(interaction, message.channel.id, lambda: message.unpin(reason="Grievous encounter ended"))
    except discord.HTTPException as exc:
        if not threads.closed(exc):
            await channel_access.refused(interaction, message.channel.id, channel_access.PINNING, exc,
                                         "unpin the tracker")


async def trackers_settled(bot: discord.Client, within: float) -> None:
    """Wait, up to ``within`` seconds, for the tracker updates under way (they follow an answer): a bot that stops
    lets the trackers show what the table last did instead of cutting the edit off with its connection."""
    running = [u.task for u in _trackers.get(bot, {}).values() if u.task is not None]
    if running:
        await asyncio.wait(running, timeout=within)


def tracker_updates(bot: discord.Client) -> dict[int, _ChannelTracker]:
    """The bot's tracker updates by channel (``.task`` is set while one is under way): for tests."""
    return _trackers.setdefault(bot, {})
