"""Discord's REST resources a bot touches: identity, gateway info, commands, channels, messages, pins, guilds."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from aiohttp import web

from . import errors as err
from . import limits
from . import permissions as perms
from .httpio import int_param, json_reply, no_content, read_body
from .models import (
    AUTO_ARCHIVE_DURATIONS,
    GUILD_FORUM,
    GUILD_TEXT,
    IS_COMPONENTS_V2,
    PRIVATE_THREAD,
    SUPPRESS_EMBEDS,
    SUPPRESS_NOTIFICATIONS,
    Channel,
    Message,
)
from .records import CommandWrite

if TYPE_CHECKING:
    from .server import Emulator

JSONDict = dict[str, Any]
ID = r"{%s:\d+}"


def _id(name: str) -> str:
    return ID % name


class RestApi:
    def __init__(self, emulator: Emulator) -> None:
        self.emu = emulator
        self.state = emulator.state

    def routes(self, prefix: str) -> list[web.RouteDef]:
        c, m, g, u, r = _id("channel_id"), _id("message_id"), _id("guild_id"), _id("user_id"), _id("role_id")
        app, cmd = _id("application_id"), _id("command_id")
        return [
            web.get(f"{prefix}/users/@me", self.get_me),
            web.patch(f"{prefix}/users/@me", self.get_me),
            web.get(f"{prefix}/users/@me/guilds", self.my_guilds),
            web.post(f"{prefix}/users/@me/channels", self.open_dm),
            web.get(f"{prefix}/users/{u}", self.get_user),
            web.get(f"{prefix}/gateway", self.gateway),
            web.get(f"{prefix}/gateway/bot", self.gateway_bot),
            web.get(f"{prefix}/oauth2/applications/@me", self.application),
            web.get(f"{prefix}/applications/@me", self.application),
            # application commands
            web.get(f"{prefix}/applications/{app}/commands", self.list_commands),
            web.put(f"{prefix}/applications/{app}/commands", self.overwrite_commands),
            web.post(f"{prefix}/applications/{app}/commands", self.upsert_command),
            web.get(f"{prefix}/applications/{app}/commands/{cmd}", self.get_command),
            web.patch(f"{prefix}/applications/{app}/commands/{cmd}", self.edit_command),
            web.delete(f"{prefix}/applications/{app}/commands/{cmd}", self.delete_command),
            web.get(f"{prefix}/applications/{app}/guilds/{g}/commands/permissions", self.command_permissions),
            web.get(f"{prefix}/applications/{app}/guilds/{g}/commands", self.list_commands),
            web.put(f"{prefix}/applications/{app}/guilds/{g}/commands", self.overwrite_commands),
            web.post(f"{prefix}/applications/{app}/guilds/{g}/commands", self.upsert_command),
            web.get(f"{prefix}/applications/{app}/guilds/{g}/commands/{cmd}", self.get_command),
            web.patch(f"{prefix}/applications/{app}/guilds/{g}/commands/{cmd}", self.edit_command),
            web.delete(f"{prefix}/applications/{app}/guilds/{g}/commands/{cmd}", self.delete_command),
            # channels and messages (pins before {message_id} so "pins" is never taken for an id)
            web.get(f"{prefix}/channels/{c}", self.get_channel),
            web.patch(f"{prefix}/channels/{c}", self.edit_channel),
            web.post(f"{prefix}/channels/{c}/typing", self.typing),
            web.post(f"{prefix}/channels/{c}/threads", self.start_thread),
            web.post(f"{prefix}/channels/{c}/messages/{m}/threads", self.start_thread_from_message),
            web.get(f"{prefix}/channels/{c}/pins", self.list_pins_legacy),
            web.put(f"{prefix}/channels/{c}/pins/{m}", self.pin),
            web.delete(f"{prefix}/channels/{c}/pins/{m}", self.unpin),
            web.get(f"{prefix}/channels/{c}/messages/pins", self.list_pins),
            web.put(f"{prefix}/channels/{c}/messages/pins/{m}", self.pin),
            web.delete(f"{prefix}/channels/{c}/messages/pins/{m}", self.unpin),
            web.post(f"{prefix}/channels/{c}/messages/bulk-delete", self.bulk_delete),
            web.get(f"{prefix}/channels/{c}/messages", self.history),
            web.post(f"{prefix}/channels/{c}/messages", self.create_message),
            web.get(f"{prefix}/channels/{c}/messages/{m}", self.get_message),
            web.patch(f"{prefix}/channels/{c}/messages/{m}", self.edit_message),
            web.delete(f"{prefix}/channels/{c}/messages/{m}", self.delete_message),
            web.put(f"{prefix}/channels/{c}/messages/{m}/reactions/{{emoji}}/@me", self.add_reaction),
            web.delete(f"{prefix}/channels/{c}/messages/{m}/reactions/{{emoji}}/@me", self.remove_reaction),
            web.delete(f"{prefix}/channels/{c}/messages/{m}/reactions", self.clear_reactions),
            # guilds
            web.get(f"{prefix}/guilds/{g}", self.get_guild),
            web.get(f"{prefix}/guilds/{g}/channels", self.guild_channels),
            web.get(f"{prefix}/guilds/{g}/roles", self.guild_roles),
            web.get(f"{prefix}/guilds/{g}/roles/{r}", self.get_role),
            web.get(f"{prefix}/guilds/{g}/members", self.list_members),
            web.get(f"{prefix}/guilds/{g}/members/search", self.search_members),
            web.patch(f"{prefix}/guilds/{g}/members/@me", self.edit_me_in_guild),
            web.get(f"{prefix}/guilds/{g}/members/{u}", self.get_member),
            web.patch(f"{prefix}/guilds/{g}/members/{u}", self.edit_member),
            web.put(f"{prefix}/guilds/{g}/members/{u}/roles/{r}", self.add_member_role),
            web.delete(f"{prefix}/guilds/{g}/members/{u}/roles/{r}", self.remove_member_role),
        ]

    # -- identity -----------------------------------------------------------------------------------

    async def get_me(self, request: web.Request) -> web.Response:
        return json_reply({**self.state.bot.payload(), "verified": True, "mfa_enabled": False, "email": None,
                           "locale": "en-US"})

    async def my_guilds(self, request: web.Request) -> web.Response:
        return json_reply([{"id": str(g.id), "name": g.name, "icon": None, "owner": False, "features": [],
                            "permissions": str(self.state.guild_permissions(g, self.state.bot.id))}
                           for g in self.state.guilds.values()])

    async def get_user(self, request: web.Request) -> web.Response:
        return json_reply(self.state.user(request.match_info["user_id"]).payload())

    async def open_dm(self, request: web.Request) -> web.Response:
        body = (await read_body(request)).dict
        user = self.state.user(body.get("recipient_id", 0))
        return json_reply(self.state.dm_channel(user).payload())

    async def gateway(self, request: web.Request) -> web.Response:
        return json_reply({"url": self.emu.gateway_url.rstrip("/")})

    async def gateway_bot(self, request: web.Request) -> web.Response:
        return json_reply({
            "url": self.emu.gateway_url.rstrip("/"),
            "shards": self.emu.recommended_shards,
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 14400000, "max_concurrency": 1},
        })

    async def application(self, request: web.Request) -> web.Response:
        state = self.state
        return json_reply({
            "id": str(state.application_id),
            "name": state.bot.username,
            "icon": None,
            "description": "Loopback Discord emulator application",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": state.owner.payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": self.emu.application_flags,
            "flags_new": str(self.emu.application_flags),
            "bot": state.bot.payload(),
            "role_connections_verification_url": None,
            "approximate_user_install_count": 0,
            "approximate_user_authorization_count": 0,
            "explicit_content_filter": 0,
            "eligible_oauth2_scopes": ["bot", "applications.commands"],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "approximate_guild_count": len(state.guilds),
            "integration_types_config": {"0": {}},
        })

    # -- application commands -----------------------------------------------------------------------

    def _command_pool(self, request: web.Request) -> tuple[list[JSONDict], int | None]:
        if int(request.match_info["application_id"]) != self.state.application_id:
            raise err.DiscordError(403, 50001, "Missing Access")
        if "guild_id" in request.match_info:
            guild = self.state.guild(request.match_info["guild_id"])
            return self.state.guild_commands.setdefault(guild.id, []), guild.id
        return self.state.global_commands, None

    def _stored_command(self, data: JSONDict, guild_id: int | None, previous: JSONDict | None) -> JSONDict:
        command = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            "name_localizations": None,
            "description_localizations": None,
            "contexts": None,
            "integration_types": [0],
            **data,
        }
        if command["integration_types"] is None:  # sent as null: Discord answers the app's default (guild install)
            command["integration_types"] = [0]
        if command["default_member_permissions"] is not None:  # sent as a number or a string; answered as a string
            command["default_member_permissions"] = str(command["default_member_permissions"])
        command["id"] = previous["id"] if previous else str(self.state.ids.next())
        command["application_id"] = str(self.state.application_id)
        command["version"] = str(self.state.ids.next())
        if guild_id is not None:
            command["guild_id"] = str(guild_id)
            command.pop("contexts", None)
            command.pop("integration_types", None)
        return command

    def _count_creates(self, guild_id: int | None, new: int) -> None:
        """application-commands.mdx "Registering a Command": 200 creates a day per guild (an existing name is
        an edit, not a create; a bulk overwrite counts the names that are new), else 400/30034."""
        if not new:
            return
        key = (guild_id, datetime.now(UTC).date().isoformat())
        done = self.emu.command_creates.get(key, 0)
        if done + new > limits.COMMAND_CREATES_PER_DAY:
            raise err.DiscordError(400, err.MAX_COMMAND_CREATES,
                                   f"Max number of daily application command creates has been reached "
                                   f"({limits.COMMAND_CREATES_PER_DAY})")
        self.emu.command_creates[key] = done + new

    async def list_commands(self, request: web.Request) -> web.Response:
        pool, _ = self._command_pool(request)
        return json_reply(pool)

    async def overwrite_commands(self, request: web.Request) -> web.Response:
        pool, guild_id = self._command_pool(request)
        commands = (await read_body(request)).json
        limits.check_commands(commands)
        old = {(c.get("type", 1), c["name"]): c for c in pool}
        self._count_creates(guild_id, sum((c.get("type", 1), c["name"]) not in old for c in commands))
        stored = [self._stored_command(c, guild_id, old.get((c.get("type", 1), c["name"]))) for c in commands]
        pool[:] = stored
        self.emu.command_writes.append(CommandWrite("PUT", guild_id, tuple(c["name"] for c in stored)))
        self.emu.notifier.notify()
        return json_reply(stored)

    async def upsert_command(self, request: web.Request) -> web.Response:
        pool, guild_id = self._command_pool(request)
        data = (await read_body(request)).dict
        tree = err.ErrorTree()
        limits.check_command(data, tree, ())
        if tree:
            raise err.invalid_form(tree)
        previous = next((c for c in pool if (c.get("type", 1), c["name"]) == (data.get("type", 1), data["name"])), None)
        self._count_creates(guild_id, 0 if previous else 1)
        command = self._stored_command(data, guild_id, previous)
        self.emu.command_writes.append(CommandWrite("POST", guild_id, (command["name"],)))
        if previous is not None:
            pool[pool.index(previous)] = command
        else:
            limits.check_commands([*pool, command])
            pool.append(command)
        self.emu.notifier.notify()
        return json_reply(command, 200 if previous else 201)

    def _find_command(self, request: web.Request) -> tuple[list[JSONDict], JSONDict, int | None]:
        pool, guild_id = self._command_pool(request)
        for command in pool:
            if command["id"] == request.match_info["command_id"]:
                return pool, command, guild_id
        raise err.unknown("application command", err.UNKNOWN_COMMAND)

    async def get_command(self, request: web.Request) -> web.Response:
        return json_reply(self._find_command(request)[1])

    async def edit_command(self, request: web.Request) -> web.Response:
        pool, command, guild_id = self._find_command(request)
        merged = {k: v for k, v in command.items() if k not in ("id", "application_id", "version", "guild_id")}
        merged.update((await read_body(request)).dict)
        tree = err.ErrorTree()
        limits.check_command(merged, tree, ())
        if tree:
            raise err.invalid_form(tree)
        updated = self._stored_command(merged, guild_id, command)
        pool[pool.index(command)] = updated
        self.emu.command_writes.append(CommandWrite("PATCH", guild_id, (updated["name"],)))
        self.emu.notifier.notify()
        return json_reply(updated)

    async def delete_command(self, request: web.Request) -> web.Response:
        pool, command, guild_id = self._find_command(request)
        pool.remove(command)
        self.emu.command_writes.append(CommandWrite("DELETE", guild_id, (command["name"],)))
        self.emu.notifier.notify()
        return no_content()

    async def command_permissions(self, request: web.Request) -> web.Response:
        return json_reply([])

    # -- channels -----------------------------------------------------------------------------------

    def _channel(self, request: web.Request, needed: int = perms.VIEW_CHANNEL) -> Channel:
        channel = self.state.channel(request.match_info["channel_id"])
        self.state.archive_if_idle(channel)
        self.state.require(channel, self.state.bot.id, needed)
        return channel

    def _message(self, request: web.Request, channel: Channel) -> Message:
        """An ephemeral message exists only for its interaction's webhook: channel endpoints answer
        10008 Unknown Message (discord-api-docs#3090, #6007)."""
        msg = self.state.message(channel.id, request.match_info["message_id"])
        if msg.ephemeral:
            raise err.unknown("Message", err.UNKNOWN_MESSAGE)
        return msg

    async def get_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        return json_reply(channel.payload())

    async def edit_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body = (await read_body(request)).dict
        if channel.is_thread:
            return json_reply(self._edit_thread(channel, body).payload())
        self.state.require(channel, self.state.bot.id, perms.VIEW_CHANNEL | perms.MANAGE_CHANNELS)
        if "name" in body:
            channel.name = str(body["name"])
        if "topic" in body:
            channel.topic = body["topic"]
        if channel.guild_id is not None:
            self.state.emit("CHANNEL_UPDATE", channel.payload(), channel.guild_id, 1)
        return json_reply(channel.payload())

    def _edit_thread(self, thread: Channel, body: JSONDict) -> Channel:
        """resources/channel.mdx "Modify Channel" (Thread): setting ``archived`` false on an unlocked thread
        needs only the right to send there (topics/threads.mdx "Permissions": and being in the thread, or
        Manage Threads); anything else, a locked thread's unarchiving included, needs Manage Threads (its
        maker may rename it, archive it, or change its duration). An archived thread takes no change that
        does not unarchive it (50083)."""
        bot = self.state.bot.id
        have = self.state.permissions_in(thread, bot)
        moderator = bool(have & perms.MANAGE_THREADS)
        changes = {k: body[k] for k in ("name", "archived", "auto_archive_duration", "locked") if k in body}
        unarchive = changes.get("archived") is False
        if thread.archived and not unarchive:
            raise err.thread_archived()
        for key, value in changes.items():
            if key == "archived" and value is False and not (thread.locked or changes.get("locked")):
                self.state.require(thread, bot, perms.SEND_MESSAGES)
                if bot not in thread.thread_members and not moderator:
                    raise err.missing_permissions()
            elif not moderator and (key == "locked" or (key == "archived" and thread.locked)
                                    or bot != thread.owner_id):
                raise err.missing_permissions()
        return self.state.set_thread(
            thread, archived=bool(changes["archived"]) if "archived" in changes else None,
            locked=bool(changes["locked"]) if "locked" in changes else None,
            auto_archive_duration=int(changes["auto_archive_duration"]) if "auto_archive_duration" in changes else None,
            name=str(changes["name"]) if "name" in changes else None)

    async def start_thread_from_message(self, request: web.Request) -> web.Response:
        """resources/channel.mdx "Start Thread from Message": Create Public Threads in a text channel (not a
        forum); the thread has the message's id, and a second one from it is 160004."""
        channel = self._channel(request, perms.VIEW_CHANNEL | perms.CREATE_PUBLIC_THREADS)
        if channel.type != GUILD_TEXT:
            raise err.DiscordError(400, err.CANNOT_SEND_IN_NON_TEXT, "Cannot execute action on this channel type")
        body = (await read_body(request)).dict
        name, duration = _thread_fields(body)
        origin = self._message(request, channel)
        thread = self.state.add_thread(channel, name, owner=self.state.bot, from_message=origin,
                                       auto_archive_duration=duration)
        self.emu.notifier.notify()
        return json_reply(thread.payload(), status=201)  # openapi.json: create_thread_from_message answers 201

    async def start_thread(self, request: web.Request) -> web.Response:
        """resources/channel.mdx "Start Thread without Message" (``type`` defaults to a private thread: Create
        Private Threads; a public one needs Create Public Threads) and "Start Thread in Forum or Media Channel"
        (Send Messages; the post opens with ``message``, answered nested in the thread)."""
        channel = self._channel(request)
        body = (await read_body(request)).dict
        name, duration = _thread_fields(body)
        if channel.type == GUILD_FORUM:
            self.state.require(channel, self.state.bot.id, perms.VIEW_CHANNEL | perms.SEND_MESSAGES)
            message = body.get("message")
            if not isinstance(message, dict):
                raise err.DiscordError(400, err.INVALID_FORM_BODY, "Invalid Form Body")
            limits.check_message(message, path=("message",))
            thread = self.state.add_thread(channel, name, owner=self.state.bot, first_message=message,
                                           auto_archive_duration=duration)
            self.emu.notifier.notify()
            first = self.state.message(thread.id, thread.id)
            # the docs nest the first message; openapi.json's CreatedThreadResponse has no `message` (docs win)
            return json_reply({**thread.payload(), "message": self.state.message_payload(first)}, status=201)
        if channel.type != GUILD_TEXT:
            raise err.DiscordError(400, err.CANNOT_SEND_IN_NON_TEXT, "Cannot execute action on this channel type")
        private = int(body.get("type") or PRIVATE_THREAD) == PRIVATE_THREAD
        self.state.require(channel, self.state.bot.id, perms.VIEW_CHANNEL | (
            perms.CREATE_PRIVATE_THREADS if private else perms.CREATE_PUBLIC_THREADS))
        thread = self.state.add_thread(channel, name, owner=self.state.bot, private=private,
                                       auto_archive_duration=duration)
        self.emu.notifier.notify()
        return json_reply(thread.payload(), status=201)  # openapi.json: create_thread answers 201

    async def typing(self, request: web.Request) -> web.Response:
        self._channel(request, perms.VIEW_CHANNEL | perms.SEND_MESSAGES)
        return no_content()

    async def history(self, request: web.Request) -> web.Response:
        channel = self._channel(request, perms.VIEW_CHANNEL | perms.READ_MESSAGE_HISTORY)
        limit = max(1, min(100, int_param(request, "limit", 50) or 50))
        messages = self.state.history(channel)  # oldest first
        before, after, around = (int_param(request, k) for k in ("before", "after", "around"))
        if around is not None:
            older = [m for m in messages if m.id <= around][-(limit // 2 + 1):]
            newer = [m for m in messages if m.id > around][: limit - len(older)]
            picked = older + newer
        elif after is not None:
            picked = [m for m in messages if m.id > after][:limit]
        else:
            picked = [m for m in messages if before is None or m.id < before][-limit:]
        return json_reply([self.state.message_payload(m) for m in reversed(picked)])

    async def create_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request, perms.VIEW_CHANNEL | perms.SEND_MESSAGES)
        body = await read_body(request)
        data = body.dict
        if body.uploads:
            self.state.require(channel, self.state.bot.id, perms.ATTACH_FILES)
        data = self._embeds_allowed(channel, data, None)
        limits.check_message(data, has_files=bool(body.uploads))
        limits.check_attachments(data, list(body.uploads))
        reference = data.get("message_reference")
        if reference and reference.get("message_id") and reference.get("fail_if_not_exists", True):
            self.state.message(reference.get("channel_id") or channel.id, reference["message_id"])
        self.state.post_in_thread(channel, self.state.bot.id)
        flags = int(data.get("flags") or 0) & (SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2)
        msg = self.state.create_message(channel, self.state.bot, data, body.uploads,
                                        type=19 if reference else 0, flags=flags)
        self.emu.notifier.notify()
        return json_reply(self.state.message_payload(msg))

    def _embeds_allowed(self, channel: Channel, data: JSONDict, msg: Message | None) -> JSONDict:
        """Without Embed Links a message's embeds are dropped when it has content, and one with only
        embeds is refused 403/50013 (discord-api-docs#2601; not in the docs). Interaction responses are
        not subject to it (they do not come here)."""
        embeds = data.get("embeds") or ([data["embed"]] if data.get("embed") else [])
        if not embeds or self.state.permissions_in(channel, self.state.bot.id) & perms.EMBED_LINKS:
            return data
        content = data.get("content", msg.content if msg is not None else "")
        if not (content or "").strip():
            raise err.missing_permissions()
        return {**{k: v for k, v in data.items() if k != "embed"}, "embeds": []}

    async def get_message(self, request: web.Request) -> web.Response:
        """resources/message.mdx "Get Channel Message": View Channel and Read Message History."""
        channel = self._channel(request, perms.VIEW_CHANNEL | perms.READ_MESSAGE_HISTORY)
        return json_reply(self.state.message_payload(self._message(request, channel)))

    async def edit_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        msg = self._message(request, channel)
        if msg.author.id != self.state.bot.id:
            raise err.DiscordError(403, err.CANNOT_EDIT_OTHERS_MESSAGE,
                                   "Cannot edit a message authored by another user")
        if channel.is_thread:
            self.state.require_unlocked(channel, self.state.bot.id)
        body = await read_body(request)
        if body.uploads:
            self.state.require(channel, self.state.bot.id, perms.ATTACH_FILES)
        data = self._embeds_allowed(channel, body.dict, msg)
        limits.check_edit(msg, data, list(body.uploads))
        self.state.edit_message(msg, data, body.uploads)
        self.emu.notifier.notify()
        return json_reply(self.state.message_payload(msg))

    async def delete_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        msg = self._message(request, channel)
        if msg.author.id != self.state.bot.id:
            self.state.require(channel, self.state.bot.id, perms.MANAGE_MESSAGES)
        self.state.delete_message(msg)
        self.emu.notifier.notify()
        return no_content()

    async def bulk_delete(self, request: web.Request) -> web.Response:
        channel = self._channel(request, perms.VIEW_CHANNEL | perms.MANAGE_MESSAGES)
        ids = (await read_body(request)).dict.get("messages") or []
        if not 2 <= len(ids) <= 100:
            tree = err.ErrorTree()
            tree.add(("messages",), "BASE_TYPE_BAD_LENGTH", "Must be between 2 and 100 in length.")
            raise err.invalid_form(tree)
        for message_id in ids:
            msg = self.state.messages.get(int(message_id))
            if msg is not None and msg.channel_id == channel.id and not msg.deleted:
                self.state.delete_message(msg)
        self.emu.notifier.notify()
        return no_content()

    # -- pins ---------------------------------------------------------------------------------------

    async def list_pins(self, request: web.Request) -> web.Response:
        channel = self._channel(request, perms.VIEW_CHANNEL | perms.READ_MESSAGE_HISTORY)
        limit = max(1, min(50, int_param(request, "limit", 50) or 50))
        pins = self.state.pins(channel)
        before = request.query.get("before")
        if before:
            pins = [p for p in pins if (p.pinned_at or "") < before]
        return json_reply({
            "items": [{"pinned_at": p.pinned_at, "message": self.state.message_payload(p)} for p in pins[:limit]],
            "has_more": len(pins) > limit,
        })

    async def list_pins_legacy(self, request: web.Request) -> web.Response:
        channel = self._channel(request, perms.VIEW_CHANNEL | perms.READ_MESSAGE_HISTORY)
        return json_reply([self.state.message_payload(p) for p in self.state.pins(channel)])

    async def pin(self, request: web.Request) -> web.Response:
        """Pin Messages only, since 2026-02-23 (change-log.mdx "Permission Changes Going into Effect
        February 2026"; resources/message.mdx "Pin Message"): Manage Messages alone no longer pins."""
        channel = self._channel(request, perms.VIEW_CHANNEL | perms.PIN_MESSAGES)
        if channel.is_thread:
            self.state.require_unlocked(channel, self.state.bot.id)
        self.state.pin(channel, self._message(request, channel))
        self.emu.notifier.notify()
        return no_content()

    async def unpin(self, request: web.Request) -> web.Response:
        """Pin Messages only, since 2026-02-23 (change-log.mdx "Permission Changes Going into Effect
        February 2026"; resources/message.mdx "Pin Message"): Manage Messages alone no longer pins."""
        channel = self._channel(request, perms.VIEW_CHANNEL | perms.PIN_MESSAGES)
        if channel.is_thread:
            self.state.require_unlocked(channel, self.state.bot.id)
        self.state.unpin(channel, self._message(request, channel))
        self.emu.notifier.notify()
        return no_content()

    # -- reactions ----------------------------------------------------------------------------------

    async def add_reaction(self, request: web.Request) -> web.Response:
        channel = self._channel(request, perms.VIEW_CHANNEL | perms.READ_MESSAGE_HISTORY)
        msg = self._message(request, channel)
        emoji = unquote(request.match_info["emoji"])
        if emoji not in msg.reactions:
            self.state.require(channel, self.state.bot.id, perms.ADD_REACTIONS)
        msg.reactions.setdefault(emoji, set()).add(self.state.bot.id)
        self.emu.notifier.notify()
        return no_content()

    async def remove_reaction(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        msg = self._message(request, channel)
        emoji = unquote(request.match_info["emoji"])
        users = msg.reactions.get(emoji, set())
        users.discard(self.state.bot.id)
        if not users:
            msg.reactions.pop(emoji, None)
        self.emu.notifier.notify()
        return no_content()

    async def clear_reactions(self, request: web.Request) -> web.Response:
        channel = self._channel(request, perms.VIEW_CHANNEL | perms.MANAGE_MESSAGES)
        self._message(request, channel).reactions.clear()
        self.emu.notifier.notify()
        return no_content()

    # -- guilds -------------------------------------------------------------------------------------

    async def get_guild(self, request: web.Request) -> web.Response:
        guild = self.state.guild(request.match_info["guild_id"])
        data = guild.payload()
        if request.query.get("with_counts") in ("1", "true"):
            data["approximate_presence_count"] = 0
        return json_reply(data)

    async def guild_channels(self, request: web.Request) -> web.Response:
        guild = self.state.guild(request.match_info["guild_id"])
        return json_reply([c.payload() for c in guild.channels.values()])

    async def guild_roles(self, request: web.Request) -> web.Response:
        guild = self.state.guild(request.match_info["guild_id"])
        return json_reply([r.payload() for r in guild.roles.values()])

    async def get_role(self, request: web.Request) -> web.Response:
        guild = self.state.guild(request.match_info["guild_id"])
        return json_reply(self.state.role(guild, request.match_info["role_id"]).payload())

    async def list_members(self, request: web.Request) -> web.Response:
        guild = self.state.guild(request.match_info["guild_id"])
        limit = max(1, min(1000, int_param(request, "limit", 1) or 1))
        after = int_param(request, "after", 0) or 0
        members = sorted((m for m in guild.members.values() if m.id > after), key=lambda m: m.id)
        return json_reply([m.payload() for m in members[:limit]])

    async def search_members(self, request: web.Request) -> web.Response:
        guild = self.state.guild(request.match_info["guild_id"])
        query = request.query.get("query", "").lower()
        limit = max(1, min(1000, int_param(request, "limit", 1) or 1))
        found = [m for m in guild.members.values()
                 if m.user.username.lower().startswith(query) or (m.nick or "").lower().startswith(query)]
        return json_reply([m.payload() for m in found[:limit]])

    async def get_member(self, request: web.Request) -> web.Response:
        guild = self.state.guild(request.match_info["guild_id"])
        return json_reply(self.state.member(guild, request.match_info["user_id"]).payload())

    def _manageable_role(self, request: web.Request) -> tuple[Any, Any]:
        guild = self.state.guild(request.match_info["guild_id"])
        member = self.state.member(guild, request.match_info["user_id"])
        role = self.state.role(guild, request.match_info["role_id"])
        bot_perms = self.state.guild_permissions(guild, self.state.bot.id)
        if not bot_perms & perms.MANAGE_ROLES:
            raise err.missing_permissions()
        bot_member = guild.members[self.state.bot.id]
        top = max((guild.roles[r].position for r in bot_member.roles if r in guild.roles), default=0)
        if role.position >= top or role.managed:
            raise err.missing_permissions()
        return member, role

    async def add_member_role(self, request: web.Request) -> web.Response:
        member, role = self._manageable_role(request)
        if role.id not in member.roles:
            self.state.update_member(member, roles=[*member.roles, role.id])
        self.emu.notifier.notify()
        return no_content()

    async def remove_member_role(self, request: web.Request) -> web.Response:
        member, role = self._manageable_role(request)
        if role.id in member.roles:
            self.state.update_member(member, roles=[r for r in member.roles if r != role.id])
        self.emu.notifier.notify()
        return no_content()

    async def edit_member(self, request: web.Request) -> web.Response:
        guild = self.state.guild(request.match_info["guild_id"])
        member = self.state.member(guild, request.match_info["user_id"])
        body = (await read_body(request)).dict
        if "roles" in body:
            if not self.state.guild_permissions(guild, self.state.bot.id) & perms.MANAGE_ROLES:
                raise err.missing_permissions()
            for role_id in body["roles"]:
                self.state.role(guild, role_id)
            self.state.update_member(member, roles=[int(r) for r in body["roles"]])
        if "nick" in body:
            self.state.update_member(member, nick=body["nick"])
        self.emu.notifier.notify()
        return json_reply(member.payload())

    async def edit_me_in_guild(self, request: web.Request) -> web.Response:
        guild = self.state.guild(request.match_info["guild_id"])
        member = self.state.member(guild, self.state.bot.id)
        body = (await read_body(request)).dict
        if "nick" in body:
            self.state.update_member(member, nick=body["nick"])
        return json_reply(member.payload())


def _thread_fields(body: JSONDict) -> tuple[str, int]:
    """A new thread's ``name`` (1-100 characters) and ``auto_archive_duration`` (60, 1440, 4320 or 10080; the
    clients' default, 1440, when left out): resources/channel.mdx "Start Thread ..." JSON params."""
    name, duration = body.get("name"), body.get("auto_archive_duration", 1440)
    if not isinstance(name, str) or not 1 <= len(name) <= 100 or duration not in AUTO_ARCHIVE_DURATIONS:
        raise err.DiscordError(400, err.INVALID_FORM_BODY, "Invalid Form Body")
    return name, int(duration)
