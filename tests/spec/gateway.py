"""Gateway payloads against Discord's spec. The spec has no gateway schemas, so each event's payload is split:
the fields Discord's gateway-events doc adds to an event (`developers/events/gateway-events.mdx`, the line cited)
are taken off and checked on their own, and the objects it embeds (message, channel, thread, user, member,
role, guild) are checked against the spec's closed response schemas. INTERACTION_CREATE is checked against a
schema written from the interaction table of `developers/interactions/receiving-and-responding.mdx` (:22-43).

Left unchecked (no object of the spec to hold them to, or plain ids): READY, RESUMED, GUILD_DELETE,
MESSAGE_DELETE, MESSAGE_DELETE_BULK, CHANNEL_PINS_UPDATE, TYPING_START, MESSAGE_REACTION_ADD/REMOVE/
REMOVE_ALL, THREAD_LIST_SYNC, THREAD_MEMBERS_UPDATE, THREAD_MEMBER_UPDATE, GUILD_MEMBER_REMOVE, and an
INTERACTION_CREATE's `data` (typed by the command it names; the emulator builds it from the bot's registered
commands, which the REST check already holds to the spec).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jsonschema import Draft202012Validator

from emulator.traffic import Dispatch

from .checker import Mismatch, _field, _rule, spec

JSONDict = dict[str, Any]
UNCHECKED = frozenset({
    "READY", "RESUMED", "GUILD_DELETE", "MESSAGE_DELETE", "MESSAGE_DELETE_BULK", "CHANNEL_PINS_UPDATE",
    "TYPING_START", "MESSAGE_REACTION_ADD", "MESSAGE_REACTION_REMOVE", "MESSAGE_REACTION_REMOVE_ALL",
    "THREAD_LIST_SYNC", "THREAD_MEMBERS_UPDATE", "THREAD_MEMBER_UPDATE", "GUILD_MEMBER_REMOVE",
})
SNOWFLAKE = {"$ref": "urn:discord:response#/components/schemas/SnowflakeType"}
CHANNEL = {"oneOf": [{"$ref": f"urn:discord:response#/components/schemas/{name}"} for name in
                     ("GuildChannelResponse", "PrivateChannelResponse", "PrivateGroupChannelResponse",
                      "ThreadResponse")]}

# receiving-and-responding.mdx:22-43 "Interaction Structure"; member "including permissions" (:32).
INTERACTION: JSONDict = {
    "type": "object",
    "properties": {
        "id": SNOWFLAKE, "application_id": SNOWFLAKE, "type": {"enum": [1, 2, 3, 4, 5]},
        "data": {"type": "object"},
        "guild": {"type": "object", "properties": {"id": SNOWFLAKE, "locale": {"type": "string"},
                                                   "features": {"type": "array", "items": {"type": "string"}}},
                  "required": ["id"], "unevaluatedProperties": False},
        "guild_id": SNOWFLAKE, "channel": CHANNEL, "channel_id": SNOWFLAKE,
        "member": {"type": "object"},  # checked as a guild member below
        "user": {"$ref": "urn:discord:response#/components/schemas/UserResponse"},
        "token": {"type": "string"}, "version": {"const": 1},
        "message": {"$ref": "urn:discord:response#/components/schemas/MessageResponse"},
        "app_permissions": {"type": "string", "pattern": "^[0-9]+$"},
        "locale": {"type": "string"}, "guild_locale": {"type": "string"},
        "entitlements": {"type": "array"},
        "authorizing_integration_owners": {"type": "object", "propertyNames": {"enum": ["0", "1"]},
                                           "additionalProperties": SNOWFLAKE},
        "context": {"enum": [0, 1, 2]},
        "attachment_size_limit": {"type": "integer"},
    },
    "required": ["id", "application_id", "type", "token", "version", "app_permissions", "entitlements",
                 "authorizing_integration_owners", "attachment_size_limit"],
    "unevaluatedProperties": False,
}

_validators: dict[str, Draft202012Validator] = {}


def _validator(name: str) -> Draft202012Validator:
    found = _validators.get(name)
    if found is None:
        schema = INTERACTION if name == "Interaction" else CHANNEL if name == "Channel" else {
            "$ref": f"urn:discord:response#/components/schemas/{name}"}
        found = _validators[name] = Draft202012Validator(schema, registry=spec().response_registry)
    return found


class _Checks:
    def __init__(self, event: str) -> None:
        self.event = event
        self.found: list[Mismatch] = []

    def against(self, name: str, value: Any, where: str = "") -> None:
        for error in _validator(name).iter_errors(value):
            at = ".".join(p for p in (where, _field(error)) if p)
            self.found.append(Mismatch(f"gateway ({name})", "EVENT", self.event, at, _rule(error)))

    def extra(self, data: JSONDict, field: str, check: Callable[[Any], bool], doc: str) -> None:
        if field in data and not check(data[field]):
            self.found.append(Mismatch("gateway", "EVENT", self.event, field, f"does not fit {doc}"))

    def member(self, member: Any, user: Any, where: str) -> None:
        """A member without its user (a message's, a mention's) is checked with the user it belongs to."""
        if isinstance(member, dict):
            whole = {k: v for k, v in member.items() if k != "permissions"}
            whole.setdefault("user", user)
            self.against("GuildMemberResponse", whole, where)


def _is_snowflake(value: Any) -> bool:
    return isinstance(value, str) and value.isdigit()


def _message(checks: _Checks, data: JSONDict) -> None:
    # gateway-events.mdx:1130-1133 "Message Create Extra Fields": guild_id?, member? (partial), mentions[] with
    # an optional partial member, channel_type?; MESSAGE_UPDATE has the same (:1137).
    body = dict(data)
    checks.extra(body, "guild_id", _is_snowflake, "gateway-events.mdx:1130 guild_id snowflake")
    checks.extra(body, "channel_type", lambda v: isinstance(v, int), "gateway-events.mdx:1133 channel_type")
    body.pop("guild_id", None)
    body.pop("channel_type", None)
    checks.member(body.pop("member", None), body.get("author"), "member")
    mentions = []
    for n, mention in enumerate(body.get("mentions") or []):
        if isinstance(mention, dict):
            mention = dict(mention)
            checks.member(mention.pop("member", None), mention, f"mentions[{n}].member")
        mentions.append(mention)
    body["mentions"] = mentions
    checks.against("MessageResponse", body)


def _guild_create(checks: _Checks, data: JSONDict) -> None:
    # gateway-events.mdx:746-760 "Guild Create Extra Fields".
    body = dict(data)
    extras = ("joined_at", "large", "unavailable", "member_count", "voice_states", "members", "channels", "threads",
              "presences", "stage_instances", "guild_scheduled_events", "soundboard_sounds")
    taken = {k: body.pop(k) for k in extras if k in body}
    for n, member in enumerate(taken.get("members") or []):
        checks.against("GuildMemberResponse", member, f"members[{n}]")
    for n, channel in enumerate(taken.get("channels") or []):
        checks.against("Channel", channel, f"channels[{n}]")
    for n, thread in enumerate(taken.get("threads") or []):
        checks.against("ThreadResponse", thread, f"threads[{n}]")
    checks.against("GuildResponse", body)


def _interaction(checks: _Checks, data: JSONDict) -> None:
    checks.against("Interaction", data)
    if isinstance(data.get("member"), dict):
        checks.member(data["member"], None, "member")
        checks.extra(data["member"], "permissions", lambda v: _is_snowflake(v),
                     "receiving-and-responding.mdx:32 (member permissions, a string)")


def _thread_create(checks: _Checks, data: JSONDict) -> None:
    body = dict(data)  # gateway-events.mdx:625 newly_created
    checks.extra(body, "newly_created", lambda v: isinstance(v, bool), "gateway-events.mdx:625 newly_created")
    body.pop("newly_created", None)
    checks.against("ThreadResponse", body)


def _with_guild_id(name: str, line: int) -> Callable[[_Checks, JSONDict], None]:
    def check(checks: _Checks, data: JSONDict) -> None:
        body = dict(data)
        checks.extra(body, "guild_id", _is_snowflake, f"gateway-events.mdx:{line} guild_id")
        body.pop("guild_id", None)
        checks.against(name, body)
    return check


def _role(checks: _Checks, data: JSONDict) -> None:
    checks.extra(data, "guild_id", _is_snowflake, "gateway-events.mdx guild_id")
    checks.against("GuildRoleResponse", data.get("role"), "role")


CHECKS: dict[str, Callable[[_Checks, JSONDict], None]] = {
    "MESSAGE_CREATE": _message,
    "MESSAGE_UPDATE": _message,
    "GUILD_CREATE": _guild_create,
    "INTERACTION_CREATE": _interaction,
    "CHANNEL_CREATE": lambda c, d: c.against("Channel", d),
    "CHANNEL_UPDATE": lambda c, d: c.against("Channel", d),
    "CHANNEL_DELETE": lambda c, d: c.against("Channel", d),
    "THREAD_CREATE": _thread_create,
    "THREAD_UPDATE": lambda c, d: c.against("ThreadResponse", d),
    "THREAD_DELETE": lambda c, d: c.against("ThreadResponse", d),
    "GUILD_ROLE_CREATE": _role,
    "GUILD_ROLE_UPDATE": _role,
    "GUILD_MEMBER_ADD": _with_guild_id("GuildMemberResponse", 856),
    "GUILD_MEMBER_UPDATE": _with_guild_id("GuildMemberResponse", 885),
}


def check_dispatch(dispatch: Dispatch) -> list[Mismatch]:
    check = CHECKS.get(dispatch.event)
    if check is None or not isinstance(dispatch.data, dict):
        return []
    checks = _Checks(dispatch.event)
    check(checks, dispatch.data)
    return checks.found
