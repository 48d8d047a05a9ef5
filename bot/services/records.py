"""Dice and records: free-form rolls, the channel's log, and /undo of the last encounter event."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import replace
from functools import partial

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repositories as repo
from bot.db.models import Event
from bot.errors import NotFound, PermissionDenied
from bot.services import access
from bot.services.access import viewer_in
from bot.services.actions import record_event
from bot.services.actor import Actor
from bot.services.dice_option import parse_dice
from bot.services.encounters import active_encounter
from bot.services.event_memo import MEMO
from bot.services.event_records import ActionEvent, EditEvent, EventRecord, Hidden, RollEvent, StoredRoll, read_event
from bot.services.projection import projected
from bot.services.results import EventView, RollView, event_view, view_around
from bot.services.runtime import Runtime
from bot.services.undo import undo_last
from bot.services.viewer import Seat, Viewer, table_of
from content import victory_chart
from content.input_guard import check_text
from rules.dice import DiceSource
from rules.dice_expr import MAX_LENGTH as EXPRESSION_CHARS
from rules.dice_expr import roll_expression

MAX_LOG = 50


class RecordService:
    def __init__(self, runtime: Runtime) -> None:
        self._rt = runtime

    async def roll(self, actor: Actor, expression: str, dice_text: str | None = None,
                   secret: bool = False) -> RollView:
        """A free-form roll (``3d6+2``, ``stress+5 vs 9``, ``d20 vs 14``, ``fs vs 12``), logged to the channel.

        ``dice_text`` gives the faces: ``1,1,4`` or ``roll=1,1,4``. A ``secret`` roll is logged as secret
        (only the GM reads its dice in /log); the view names the server's GM channel, where it is shown too.
        """
        expression = check_text(expression, "roll", EXPRESSION_CHARS)
        forced = parse_dice(dice_text, {"roll"}, default_label="roll")

        async def work(session: AsyncSession) -> RollView:
            dice = DiceSource(forced, rng=self._rt.rng())
            result = roll_expression(expression, dice, victory_chart())
            rolls = tuple(StoredRoll.of(r) for r in result.rolls)
            # the roll is logged in the channel's encounter: its id is all it needs (not its combatants' rows)
            encounter_id = await repo.active_encounter_id(session, actor.channel_id)
            logged = RollEvent(expression=expression, total=result.total, result=result.result,
                               rolls=rolls, secret=secret)
            event = record_event(self._rt, session, actor, "roll", logged, None, encounter_id)
            await session.flush()
            guild = await repo.guild_settings(session, actor.guild_id) if secret else None
            return RollView(expression=expression, total=result.total, result=result.result, rolls=rolls,
                            unused_dice=dice.unused(), event_id=event.id, modifier=result.modifier, secret=secret,
                            gm_channel_id=guild.gm_channel_id if guild is not None else None,
                            by_gm=secret and (await viewer_in(session, actor)).is_gm)

        return await self._rt.transact(actor.channel_id, work)

    async def log(self, actor: Actor, limit: int = 10) -> list[EventView]:
        """The channel's most recent rolls and events, newest first (at most 50), as the caller may read them."""
        limit = max(1, min(MAX_LOG, limit))

        async def work(session: AsyncSession) -> list[EventView]:
            return await logged(session, actor, await repo.recent_events(session, actor.channel_id, limit))

        return await self._rt.read(work)

    async def event(self, actor: Actor, event_id: int) -> EventView:
        """One logged action of this server, for its Details button, as the caller may read it."""

        if not 0 < event_id < 2**63:  # a forged custom id: no database takes it as a key
            raise NotFound(f"event #{event_id} has no details here")

        async def work(session: AsyncSession) -> EventView:
            row = await session.get(Event, event_id)
            if row is None or row.guild_id != actor.guild_id:
                raise NotFound(f"event #{event_id} has no details here")
            stored = event_view(row)
            if not stored.record.has_details:
                raise NotFound(f"event #{event_id} has no details here")
            viewer = await viewer_in(session, actor)
            npcs = await _npc_names(session, actor.guild_id, [stored], viewer.secret_rolls)
            seen = projected(_secrecy_by_who(stored, npcs), viewer)
            if isinstance(seen.record, ActionEvent) and isinstance(seen.record.rolls, Hidden):
                raise PermissionDenied("the GM keeps this NPC's rolls secret")
            return seen

        return await self._rt.read(work)

    async def undo(self, actor: Actor) -> EventView:
        """GM: take back the encounter's last event: only what it changed (bot/services/undo.py)."""

        async def work(session: AsyncSession) -> EventView:
            await access.require_gm(session, actor, "undo")
            undone = await undo_last(self._rt, session, actor, await active_encounter(session, actor))
            # its line is posted in the channel: as the table saw the action
            return projected(undone, table_of(await repo.guild_settings(session, actor.guild_id)))

        return await self._rt.transact(actor.channel_id, work)


