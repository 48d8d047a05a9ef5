"""The one seam between the gateway and discord.py's parsers: a malformed payload costs its own event only.

discord.py parses each gateway dispatch synchronously inside its websocket reader. A parser that raises (an
INTERACTION_CREATE whose ``member`` has no ``user``) ends the shard's reader and, with it, the process; a
payload the parser accepts but that breaks later (no ``token``, ``options`` that are not a list of objects)
fails in a task nobody awaits, once per interaction, with no word of what was wrong. Discord builds these
fields, so no user reaches them; a trusted bot keeps them out anyway.

``guard_parsers`` wraps every parser: an interaction is checked first (``interaction_problem``, which also
refuses a channel that belongs to another guild than the interaction's: every read of the bot is keyed by
the channel), and any parser that raises anyway is caught. Either way the payload is dropped and logged once,
with its shape (field names and value types, never a value: the token stays out of the log), and the
process goes on.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, MutableMapping
from typing import Any

log = logging.getLogger("grievous.payloads")

Parser = Callable[[dict[str, Any]], None]
# The channel id -> the id of the guild it belongs to, as far as this process knows (None: unknown).
GuildOf = Callable[[int], int | None]

# Interaction types (Discord's "Interaction Type"): PING, APPLICATION_COMMAND, MESSAGE_COMPONENT,
# APPLICATION_COMMAND_AUTOCOMPLETE, MODAL_SUBMIT.
PING, COMMAND, COMPONENT, AUTOCOMPLETE, MODAL = 1, 2, 3, 4, 5
SHAPE_CHARS = 600  # a logged shape is cut here


def snowflake(value: object) -> bool:
    """A Discord id as the gateway sends it: a decimal string (or, leniently, an int) of at most 64 bits."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return 0 <= value < 1 << 64
    return isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 20 \
        and int(value) < 1 << 64


def shape(value: object, depth: int = 0) -> object:
    """``value`` with every leaf replaced by its type's name: what a log may show of a payload."""
    if depth > 6:
        return "..."
    if isinstance(value, Mapping):
        return {str(key)[:40]: shape(inner, depth + 1) for key, inner in list(value.items())[:30]}
    if isinstance(value, list):
        return [shape(inner, depth + 1) for inner in value[:4]] + (["..."] if len(value) > 4 else [])
    return type(value).__name__


def _options_problem(options: object, depth: int = 0) -> str | None:
    if not isinstance(options, list):
        return "data.options is not a list"
    for option in options:
        if not isinstance(option, Mapping):
            return "an option is not an object"
        if not isinstance(option.get("name"), str) or not isinstance(option.get("type"), int):
            return "an option has no name or type"
        if "options" in option and (depth > 3 or _options_problem(option["options"], depth + 1) is not None):
            return "a subcommand's options are malformed"
    return None


def _user_problem(data: Mapping[str, Any]) -> str | None:
    member, user = data.get("member"), data.get("user")
    if member is not None:
        if not isinstance(member, Mapping) or not isinstance(member.get("user"), Mapping):
            return "member has no user"
        user = member["user"]
    if not isinstance(user, Mapping) or not snowflake(user.get("id")):
        return "no user with an id"
    return None


def interaction_problem(data: Mapping[str, Any], guild_of: GuildOf) -> str | None:
    """What makes an INTERACTION_CREATE payload one the bot will not handle, or None."""
    problem = _envelope_problem(data)
    if problem is not None or data["type"] == PING:
        return problem
    for key in ("guild_id", "channel_id"):
        if key in data and data[key] is not None and not snowflake(data[key]):
            return f"{key} is not a snowflake"
    problem = _user_problem(data)
    if problem is None:
        problem = _data_problem(data["type"], data.get("data"))
    if problem is not None:
        return problem
    if "message" in data and not (isinstance(data["message"], Mapping) and snowflake(data["message"].get("id"))):
        return "message has no id"
    return _channel_problem(data, guild_of)


