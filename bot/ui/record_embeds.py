"""The channel's event log (/log) and what /undo took back."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import discord

from bot.services.results import EventView
from bot.text_safety import plain
from bot.ui import limits
from bot.ui.action_embeds import ACTION_TITLES, action_heading
from bot.ui.character_embeds import condition_text, treatment_label
from bot.ui.decision_embeds import NO_LONGER_NEEDED, WAITING, _pending_lines, closed_line
from bot.ui.embed_common import _embed
from bot.ui.outcomes import Severity, describe

# What the other events of the log say (actions of the engines use ACTION_TITLES and their outcome).
EVENT_TITLES = {
    "start": "starts an encounter",
    "end": "ends the encounter",
    "next_turn": "ends the turn",
    "initiative": "sets the turn order",
    "order": "changes the turn order",
    "delay": "delays a turn",
    "declare": "declares an attack",
    "undo": "takes back an action",
}


def _when(moment: datetime | None) -> str:
    return f"<t:{int(moment.timestamp())}:t>" if moment is not None else ""


def event_line(event: EventView) -> str:
    summary: Mapping[str, Any] = event.summary or {}
    what = summary.get("text") or summary.get("headline")
    if what:
        what = plain(what)
    else:
        actor = plain(summary.get("actor_name") or summary.get("actor") or event.user_name)
        target = summary.get("target_name") or summary.get("target")
        kind = summary.get("action") or event.kind
        if isinstance(kind, Mapping):
            kind = kind.get("type") or event.kind
        names = summary.get("names")
        if summary.get("secret") and not ({"expression", "outcome", "action"} & summary.keys()):
            # a secret /roll as the players' log holds it (records.log kept only that it happened); an action under
            # secret rolls reads as its public message did: what happened, never the hidden dice (no totals here)
            what = f"{actor} rolled in secret"
        elif summary.get("expression") is not None:
            what = f"{actor} rolled {plain(summary['expression'])} = {plain(summary.get('total', '?'))}"
        elif event.kind in ("join", "add_npcs", "leave") and isinstance(names, list):
            who = ", ".join(plain(n) for n in names)
            what = f"{actor}: {who} {'left' if event.kind == 'leave' else 'joined'} the encounter"
        elif event.kind == "treatment_offer":  # a healer's offer, waiting for the patient's side to accept
            method = str(summary.get("method") or "treatment")
            how = treatment_label(str(summary["system"]), method) if summary.get("system") else method.replace("_", " ")
            what = (f"{actor}: {plain(summary.get('healer', '?'))} offers {plain(summary.get('patient', '?'))} "
                    f"{how.lower()}")
        elif event.kind == "edit":
            what = f"{actor} edits {plain(summary.get('character', '?'))}: {edit_change(summary)}"
        elif event.kind in EVENT_TITLES:
            what = f"{actor} {EVENT_TITLES[event.kind]}"
            if event.kind == "next_turn" and summary.get("ended"):
                # whose turn it was, in the round it was in (the round the turn moved to can be the next one)
                what = f"{actor} ends {plain(summary['ended'])}'s turn (round {summary.get('ended_round', '?')})"
            elif event.kind == "next_turn" and summary.get("round") is not None:
                what += f" (round {summary['round']})"
        else:
            what = action_heading(event.kind if event.kind in ACTION_TITLES else str(kind), actor,
                                  plain(target) if target else None)
            outcome = summary.get("outcome")
            if isinstance(outcome, Mapping) and summary.get("system"):
                other = plain(target) if target else actor
                system = str(summary["system"])
                # the services projected it: it reads as its public message did
                headline = describe(system, outcome, (actor, other)).headline
                if event.kind == "gm_decide":
                    what = f"The GM decides: {headline}"
                elif headline.startswith((f"**{actor}**", f"{actor} ")):
                    what = headline
                else:
                    what += f": {headline}"
    line = f"`#{event.id}` {_when(event.created_at)} {what}".replace("  ", " ")
    return f"~~{line}~~ (undone)" if event.undone else line


def edit_change(summary: Mapping[str, Any]) -> str:
    """An owner's edit in a few words: ``abilities.Sword = 6``, ``+ weapon Sword``, ``sheet from bjorn.yaml``; an
    NPC's change the projection hid from the reader (bot/services/projection.py): that it changed."""
    if any(isinstance(summary.get(key), Mapping) for key in ("stat", "added", "removed", "imported")):
        return "a change the GM keeps secret"
    if "stat" in summary:
        return f"{plain(summary['stat'])} = {plain(summary.get('value'))}"
    if "added" in summary:
        return f"+ {plain(summary.get('kind', 'item'))} {plain(summary['added'])}"
    if "removed" in summary:
        return f"\u2212 {plain(summary.get('kind', 'item'))} {plain(summary['removed'])}"
    if "condition" in summary:
        # the words first, then made plain: plain's escape of ``_`` read 'now out\\ of\\ fight' in /log (issue 34, N6)
        return f"{'now' if summary.get('set') else 'no longer'} {condition_text(summary['condition'])}"
    return f"sheet from {plain(summary.get('imported', 'a file'))}"


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
