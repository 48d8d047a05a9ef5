"""A result posted late: an action that was stored but whose answer never reached its user (Discord's 3 s
passed, the answer was refused, or the bot restarted in between), shown in its channel as a normal message
so that nobody sends it again."""

from __future__ import annotations

import re
from datetime import datetime

import discord

from bot.services.event_records import ActionEvent, Hidden
from bot.services.results import EventView
from bot.text_safety import plain
from bot.ui import limits
from bot.ui.action_embeds import event_details
from bot.ui.embed_common import _embed
from bot.ui.record_embeds import event_line

LATE = "late: "


def _moment(moment: datetime | None) -> str:
    return f" at <t:{int(moment.timestamp())}:T>" if moment is not None else ""


def late_note(event: EventView) -> str:
    who = plain(event.user_name) or "its user"
    return (f"Done{_moment(event.created_at)}, but the answer to {who} never arrived. It happened once: "
            "do not send it again.")


_LATE_RESULT = f"\u23f0 {LATE}the result of event #"
_LATE_TITLE = re.compile(re.escape(_LATE_RESULT) + r"([0-9]{1,20})")


def _late_title(event_id: int) -> str:
    return f"{_LATE_RESULT}{event_id}"


def late_event_id(title: str | None) -> int | None:
    """The event a late post without a Details button shows (from its title; None for any other title)."""
    found = _LATE_TITLE.fullmatch(title or "")
    return int(found[1]) if found else None


def late(event: EventView) -> discord.Embed:
    """The event's result, marked late: an action's roll as the services projected it for the channel (an NPC's
    secret one has its dice hidden, and an event read as no action has no roll: their log line)."""
    record = event.record
    if isinstance(record, ActionEvent) and not isinstance(record.rolls, Hidden) and record.system:
        return late_details(event)
    line = event_line(event)
    return limits.fit(_embed(limits.clip(_late_title(event.id), limits.TITLE),
                             f"{late_note(event)}\n{line}"))


def late_details(event: EventView) -> discord.Embed:
    """An action's full roll, marked late: the channel's late post, or (the whole event) the GM's part of an
    NPC's secret action, for the GM channel as a live answer's is."""
    embed = event_details(event)
    title = (embed.title or "").removeprefix("\U0001f50e ")
    embed.title = limits.clip(f"\u23f0 {LATE}{title}", limits.TITLE)
    embed.description = limits.clip(f"{late_note(event)}\n{embed.description or ''}".strip(), limits.DESCRIPTION)
    return limits.fit(embed)
