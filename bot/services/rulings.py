"""Which system a channel plays and which rulings are in force, as the engine's rulings."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repositories as repo
from bot.db.models import GuildSettings
from bot.errors import NotFound, UserError
from bot.services.actor import Actor
from rules.errors import RulesError
from rules.model import Engine, Ruling
from rules.rulings import parse_value

DEFAULT_SYSTEM = "ars-harn"
ROLLS_MODES = ("auto", "gm")
ROLLS_RULING = "auto_rolls"  # each engine's ruling that /setup rolls switches (shown once, as that switch)
TURNS_MODES = ("enforce", "warn", "off")


def turns_mode(settings: GuildSettings | None) -> Any:
    """The server's turn-order mode ("warn" until a manager chooses)."""
    mode = settings.turns if settings is not None else None
    return mode if mode in TURNS_MODES else "warn"


async def channel_system(session: AsyncSession, actor: Actor) -> str:
    """The system of the actor's channel: its own, else (a thread or forum post) its parent channel's,
    else the server's."""
    for channel_id in (actor.channel_id, actor.parent_channel_id):
        if channel_id is not None:
            channel = await repo.channel_settings(session, channel_id)
            if channel is not None and channel.system:
                return channel.system
    guild = await repo.guild_settings(session, actor.guild_id)
    return guild.system if guild is not None and guild.system else DEFAULT_SYSTEM


def find_ruling(engine: Engine, name: str) -> Ruling:
    for ruling in engine.rulings:
        if ruling.name.casefold() == name.strip().casefold():
            return ruling
    known = ", ".join(s.name for s in engine.rulings) or "none"
    raise NotFound(f"{engine.system_id} has no ruling '{name}' (rulings: {known})")


def parse_ruling(ruling: Ruling, value: str) -> str | int | bool:
    """A typed value for ``ruling`` from what the user typed, checked as the engine will check it."""
    try:
        return parse_value(ruling, value)
    except RulesError as error:
        raise UserError(str(error)) from None


def stored_rulings(settings: GuildSettings | None, system: str) -> dict[str, Any]:
    if settings is None:
        return {}
    stored = settings.rulings.get(system)
    return dict(stored) if isinstance(stored, dict) else {}


def effective_rulings(engine: Engine, stored: dict[str, Any]) -> dict[str, str | int | bool]:
    """Engine defaults with the server's overrides (overrides for rulings the engine dropped are ignored)."""
    return {s.name: stored.get(s.name, s.default) for s in engine.rulings}


def scenario_rulings(engine: Engine, settings: GuildSettings | None) -> dict[str, Any]:
    """What goes into ``Scenario.rulings``: the overrides the engine knows, and the server's rolls mode."""
    known = {s.name for s in engine.rulings}
    out = {name: value for name, value in stored_rulings(settings, engine.system_id).items() if name in known}
    if settings is not None and settings.rolls_mode == "gm" and ROLLS_RULING in known:
        out[ROLLS_RULING] = False
    return out
