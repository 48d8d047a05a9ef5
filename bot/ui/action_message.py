"""An action's message: its embed, its buttons and what pressing them does.

`publish_report` posts an action's result with the GM decisions it leaves open: the buttons and the value
forms (which survive a restart), what a press or a submit does, and taking those buttons off again once a
decision is settled. Which buttons a message carries is the database's record (bot/services/decision_messages.py),
so a press after a restart does what it did before it."""

from __future__ import annotations

import asyncio
import copy
import logging
import re
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

import discord

from bot.errors import NotGM
from bot.interactions import actor_of, bot_of, services_of
from bot.services.decision_messages import MessageButtons
from bot.services.results import ActionReport, EventView, PendingDecisionView
from bot.tree import report_error, send_line
from bot.ui import (
    action_embeds,
    channel_access,
    decision_embeds,
    event_lines,
    forms,
    pictures,
    record_embeds,
    replies,
    threads,
)
from bot.ui.decision_embeds import copied_embed
from bot.ui.publish import defer_budget, refresh_tracker, reply, slow, to_gm_channel
from bot.ui.stored_id import StoredId
from content.input_guard import bounded_id

log = logging.getLogger(__name__)
T = TypeVar("T")

GM_PREFIX = "grv:gm:"
# Ids of any length match, so a forged or corrupted one gets a line (not silence); bounded_id refuses
# what no stored id can be (past 64 bits) before it reaches the database.
GM_TEMPLATE = GM_PREFIX + r"(?P<id>[0-9]{1,40}):(?P<choice>[A-Za-z0-9_.\-]{1,60})"
_CHOICE = re.compile(r"[A-Za-z0-9_.\-]{1,60}")
MAX_BUTTONS = 25
DETAILS_PREFIX = "grv:details:"
DETAILS_TEMPLATE = DETAILS_PREFIX + r"(?P<id>[0-9]{1,40})"


class GMDecisionButton(StoredId, discord.ui.DynamicItem[discord.ui.Button[Any]], template=GM_TEMPLATE):
    """One choice of one pending GM decision; the decision's id and the choice live in the custom_id.

    Registered with ``bot.add_dynamic_items`` so a press is handled even after a restart; the
    service refuses a decision that was already taken, so a second press is a clear line.
    """

    def __init__(self, decision_id: int, choice: str, label: str | None = None) -> None:
        danger = choice.lower() in {"death", "dead", "die", "dies", "kill", "killed", "fail", "failed"}
        super().__init__(
            discord.ui.Button(
                label=label or decision_embeds.decision_label(choice),
                style=discord.ButtonStyle.danger if danger else discord.ButtonStyle.secondary,
                custom_id=f"{GM_PREFIX}{decision_id}:{choice}",
            )
        )
        self.decision_id = decision_id
        self.choice = choice

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GMDecisionButton:
        decision_id = bounded_id(match["id"])
        return cls(decision_id or 0, match["choice"], label=getattr(item, "label", None)).with_id(decision_id)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return not await self.refused_stale(interaction)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            if self.choice in VALUE_PROMPTS:
                await open_value_form(interaction, self.decision_id, self.choice)
                return
            await apply_choice(interaction, self.decision_id, self.choice, None)
        except Exception as exc:
            await refused(interaction, exc)


