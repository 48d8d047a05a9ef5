"""The emulated Discord's world: who and what exists, plus the mutations that Discord would announce."""

from __future__ import annotations

import datetime as dt
import mimetypes
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from . import errors as err
from . import permissions as perms
from .models import (
    AUTO_ARCHIVE_DURATIONS,
    DM,
    EPHEMERAL,
    GUILD_FORUM,
    GUILD_TEXT,
    HAS_THREAD,
    IS_COMPONENTS_V2,
    LOADING,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    SUPPRESS_EMBEDS,
    SUPPRESS_NOTIFICATIONS,
    THREAD_STARTER_MESSAGE,
    Attachment,
    Channel,
    Guild,
    Member,
    Message,
    Role,
    User,
    number_components,
)
from .snowflake import SnowflakeFactory, iso_timestamp

JSONDict = dict[str, Any]
# (event name, data, guild id or None, gateway intent bit needed or 0)
Emit = Callable[[str, JSONDict, int | None, int], None]
# ("create" | "edit" | "delete", message): every message change, ephemeral ones included.
MessageObserver = Callable[[str, "Message"], None]

INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_GUILD_MESSAGE_REACTIONS = 1 << 10
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_DIRECT_MESSAGE_REACTIONS = 1 << 13
INTENT_MESSAGE_CONTENT = 1 << 15

# Flags a client may set on a message it creates or edits.
SETTABLE_FLAGS = EPHEMERAL | SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2
PINS_MAX = 250  # topics/opcodes-and-status-codes.mdx 30003


class Upload:
    """A file part of a multipart request (`files[n]`)."""

    def __init__(self, index: int, filename: str, data: bytes, content_type: str | None) -> None:
        self.index = index
        self.filename = filename
        self.data = data
        self.content_type = content_type


def _content_type(upload: Upload, filename: str) -> str | None:
    """Discord works a file's type out itself (discord.py sends every file as application/octet-stream)."""
    if upload.content_type not in (None, "application/octet-stream"):
        return upload.content_type
    if upload.data[:8] == b"\x89PNG\r\n\x1a\n":
        return "image/png"
    return mimetypes.guess_type(filename)[0] or upload.content_type


def _link_attachments(embed: JSONDict, attachments: list[Attachment]) -> JSONDict:
    """Discord turns an embed's `attachment://NAME` image or thumbnail into that file's CDN address (with
    its size); a name the message has no file for stays as it was, and Discord shows no picture."""
    linked = dict(embed)
    for key in ("image", "thumbnail"):
        media = embed.get(key)
        url = media.get("url") if isinstance(media, dict) else None
        if not isinstance(url, str) or not url.startswith("attachment://"):
            continue
        found = next((a for a in attachments if a.filename == url[len("attachment://"):]), None)
        if found is None:
            continue
        resolved: JSONDict = {"url": found.url, "proxy_url": found.url}
        size = found.image_size
        if size is not None:
            resolved.update(width=size[0], height=size[1])
        if found.content_type:
            resolved["content_type"] = found.content_type
        linked[key] = resolved
    return linked