async def logged(session: AsyncSession, actor: Actor, rows: Sequence[Event]) -> list[EventView]:
    """Stored events as ``actor`` reads them in a log (/log, the web page's log)."""
    viewer = await viewer_in(session, actor)
    # Each event's typed record, read once (the NPC lookup, the memo's key and the view all take it). Reading 200
    # records and projecting them is CPU work: worker threads do it, so the event loop keeps answering Discord.
    # The rows are loaded (no lazy load is left to the threads).
    seen = await asyncio.to_thread(_records, rows)
    npcs = await _npc_names(session, actor.guild_id, [view for _, _, view in seen], viewer.secret_rolls)
    # remembered by content (bot/services/event_memo.py): many readers read the same events
    return await asyncio.to_thread(_views, seen, viewer, npcs)


Read = tuple[Event, bytes | None, EventView]  # a row, its payload's digest (bot/services/event_memo.py), its view


def _records(rows: Sequence[Event]) -> list[Read]:
    """Each row as ``event_view`` reads it, its record kept by its payload's content (``MEMO.record``) rather than
    read from a deep copy: the rows are a read's, dropped after it, and no reader changes a record it is given."""
    out: list[Read] = []
    for row in rows:
        digest = MEMO.digest(row)
        record = MEMO.record(row, digest, partial(read_event, row.kind, row.payload))
        out.append((row, digest, view_around(row, record)))
    return out


def _views(seen: Sequence[Read], viewer: Viewer, npcs: frozenset[str]) -> list[EventView]:
    return [MEMO.view(row, viewer, _looked_up(stored.record, npcs), partial(_logged, stored, viewer, npcs), digest)
            for row, digest, stored in seen]


def _looked_up(record: EventRecord, npcs: frozenset[str]) -> tuple[bool, ...]:
    """What ``_logged`` looks up besides the row (the memo's key holds it): for an edit stored before edits said
    so, whether its sheet is an NPC's; for an action, whether its actor and its target are NPCs today."""
    if isinstance(record, EditEvent) and record.npc is None:
        return (record.character in npcs,)
    if isinstance(record, ActionEvent) and npcs:
        return record.actor in npcs, record.target in npcs
    return ()


def _logged(event: EventView, viewer: Viewer, npcs: frozenset[str]) -> EventView:
    """A log entry as ``viewer`` may read it. An action reads as its public message did (the log repeats the
    channel's line, the GM's included); an edit stored before it said whose sheet it was asks ``npcs``."""
    record = event.record
    if isinstance(record, EditEvent) and record.npc is None:
        event = replace(event, record=replace(record, npc=record.character in npcs))
    event = _secrecy_by_who(event, npcs)
    if isinstance(record, ActionEvent) and viewer.is_gm:
        viewer = Viewer(Seat.TABLE, viewer.secret_rolls)
    return projected(event, viewer)


def _secrecy_by_who(event: EventView, npcs: frozenset[str]) -> EventView:
    """An action's secrecy as today's table reads it (docs/commands.md, "What each viewer sees"): an NPC's own
    action is secret, a blow at an NPC by a player's character target-secret, whatever flags it was stored with
    (an event stored before them carries none; one stored with the screen down carries none set). The viewer's
    secret rolls, today's, then decide what is hidden, as for every event. ``npcs``: today's roster's NPCs among
    the names (none asked for with the screen down: nothing would be hidden)."""
    record = event.record
    if not isinstance(record, ActionEvent) or not npcs:
        return event
    secret = record.secret or record.actor in npcs
    target_secret = record.target_secret or (not secret and record.target in npcs)
    if secret == record.secret and target_secret == record.target_secret:
        return event
    return replace(event, record=replace(record, secret=secret, target_secret=target_secret))


async def _npc_names(session: AsyncSession, guild_id: int, events: Sequence[EventView],
                     secret_rolls: bool) -> frozenset[str]:
    """The NPCs (today's roster) among the characters the events name: an old edit's sheet (an edit now stores
    whether its sheet is an NPC's) and, under today's secret rolls, an action's actor and target."""
    named = _named(events, secret_rolls)
    if not named:
        return frozenset()
    return frozenset(await repo.npc_names(session, guild_id, named))


def _named(events: Sequence[EventView], secret_rolls: bool) -> set[str]:
    named: set[str] = set()
    for event in events:
        record = event.record
        if isinstance(record, EditEvent) and record.npc is None:
            named.add(record.character)
        elif isinstance(record, ActionEvent) and secret_rolls:
            named |= {name for name in (record.actor, record.target) if name}
    return named