async def refused(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """A GM button's or form's failure in one line: the services' NotGM (the presser is no GM, as ``viewer_of``
    seated them in the command's transaction) worded as a button's; anything else as the tree words it."""
    if isinstance(error, NotGM):
        await send_line(interaction, replies.error_line(replies.NOT_GM))
    else:
        await report_error(interaction, error)


async def open_value_form(interaction: discord.Interaction[Any], decision_id: int, choice: str) -> None:
    """The form of a choice that takes a value, opened for the GM. A modal must be the first response, so this
    press cannot be deferred: the services' GM check gets the defer budget (from the press), and past it (a slow
    database) the form opens unchecked; its submit is checked as any press is (``decide``)."""
    check = asyncio.ensure_future(services_of(interaction).combat.check_gm(actor_of(interaction)))
    done, _ = await asyncio.wait({check}, timeout=defer_budget(interaction))
    if done:
        check.result()  # NotGM: the presser is told, and no form opens
    else:
        check.add_done_callback(_observed)
    await interaction.response.send_modal(value_form(decision_id, choice))


def _observed(task: asyncio.Future[None]) -> None:
    """A check nobody waits for any more: its failure is logged, not left unretrieved."""
    if not task.cancelled() and task.exception() is not None:
        log.info("a GM check left behind failed: %r", task.exception())


# Choices the GM completes with a value typed in a form: the choice -> (the field's label, its placeholder).
VALUE_PROMPTS = {
    "dice": ("Faces rolled at the table", "e.g. 7, or shock=7 (labels as in the dice option)"),
    "damage": ("Damage (a whole number)", "e.g. 3"),
}
GM_VALUE_PREFIX = "grv:gmv:"
# The form of a choice that takes a value: the decision and the choice live in its custom_id (as in the
# button's), so a submit reaching a bot that restarted since the form opened is still taken (bot.ui.forms).
GM_VALUE_TEMPLATE = GM_VALUE_PREFIX + r"(?P<id>[0-9]{1,40}):(?P<choice>[A-Za-z0-9_.\-]{1,60})"
VALUE_INPUT = "value"


def value_form(decision_id: int, choice: str) -> discord.ui.Modal:
    """What the GM types with a choice: the faces of a roll made at the table, or an amount of damage."""
    label, placeholder = VALUE_PROMPTS[choice]
    form = discord.ui.Modal(title=decision_embeds.decision_label(choice).rstrip("\u2026"), timeout=None,
                            custom_id=f"{GM_VALUE_PREFIX}{decision_id}:{choice}")
    # A Label holds the input: a text input in an action row, and its own label, are deprecated in modals
    # (components/reference.mdx "Text Input", "Label").
    form.add_item(discord.ui.Label(text=label, component=discord.ui.TextInput(
        placeholder=placeholder, max_length=200, custom_id=VALUE_INPUT)))
    return forms.unstored(form)


async def value_submitted(interaction: discord.Interaction[Any], match: re.Match[str]) -> None:
    """The GM's value form submitted (by this process's form or an earlier one's): the choice applied to the
    message whose button opened the form, checked by ``decide`` as a press is (a submit can be forged, or the GM
    role taken away since the form opened)."""
    decision_id = bounded_id(match["id"])
    # A form the bot sent always comes from the button on a decision's message; one without a message was
    # made by hand (and a deferred update of it would be refused), so it gets the line every forged id gets.
    if decision_id is None or match["choice"] not in VALUE_PROMPTS or interaction.message is None:
        await send_line(interaction, replies.error_line(replies.STALE_FORM))
        return
    value = forms.text_values(interaction.data).get(VALUE_INPUT, "")
    try:
        await apply_choice(interaction, decision_id, match["choice"], value)
    except Exception as exc:
        await refused(interaction, exc)


async def apply_choice(interaction: discord.Interaction[Any], decision_id: int, choice: str,
                       value: str | None) -> None:
    """The GM's choice on the message pressed (whose button opened the form, for a submit): decided, with what
    that message carries now (``press``: the database's record, read in the same transaction); the press is
    answered by the edit of that message (those buttons, its embed marked decided), then the result is posted
    (with the buttons of any decision it leads to), and the buttons of rolls it made moot leave the other
    messages they are on. A quick decision answers the press with that edit (one call); one past the defer
    budget (from the press) is deferred first, as a deferred update, and edits after."""
    message = interaction.message
    pressed = await _in_time(interaction, services_of(interaction).combat.press(
        actor_of(interaction), decision_id, choice, value, message.id if message is not None else None))
    report = pressed.report
    if message is not None:
        embed = copied_embed(message) if message.embeds else None
        # A message the database does not place yet keeps its buttons (``CombatService.press`` says why).
        edits: dict[str, Any] = {"view": view_of(pressed.left)} if pressed.left is not None else {}
        if embed is not None and report.decided is not None:
            edits["embed"] = embed = decision_embeds.mark_decided(embed, report.decided, report.moot)
        if edits and interaction.response.is_done():
            await interaction.edit_original_response(**edits)
        elif edits:  # the answer to the press is the edit of its message (UPDATE_MESSAGE)
            await interaction.response.edit_message(**edits)
        _remember(bot_of(interaction), message.id, embed, pressed.left)
    await _answered(interaction)
    await publish_report(interaction, report, edited=message.id if message is not None else None)


async def _in_time(interaction: discord.Interaction[Any], work: Awaitable[T]) -> T:
    """Await ``work``; past the defer budget (from the press) the press is deferred meanwhile (a deferred update:
    the message keeps its look until the result edits it), so it is answered within Discord's 3 seconds."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=defer_budget(interaction))
    if not done:
        await _answered(interaction)
    return await task


async def _answered(interaction: discord.Interaction[Any]) -> bool:
    """The press answered (deferred, when nothing answered it yet) before any other call: always True."""
    if not interaction.response.is_done():
        await interaction.response.defer()
    return True


class DetailsButton(StoredId, discord.ui.DynamicItem[discord.ui.Button[Any]], template=DETAILS_TEMPLATE):
    """Under an action's short public embed: every die and modifier of it, shown only to whoever presses.

    The event id lives in the custom_id, so the button works after a restart, and on any old message.
    """

    def __init__(self, event_id: int) -> None:
        super().__init__(discord.ui.Button(label=replies.DETAILS_LABEL, style=discord.ButtonStyle.secondary,
                                           custom_id=f"{DETAILS_PREFIX}{event_id}"))
        self.event_id = event_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> DetailsButton:
        event_id = bounded_id(match["id"])
        return cls(event_id or 0).with_id(event_id)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if await self.refused_stale(interaction):
            return
        try:
            event = await slow(interaction, services_of(interaction).records.event(actor_of(interaction),
                                                                                   self.event_id), ephemeral=True)
            await reply(interaction, embed=event_lines.details_of(event), ephemeral=True)
        except Exception as exc:
            await report_error(interaction, exc)


def action_view(event_id: int | None, pending: Sequence[PendingDecisionView]) -> discord.ui.View | None:
    """The buttons under an action: the GM's buttons for every open decision, then Details (one View built)."""
    view = discord.ui.View(timeout=None)
    _add_decision_buttons(view, pending, room=MAX_BUTTONS - 1)
    if event_id is not None:
        view.add_item(DetailsButton(event_id))
    return view if view.children else None


def decision_buttons(pending: Sequence[PendingDecisionView], room: int = MAX_BUTTONS) -> discord.ui.View | None:
    """GM buttons for every open decision (None when there is nothing to decide); at most ``room``."""
    view = discord.ui.View(timeout=None)
    _add_decision_buttons(view, pending, room)
    return view if view.children else None


def _add_decision_buttons(view: discord.ui.View, pending: Sequence[PendingDecisionView], room: int) -> None:
    for decision in pending:
        if decision.choice is not None:
            continue
        for choice in decision.options:
            if len(view.children) >= room:
                log.warning("more than %d GM choices; the rest are left out", room)
                return
            if not _CHOICE.fullmatch(choice):
                log.warning("GM choice %r cannot go into a custom_id; left out", choice)
                continue
            label = decision_embeds.decision_button_label(decision, choice)
            view.add_item(GMDecisionButton(decision.id, choice, label))


def view_of(buttons: MessageButtons) -> discord.ui.View:
    """The buttons a message carries, as the database records them (an empty view takes them all off)."""
    return action_view(buttons.details, buttons.decisions) or discord.ui.View(timeout=None)


# What the bot last put in the embed of a message that still carries GM buttons, per bot, the newest last: taking
# settled buttons off such a message is then one edit, not a read of it and an edit. Only Discord's text is kept
# here (which buttons a message carries is the database's: ``CombatService.buttons_on``); a message not here
# (posted before a restart, by another process, or long ago) is read from Discord.
EMBEDS_KEPT = 500  # a few hundred bytes to 2 KB each
_embeds: weakref.WeakKeyDictionary[discord.Client, OrderedDict[int, dict[str, Any] | None]] = \
    weakref.WeakKeyDictionary()


def _remember(bot: discord.Client, message_id: int, embed: discord.Embed | None,
              buttons: MessageButtons | None) -> None:
    """``message_id`` now shows ``embed`` (kept while GM buttons are left on it, or may be: ``buttons`` None;
    nothing more to take off else)."""
    kept = _embeds.setdefault(bot, OrderedDict())
    kept.pop(message_id, None)
    if buttons is None or buttons.decisions:
        kept[message_id] = dict(embed.to_dict()) if embed is not None else None
        while len(kept) > EMBEDS_KEPT:
            kept.popitem(last=False)


async def _embed_now(bot: discord.Client, channel: discord.PartialMessageable,
                     message_id: int) -> discord.Embed | None:
    """The embed ``message_id`` shows (None: none), from what the bot last put there, else read from Discord."""
    kept = _embeds.get(bot, OrderedDict())
    if message_id in kept:
        shown = kept.pop(message_id)  # put back by ``_remember`` once edited
        return discord.Embed.from_dict(copy.deepcopy(shown)) if shown is not None else None
    message = await channel.get_partial_message(message_id).fetch()
    return copied_embed(message) if message.embeds else None


def embeds_kept(bot: discord.Client) -> dict[int, dict[str, Any] | None]:
    """The embeds of messages with GM buttons this bot keeps: for tests."""
    return dict(_embeds.get(bot, {}))


async def publish_report(interaction: discord.Interaction[Any], report: ActionReport, *,
                         edited: int | None = None) -> None:
    """The action's embed (with GM buttons when a decision waits), the buttons of decisions it settled taken
    off older messages (all but ``edited``, which the caller already changed), then the tracker brought up
    to date."""
    embed = action_embeds.action(report)
    # An attack that wounded (or met armour that held) shows the target's body, the new wound marked.
    thumbnail = pictures.attack_thumbnail(embed, report.target_picture)
    await post_decisions(interaction, report.pending, embed=embed, event_id=report.event_id, file=thumbnail)
    if report.secret and report.hides:  # the NPC's dice and figures: to the GM channel, or to the GM
        details = action_embeds.report_details(report)
        if report.gm_channel_id is not None:
            await to_gm_channel(interaction, report.gm_channel_id, details, by_gm=report.by_gm)
        else:
            await interaction.followup.send(embed=details, ephemeral=True)
    await close_settled(interaction, decided=report.decided, moot=report.moot, skip=edited)
    if report.encounter is not None:
        await refresh_tracker(interaction, report.encounter)


async def post_decisions(interaction: discord.Interaction[Any], pending: Sequence[PendingDecisionView], *,
                         embed: discord.Embed, event_id: int | None = None, file: discord.File | None = None) -> None:
    """Post ``embed`` (and the ``file`` it shows) with the buttons of the ``pending`` decisions (and Details, for
    an action's ``event_id``), and remember the message the decisions are on."""
    view = action_view(event_id, pending)
    message_id = await reply(interaction, embed=embed, view=view, file=file)
    if view is not None and message_id is not None:
        on_message = {item.decision_id for item in view.children if isinstance(item, GMDecisionButton)}
        _remember(bot_of(interaction), message_id, embed,
                  MessageButtons(tuple(d for d in pending if d.id in on_message), event_id))
        await services_of(interaction).combat.set_decision_message(actor_of(interaction), on_message, message_id)


async def close_settled(interaction: discord.Interaction[Any], *, decided: PendingDecisionView | None = None,
                        moot: Sequence[PendingDecisionView] = (), undone: Sequence[PendingDecisionView] = (),
                        skip: int | None = None) -> None:
    """Take the buttons of decisions settled some other way than by them (``decided`` by /pending-roll, made
    ``moot`` by a later action, ``undone`` with the action that asked for them) off the messages they are on,
    saying so there: each is left with the buttons the database says it still carries. A message that is gone
    (or ``skip``) is left alone."""
    on: dict[int, dict[int, list[PendingDecisionView]]] = {}  # channel -> message -> its settled decisions
    for decision in (decided, *moot, *undone):
        if decision is not None and decision.message_id is not None and decision.message_id != skip:
            on.setdefault(decision.channel_id, {}).setdefault(decision.message_id, []).append(decision)
    for channel_id, messages in on.items():
        if not await channel_access.allowed(interaction, channel_id, channel_access.REWRITING):
            continue
        left = await services_of(interaction).combat.buttons_on(actor_of(interaction), channel_id, list(messages))
        for message_id, here in messages.items():
            settled = Settled(decided if decided in here else None, [d for d in moot if d in here],
                              [d for d in undone if d in here])
            await _close_on(interaction, channel_id, message_id, settled, left.get(message_id, MessageButtons()))


@dataclass(frozen=True)
class Settled:
    """The decisions on one message settled some other way: how its embed says so."""

    decided: PendingDecisionView | None
    moot: list[PendingDecisionView]
    undone: list[PendingDecisionView]

    def marked(self, embed: discord.Embed) -> discord.Embed:
        if self.decided is not None:
            embed = decision_embeds.mark_decided(embed, self.decided, self.moot)
        elif self.moot:
            embed = decision_embeds.mark_closed(embed, self.moot)
        return decision_embeds.mark_closed(embed, self.undone, undone=True) if self.undone else embed


async def _close_on(interaction: discord.Interaction[Any], channel_id: int, message_id: int, settled: Settled,
                    left: MessageButtons) -> None:
    """One message's settled buttons taken off: ``left`` on it, its embed marked."""
    bot = bot_of(interaction)
    channel = bot.get_partial_messageable(channel_id, guild_id=interaction.guild_id)
    try:
        embed = await _embed_now(bot, channel, message_id)
        edits: dict[str, Any] = {"view": view_of(left)}
        if embed is not None:
            edits["embed"] = embed = settled.marked(embed)
        await threads.write(interaction, channel_id, partial(channel.get_partial_message(message_id).edit, **edits))
        _remember(bot, message_id, embed, left)
    except discord.NotFound:
        log.info("message %s with GM buttons is gone; nothing to take off", message_id)
    except discord.HTTPException as exc:
        if not threads.closed(exc):
            await channel_access.refused(interaction, channel_id, channel_access.FETCHING, exc,
                                         "take settled GM buttons off a message")


async def mark_taken_back(interaction: discord.Interaction[Any], event: EventView) -> None:
    """The message that showed the event /undo took back, marked so (a phone scrolling up reads no blow that
    never happened), left with the buttons the database says it carries (the GM's of the decisions it had asked
    for are closed now; its Details stays). A message not known (posted before events kept it), gone, or that
    the bot may not edit is left as it is."""
    if event.message_id is None:
        return
    channel_id, message_id = event.channel_id, event.message_id
    if not await channel_access.allowed(interaction, channel_id, channel_access.REWRITING):
        return
    bot = bot_of(interaction)
    channel = bot.get_partial_messageable(channel_id, guild_id=interaction.guild_id)
    here = [decision for decision in event.closed if decision.message_id == message_id]
    left = (await services_of(interaction).combat.buttons_on(actor_of(interaction), channel_id, [message_id])).get(
        message_id, MessageButtons(details=event.id if event.record.has_details else None))
    _embeds.get(bot, OrderedDict()).pop(message_id, None)  # read below, as it is now
    try:
        message = await channel.get_partial_message(message_id).fetch()
        edits: dict[str, Any] = {"view": view_of(left)}
        if message.embeds:
            embed = copied_embed(message)
            if here:
                embed = decision_embeds.mark_closed(embed, here, undone=True)
            edits["embed"] = record_embeds.mark_taken_back(embed)
        elif message.content:
            edits["content"] = record_embeds.taken_back_content(message.content)
        await threads.write(interaction, channel_id, lambda: message.edit(**edits))
    except discord.NotFound:
        log.info("message %s of undone event %s is gone; nothing to mark", message_id, event.id)
    except discord.HTTPException as exc:
        if not threads.closed(exc):
            await channel_access.refused(interaction, channel_id, channel_access.FETCHING, exc,
                                         "mark an undone action's message")
