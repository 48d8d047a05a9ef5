"""Dice and records: free-form rolls, the channel's log, and /undo of the last encounter event (only its own
changes: bot/services/changes.py)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repositories as repo
from bot.db.models import Character, Combatant, Encounter, Event, PendingDecision
from bot.errors import NotFound, UndoBlocked
from bot.services import access
from bot.services.actions import record_event, touch
from bot.services.actor import Actor
from bot.services.changes import Blocked, take_back, touches
from bot.services.dice_option import parse_dice
from bot.services.encounters import active_encounter
from bot.services.runtime import Runtime
from bot.services.sheet_file import check_shape
from bot.services.snapshots import decision_view, event_view
from bot.services.undo_record import LegacySnapshot, UndoRecord, characters_in, encounter_state, read_record
from bot.services.undo_wording import blocked_line
from bot.services.views import EventView, RollView
from content import victory_chart
from content.guard import check_text
from rules.dice import DiceSource
from rules.dice_expr import MAX_LENGTH as EXPRESSION_CHARS
from rules.dice_expr import roll_expression
from rules.errors import RulesError

MAX_LOG = 50


class RecordService:
    def __init__(self, runtime: Runtime) -> None:
        self._rt = runtime

    async def roll(self, actor: Actor, expression: str, dice_text: str | None = None) -> RollView:
        """A free-form roll (``3d6+2``, ``stress+5 vs 9``, ``d20 vs 14``, ``fs vs 12``), logged to the channel.

        ``dice_text`` gives the faces: ``1,1,4`` or ``roll=1,1,4``.
        """
        expression = check_text(expression, "roll", EXPRESSION_CHARS)
        forced = parse_dice(dice_text, {"roll"}, default_label="roll")

        async def work(session: AsyncSession) -> RollView:
            dice = DiceSource(forced, rng=self._rt.rng())
            result = roll_expression(expression, dice, victory_chart())
            rolls = [r.to_dict() for r in result.rolls]
            encounter = await repo.active_encounter(session, actor.channel_id)
            payload = {"expression": expression, "total": result.total, "result": result.result, "rolls": rolls}
            event = record_event(self._rt, session, actor, "roll", payload, None, encounter)
            await session.flush()
            return RollView(expression=expression, total=result.total, result=result.result, rolls=tuple(rolls),
                            unused_dice=dice.unused(), event_id=event.id, modifier=result.modifier)

        return await self._rt.transact(actor.channel_id, work)

    async def log(self, actor: Actor, limit: int = 10) -> list[EventView]:
        """The channel's most recent rolls and events, newest first (at most 50)."""
        limit = max(1, min(MAX_LOG, limit))

        async def work(session: AsyncSession) -> list[EventView]:
            return [event_view(e) for e in await repo.recent_events(session, actor.channel_id, limit)]

        return await self._rt.read(work)

    async def event(self, actor: Actor, event_id: int) -> EventView:
        """One logged action of this server, for its Details button."""

        if not 0 < event_id < 2**63:  # a forged custom id: no database takes it as a key
            raise NotFound(f"event #{event_id} has no details here")

        async def work(session: AsyncSession) -> EventView:
            row = await session.get(Event, event_id)
            if row is None or row.guild_id != actor.guild_id or "outcome" not in (row.payload or {}):
                raise NotFound(f"event #{event_id} has no details here")
            return event_view(row)

        return await self._rt.read(work)

    async def undo(self, actor: Actor) -> EventView:
        """GM: take back the encounter's last event: only what it changed, on the sheets and the encounter
        as they are now. Refused, changing nothing, when a later change stands on it (``UndoBlocked``)."""

        async def work(session: AsyncSession) -> EventView:
            await access.require_gm(session, actor, "undo")
            encounter = await active_encounter(session, actor)
            event = await repo.last_undoable_event(session, encounter.id)
            if event is None or not event.before:
                raise NotFound("nothing to undo in this encounter")
            record = read_record(event.before)
            if isinstance(record, LegacySnapshot):
                await self._restore_snapshot(session, encounter, event, record)
            else:
                await self._take_back(session, encounter, event, record)
            await self._delete_created(session, record.created)
            closed, reopened = await self._reopen_decisions(session, event, record.open_decisions)
            event.undone = True
            touch(self._rt, encounter)
            record_event(self._rt, session, actor, "undo", {"undone_event": event.id, "undone_kind": event.kind},
                         None, encounter)
            await session.flush()
            return replace(event_view(event), closed=tuple(decision_view(row) for row in closed),
                           reopened=tuple(decision_view(row) for row in reopened))

        return await self._rt.transact(actor.channel_id, work)

    async def _take_back(self, session: AsyncSession, encounter: Encounter, event: Event,
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
                raise await self._blocked(session, event, row, blocked) from None
            sheets.append((row, await self._valid(session, row, sheet)))
        state = None
        if record.encounter:
            try:
                state = take_back(encounter_state(encounter), record.encounter)
            except Blocked:
                raise UndoBlocked("the encounter's turn order or declarations changed since this action, "
                                  "outside the log: it cannot be undone") from None
        now = self._rt.clock()
        for row, sheet in sheets:
            row.sheet = sheet
            row.updated_at = now
        if state is not None:
            await self._set_encounter(session, encounter, state)

    async def _valid(self, session: AsyncSession, row: Character, sheet: dict[str, Any]) -> dict[str, Any]:
        """The sheet as the engine keeps it (derived totals recomputed); UndoBlocked if it is no sheet at all."""
        catalog = await self._rt.catalog_for(session, row.guild_id, row.system)
        try:
            valid = self._rt.engine(row.system).validate_sheet(sheet, catalog)
            check_shape(valid, "sheet")
        except RulesError as exc:
            raise UndoBlocked(f"{row.name}'s sheet would not be valid without this action ({exc}): "
                              "it cannot be undone") from None
        return valid

    async def _blocked(self, session: AsyncSession, event: Event, row: Character, blocked: Blocked) -> UndoBlocked:
        """The refusal, naming the latest later event that changed what ``blocked`` needs."""
        for later in await repo.later_events(session, event.guild_id, event.id):
            record = read_record(later.before or {})
            if row.id not in record.sheets:
                continue
            if isinstance(record, LegacySnapshot) or any(touches(op, blocked.op) for op in record.sheets[row.id]):
                return UndoBlocked(blocked_line(row.name, blocked, row.sheet, later, event))
        return UndoBlocked(blocked_line(row.name, blocked, row.sheet, None, event))

    async def _restore_snapshot(self, session: AsyncSession, encounter: Encounter, event: Event,
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
        now = self._rt.clock()
        for character_id, sheet in record.sheets.items():
            row = await session.get(Character, character_id, with_for_update=True)
            if row is not None:
                row.sheet = sheet
                row.updated_at = now
        if record.encounter:
            await self._set_encounter(session, encounter, record.encounter)

    async def _set_encounter(self, session: AsyncSession, encounter: Encounter, state: dict[str, Any]) -> None:
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

    async def _delete_created(self, session: AsyncSession, created: tuple[int, ...]) -> None:
        """The NPCs the event created, unless another active encounter holds them."""
        for character_id in created:
            row = await session.get(Character, character_id)
            if row is not None and not await repo.active_encounters_of(session, row.id):
                await session.delete(row)

    async def _reopen_decisions(self, session: AsyncSession, event: Event, moot: tuple[int, ...],
                                ) -> tuple[list[PendingDecision], list[PendingDecision]]:
        """The decisions back as they were before ``event``: those it asked for are cancelled, the one it
        decided and the rolls it made moot are open again. Returns (the cancelled ones that were still open,
        the reopened ones)."""
        closed = []
        for decision in await repo.decisions_of_event(session, event.id):
            if decision.choice is None and not decision.cancelled:
                closed.append(decision)
            decision.cancelled = True
        decided = event.payload.get("decision_id")
        settled = ([int(decided)] if decided is not None else []) + list(moot)
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