class State:
    def __init__(self, *, bot_name: str, ids: SnowflakeFactory, cdn_base: Callable[[], str]) -> None:
        self.ids = ids
        self._cdn_base = cdn_base
        self.emit: Emit = lambda event, data, guild_id, intent: None
        self.message_observers: list[MessageObserver] = []
        self.bot = User(ids.next(), bot_name, bot=True)
        self.application_id = self.bot.id
        self.owner = User(ids.next(), "owner")
        self.users: dict[int, User] = {self.bot.id: self.bot, self.owner.id: self.owner}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.channel_messages: dict[int, list[Message]] = {}
        self.attachments: dict[int, Attachment] = {}
        self.global_commands: list[JSONDict] = []
        self.guild_commands: dict[int, list[JSONDict]] = {}
        # The clock threads archive by (State.now): the wall clock plus what a test moved it on by.
        self.clock_offset = 0.0

    def now(self) -> float:
        return time.time() + self.clock_offset

    def iso_now(self) -> str:
        return iso_timestamp(dt.datetime.fromtimestamp(self.now(), dt.UTC))

    # -- lookups ------------------------------------------------------------------------------------

    def guild(self, guild_id: int | str) -> Guild:
        guild = self.guilds.get(int(guild_id))
        if guild is None:
            raise err.unknown("Guild", err.UNKNOWN_GUILD)
        return guild

    def channel(self, channel_id: int | str) -> Channel:
        channel = self.channels.get(int(channel_id))
        if channel is None:
            raise err.unknown("Channel", err.UNKNOWN_CHANNEL)
        return channel

    def message(self, channel_id: int | str, message_id: int | str) -> Message:
        msg = self.messages.get(int(message_id))
        if msg is None or msg.deleted or msg.channel_id != int(channel_id):
            raise err.unknown("Message", err.UNKNOWN_MESSAGE)
        return msg

    def user(self, user_id: int | str) -> User:
        user = self.users.get(int(user_id))
        if user is None:
            raise err.unknown("User", err.UNKNOWN_USER)
        return user

    def member(self, guild: Guild, user_id: int | str) -> Member:
        member = guild.members.get(int(user_id))
        if member is None:
            raise err.unknown("Member", err.UNKNOWN_MEMBER)
        return member

    def role(self, guild: Guild, role_id: int | str) -> Role:
        role = guild.roles.get(int(role_id))
        if role is None:
            raise err.unknown("Role", err.UNKNOWN_ROLE)
        return role

    # -- permissions --------------------------------------------------------------------------------

    def guild_permissions(self, guild: Guild, user_id: int) -> int:
        member = guild.members.get(user_id)
        roles = member.roles if member else []
        return perms.base_permissions(
            everyone=guild.everyone.permissions,
            role_permissions=[guild.roles[r].permissions for r in roles if r in guild.roles],
            is_owner=user_id == guild.owner_id,
        )

    def permissions_in(self, channel: Channel, user_id: int) -> int:
        """topics/permissions.mdx "Permission Overwrites" and "Inherited Permissions (Threads)": a thread has
        its parent's overwrites; topics/threads.mdx "Permissions": Send Messages in Threads (not Send
        Messages) lets one post in it, and a private thread is seen only by its members and by holders of
        Manage Threads."""
        if channel.guild_id is None:
            return perms.DM_PERMISSIONS
        guild = self.guilds[channel.guild_id]
        member = guild.members.get(user_id)
        overwrites = list(channel.overwrites)
        parent = guild.channels.get(channel.parent_id) if channel.parent_id else None
        if parent is not None and (channel.is_thread or not overwrites):
            overwrites = list(parent.overwrites)
        value = perms.channel_permissions(
            self.guild_permissions(guild, user_id),
            guild_id=guild.id,
            member_id=user_id,
            member_roles=member.roles if member else [],
            overwrites=overwrites,
            send=perms.SEND_MESSAGES_IN_THREADS if channel.is_thread else perms.SEND_MESSAGES,
        )
        if (channel.type == PRIVATE_THREAD and user_id not in channel.thread_members
                and not value & (perms.MANAGE_THREADS | perms.ADMINISTRATOR)):
            return 0
        return value

    def require(self, channel: Channel, user_id: int, needed: int, *, any_of: bool = False) -> None:
        """403 Missing Access without View Channel, else 403 Missing Permissions without ``needed``. In a
        thread, Send Messages is read as Send Messages in Threads."""
        if channel.is_thread and needed & perms.SEND_MESSAGES:
            needed = (needed & ~perms.SEND_MESSAGES) | perms.SEND_MESSAGES_IN_THREADS
        have = self.permissions_in(channel, user_id)
        if not have & perms.VIEW_CHANNEL:
            raise err.DiscordError(403, err.MISSING_ACCESS, "Missing Access")
        ok = bool(have & needed) if any_of else have & needed == needed
        if not ok:
            raise err.missing_permissions()

    def post_in_thread(self, channel: Channel, user_id: int) -> None:
        """topics/threads.mdx "Active & Archived Threads": sending a message unarchives an archived thread,
        unless it is locked (then 50083, without Manage Threads); "Locked Threads": without Manage Threads
        nobody creates messages in a locked thread (160005). The sender joins it, and the send is activity."""
        if not channel.is_thread:
            if channel.type == GUILD_FORUM:  # topics/threads.mdx "Forums": only threads are made in a forum
                raise err.DiscordError(400, err.CANNOT_SEND_IN_NON_TEXT, "Cannot send messages in a non-text channel")
            return
        self.archive_if_idle(channel)
        moderator = bool(self.permissions_in(channel, user_id) & perms.MANAGE_THREADS)
        if channel.archived:
            if channel.locked and not moderator:
                raise err.thread_archived()
            self.set_thread(channel, archived=False)
        elif channel.locked and not moderator:
            raise err.thread_locked()
        channel.thread_members.add(user_id)
        channel.active_at = self.now()

    def answer_in_thread(self, channel: Channel) -> None:
        """An interaction's public answer is a message sent in the thread: it unarchives an archived one
        (topics/threads.mdx "Active & Archived Threads"). Interaction answers are not held to the channel's
        permissions, so a locked thread is not asked about (not documented either way)."""
        if channel.is_thread and channel.archived and not channel.locked:
            self.set_thread(channel, archived=False)

    def require_unlocked(self, channel: Channel, user_id: int) -> None:
        """topics/threads.mdx "Locked Threads": without Manage Threads nobody updates messages in a locked
        thread (an archived one refuses every edit first: 50083)."""
        self.archive_if_idle(channel)
        if channel.archived:
            raise err.thread_archived()
        if channel.locked and not self.permissions_in(channel, user_id) & perms.MANAGE_THREADS:
            raise err.thread_locked()

    def archive_if_idle(self, channel: Channel) -> bool:
        """topics/threads.mdx "Auto Archive": a thread archives after ``auto_archive_duration`` minutes without
        activity (a message, its unarchiving, its making), THREAD_UPDATE announcing it. Checked whenever
        the thread is used, and for all threads when a test moves the clock on (``archive_idle_threads``)."""
        if (channel.is_thread and not channel.archived
                and self.now() - channel.active_at >= channel.auto_archive_duration * 60):
            self.set_thread(channel, archived=True)
            return True
        return False

    def archive_idle_threads(self) -> list[Channel]:
        return [c for c in list(self.channels.values()) if self.archive_if_idle(c)]

    def set_thread(self, thread: Channel, *, archived: bool | None = None, locked: bool | None = None,
                   auto_archive_duration: int | None = None, name: str | None = None) -> Channel:
        """Change a thread's metadata and announce it (THREAD_UPDATE, events/gateway-events.mdx "Thread
        Update"); ``archive_timestamp`` moves when ``archived`` changes (resources/channel.mdx "Thread Metadata
        Object"), and unarchiving or a new duration is activity (topics/threads.mdx "Auto Archive")."""
        if not thread.is_thread or thread.guild_id is None:
            raise ValueError("only a thread has thread metadata")
        if auto_archive_duration is not None:
            if auto_archive_duration not in AUTO_ARCHIVE_DURATIONS:
                raise err.DiscordError(400, err.INVALID_FORM_BODY, "Invalid Form Body")
            thread.auto_archive_duration = auto_archive_duration
            thread.active_at = self.now()
        if archived is not None and archived != thread.archived:
            thread.archived = archived
            thread.archive_timestamp = self.iso_now()
            if not archived:
                thread.active_at = self.now()
        if locked is not None:
            thread.locked = locked
        if name is not None:
            thread.name = name
        self.emit("THREAD_UPDATE", thread.payload(), thread.guild_id, INTENT_GUILDS)
        return thread

    # -- world building -----------------------------------------------------------------------------

    def add_user(self, username: str, *, global_name: str | None = None, bot: bool = False,
                 user_id: int | None = None) -> User:
        user = User(user_id or self.ids.next(), username, global_name=global_name, bot=bot)
        self.users[user.id] = user
        return user

    def add_guild(self, name: str, *, owner: User | None = None, guild_id: int | None = None,
                  everyone_permissions: int = perms.DEFAULT_EVERYONE, bot_permissions: int = perms.DEFAULT_BOT,
                  locale: str = "en-US") -> Guild:
        owner = owner or self.owner
        self.users.setdefault(owner.id, owner)
        guild = Guild(guild_id or self.ids.next(), name, owner.id, locale=locale)
        guild.roles[guild.id] = Role(guild.id, guild.id, "@everyone", permissions=everyone_permissions)
        bot_role = Role(self.ids.next(), guild.id, self.bot.username, permissions=bot_permissions, position=1,
                        managed=True, bot_id=self.bot.id)
        guild.roles[bot_role.id] = bot_role
        guild.members[owner.id] = Member(owner, guild.id)
        guild.members[self.bot.id] = Member(self.bot, guild.id, roles=[bot_role.id])
        self.guilds[guild.id] = guild
        return guild

    def add_channel(self, guild: Guild, name: str, *, type: int = GUILD_TEXT, topic: str | None = None,
                    parent: Channel | None = None, overwrites: Iterable[perms.Overwrite] = (),
                    channel_id: int | None = None) -> Channel:
        channel = Channel(channel_id or self.ids.next(), name, type=type, guild_id=guild.id,
                          position=len(guild.channels), topic=topic, parent_id=parent.id if parent else None,
                          overwrites=list(overwrites))
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        self.channel_messages[channel.id] = []
        self.emit("CHANNEL_CREATE", channel.payload(), guild.id, INTENT_GUILDS)
        return channel

    def delete_channel(self, channel: Channel) -> None:
        """A server manager deletes a channel (or thread): CHANNEL_DELETE (THREAD_DELETE) follows, and every
        request about it after is 404 Unknown Channel (resources/channel.mdx "Delete/Close Channel")."""
        if channel.guild_id is None:
            raise ValueError("only a server's channel is deleted this way")
        self.guilds[channel.guild_id].channels.pop(channel.id, None)
        self.channels.pop(channel.id, None)
        if channel.is_thread:
            self.emit("THREAD_DELETE", {"id": str(channel.id), "guild_id": str(channel.guild_id),
                                        "parent_id": str(channel.parent_id), "type": channel.type},
                      channel.guild_id, INTENT_GUILDS)
        else:
            self.emit("CHANNEL_DELETE", channel.payload(), channel.guild_id, INTENT_GUILDS)

    def add_thread(self, parent: Channel, name: str, *, owner: User | Member, private: bool = False,
                   members: Iterable[User | Member] = (), archived: bool = False,
                   channel_id: int | None = None, from_message: Message | None = None,
                   first_message: str | Mapping[str, Any] | None = None,
                   auto_archive_duration: int = 1440) -> Channel:
        """A thread of ``parent`` made by ``owner``, who is in it with ``members`` (topics/threads.mdx); the
        bot is in it only if it is among ``members``. THREAD_CREATE announces it.

        - ``from_message``: started from that message of ``parent`` (resources/channel.mdx "Start Thread from
          Message"): the thread has the message's id, is public, the message is flagged HAS_THREAD, and the
          thread opens with a THREAD_STARTER_MESSAGE pointing to it (topics/threads.mdx "New Message Types").
        - a forum ``parent`` makes a forum post (resources/channel.mdx "Start Thread in Forum or Media
          Channel"): public, opened by its first message (``first_message``: its text or its body, else the
          post's name), which has the
          thread's id (topics/threads.mdx "Creating Threads in Forum and Media Channels")."""
        if parent.guild_id is None or parent.is_thread:
            raise ValueError("a thread's parent is a text, announcement or forum channel")
        if auto_archive_duration not in AUTO_ARCHIVE_DURATIONS:
            raise ValueError(f"auto_archive_duration is one of {AUTO_ARCHIVE_DURATIONS} (minutes)")
        forum = parent.type == GUILD_FORUM
        if (forum or from_message is not None) and private:
            raise ValueError("a forum post and a thread started from a message are public threads")
        if from_message is not None:
            if from_message.channel_id != parent.id:
                raise ValueError("the message is not in the thread's parent channel")
            if from_message.flags & HAS_THREAD:
                raise err.DiscordError(400, err.THREAD_ALREADY_CREATED,
                                       "A thread has already been created for this message")
            channel_id = from_message.id
        guild = self.guilds[parent.guild_id]
        author = owner.user if isinstance(owner, Member) else owner
        thread_id = channel_id or self.ids.next()
        thread = Channel(thread_id, name, type=PRIVATE_THREAD if private else PUBLIC_THREAD,
                         guild_id=guild.id, position=0, parent_id=parent.id, owner_id=owner.id,
                         thread_members={owner.id, *(m.id for m in members)}, archived=archived,
                         auto_archive_duration=auto_archive_duration, archive_timestamp=self.iso_now(),
                         active_at=self.now())
        guild.channels[thread.id] = thread
        self.channels[thread.id] = thread
        self.channel_messages[thread.id] = []
        self.emit("THREAD_CREATE", {**thread.payload(), "newly_created": True}, guild.id, INTENT_GUILDS)
        if from_message is not None:
            from_message.flags |= HAS_THREAD
            self._announce("MESSAGE_UPDATE", from_message)
            self.create_message(thread, author, {"content": "", "message_reference": {
                "message_id": from_message.id, "channel_id": parent.id, "guild_id": guild.id}},
                type=THREAD_STARTER_MESSAGE)
        elif forum:
            body = first_message if isinstance(first_message, Mapping) else {"content": first_message or name}
            self.create_message(thread, author, body, message_id=thread.id)
        return thread

    def add_role(self, guild: Guild, name: str, *, permissions: int = 0, color: int = 0, hoist: bool = False,
                 mentionable: bool = False, role_id: int | None = None) -> Role:
        role = Role(role_id or self.ids.next(), guild.id, name, permissions=permissions, color=color,
                    position=len(guild.roles), hoist=hoist, mentionable=mentionable)
        guild.roles[role.id] = role
        self.emit("GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.payload()}, guild.id, INTENT_GUILDS)
        return role

    def add_member(self, guild: Guild, user: User, *, roles: Iterable[Role | int] = (),
                   nick: str | None = None) -> Member:
        self.users.setdefault(user.id, user)
        role_ids = [r.id if isinstance(r, Role) else int(r) for r in roles]
        for role_id in role_ids:
            if role_id not in guild.roles:
                raise KeyError(f"role {role_id} is not in guild {guild.name}")
        member = Member(user, guild.id, roles=role_ids, nick=nick)
        guild.members[user.id] = member
        self.emit("GUILD_MEMBER_ADD", {**member.payload(), "guild_id": str(guild.id)}, guild.id,
                  INTENT_GUILD_MEMBERS)
        return member

    def update_member(self, member: Member, *, roles: Iterable[int] | None = None,
                      nick: str | bool | None = False) -> Member:
        if roles is not None:
            member.roles = list(roles)
        if nick is not False:
            member.nick = nick if isinstance(nick, str) else None
        self.emit("GUILD_MEMBER_UPDATE", {**member.payload(), "guild_id": str(member.guild_id)},
                  member.guild_id, INTENT_GUILD_MEMBERS)
        return member

    def dm_channel(self, user: User) -> Channel:
        for channel in self.channels.values():
            if channel.type == DM and channel.recipients and channel.recipients[0].id == user.id:
                return channel
        channel = Channel(self.ids.next(), "", type=DM, recipients=[user])
        self.channels[channel.id] = channel
        self.channel_messages[channel.id] = []
        return channel

    # -- payloads -----------------------------------------------------------------------------------

    def member_payload(self, member: Member, channel: Channel | None = None, *, with_user: bool = True) -> JSONDict:
        permissions = self.permissions_in(channel, member.id) if channel is not None else None
        return member.payload(with_user=with_user, permissions=permissions)

    def message_payload(self, msg: Message, *, depth: int = 0) -> JSONDict:
        """A message as REST answers it (and as an interaction carries it): no `guild_id`, no `member`
        (openapi.json `MessageResponse`; resources/message.mdx "Message Object")."""
        data = msg.payload()
        data["mentions"] = [self.users[u].payload() for u in msg.mention_ids if u in self.users]
        ref = msg.message_reference
        if ref and depth == 0 and ref.get("message_id"):
            referenced = self.messages.get(int(ref["message_id"]))
            if referenced is not None and not referenced.deleted:
                data["referenced_message"] = self.message_payload(referenced, depth=1)
        return data

    def gateway_message_payload(self, msg: Message) -> JSONDict:
        """A message as MESSAGE_CREATE and MESSAGE_UPDATE carry it: the REST shape plus, in a guild, `guild_id`,
        the author's `member` (not for a webhook's message) and each mention's `member` (events/gateway-events.mdx
        "Message Create": "Extra Fields")."""
        data = self.message_payload(msg)
        guild = self.guilds.get(msg.guild_id) if msg.guild_id is not None else None
        if guild is None:
            return data
        data["guild_id"] = str(guild.id)
        member = guild.members.get(msg.author.id)
        if member is not None and msg.webhook_id is None:
            data["member"] = member.payload(with_user=False)
        for mention in data["mentions"]:
            mentioned = guild.members.get(int(mention["id"]))
            if mentioned is not None:
                mention["member"] = mentioned.payload(with_user=False)
        return data

    # -- messages -----------------------------------------------------------------------------------

    def new_attachment(self, channel_id: int, upload: Upload, spec: Mapping[str, Any] | None,
                    ephemeral: bool) -> Attachment:
        attachment_id = self.ids.next()
        filename = str((spec or {}).get("filename") or upload.filename)
        attachment = Attachment(
            attachment_id,
            filename,
            upload.data,
            f"{self._cdn_base()}/attachments/{channel_id}/{attachment_id}/{filename}",
            content_type=_content_type(upload, filename),
            description=(spec or {}).get("description"),
            ephemeral=ephemeral,
        )
        self.attachments[attachment_id] = attachment
        return attachment

    def _resolve_attachments(self, msg: Message, body: Mapping[str, Any], uploads: Mapping[int, Upload],
                             *, editing: bool) -> list[Attachment]:
        specs: list[Mapping[str, Any]] | None = body.get("attachments")
        kept: list[Attachment] = []
        used: set[int] = set()
        if specs is None:
            kept = list(msg.attachments) if editing else []
        else:
            existing = {a.id: a for a in msg.attachments}
            for spec in specs:
                raw_id = spec.get("id")
                if raw_id is None:
                    continue
                if editing and str(raw_id).isdigit() and int(raw_id) in existing:
                    kept.append(existing[int(raw_id)])
                elif str(raw_id).isdigit() and int(raw_id) in uploads:
                    used.add(int(raw_id))
                    kept.append(self.new_attachment(msg.channel_id, uploads[int(raw_id)], spec, msg.ephemeral))
        for index, upload in sorted(uploads.items()):
            if index not in used:
                kept.append(self.new_attachment(msg.channel_id, upload, None, msg.ephemeral))
        return kept

    def _apply_body(self, msg: Message, body: Mapping[str, Any], uploads: Mapping[int, Upload],
                    *, editing: bool) -> None:
        if "content" in body or not editing:
            msg.content = body.get("content") or ""
        if "embeds" in body or "embed" in body or not editing:
            embeds = body.get("embeds")
            if embeds is None and body.get("embed") is not None:
                embeds = [body["embed"]]
            msg.embeds = [dict(e, type=e.get("type", "rich")) for e in embeds or []]
            msg.embed_files = {url[len("attachment://"):] for e in msg.embeds for k in ("image", "thumbnail")
                               if isinstance(url := (e.get(k) or {}).get("url"), str)
                               and url.startswith("attachment://")}
        if "components" in body or not editing:
            msg.components = number_components(list(body.get("components") or []))
        if "flags" in body and body["flags"] is not None:
            keep = msg.flags & ~(SUPPRESS_EMBEDS | IS_COMPONENTS_V2)
            msg.flags = keep | (int(body["flags"]) & (SUPPRESS_EMBEDS | IS_COMPONENTS_V2))
        if "attachments" in body or uploads or not editing:
            msg.attachments = self._resolve_attachments(msg, body, uploads, editing=editing)
        msg.embeds = [_link_attachments(embed, msg.attachments) for embed in msg.embeds]
        if not editing:
            msg.tts = bool(body.get("tts", False))
            reference = body.get("message_reference")
            if reference and reference.get("message_id"):
                msg.message_reference = {
                    "type": reference.get("type", 0),
                    "message_id": str(reference["message_id"]),
                    "channel_id": str(reference.get("channel_id") or msg.channel_id),
                    **({"guild_id": str(msg.guild_id)} if msg.guild_id else {}),
                }

    def _observe(self, change: str, msg: Message) -> None:
        for observer in list(self.message_observers):
            observer(change, msg)

    def _announce(self, event: str, msg: Message) -> None:
        self._observe({"MESSAGE_CREATE": "create", "MESSAGE_UPDATE": "edit"}[event], msg)
        if msg.ephemeral:
            return
        intent = INTENT_GUILD_MESSAGES if msg.guild_id is not None else INTENT_DIRECT_MESSAGES
        self.emit(event, self.gateway_message_payload(msg), msg.guild_id, intent)

    def create_message(
        self,
        channel: Channel,
        author: User,
        body: Mapping[str, Any],
        uploads: Mapping[int, Upload] | None = None,
        *,
        type: int = 0,
        flags: int | None = None,
        webhook_id: int | None = None,
        interaction_id: int | None = None,
        interaction_metadata: JSONDict | None = None,
        message_id: int | None = None,
    ) -> Message:
        msg = Message(
            message_id or self.ids.next(),
            channel.id,
            author,
            guild_id=channel.guild_id,
            type=type,
            webhook_id=webhook_id,
            application_id=self.application_id if webhook_id else None,
            interaction_id=interaction_id,
            interaction_metadata=interaction_metadata,
        )
        msg.flags = flags if flags is not None else int(body.get("flags") or 0) & SETTABLE_FLAGS
        self._apply_body(msg, body, uploads or {}, editing=False)
        self.messages[msg.id] = msg
        self.channel_messages.setdefault(channel.id, []).append(msg)
        if not msg.ephemeral:
            channel.last_message_id = msg.id
            channel.active_at = self.now()  # a thread's activity (topics/threads.mdx "Auto Archive")
        self._announce("MESSAGE_CREATE", msg)
        return msg

    def edit_message(self, msg: Message, body: Mapping[str, Any], uploads: Mapping[int, Upload] | None = None,
                     *, finish_loading: bool = True) -> Message:
        msg.revisions.append(msg.snapshot())
        self._apply_body(msg, body, uploads or {}, editing=True)
        if finish_loading:
            msg.flags &= ~LOADING
        msg.edited_at = iso_timestamp()
        self._announce("MESSAGE_UPDATE", msg)
        return msg

    def delete_message(self, msg: Message) -> None:
        msg.deleted = True
        if msg.pinned:
            msg.pinned = False
        self._observe("delete", msg)
        if msg.ephemeral:
            return
        data: JSONDict = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
        if msg.guild_id is not None:
            data["guild_id"] = str(msg.guild_id)
        intent = INTENT_GUILD_MESSAGES if msg.guild_id is not None else INTENT_DIRECT_MESSAGES
        self.emit("MESSAGE_DELETE", data, msg.guild_id, intent)

    def history(self, channel: Channel, *, include_ephemeral: bool = False,
                include_deleted: bool = False) -> list[Message]:
        return [
            m for m in self.channel_messages.get(channel.id, [])
            if (include_ephemeral or not m.ephemeral) and (include_deleted or not m.deleted)
        ]

    def pins(self, channel: Channel) -> list[Message]:
        pinned = [m for m in self.history(channel) if m.pinned]
        return sorted(pinned, key=lambda m: m.pinned_at or "", reverse=True)

    def _pins_update(self, channel: Channel) -> None:
        pins = self.pins(channel)
        data: JSONDict = {"channel_id": str(channel.id),
                          "last_pin_timestamp": pins[0].pinned_at if pins else None}
        if channel.guild_id is not None:
            data["guild_id"] = str(channel.guild_id)
        self.emit("CHANNEL_PINS_UPDATE", data, channel.guild_id,
                  INTENT_GUILDS if channel.guild_id is not None else INTENT_DIRECT_MESSAGES)

    def pin(self, channel: Channel, msg: Message) -> None:
        if msg.pinned:
            return
        if len(self.pins(channel)) >= PINS_MAX:
            raise err.DiscordError(400, err.MAX_PINS, f"Maximum number of pins reached ({PINS_MAX})")
        msg.pinned = True
        msg.pinned_at = iso_timestamp()
        self._pins_update(channel)

    def unpin(self, channel: Channel, msg: Message) -> None:
        if not msg.pinned:
            return
        msg.pinned = False
        msg.pinned_at = None
        self._pins_update(channel)
