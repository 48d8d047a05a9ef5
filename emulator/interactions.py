"""Build INTERACTION_CREATE payloads the way Discord shapes them, typed from the registered command tree."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import permissions as perms
from .models import Attachment, Channel, Guild, Member, Message, Role, User, walk_components
from .state import State

JSONDict = dict[str, Any]

SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11

CONTEXT_GUILD = 0
CONTEXT_BOT_DM = 1
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


class InteractionError(ValueError):
    """The test asked for something a Discord client would not let a user do."""


class Resolved:
    """Collects `data.resolved` entries for snowflake-typed options and select values."""

    def __init__(self, state: State, channel: Channel) -> None:
        self.state = state
        self.channel = channel
        self.users: JSONDict = {}
        self.members: JSONDict = {}
        self.roles: JSONDict = {}
        self.channels: JSONDict = {}
        self.attachments: JSONDict = {}

    def add_user(self, user: User) -> None:
        self.users[str(user.id)] = user.payload()
        if self.channel.guild_id is not None:
            member = self.state.guilds[self.channel.guild_id].members.get(user.id)
            if member is not None:
                self.members[str(user.id)] = self.state.member_payload(member, self.channel, with_user=False)

    def add_role(self, role: Role) -> None:
        self.roles[str(role.id)] = role.payload()

    def add_channel(self, channel: Channel, user_id: int) -> None:
        data = channel.payload(permissions=self.state.permissions_in(channel, user_id))
        self.channels[str(channel.id)] = {k: data[k] for k in (
            "id", "name", "type", "permissions", "parent_id", "guild_id", "nsfw", "position", "topic",
            "last_message_id", "flags", "rate_limit_per_user") if k in data}

    def add_attachment(self, attachment: Attachment) -> None:
        self.attachments[str(attachment.id)] = attachment.payload()

    def payload(self) -> JSONDict | None:
        out = {k: v for k, v in (("users", self.users), ("members", self.members), ("roles", self.roles),
                                 ("channels", self.channels), ("attachments", self.attachments)) if v}
        return out or None


# -- who and where ---------------------------------------------------------------------------------


def invoker(state: State, user: User | Member, channel: Channel) -> tuple[User, Member | None, Guild | None]:
    if channel.guild_id is None:
        return (user.user if isinstance(user, Member) else user), None, None
    guild = state.guilds[channel.guild_id]
    member = guild.members.get(user.id)
    if member is None:
        raise InteractionError(f"{user!r} is not a member of {guild.name}")
    return member.user, member, guild


def require_command_place(state: State, user_id: int, channel: Channel) -> None:
    """Where a user's client offers no command box (topics/threads.mdx): in an archived thread nobody uses
    application commands ("Active & Archived Threads": a message sent there unarchives it first), and in a
    locked one only holders of Manage Threads create messages ("Locked Threads")."""
    if not channel.is_thread:
        return
    state.archive_if_idle(channel)
    moderator = bool(state.permissions_in(channel, user_id) & perms.MANAGE_THREADS)
    if channel.archived and channel.locked and not moderator:
        raise InteractionError(f"{channel!r} is archived and locked: only Manage Threads may unarchive it")
    if channel.archived:
        raise InteractionError(f"{channel!r} is archived: no application command can be used in it until a "
                               "message sent there unarchives it (emu.say)")
    if channel.locked and not moderator:
        raise InteractionError(f"{channel!r} is locked: without Manage Threads the user cannot post in it")


def base_payload(state: State, *, interaction_id: int, token: str, type: int, user: User,
                 member: Member | None, guild: Guild | None, channel: Channel, data: JSONDict | None,
                 locale: str, message: Message | None = None) -> JSONDict:
    payload: JSONDict = {
        "id": str(interaction_id),
        "application_id": str(state.application_id),
        "type": type,
        "token": token,
        "version": 1,
        "channel_id": str(channel.id),
        "channel": channel.payload(permissions=state.permissions_in(channel, user.id)),
        "app_permissions": str(state.permissions_in(channel, state.bot.id)),
        "locale": locale,
        "entitlements": [],
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }
    if data is not None:
        payload["data"] = data
    if guild is not None and member is not None:
        payload.update(
            guild_id=str(guild.id),
            guild={"id": str(guild.id), "locale": guild.locale, "features": []},
            guild_locale=guild.locale,
            member=state.member_payload(member, channel),
            authorizing_integration_owners={"0": str(guild.id)},
            context=CONTEXT_GUILD,
        )
    else:
        payload.update(user=user.payload(), authorizing_integration_owners={"0": "0"}, context=CONTEXT_BOT_DM)
    if message is not None:
        payload["message"] = state.message_payload(message)
    return payload


# -- application commands --------------------------------------------------------------------------


def find_command(state: State, name: str, kind: int, guild: Guild | None) -> JSONDict:
    """The command a user picks. A guild command and a global one of the same name are both shown in that
    guild (application-commands.mdx "Registering a Command"): the user would see it twice, so a test that
    types it is told, not given one of them."""
    pools = ([state.guild_commands.get(guild.id, [])] if guild else []) + [state.global_commands]
    found = [c for pool in pools for c in pool if c["name"] == name and c.get("type", 1) == kind]
    if len(found) > 1:
        raise InteractionError(f"{name!r} is registered both for this guild and globally: Discord shows it twice")
    if found:
        return found[0]
    registered = sorted({c["name"] for pool in pools for c in pool})
    raise InteractionError(f"no {'slash' if kind == 1 else 'context menu'} command {name!r} is registered "
                           f"(registered: {', '.join(registered) or 'none'}); did the bot sync its tree?")


def _lookup_user(state: State, value: Any, guild: Guild | None) -> User:
    if isinstance(value, Member):
        return value.user
    if isinstance(value, User):
        return value
    if isinstance(value, int) or (isinstance(value, str) and value.isdigit()):
        return state.user(value)
    if guild is not None:
        return guild.member_named(str(value)).user
    for user in state.users.values():
        if user.username == value:
            return user
    raise InteractionError(f"no user {value!r}")


def _lookup_role(value: Any, guild: Guild | None) -> Role:
    if isinstance(value, Role):
        return value
    if guild is None:
        raise InteractionError("role options need a guild")
    if isinstance(value, int) or (isinstance(value, str) and value.isdigit()):
        return guild.roles[int(value)]
    return guild.role_named(str(value))


def _lookup_channel(state: State, value: Any, guild: Guild | None) -> Channel:
    if isinstance(value, Channel):
        return value
    if isinstance(value, int) or (isinstance(value, str) and value.isdigit()):
        return state.channel(value)
    if guild is None:
        raise InteractionError("channel options by name need a guild")
    return guild.channel_named(str(value).lstrip("#"))


def _typed_value(state: State, option: JSONDict, value: Any, resolved: Resolved, user_id: int,
                 guild: Guild | None) -> Any:
    kind = option["type"]
    name = option["name"]
    if kind == STRING:
        text = str(value)
        low, high = option.get("min_length"), option.get("max_length")
        if (low is not None and len(text) < low) or (high is not None and len(text) > high):
            raise InteractionError(f"option {name!r}: length must be within {low}..{high}")
        return text
    if kind == INTEGER:
        if isinstance(value, bool) or int(value) != value:
            raise InteractionError(f"option {name!r} takes an integer, got {value!r}")
        return _in_range(option, int(value))
    if kind == NUMBER:
        if isinstance(value, bool):
            raise InteractionError(f"option {name!r} takes a number, got {value!r}")
        return _in_range(option, float(value) if not isinstance(value, int) else value)
    if kind == BOOLEAN:
        if not isinstance(value, bool):
            raise InteractionError(f"option {name!r} takes a boolean, got {value!r}")
        return value
    if kind == USER:
        user = _lookup_user(state, value, guild)
        resolved.add_user(user)
        return str(user.id)
    if kind == ROLE:
        role = _lookup_role(value, guild)
        resolved.add_role(role)
        return str(role.id)
    if kind == MENTIONABLE:
        if isinstance(value, Role):
            resolved.add_role(value)
            return str(value.id)
        user = _lookup_user(state, value, guild)
        resolved.add_user(user)
        return str(user.id)
    if kind == CHANNEL:
        channel = _lookup_channel(state, value, guild)
        allowed = option.get("channel_types")
        if allowed and channel.type not in allowed:
            raise InteractionError(f"option {name!r} only takes channel types {allowed}")
        resolved.add_channel(channel, user_id)
        return str(channel.id)
    if kind == ATTACHMENT:
        if not isinstance(value, Attachment):
            raise InteractionError(f"option {name!r} takes an Attachment (see Emulator.make_attachment)")
        resolved.add_attachment(value)
        return str(value.id)
    raise InteractionError(f"option {name!r} has unsupported type {kind}")


def _in_range(option: JSONDict, value: float) -> Any:
    low, high = option.get("min_value"), option.get("max_value")
    if (low is not None and value < low) or (high is not None and value > high):
        raise InteractionError(f"option {option['name']!r}: {value} is outside {low}..{high}")
    return value


def _build_options(state: State, defs: Sequence[JSONDict], values: Mapping[str, Any], resolved: Resolved,
                   user_id: int, guild: Guild | None, focused: str | None) -> list[JSONDict]:
    by_name = {d["name"]: d for d in defs}
    unknown = set(values) - set(by_name)
    if unknown:
        raise InteractionError(f"unknown option(s) {sorted(unknown)}; the command takes {sorted(by_name)}")
    out: list[JSONDict] = []
    for option in defs:  # Discord sends options in declaration order
        name = option["name"]
        if name not in values:
            if option.get("required") and focused is None:
                raise InteractionError(f"required option {name!r} is missing")
            continue
        value = values[name]
        if name == focused:
            out.append({"type": option["type"], "name": name, "value": str(value), "focused": True})
            continue
        typed = _typed_value(state, option, value, resolved, user_id, guild)
        choices = option.get("choices")
        if choices and typed not in [c["value"] for c in choices]:
            raise InteractionError(f"option {name!r} must be one of {[c['value'] for c in choices]}, got {typed!r}")
        out.append({"type": option["type"], "name": name, "value": typed})
    return out


def slash_data(state: State, path: str, values: Mapping[str, Any], *, channel: Channel, user_id: int,
               guild: Guild | None, focused: str | None = None,
               held: JSONDict | None = None) -> tuple[JSONDict, str]:
    """`data` for a chat-input command named by its path ("encounter start"); returns it and the full name.
    `held` is the command as the user's client still holds it (registered before an overwrite), if not the
    registered one."""
    words = path.split()
    if not words:
        raise InteractionError("empty command name")
    command = held if held is not None else find_command(state, words[0], 1, guild)
    resolved = Resolved(state, channel)
    defs: list[JSONDict] = command.get("options") or []
    chain: list[JSONDict] = []
    for word in words[1:]:
        nested = next((d for d in defs if d["name"] == word and d["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)), None)
        if nested is None:
            raise InteractionError(f"{' '.join(words[:len(chain) + 1])!r} has no subcommand {word!r}")
        chain.append(nested)
        defs = nested.get("options") or []
    if any(d["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for d in defs):
        subs = [d["name"] for d in defs]
        raise InteractionError(f"{path!r} is a group; name one of its subcommands: {subs}")
    if focused is not None and focused not in values:
        raise InteractionError(f"focused option {focused!r} needs a value (what the user typed so far)")
    options = _build_options(state, defs, values, resolved, user_id, guild, focused)
    for nested in reversed(chain):
        options = [{"type": nested["type"], "name": nested["name"], "options": options}]
    data: JSONDict = {"id": command["id"], "name": command["name"], "type": 1, "options": options}
    if command.get("guild_id"):
        data["guild_id"] = command["guild_id"]
    extra = resolved.payload()
    if extra:
        data["resolved"] = extra
    return data, " ".join(words)


def context_menu_data(state: State, name: str, kind: int, target: User | Member | Message, *,
                      channel: Channel, guild: Guild | None) -> JSONDict:
    command = find_command(state, name, kind, guild)
    data: JSONDict = {"id": command["id"], "name": command["name"], "type": kind}
    if command.get("guild_id"):
        data["guild_id"] = command["guild_id"]
    if isinstance(target, Message):
        data["target_id"] = str(target.id)
        data["resolved"] = {"messages": {str(target.id): state.message_payload(target)}}
    else:
        user = target.user if isinstance(target, Member) else target
        resolved = Resolved(state, channel)
        resolved.add_user(user)
        data["target_id"] = str(user.id)
        data["resolved"] = resolved.payload()
    return data


# -- components and modals -------------------------------------------------------------------------


def component_data(state: State, message: Message, custom_id: str, values: Sequence[Any] | None, *,
                   channel: Channel, user_id: int, guild: Guild | None) -> JSONDict:
    try:
        component = message.component(custom_id)
    except KeyError:
        raise InteractionError(f"{message!r} has no component {custom_id!r}; it has {message.custom_ids}") from None
    if component.get("disabled"):
        raise InteractionError(f"component {custom_id!r} is disabled")
    kind = component["type"]
    data: JSONDict = {"custom_id": custom_id, "component_type": kind}
    if "id" in component:
        data["id"] = component["id"]
    if kind == 2:
        if values is not None:
            raise InteractionError(f"{custom_id!r} is a button; use click()")
        return data
    if values is None:
        raise InteractionError(f"{custom_id!r} is a select menu; use select() with values")
    data["values"], resolved = _select_values(state, component, values, channel=channel, user_id=user_id, guild=guild)
    if resolved is not None:
        data["resolved"] = resolved
    return data


def _select_values(state: State, component: JSONDict, values: Sequence[Any], *, channel: Channel,
                   user_id: int, guild: Guild | None) -> tuple[list[str], JSONDict | None]:
    kind = component["type"]
    low, high = component.get("min_values", 1), component.get("max_values", 1)
    if not low <= len(values) <= high:
        raise InteractionError(f"select {component.get('custom_id')!r} takes {low}..{high} values, got {len(values)}")
    if kind == 3:
        allowed = [o["value"] for o in component.get("options", [])]
        bad = [v for v in values if v not in allowed]
        if bad:
            raise InteractionError(f"select {component.get('custom_id')!r} has no option(s) {bad}; options: {allowed}")
        return [str(v) for v in values], None
    resolved = Resolved(state, channel)
    out: list[str] = []
    for value in values:
        if kind == 5 or (kind == 7 and not isinstance(value, Role)):
            user = _lookup_user(state, value, guild)
            resolved.add_user(user)
            out.append(str(user.id))
        elif kind in (6, 7):
            role = _lookup_role(value, guild)
            resolved.add_role(role)
            out.append(str(role.id))
        else:
            picked = _lookup_channel(state, value, guild)
            resolved.add_channel(picked, user_id)
            out.append(str(picked.id))
    return out, resolved.payload()


def modal_submit_data(state: State, modal: JSONDict, values: Mapping[str, Any], *, channel: Channel,
                      user_id: int, guild: Guild | None) -> JSONDict:
    """Mirror the modal's layout (action rows or labels) with what the user typed or picked."""
    known = {c["custom_id"] for c in walk_components(modal.get("components") or []) if "custom_id" in c}
    unknown = set(values) - known
    if unknown:
        raise InteractionError(
            f"modal {modal.get('custom_id')!r} has no field(s) {sorted(unknown)}; it has {sorted(known)}")
    resolved = Resolved(state, channel)

    def submitted(component: JSONDict) -> JSONDict:
        kind = component["type"]
        custom_id = component.get("custom_id")
        out: JSONDict = {"type": kind}
        if "id" in component:
            out["id"] = component["id"]
        if custom_id is None:
            return out
        out["custom_id"] = custom_id
        if kind == 4:
            text = str(values.get(custom_id, component.get("value") or ""))
            if component.get("required", True) and not text:
                raise InteractionError(f"modal field {custom_id!r} is required")
            low, high = component.get("min_length", 0), component.get("max_length", 4000)
            if text and not low <= len(text) <= high:
                raise InteractionError(f"modal field {custom_id!r} must be {low}..{high} characters long")
            out["value"] = text
        elif kind in (3, 5, 6, 7, 8):
            raw = values.get(custom_id, [])
            picked = [raw] if isinstance(raw, str | int) else list(raw)
            if not picked and not component.get("required", True):
                out["values"] = []
            else:
                out["values"], extra = _select_values(state, component, picked, channel=channel,
                                                      user_id=user_id, guild=guild)
                for key in ("users", "members", "roles", "channels"):
                    getattr(resolved, key).update((extra or {}).get(key, {}))
        else:
            out["values"] = list(values.get(custom_id, []))
        return out

    rows: list[JSONDict] = []
    for component in modal.get("components") or []:
        if component["type"] == 1:
            rows.append({"type": 1, "components": [submitted(c) for c in component.get("components", [])]})
        elif component["type"] == 18:
            row: JSONDict = {"type": 18, "component": submitted(component["component"])}
            if "id" in component:
                row["id"] = component["id"]
            rows.append(row)
        else:
            rows.append(submitted(component))
    data: JSONDict = {"custom_id": modal["custom_id"], "components": rows}
    extra = resolved.payload()
    if extra:
        data["resolved"] = extra
    return data
