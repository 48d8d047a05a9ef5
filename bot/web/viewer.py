"""Who is looking at a page: a session's grant as the services' ``Actor``, and the channels it may see.

The services decide what this actor sees, exactly as for a command typed by the same member with the roles
/web captured: the GM's view, a player's, or the table's (a channel's: no member, no roles).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import discord

from bot.services.actor import Actor
from bot.web.sessions import Role

if TYPE_CHECKING:
    from bot.web.sessions import Session


@dataclass(frozen=True)
class Viewer:
    role: Role
    actor: Actor
    channels: frozenset[int] | None  # None: every channel of the guild (the GM)
    table_channel: int | None
    channel_names: tuple[tuple[int, str], ...] = ()  # named at /web time: a page needs no gateway cache

    @classmethod
    def of(cls, session: Session) -> Viewer:
        grant = session.grant
        if grant.role == "table":  # the channel itself: the services seat it as a public message (table_of)
            actor = Actor(guild_id=grant.guild_id, channel_id=grant.table_channel or 0, user_id=0, user_name="table",
                          table=True)
        else:
            actor = Actor(guild_id=grant.guild_id, channel_id=0, user_id=grant.user_id, user_name=grant.user_name,
                          role_ids=grant.role_ids, is_manager=grant.is_manager)
        return cls(grant.role, actor, grant.channels, grant.table_channel, grant.channel_names)

    @property
    def header_name(self) -> str:
        """How the page's header names its viewer (plain text: the page escapes it)."""
        if self.role == "gm":
            return "GM view"
        return "Table view" if self.role == "table" else self.actor.user_name

    def in_channel(self, channel_id: int) -> Actor:
        return replace(self.actor, channel_id=channel_id)


def visible_channels(guild: discord.Guild | None, member: Any, here: int) -> frozenset[int]:
    """The channels and threads ``member`` may view, from the cached guild: its roles and each channel's
    overwrites (the bot has no member cache; the interaction's member carries the roles). Private threads
    are left out (their members are not cached), except the one /web was asked in."""
    seen = {here}
    if guild is None or not isinstance(member, discord.Member):
        return frozenset(seen)
    for channel in guild.channels:
        if channel.permissions_for(member).view_channel:
            seen.add(channel.id)
    for thread in guild.threads:
        if not thread.is_private() and thread.parent_id in seen:
            seen.add(thread.id)
    return frozenset(seen)



def channel_names(guild: discord.Guild | None, seen: frozenset[int] | None) -> tuple[tuple[int, str], ...]:
    """The text channels and threads of ``seen`` (None: all of them), with their names as /web saw them."""
    if guild is None:
        return ()
    found: list[Any] = [*guild.text_channels, *guild.threads]
    return tuple((c.id, c.name) for c in found if seen is None or c.id in seen)
