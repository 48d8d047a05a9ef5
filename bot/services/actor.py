"""Who is calling: plain ids from the interaction, so services never see a discord object."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Actor:
    """The caller of one command, as the cog reads it from the interaction."""

    guild_id: int
    channel_id: int
    user_id: int
    user_name: str
    role_ids: tuple[int, ...] = ()
    is_manager: bool = False  # has Manage Server: may run /setup and is always a GM
    parent_channel_id: int | None = None  # in a thread or forum post: its channel, whose system it follows
    # The Discord interaction this call answers (None: the playground, a test): what it records waits for
    # that answer (bot/services/answers.py).
    interaction_id: int | None = None
    # The channel itself, not a member: a /web table screen. It reads what a public message may say
    # (``viewer_of`` seats it as ``table_of``), whoever asked for the link.
    table: bool = False
