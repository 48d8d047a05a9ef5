"""Dice and records: free-form rolls, the channel's log, and /undo of the last encounter event."""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repositories as repo
from bot.db.models import Event
from bot.errors import NotFound, PermissionDenied
from bot.services import access
from bot.services.actions import record_event
from bot.services.actor import Actor
from bot.services.dice_option import parse_dice
from bot.services.encounters import active_encounter
from bot.services.results import EventView, RollView, event_view
from bot.services.runtime import Runtime
from bot.services.undo import undo_last
from content import victory_chart
from content.guard import check_text
from rules.dice import DiceSource
from rules.dice_expr import MAX_LENGTH as EXPRESSION_CHARS
from rules.dice_expr import roll_expression
from rules.registry import read_outcome

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
            rolls = [r.to_dict() for r in result.rolls]
            # the roll is logged in the channel's encounter: its id is all it needs (not its combatants' rows)
            encounter_id = await repo.active_encounter_id(session, actor.channel_id)
            payload = {"expression": expression, "total": result.total, "result": result.result, "rolls": rolls}
            if secret:
                payload["secret"] = True
            event = record_event(self._rt, session, actor, "roll", payload, None, encounter_id)
            await session.flush()
            guild = await repo.guild_settings(session, actor.guild_id) if secret else None
            return RollView(expression=expression, total=result.total, result=result.result, rolls=tuple(rolls),
                            unused_dice=dice.unused(), event_id=event.id, modifier=result.modifier, secret=secret,
                            gm_channel_id=guild.gm_channel_id if guild is not None else None)

        return await self._rt.transact(actor.channel_id, work)

    async def log(self, actor: Actor, limit: int = 10) -> list[EventView]:
        """The channel's most recent rolls and events, newest first (at most 50)."""
        limit = max(1, min(MAX_LOG, limit))

        async def work(session: AsyncSession) -> list[EventView]:
            events = [event_view(e) for e in await repo.recent_events(session, actor.channel_id, limit)]
            if any(_secret_roll(e) for e in events):
                return players_log(events, await access.is_gm(session, actor))
            return events

        return await self._rt.read(work)

    async def event(self, actor: Actor, event_id: int) -> EventView:
        """One logged action of this server, for its Details button."""

        if not 0 < event_id < 2**63:  # a forged custom id: no database takes it as a key
            raise NotFound(f"event #{event_id} has no details here")

        async def work(session: AsyncSession) -> EventView:
            row = await session.get(Event, event_id)
            if row is None or row.guild_id != actor.guild_id or "outcome" not in (row.payload or {}):
                raise NotFound(f"event #{event_id} has no details here")
            if row.payload.get("secret") and not await access.is_gm(session, actor):
                raise PermissionDenied("the GM keeps this NPC's rolls secret")
            if row.payload.get("target_secret") and not await access.is_gm(session, actor):
                return _hiding_target(event_view(row))
            return event_view(row)

        return await self._rt.read(work)

    async def undo(self, actor: Actor) -> EventView:
        """GM: take back the encounter's last event: only what it changed (bot/services/undo.py)."""

        async def work(session: AsyncSession) -> EventView:
            await access.require_gm(session, actor, "undo")
            return await undo_last(self._rt, session, actor, await active_encounter(session, actor))

        return await self._rt.transact(actor.channel_id, work)


def _secret_roll(event: EventView) -> bool:
    return bool(event.summary.get("secret")) and "expression" in event.summary


def players_log(events: list[EventView], gm: bool) -> list[EventView]:
    """The log as ``gm`` or a player reads it: a secret /roll says that it happened, not what it showed."""
    return events if gm else [replace(e, summary={"secret": True}) if _secret_roll(e) else e for e in events]


def _hiding_target(event: EventView) -> EventView:
    """An action on an NPC whose rolls are secret, as a player may look behind it: the actor's own dice and
    totals, and what the NPC's rolls did without their numbers."""
    summary = event.summary
    outcome = read_outcome(str(summary.get("system") or ""), summary.get("outcome")).hiding_target()
    labels = outcome.target_roll_labels
    rolls = [r for r in summary.get("rolls") or []
             if not (isinstance(r, dict) and str(r.get("label", "")).split(".")[0] in labels)]
    return replace(event, summary={**summary, "outcome": outcome.to_dict(), "rolls": rolls})
