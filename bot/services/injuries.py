"""Injuries across sessions: list wounds, treat them, and rest for days (each system's healing rules)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repositories as repo
from bot.errors import UserError
from bot.services import access
from bot.services.actions import ActionCall, clean_options, require_action, run_action
from bot.services.actor import Actor
from bot.services.characters import load_character
from bot.services.runtime import Runtime
from bot.services.snapshots import character_view
from bot.services.views import ActionReport, CharacterView

MAX_REST_DAYS = 365


class InjuryService:
    def __init__(self, runtime: Runtime) -> None:
        self._rt = runtime

    async def list(self, actor: Actor, character: str) -> CharacterView:
        """The character with its wounds (``view.wounds``: location, code, levels, bleeding, penalty)."""

        async def work(session: AsyncSession) -> CharacterView:
            return character_view(self._rt, await load_character(session, actor, character))

        return await self._rt.read(work)

    async def heal(self, actor: Actor, character: str, method: str, options: Mapping[str, Any] | None = None,
                   dice_text: str | None = None) -> ActionReport:
        """Treatment by the engine action ``method`` (heal, first_aid, chirurgery, ...). Owner or GM.

        Works outside encounters; inside one it is logged there and /undo can take it back.
        """
        return await self._treat(actor, character, method.strip().lower(), clean_options(options), dice_text)

    async def rest(self, actor: Actor, character: str, days: int, dice_text: str | None = None) -> ActionReport:
        """``days`` of rest: the engine's "rest" action runs the healing rolls. Owner or GM."""
        if not 1 <= days <= MAX_REST_DAYS:
            raise UserError(f"days is 1 to {MAX_REST_DAYS}")
        return await self._treat(actor, character, "rest", {"days": days}, dice_text)

    async def _treat(self, actor: Actor, name: str, action_type: str, options: dict[str, Any],
                     dice_text: str | None) -> ActionReport:
        async def work(session: AsyncSession) -> ActionReport:
            row = await load_character(session, actor, name, for_update=True)
            await access.require_control(session, actor, row, "treat them")
            require_action(self._rt.engine(row.system), action_type)
            encounter = await repo.active_encounter(session, actor.channel_id, for_update=True)
            call = ActionCall(action_type, {"type": action_type, **options}, row, None, dice_text)
            return await run_action(self._rt, session, actor, call, encounter)

        return await self._rt.transact(actor.channel_id, work)
