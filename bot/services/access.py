"""Who may do what: managers and the GM role run GM commands; players act for their own characters."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repositories as repo
from bot.db.models import Character, GuildSettings
from bot.errors import PermissionDenied
from bot.services.actor import Actor


def is_gm_with(actor: Actor, settings: GuildSettings | None) -> bool:
    if actor.is_manager:
        return True
    return settings is not None and settings.gm_role_id is not None and settings.gm_role_id in actor.role_ids


async def is_gm(session: AsyncSession, actor: Actor) -> bool:
    if actor.is_manager:
        return True
    return is_gm_with(actor, await repo.guild_settings(session, actor.guild_id))


async def require_gm(session: AsyncSession, actor: Actor, doing: str) -> None:
    if not await is_gm(session, actor):
        raise PermissionDenied(f"only the GM (or a server manager) can {doing}")


def require_manager(actor: Actor, doing: str) -> None:
    if not actor.is_manager:
        raise PermissionDenied(f"only a server manager (Manage Server) can {doing}")


async def behind_screen(session: AsyncSession, actor: Actor, character: Character) -> bool:
    """An NPC whose sheet the GM keeps from ``actor``: the server keeps NPC rolls secret and ``actor`` is no GM.
    Such a player sees of it what their character would: its name, condition and wounds."""
    if not character.npc:
        return False
    settings = await repo.guild_settings(session, actor.guild_id)
    return bool(settings is not None and settings.secret_rolls) and not is_gm_with(actor, settings)


async def controls(session: AsyncSession, actor: Actor, character: Character) -> bool:
    """The owner of a player's character, or the GM (who runs every NPC)."""
    if character.owner_id == actor.user_id and not character.npc:
        return True
    return await is_gm(session, actor)


async def require_control(session: AsyncSession, actor: Actor, character: Character, doing: str) -> None:
    """The owner, or the GM, may act for a character (the GM owns every NPC)."""
    if character.owner_id == actor.user_id and not character.npc:
        return
    if await is_gm(session, actor):
        return
    if character.npc:
        raise PermissionDenied(f"{character.name} is an NPC: only the GM can {doing}")
    raise PermissionDenied(f"{character.name} is not yours: only its owner or the GM can {doing}")
