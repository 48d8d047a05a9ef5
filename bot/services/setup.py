"""/setup: the server's system (overridable per channel), GM role, rolls mode and rulings."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repositories as repo
from bot.db.models import ChannelSettings
from bot.errors import UserError
from bot.services import access
from bot.services.access import viewer_in
from bot.services.actor import Actor
from bot.services.results import RollsMode, SetupView, TurnsMode
from bot.services.rulings import (
    DEFAULT_SYSTEM,
    ROLLS_MODES,
    ROLLS_RULING,
    TURNS_MODES,
    channel_system,
    effective_rulings,
    find_ruling,
    parse_ruling,
    stored_rulings,
    turns_mode,
)
from bot.services.runtime import Runtime
from bot.services.viewer import Viewer
from rules.errors import RulesError
from rules.model import Ruling
from rules.registry import available_ids


class SetupService:
    """A server's /setup (system, GM role, rolls, turns, secret rolls, rulings); every change is for server
    managers only."""

    def __init__(self, runtime: Runtime) -> None:
        self._rt = runtime

    async def viewer(self, actor: Actor) -> Viewer:
        """Who ``actor`` is at the server's table (the GM: a server manager, or someone with the GM role)."""
        return await self._rt.read(lambda session: viewer_in(session, actor))

    async def show(self, actor: Actor) -> SetupView:
        """The settings in force in the caller's channel."""
        return await self._rt.read(lambda session: self._view(session, actor))

    async def set_system(self, actor: Actor, system: str, channel_only: bool = False) -> SetupView:
        """Choose the server's system, or this channel's (``channel_only``). Only systems whose engine loads."""
        access.require_manager(actor, "change the system")
        system = system.strip().lower()
        systems = available_ids()
        if system not in systems:
            raise UserError(f"unknown or unavailable system '{system}' (available: {', '.join(systems) or 'none'})")

        async def work(session: AsyncSession) -> SetupView:
            if channel_only:
                row = await session.get(ChannelSettings, actor.channel_id, with_for_update=True)
                if row is None:
                    session.add(ChannelSettings(guild_id=actor.guild_id, channel_id=actor.channel_id, system=system))
                else:
                    row.system = system
            else:
                (await repo.guild_settings_for_update(session, actor.guild_id)).system = system
            await session.flush()
            return await self._view(session, actor)

        return await self._rt.transact(None, work)

    async def clear_channel_system(self, actor: Actor) -> SetupView:
        """Drop this channel's override so the server's system applies again."""
        access.require_manager(actor, "change the system")

        async def work(session: AsyncSession) -> SetupView:
            row = await session.get(ChannelSettings, actor.channel_id)
            if row is not None:
                await session.delete(row)
                await session.flush()
            return await self._view(session, actor)

        return await self._rt.transact(None, work)

    async def set_gm_role(self, actor: Actor, role_id: int | None) -> SetupView:
        """The role whose members are GMs (None: only server managers)."""
        access.require_manager(actor, "set the GM role")

        async def work(session: AsyncSession) -> SetupView:
            (await repo.guild_settings_for_update(session, actor.guild_id)).gm_role_id = role_id
            await session.flush()
            return await self._view(session, actor)

        return await self._rt.transact(None, work)

    async def set_rolls(self, actor: Actor, mode: RollsMode) -> SetupView:
        """"auto": the bot makes shock and kill rolls at once; "gm": they wait for the GM."""
        access.require_manager(actor, "change who makes shock and kill rolls")
        if mode not in ROLLS_MODES:
            raise UserError(f"rolls is one of {', '.join(ROLLS_MODES)}, not '{mode}'")

        async def work(session: AsyncSession) -> SetupView:
            row = await repo.guild_settings_for_update(session, actor.guild_id)
            row.rolls_mode = mode
            # the switch is the one truth: an auto_rolls ruling set earlier (/setup ruling) goes with it
            row.rulings = {system: {k: v for k, v in per.items() if k != ROLLS_RULING}
                           for system, per in row.rulings.items() if isinstance(per, dict)}
            await session.flush()
            return await self._view(session, actor)

        return await self._rt.transact(None, work)

    async def set_turns(self, actor: Actor, mode: TurnsMode) -> SetupView:
        """"enforce": players act only on their character's turn; "warn": they may, and the result says so;
        "off": anyone acts any time. The GM may always act, for the NPCs."""
        access.require_manager(actor, "change how turns are kept")
        if mode not in TURNS_MODES:
            raise UserError(f"turns is one of {', '.join(TURNS_MODES)}, not '{mode}'")

        async def work(session: AsyncSession) -> SetupView:
            (await repo.guild_settings_for_update(session, actor.guild_id)).turns = mode
            await session.flush()
            return await self._view(session, actor)

        return await self._rt.transact(None, work)

    async def set_secret_rolls(self, actor: Actor, on: bool, gm_channel_id: int | None = None) -> SetupView:
        """Secret NPC rolls on or off; with ``gm_channel_id`` the full rolls are posted there, else only the GM
        who made them sees them."""
        access.require_manager(actor, "change secret rolls")

        async def work(session: AsyncSession) -> SetupView:
            row = await repo.guild_settings_for_update(session, actor.guild_id)
            row.secret_rolls = on
            row.gm_channel_id = gm_channel_id if on else None
            await session.flush()
            return await self._view(session, actor)

        return await self._rt.transact(None, work)

    async def set_ruling(self, actor: Actor, name: str, value: str) -> SetupView:
        """Change one ruling of the channel's system; ``value`` is checked against the engine's declaration of it."""
        access.require_manager(actor, "change rulings")

        async def work(session: AsyncSession) -> SetupView:
            system = await channel_system(session, actor)
            ruling = find_ruling(self._rt.engine(system), name)
            typed = parse_ruling(ruling, value)
            row = await repo.guild_settings_for_update(session, actor.guild_id)
            rulings = {key: dict(val) for key, val in row.rulings.items() if isinstance(val, dict)}
            per_system = rulings.setdefault(system, {})
            if typed == ruling.default:
                per_system.pop(ruling.name, None)
            else:
                per_system[ruling.name] = typed
            row.rulings = rulings  # a new dict, so the JSON column is seen as changed
            await session.flush()
            return await self._view(session, actor)

        return await self._rt.transact(None, work)

    async def ruling_names(self, actor: Actor) -> list[Ruling]:
        """The rulings of the channel's system (for autocomplete); empty if its engine is missing."""

        async def work(session: AsyncSession) -> list[Ruling]:
            system = await channel_system(session, actor)
            try:
                return list(self._rt.engine(system).rulings)
            except RulesError:
                return []

        return await self._rt.read(work)

    async def _view(self, session: AsyncSession, actor: Actor) -> SetupView:
        guild = await repo.guild_settings(session, actor.guild_id)
        channel = await repo.channel_settings(session, actor.channel_id)
        guild_system = guild.system if guild is not None and guild.system else DEFAULT_SYSTEM
        system = await channel_system(session, actor)  # a thread follows its parent channel
        stored = stored_rulings(guild, system)
        try:
            rulings = effective_rulings(self._rt.engine(system), stored)
        except RulesError:
            rulings = stored
        return SetupView(
            guild_id=actor.guild_id, channel_id=actor.channel_id, guild_system=guild_system,
            channel_system=channel.system if channel is not None else None, system=system,
            gm_role_id=guild.gm_role_id if guild is not None else None,
            rolls="gm" if (guild is not None and guild.rolls_mode == "gm") or rulings.get(ROLLS_RULING) is False
            else "auto",
            rulings=rulings, overridden=tuple(sorted(stored)),
            turns=turns_mode(guild), secret_rolls=bool(guild is not None and guild.secret_rolls),
            gm_channel_id=guild.gm_channel_id if guild is not None else None,
        )