def _envelope_problem(data: Mapping[str, Any]) -> str | None:
    """What every interaction carries, a PING too: its id, type, token and application id."""
    if not snowflake(data.get("id")):
        return "id is not a snowflake"
    kind = data.get("type")
    if not isinstance(kind, int) or isinstance(kind, bool) or not PING <= kind <= MODAL:
        return "type is not an interaction type"
    if not isinstance(data.get("token"), str) or not data["token"]:
        return "no token"
    if not snowflake(data.get("application_id", "0")):
        return "application_id is not a snowflake"
    return None


def _data_problem(kind: int, inner: object) -> str | None:
    """The interaction's ``data``: a command's name and options, a component's or a modal's custom_id and parts."""
    if not isinstance(inner, Mapping):
        return "data is not an object"
    if kind in (COMMAND, AUTOCOMPLETE):
        if not isinstance(inner.get("name"), str):
            return "data has no command name"
        return _options_problem(inner["options"]) if "options" in inner else None
    if not isinstance(inner.get("custom_id"), str):
        return "data has no custom_id"
    if kind == COMPONENT and not isinstance(inner.get("component_type"), int):
        return "a component without component_type"
    if kind == MODAL and not isinstance(inner.get("components"), list):
        return "a modal submit without components"
    return None


def _channel_problem(data: Mapping[str, Any], guild_of: GuildOf) -> str | None:
    """A channel that belongs to another guild than the interaction's: refused, since everything the bot
    reads and writes for a command is found by its channel."""
    guild_id, channel_id = data.get("guild_id"), data.get("channel_id")
    channel = data.get("channel")
    if channel is not None:
        if not isinstance(channel, Mapping) or not snowflake(channel.get("id")):
            return "channel has no id"
        if channel_id is not None and int(channel["id"]) != int(channel_id):
            return "channel and channel_id differ"
        channel_id = channel["id"]
        if channel.get("guild_id") is not None and (guild_id is None or int(channel["guild_id"]) != int(guild_id)):
            return "the channel belongs to another guild"
    if channel_id is None:
        return None
    known = guild_of(int(channel_id))
    if known is not None and (guild_id is None or known != int(guild_id)):
        return "the channel belongs to another guild"
    return None


class Dropped:
    """How many payloads were dropped, by event; the last reason (the health view and tests read it)."""

    def __init__(self) -> None:
        self.count = 0
        self.by_event: dict[str, int] = {}

    def note(self, event: str) -> None:
        self.count += 1
        self.by_event[event] = self.by_event.get(event, 0) + 1


def guard_parsers(parsers: MutableMapping[str, Parser], guild_of: GuildOf,
                  on_dropped: Callable[[str, str], None] | None = None,
                  seen: Callable[[str, dict[str, Any]], None] | None = None) -> Dropped:
    """Wrap every parser in ``parsers`` (discord.py's ``ConnectionState.parsers``, which its websocket reads
    each dispatch's parser from) so that a malformed payload is dropped and logged, never raised. ``seen``
    is told of every dispatch first (the gateway watch)."""
    dropped = Dropped()

    def drop(event: str, reason: str, data: object) -> None:
        dropped.note(event)
        text = repr(shape(data))
        log.warning("dropped a malformed %s payload (%s); its shape: %s", event, reason,
                    text if len(text) <= SHAPE_CHARS else text[:SHAPE_CHARS] + "...")
        if on_dropped is not None:
            on_dropped(event, reason)

    def guarded(event: str, parse: Parser) -> Parser:
        def parse_guarded(data: dict[str, Any]) -> None:
            if not isinstance(data, dict):
                drop(event, "not an object", data)
                return
            if seen is not None:
                seen(event, data)
            problem = interaction_problem(data, guild_of) if event == "INTERACTION_CREATE" else None
            if problem is not None:
                drop(event, problem, data)
                return
            try:
                parse(data)
            except Exception as exc:  # a shape no check above foresaw: this event only, never the reader
                drop(event, f"its parser raised {type(exc).__name__}", data)

        return parse_guarded

    for event, parse in list(parsers.items()):
        parsers[event] = guarded(event, parse)
    return dropped
