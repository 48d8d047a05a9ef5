"""The channel's event log (/log) and what /undo took back."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import discord

from bot.services.results import EventView
from bot.ui import limits
from bot.ui.decision_embeds import NO_LONGER_NEEDED, WAITING, _pending_lines, closed_line
from bot.ui.embed_common import _embed
from bot.ui.event_lines import what_happened
from bot.ui.outcomes import Severity


def _when(moment: datetime | None) -> str:
    return f"<t:{int(moment.timestamp())}:t>" if moment is not None else ""


def event_line(event: EventView) -> str:
    """The event's line in a log: its number, its time and what happened (bot/ui/event_lines.py words it)."""
    line = f"`#{event.id}` {_when(event.created_at)} {what_happened(event)}".replace("  ", " ")
    return f"~~{line}~~ (undone)" if event.undone else line


def log(events: Sequence[EventView]) -> discord.Embed:
    embed = _embed("\U0001f4dc Recent events here")
    if not events:
        embed.description = "Nothing has happened here yet."
        return limits.fit(embed)
    lines = [limits.clip(event_line(e), 400) for e in events]
    embed.description = limits.clip("\n".join(lines), limits.DESCRIPTION)
    return limits.fit(embed)


def undone(event: EventView) -> discord.Embed:
    """What /undo took back; the GM decisions it asked for are closed, and those it had settled wait again
    (their buttons come with this embed)."""
    embed = _embed("\u21a9\ufe0f Undone", f"Took back {event_line(event).removeprefix('~~')}", Severity.NONE.colour)
    embed.description = (embed.description or "").split("~~ (undone)")[0]
    if event.closed:
        embed.add_field(name=NO_LONGER_NEEDED, value="\n".join(closed_line(d, undone=True) for d in event.closed),
                        inline=False)
    if event.reopened:
        embed.add_field(name=WAITING, value=_pending_lines(event.reopened), inline=False)
    embed.set_footer(text="Only its own changes are taken back; later ones stay.")
    return limits.fit(embed)


TAKEN_BACK = "\u21a9\ufe0f Taken back"  # the start of an undone action's title: it did not happen


def _struck(line: str) -> str:
    """A line crossed out, its quote or list mark kept in front (``~~`` cannot cross them)."""
    body = line.strip()
    if not body or "~~" in body:
        return line
    lead = ""
    for mark in ("> ", "- ", "* "):
        if body.startswith(mark):
            lead, body = mark, body[len(mark):]
    return f"{lead}~~{body}~~"


def mark_taken_back(embed: discord.Embed) -> discord.Embed:
    """The embed of an action /undo took back: its title says so first (what a phone shows of it), its lines
    are crossed out, and it is greyed. A mark already there is not added twice."""
    if embed.title and embed.title.startswith(TAKEN_BACK):
        return embed
    embed.title = f"{TAKEN_BACK} by /undo: {embed.title}" if embed.title else f"{TAKEN_BACK} by /undo"
    if embed.description:
        embed.description = "\n".join(_struck(line) for line in embed.description.splitlines())
    embed.colour = Severity.NONE.colour
    return limits.fit(embed)


def taken_back_content(content: str) -> str:
    """A plain message's text, crossed out and marked taken back (a message without an embed)."""
    if content.startswith(TAKEN_BACK):
        return content
    lines = "\n".join(_struck(line) for line in content.splitlines())
    return limits.clip(f"{TAKEN_BACK} by /undo:\n{lines}", limits.CONTENT)
