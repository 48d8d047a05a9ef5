"""Who is looking: the one place that decides it, and so the one GM check (docs/architecture.md, "The GM screen").

A viewer is the GM (a server manager, or whoever holds the server's GM role), a character's owner, another
player, or the channel itself (a public message, which every member reads). Every GM check in the bot, and the
projection (bot/services/projection.py) that hides what a viewer may not see, ask ``viewer_of``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from bot.services.actor import Actor

if TYPE_CHECKING:
    from bot.db.models import Character, GuildSettings


class Seat(Enum):
    """Where the viewer sits at the table."""

    GM = "gm"
    OWNER = "owner"  # the player whose character it is
    PLAYER = "player"  # any other member
    TABLE = "table"  # the channel: a public message


@dataclass(frozen=True)
class Viewer:
    """One reader of an output, and whether their server keeps NPC rolls secret."""

    seat: Seat
    secret_rolls: bool = False
    user_id: int | None = None  # None: the channel

    @property
    def is_gm(self) -> bool:
        return self.seat is Seat.GM

    def behind_screen(self, npc: bool) -> bool:
        """Whether an NPC's figures (its rolls, targets, sheet) are kept from this viewer: the server keeps NPC
        rolls secret and the viewer is not the GM. A player's character is never behind the screen."""
        return npc and self.secret_rolls and not self.is_gm


def _holds_gm_role(actor: Actor, settings: GuildSettings | None) -> bool:
    return settings is not None and settings.gm_role_id is not None and settings.gm_role_id in actor.role_ids


def viewer_of(actor: Actor | None, settings: GuildSettings | None, character: Character | None = None) -> Viewer:
    """Who ``actor`` is at this server's table (None, or an actor that is the channel: the table), looking at
    ``character`` if one is named.

    A server manager is always the GM, as is whoever holds the GM role; the owner of a player's character sits in
    the owner's seat (an NPC has no owner but the GM)."""
    secret = bool(settings is not None and settings.secret_rolls)
    if actor is None or actor.table:
        return Viewer(Seat.TABLE, secret)
    if actor.is_manager or _holds_gm_role(actor, settings):
        return Viewer(Seat.GM, secret, actor.user_id)
    if character is not None and not character.npc and character.owner_id == actor.user_id:
        return Viewer(Seat.OWNER, secret, actor.user_id)
    return Viewer(Seat.PLAYER, secret, actor.user_id)


# The readers of what an event stored under secret rolls became: its flags (``secret``, ``target_secret``) were set
# by them, so it is read with them on. The GM channel, the GM's private copy and the DM to the server's owner (a
# manager, so a GM) are read by the GM; a public message (a live answer, a late post) by the channel.
GM_SCREEN = Viewer(Seat.GM, secret_rolls=True)
TABLE_SCREEN = Viewer(Seat.TABLE, secret_rolls=True)


def table_of(settings: GuildSettings | None) -> Viewer:
    """The channel as a viewer: what a public message may say."""
    return viewer_of(None, settings)

