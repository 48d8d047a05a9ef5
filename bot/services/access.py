"""Who may do what: the GM (bot/services/viewer.py decides who that is) runs GM commands; players act for their
own characters."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repositories as repo
from bot.db.models import Character
from bot.errors import NotGM, PermissionDenied
from bot.services.actor import Actor
from bot.services.viewer import Seat, Viewer, viewer_of


async def viewer_in(session: AsyncSession, actor: Actor, character: Character | None = None) -> Viewer:
    """``viewer_of`` (bot/services/viewer.py) with the server's settings read in ``session``."""
    return viewer_of(actor, await repo.guild_settings(session, actor.guild_id), character)


async def require_gm(session: AsyncSession, actor: Actor, doing: str) -> Viewer:
    """The GM check of a GM-only command or press: ``actor``'s seat as ``viewer_of`` gives it, read in the command's
    own ``session`` (one check, where the work is done), and returned. NotGM otherwise."""
    viewer = await viewer_in(session, actor)
    if not viewer.is_gm:
        raise NotGM(f"only the GM (or a server manager) can {doing}")
    return viewer


def require_manager(actor: Actor, doing: str) -> None:
    if not actor.is_manager:
        raise PermissionDenied(f"only a server manager (Manage Server) can {doing}")


async def behind_screen(session: AsyncSession, actor: Actor, character: Character) -> bool:
    """An NPC whose sheet the GM keeps from ``actor``: the server keeps NPC rolls secret and ``actor`` is no GM.
    Such a player sees of it what their character would: its name, condition and wounds."""
    return character.npc and (await viewer_in(session, actor, character)).behind_screen(character.npc)


async def controls(session: AsyncSession, actor: Actor, character: Character) -> bool:
    """The owner of a player's character, or the GM (who runs every NPC)."""
    viewer = await viewer_in(session, actor, character)
    return viewer.is_gm or viewer.seat is Seat.OWNER


async def require_control(session: AsyncSession, actor: Actor, character: Character, doing: str) -> None:
    """The owner, or the GM, may act for a character (the GM owns every NPC)."""
    if await controls(session, actor, character):
        return
    if character.npc:
        raise PermissionDenied(f"{character.name} is an NPC: only the GM can {doing}")
    raise PermissionDenied(f"{character.name} is not yours: only its owner or the GM can {doing}")
