"""/undo: take back the last event of an encounter, only what it changed, on the state as it is now.

The event's undo record (bot/services/undo_record.py) holds its ops per sheet and for the encounter
(bot/services/changes.py). All of them are inverted before anything is saved; one that no longer
holds refuses the whole undo with one line naming the later event that stands on it
(bot/services/undo_blocked.py). Events logged before these records kept whole snapshots: they are
put back only while no later event touched their characters.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repositories as repo
from bot.db.models import Character, Combatant, Encounter, Event, PendingDecision
from bot.errors import NotFound, UndoBlocked
from bot.services.actions import record_event, touch
from bot.services.actor import Actor
from bot.services.changes import Blocked, take_back, touches
from bot.services.event_kinds import UndoEvent
from bot.services.event_records import ActionEvent, read_event
from bot.services.results import EventView, event_view
from bot.services.runtime import Runtime
from bot.services.sheet_file import check_shape
from bot.services.snapshots import pending_view
from bot.services.undo_blocked import blocked_line
from bot.services.undo_record import LegacySnapshot, UndoRecord, characters_in, encounter_state, read_record
from rules.errors import RulesError


async def undo_last(rt: Runtime, session: AsyncSession, actor: Actor, encounter: Encounter) -> EventView:
    """Take back ``encounter``'s last event that stands, in the caller's transaction (the GM check is the
    caller's). Raises UndoBlocked, having changed nothing, when a later change stands on it."""
    event = await repo.last_undoable_event(session, encounter.id)
    if event is None or not event.before:
        raise NotFound("nothing to undo in this encounter")
    record = read_record(event.before)
    if isinstance(record, LegacySnapshot):
        await _restore_snapshot(rt, session, encounter, event, record)
    else:
        await _take_back(rt, session, encounter, event, record)
    await _delete_created(session, record.created)
    closed, reopened = await _reopen_decisions(session, event, record.open_decisions)
    event.undone = True
    touch(rt, encounter)
    record_event(rt, session, actor, "undo", UndoEvent(event.id, event.kind), None, encounter)
    await session.flush()
    return replace(event_view(event), closed=tuple(pending_view(row) for row in closed),
                   reopened=tuple(pending_view(row) for row in reopened),
                   message_id=event.message_id or rt.answers.posted_in(event.interaction_id))


async def _take_back(rt: Runtime, session: AsyncSession, encounter: Encounter, event: Event,
                     record: UndoRecord) -> None:
    """Every sheet and the encounter without the event's own changes; all computed before any is saved."""
    sheets: list[tuple[Character, dict[str, Any]]] = []
    for character_id, ops in record.sheets.items():
        row = await session.get(Character, character_id, with_for_update=True)
        if row is None:  # deleted since: nothing left to take back
            continue
        try:
            sheet = take_back(row.sheet, ops)
        except Blocked as blocked:
            raise await _blocked(session, event, row, blocked) from None
        sheets.append((row, await _valid(rt, session, row, sheet)))
    state = None
    if record.encounter:
        try:
            state = take_back(encounter_state(encounter), record.encounter)
        except Blocked:
            raise UndoBlocked("the encounter's turn order or declarations changed since this action, "
                              "outside the log: it cannot be undone") from None
    now = rt.clock()
    for row, sheet in sheets:
        row.sheet = sheet
        row.updated_at = now
    if state is not None:
        await _set_encounter(session, encounter, state)

async def _valid(rt: Runtime, session: AsyncSession, row: Character, sheet: dict[str, Any]) -> dict[str, Any]:
    """The sheet as the engine keeps it (derived totals recomputed); UndoBlocked if it is no sheet at all."""
    catalog = await rt.catalogs.catalog_for(session, row.guild_id, row.system)
    try:
        valid = rt.engine(row.system).validate_sheet(sheet, catalog)
        check_shape(valid, "sheet")
    except RulesError as exc:
        raise UndoBlocked(f"{row.name}'s sheet would not be valid without this action ({exc}): "
                          "it cannot be undone") from None
    return valid

async def _blocked(session: AsyncSession, event: Event, row: Character, blocked: Blocked) -> UndoBlocked:
    """The refusal, naming the latest later event that changed what ``blocked`` needs."""
    found = None
    for later in await repo.later_events(session, event.guild_id, event.id):
        record = read_record(later.before or {})
        if row.id not in record.sheets:
            continue
        if isinstance(record, LegacySnapshot) or any(touches(op, blocked.op) for op in record.sheets[row.id]):
            found = later
            break
    line, markup = blocked_line(row.name, blocked, row.sheet, found, event)
    return UndoBlocked(line, markup=markup)

async def _restore_snapshot(rt: Runtime, session: AsyncSession, encounter: Encounter, event: Event,
                            record: LegacySnapshot) -> None:
    """An event stored before undo records (whole sheets): put them back only if no later event touched them."""
    later = await repo.later_events(session, event.guild_id, event.id)
    for character_id in record.sheets:
        touching = [e for e in later if character_id in characters_in(e.before)]
        if touching:
            row = await session.get(Character, character_id)
            name = row.name if row is not None else "a character"
            raise UndoBlocked(f"event #{event.id} was logged before undo kept each action's own changes, and "
                              f"{name} changed later (event #{touching[0].id}): undoing it would lose that")
    now = rt.clock()
    for character_id, sheet in record.sheets.items():
        row = await session.get(Character, character_id, with_for_update=True)
        if row is not None:
            row.sheet = sheet
            row.updated_at = now
    if record.encounter:
        await _set_encounter(session, encounter, record.encounter)

async def _set_encounter(session: AsyncSession, encounter: Encounter, state: dict[str, Any]) -> None:
    """Round, turn, order and combatants as ``state`` has them (``undo_record.encounter_state``)."""
    encounter.round, encounter.turn, encounter.order = state["round"], state["turn"], list(state["order"])
    wanted = {int(k): v for k, v in state["combatants"].items()}
    for combatant in list(encounter.combatants):
        if combatant.character_id not in wanted:
            encounter.combatants.remove(combatant)
            await session.delete(combatant)
    present = {c.character_id: c for c in encounter.combatants}
    for character_id, fields in wanted.items():
        if character_id not in present:
            character = await session.get(Character, character_id)
            if character is None:
                continue
            present[character_id] = Combatant(character_id=character_id, character=character)
            encounter.combatants.append(present[character_id])
        combatant = present[character_id]
        combatant.initiative = fields.get("initiative")
        combatant.declaration = dict(fields.get("declaration") or {})
    await session.flush()

async def _delete_created(session: AsyncSession, created: tuple[int, ...]) -> None:
    """The NPCs the event created, unless another active encounter holds them."""
    for character_id in created:
        row = await session.get(Character, character_id)
        if row is not None and not await repo.active_encounters_of(session, row.id):
            await session.delete(row)

async def _reopen_decisions(session: AsyncSession, event: Event, moot: tuple[int, ...],
                            ) -> tuple[list[PendingDecision], list[PendingDecision]]:
    """The decisions back as they were before ``event``: those it asked for are cancelled, the one it
    decided and the rolls it made moot are open again. Returns (the cancelled ones that were still open,
    the reopened ones)."""
    closed = []
    for decision in await repo.decisions_of_event(session, event.id):
        if decision.choice is None and not decision.cancelled:
            closed.append(decision)
        decision.cancelled = True
    action = read_event(event.kind, event.payload)
    decided = action.decision_id if isinstance(action, ActionEvent) else None  # the decision it settled
    settled = ([decided] if decided is not None else []) + list(moot)
    reopened = []
    for decision_id in dict.fromkeys(settled):
        row = await repo.decision(session, decision_id, for_update=True)
        if row is not None:
            row.choice = None
            row.decided_by = None
            if not row.cancelled:
                reopened.append(row)
    await session.flush()
    return closed, reopened
