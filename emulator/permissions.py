"""Permission bits and Discord's permission-resolution algorithm (base roles, then channel overwrites)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

CREATE_INSTANT_INVITE = 1 << 0
KICK_MEMBERS = 1 << 1
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
SEND_TTS_MESSAGES = 1 << 12
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
CONNECT = 1 << 20
SPEAK = 1 << 21
CHANGE_NICKNAME = 1 << 26
MANAGE_ROLES = 1 << 28
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
USE_APPLICATION_COMMANDS = 1 << 31
SEND_MESSAGES_IN_THREADS = 1 << 38
PIN_MESSAGES = 1 << 51

ALL = (1 << 53) - 1

DEFAULT_EVERYONE = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | CONNECT
    | SPEAK
    | CHANGE_NICKNAME
    | USE_APPLICATION_COMMANDS
    | SEND_MESSAGES_IN_THREADS
)

# The bot's managed role: what its invite asks for, which is the list Grievous documents (README,
# `grievous invite`, bot/discord_permissions.py; tests/bot/test_discord_permissions.py holds them equal).
DEFAULT_BOT = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | SEND_MESSAGES_IN_THREADS
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | PIN_MESSAGES
)

# What a bot may do in a DM with a user.
DM_PERMISSIONS = (
    ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
)


@dataclass
class Overwrite:
    id: int
    type: int  # 0 role, 1 member
    allow: int = 0
    deny: int = 0

    def payload(self) -> dict[str, object]:
        return {"id": str(self.id), "type": self.type, "allow": str(self.allow), "deny": str(self.deny)}


def base_permissions(
    *, everyone: int, role_permissions: Iterable[int], is_owner: bool = False
) -> int:
    if is_owner:
        return ALL
    value = everyone
    for perms in role_permissions:
        value |= perms
    return ALL if value & ADMINISTRATOR else value


def channel_permissions(
    base: int,
    *,
    guild_id: int,
    member_id: int,
    member_roles: Sequence[int],
    overwrites: Sequence[Overwrite],
    send: int = SEND_MESSAGES,
) -> int:
    """``send`` is the right to post there: Send Messages, or in a thread Send Messages in Threads."""
    if base & ADMINISTRATOR:
        return ALL
    value = base
    by_id = {ow.id: ow for ow in overwrites}
    everyone = by_id.get(guild_id)
    if everyone is not None:
        value = (value & ~everyone.deny) | everyone.allow
    allow = deny = 0
    for role_id in member_roles:
        ow = by_id.get(role_id)
        if ow is not None and ow.type == 0:
            allow |= ow.allow
            deny |= ow.deny
    value = (value & ~deny) | allow
    own = by_id.get(member_id)
    if own is not None and own.type == 1:
        value = (value & ~own.deny) | own.allow
    return implicit(value, send=send)


def implicit(value: int, *, send: int = SEND_MESSAGES) -> int:
    """topics/permissions.mdx "Implicit Permissions": no View Channel denies everything in the channel;
    no Send Messages (in a thread: Send Messages in Threads) denies Mention Everyone, TTS, Attach Files
    and Embed Links."""
    if not value & VIEW_CHANNEL:
        return 0
    if not value & send:
        value &= ~(MENTION_EVERYONE | SEND_TTS_MESSAGES | ATTACH_FILES | EMBED_LINKS)
    return value
