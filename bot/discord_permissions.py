"""The one list of Discord permissions the bot uses, and what it remembers of channels that refused it.

The invite URL (`grievous invite`), `/setup check` and the README's list are all this list
(tests/bot/test_discord_permissions.py holds them to it). Names are the ones Discord's server settings show.

A refusal (403) is remembered per channel and permission, so the bot does not ask again what it was
already refused (Discord bans an IP past 10,000 invalid requests in 10 minutes, topics/rate-limits.mdx),
and a GM is told of it once, in one line (a player whose action met it is not: they cannot change it).
The bot's permissions in the channel of an interaction
(``interaction.app_permissions``) are read first: what they lack is not asked for at all, and what they
have again is forgotten as refused.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass

import discord


@dataclass(frozen=True)
class Needed:
    flag: str  # the discord.Permissions attribute
    name: str  # as Discord's server settings name it
    why: str  # what the bot does with it, in a server manager's words


VIEW = Needed("view_channel", "View Channels", "see the channel")
SEND = Needed("send_messages", "Send Messages", "post the tracker and secret rolls")
SEND_IN_THREADS = Needed("send_messages_in_threads", "Send Messages in Threads", "post in threads and forum posts")
EMBED = Needed("embed_links", "Embed Links", "show the tracker and secret rolls, which are embeds")
ATTACH = Needed("attach_files", "Attach Files", "attach pictures of hits and wounds")
HISTORY = Needed("read_message_history", "Read Message History", "take settled GM buttons off earlier messages")
PIN = Needed("pin_messages", "Pin Messages", "pin the encounter tracker")  # Manage Messages no longer pins

BOT_PERMISSIONS: tuple[Needed, ...] = (VIEW, SEND, SEND_IN_THREADS, EMBED, ATTACH, HISTORY, PIN)
INVITE_SCOPES = ("bot", "applications.commands")


def invite_permissions() -> discord.Permissions:
    return discord.Permissions(**{needed.flag: True for needed in BOT_PERMISSIONS})


def invite_url(client_id: int) -> str:
    return discord.utils.oauth_url(client_id, permissions=invite_permissions(), scopes=INVITE_SCOPES)


def missing(have: discord.Permissions, needed: tuple[Needed, ...]) -> tuple[Needed, ...]:
    return tuple(n for n in needed if not getattr(have, n.flag))


def to_post(in_thread: bool, *, embed: bool = True) -> tuple[Needed, ...]:
    """What a channel message needs: seeing the channel, sending there (a thread's own right), and Embed
    Links for an embed-only message (Discord refuses it with 403 otherwise)."""
    return (VIEW, SEND_IN_THREADS if in_thread else SEND, *((EMBED,) if embed else ()))


def missing_line(needed: Needed, where: str) -> str:
    """The one line the GM is told (``where`` is a channel mention)."""
    what = f"see {where}" if needed is VIEW else f"{needed.why} in {where}"
    return (f"\u26a0 I can't {what}: give my role **{needed.name}** there "
            f"(Server Settings \u2192 Roles, or the channel's permissions). `/setup check` lists what else I need.")


class Refusals:
    """The (channel, permission) pairs Discord refused, for a while; a bounded memory, oldest forgotten first."""

    KEEP_SECONDS = 15 * 60
    MAX = 10_000

    def __init__(self) -> None:
        self._seen: OrderedDict[tuple[int, str], float] = OrderedDict()
        self._told: set[tuple[int, str]] = set()

    def refused(self, channel_id: int, needed: Needed) -> bool:
        at = self._seen.get((channel_id, needed.flag))
        if at is None:
            return False
        if time.monotonic() - at > self.KEEP_SECONDS:
            self.forget(channel_id, needed)
            return False
        return True

    def remember(self, channel_id: int, needed: Needed) -> None:
        """Note a refusal (or a permission the bot is known to lack there)."""
        key = (channel_id, needed.flag)
        self._seen[key] = time.monotonic()
        self._seen.move_to_end(key)
        while len(self._seen) > self.MAX:
            old, _ = self._seen.popitem(last=False)
            self._told.discard(old)

    def tell_once(self, channel_id: int, needed: Needed) -> bool:
        """True the first time a remembered refusal is to be told (to a GM); False after."""
        key = (channel_id, needed.flag)
        if key in self._told or key not in self._seen:
            return False
        self._told.add(key)
        return True

    def first_trouble(self, channel_id: int, what: str) -> bool:
        """True the first time trouble ``what`` (not a permission: e.g. "the GM channel is down") is met in
        the channel since it last went well (``mended``); False after."""
        key = (channel_id, f"trouble:{what}")
        if key in self._told:
            return False
        self._seen[key] = time.monotonic()
        self._told.add(key)
        while len(self._seen) > self.MAX:
            old, _ = self._seen.popitem(last=False)
            self._told.discard(old)
        return True

    def mended(self, channel_id: int, what: str) -> None:
        """Trouble ``what`` is over in the channel: the next time it is met is told again."""
        key = (channel_id, f"trouble:{what}")
        self._seen.pop(key, None)
        self._told.discard(key)

    def forget(self, channel_id: int, needed: Needed) -> None:
        self._seen.pop((channel_id, needed.flag), None)
        self._told.discard((channel_id, needed.flag))

    def update(self, channel_id: int, have: discord.Permissions) -> None:
        """What the bot has again in a channel (read from an interaction) is no longer refused there."""
        for needed in BOT_PERMISSIONS:
            if getattr(have, needed.flag) and (channel_id, needed.flag) in self._seen:
                self.forget(channel_id, needed)
