"""The things a Discord server holds (users, guilds, roles, members, channels, messages) and their JSON shapes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .permissions import Overwrite
from .snowflake import iso_timestamp

JSONDict = dict[str, Any]

# Channel types, as Discord numbers them.
GUILD_TEXT = 0
DM = 1
GUILD_VOICE = 2
GUILD_CATEGORY = 4
GUILD_ANNOUNCEMENT = 5
ANNOUNCEMENT_THREAD = 10
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
GUILD_FORUM = 15
THREAD_TYPES = (ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD)
# A thread's auto_archive_duration, in minutes (resources/channel.mdx "Thread Metadata Object").
AUTO_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)

# Message types and flags of threads (resources/message.mdx "Message Types", "Message Flags").
THREAD_STARTER_MESSAGE = 21
HAS_THREAD = 1 << 5

# Message flags.
EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_EMBEDS = 1 << 2
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_COMPONENTS_V2 = 1 << 15


@dataclass(eq=False)
class User:
    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    avatar: str | None = None

    @property
    def display_name(self) -> str:
        return self.global_name or self.username

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> JSONDict:
        return {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": self.avatar,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
            "primary_guild": None,
        }

    def __repr__(self) -> str:
        return f"<User {self.username} id={self.id}>"


@dataclass(eq=False)
class Role:
    id: int
    guild_id: int
    name: str
    permissions: int = 0
    color: int = 0
    position: int = 0
    hoist: bool = False
    mentionable: bool = False
    managed: bool = False
    bot_id: int | None = None

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> JSONDict:
        data: JSONDict = {
            "id": str(self.id),
            "name": self.name,
            "color": self.color,
            "colors": {"primary_color": self.color, "secondary_color": None, "tertiary_color": None},
            "hoist": self.hoist,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": self.mentionable,
            "flags": 0,
        }
        if self.bot_id is not None:
            data["tags"] = {"bot_id": str(self.bot_id)}
        return data

    def __repr__(self) -> str:
        return f"<Role {self.name} id={self.id}>"


@dataclass(eq=False)
class Member:
    user: User
    guild_id: int
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso_timestamp)

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def display_name(self) -> str:
        return self.nick or self.user.display_name

    @property
    def mention(self) -> str:
        return self.user.mention

    def payload(self, *, with_user: bool = True, permissions: int | None = None) -> JSONDict:
        data: JSONDict = {
            "roles": [str(r) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data

    def __repr__(self) -> str:
        return f"<Member {self.display_name} id={self.id} guild={self.guild_id}>"


@dataclass(eq=False)
class Channel:
    id: int
    name: str
    type: int = GUILD_TEXT
    guild_id: int | None = None
    position: int = 0
    topic: str | None = None
    parent_id: int | None = None
    nsfw: bool = False
    overwrites: list[Overwrite] = field(default_factory=list)
    recipients: list[User] = field(default_factory=list)
    last_message_id: int | None = None
    # Threads (topics/threads.mdx): who is in it, who made it, and whether it is archived or locked.
    thread_members: set[int] = field(default_factory=set)
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440  # minutes of inactivity before it archives
    archive_timestamp: str = field(default_factory=iso_timestamp)  # when archived last changed
    active_at: float = 0.0  # the state's clock (State.now) at its last activity: made, a message, unarchived

    @property
    def is_dm(self) -> bool:
        return self.guild_id is None

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self, *, permissions: int | None = None) -> JSONDict:
        data: JSONDict = {
            "id": str(self.id),
            "type": self.type,
            "last_message_id": str(self.last_message_id) if self.last_message_id else None,
            "flags": 0,
        }
        if self.is_dm:
            data["recipients"] = [u.payload() for u in self.recipients]
        else:
            data.update(
                guild_id=str(self.guild_id),
                name=self.name,
                position=self.position,
                permission_overwrites=[ow.payload() for ow in self.overwrites],
                parent_id=str(self.parent_id) if self.parent_id else None,
                nsfw=self.nsfw,
            )
            if self.type in (GUILD_TEXT, GUILD_ANNOUNCEMENT, GUILD_FORUM):
                data.update(
                    topic=self.topic,
                    rate_limit_per_user=0,
                    default_auto_archive_duration=1440,
                    default_thread_rate_limit_per_user=0,
                )
            elif self.type == GUILD_VOICE:
                data.update(bitrate=64000, user_limit=0, rtc_region=None, rate_limit_per_user=0)
            elif self.is_thread:
                # A thread has no overwrites (it takes its parent's), no position and no nsfw of its own
                # (openapi.json `ThreadResponse`; resources/channel.mdx "Example Thread Channel").
                for key in ("permission_overwrites", "position", "nsfw"):
                    data.pop(key)
                data.update(
                    owner_id=str(self.owner_id) if self.owner_id else None,
                    rate_limit_per_user=0,
                    message_count=0,
                    member_count=len(self.thread_members),
                    total_message_sent=0,
                    thread_metadata={"archived": self.archived, "auto_archive_duration": self.auto_archive_duration,
                                     "archive_timestamp": self.archive_timestamp, "locked": self.locked,
                                     **({"invitable": False} if self.type == PRIVATE_THREAD else {})},
                )
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data

    def __repr__(self) -> str:
        return f"<Channel #{self.name} id={self.id}>"


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    locale: str = "en-US"
    roles: dict[int, Role] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    joined_at: str = field(default_factory=iso_timestamp)

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]

    def role_named(self, name: str) -> Role:
        for role in self.roles.values():
            if role.name == name:
                return role
        raise KeyError(f"no role named {name!r} in {self.name}")

    def channel_named(self, name: str) -> Channel:
        for channel in self.channels.values():
            if channel.name == name:
                return channel
        raise KeyError(f"no channel named {name!r} in {self.name}")

    def member_named(self, name: str) -> Member:
        for member in self.members.values():
            if name in (member.user.username, member.display_name):
                return member
        raise KeyError(f"no member named {name!r} in {self.name}")

    def payload(self) -> JSONDict:
        """The REST shape (GET /guilds/{id}): no channels or members."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.locale,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "max_members": 500000,
            "approximate_member_count": len(self.members),
            # The rest of openapi.json `GuildResponse`'s required fields, as a plain community-less server has them.
            "application_id": None,
            "region": "deprecated",
            "home_header": None,
            "widget_enabled": False,
            "widget_channel_id": None,
            "max_presences": None,
            "max_video_channel_users": 25,
            "max_stage_video_channel_users": 50,
            "nsfw": False,
            "incidents_data": None,
        }

    def gateway_payload(self, members: list[Member]) -> JSONDict:
        """The GUILD_CREATE shape; `members` is what the intents allow the bot to see."""
        data = self.payload()
        data.pop("approximate_member_count")
        data.update(
            joined_at=self.joined_at,
            large=False,
            unavailable=False,
            member_count=len(self.members),
            members=[m.payload() for m in members],
            channels=[c.payload() for c in self.channels.values() if not c.is_thread],
            threads=[c.payload() for c in self.channels.values() if c.is_thread and not c.archived],
            presences=[],
            voice_states=[],
            stage_instances=[],
            guild_scheduled_events=[],
            soundboard_sounds=[],
        )
        return data

    def __repr__(self) -> str:
        return f"<Guild {self.name} id={self.id}>"


@dataclass(eq=False)
class Attachment:
    id: int
    filename: str
    data: bytes
    url: str
    content_type: str | None = None
    description: str | None = None
    ephemeral: bool = False

    @property
    def image_size(self) -> tuple[int, int] | None:
        """Width and height of a PNG, read from its header as Discord reports them; None for other files."""
        if self.data[:8] == b"\x89PNG\r\n\x1a\n" and self.data[12:16] == b"IHDR":
            return int.from_bytes(self.data[16:20], "big"), int.from_bytes(self.data[20:24], "big")
        return None

    def payload(self) -> JSONDict:
        data: JSONDict = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
        }
        if self.content_type:
            data["content_type"] = self.content_type
        size = self.image_size
        if size is not None:
            data["width"], data["height"] = size
        if self.description:
            data["description"] = self.description
        if self.ephemeral:
            data["ephemeral"] = True
        return data


_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")


def walk_components(components: list[JSONDict]) -> Iterator[JSONDict]:
    """Every component, depth first, whatever the nesting (rows, containers, sections, labels)."""
    for component in components:
        yield component
        yield from walk_components(component.get("components") or [])
        for key in ("accessory", "component"):
            child = component.get(key)
            if isinstance(child, dict):
                yield from walk_components([child])


def number_components(components: list[JSONDict]) -> list[JSONDict]:
    """Copy `components`, giving each one without an `id` the next free number, as Discord does."""
    copied: list[JSONDict] = _deep_copy(components)
    taken = {c["id"] for c in walk_components(copied) if isinstance(c.get("id"), int)}
    next_id = 1
    for component in walk_components(copied):
        if component.get("id") is None:
            while next_id in taken:
                next_id += 1
            component["id"] = next_id
            taken.add(next_id)
    return copied


def _deep_copy(components: list[JSONDict]) -> list[JSONDict]:
    def copy(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: copy(v) for k, v in value.items()}
        if isinstance(value, list):
            return [copy(v) for v in value]
        return value

    result: list[JSONDict] = copy(components)
    return result


@dataclass(eq=False)
class Message:
    id: int
    channel_id: int
    author: User
    guild_id: int | None = None
    content: str = ""
    embeds: list[JSONDict] = field(default_factory=list)
    components: list[JSONDict] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    tts: bool = False
    created_at: str = field(default_factory=iso_timestamp)
    edited_at: str | None = None
    pinned: bool = False
    pinned_at: str | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_id: int | None = None
    interaction_metadata: JSONDict | None = None
    message_reference: JSONDict | None = None
    reactions: dict[str, set[int]] = field(default_factory=dict)
    deleted: bool = False
    # Earlier versions of content/embeds/components, oldest first.
    revisions: list[JSONDict] = field(default_factory=list)
    # The files the last body that set the embeds named through attachment://: Discord shows those inside
    # the embed only. A file kept by an edit whose embeds no longer name it is shown a second time, below
    # the embed (discord-api-docs#5675, #4809; reference.mdx "Editing Message Attachments").
    embed_files: set[str] = field(default_factory=set)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    def files_outside_embeds(self) -> list[Attachment]:
        """The attachments a reader sees as files below the message (not inside an embed)."""
        return [a for a in self.attachments if a.filename not in self.embed_files]

    def files_shown_twice(self) -> list[Attachment]:
        """Files a reader sees twice: shown below the message and also as an embed's image or thumbnail."""
        in_embeds = {str((e.get(k) or {}).get("url")) for e in self.embeds for k in ("image", "thumbnail")}
        return [a for a in self.files_outside_embeds() if a.url in in_embeds]

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def mention_ids(self) -> list[int]:
        return [int(m) for m in _MENTION.findall(self.content)]

    @property
    def role_mention_ids(self) -> list[int]:
        return [int(m) for m in _ROLE_MENTION.findall(self.content)]

    def all_components(self) -> list[JSONDict]:
        return list(walk_components(self.components))

    def component(self, custom_id: str) -> JSONDict:
        for component in walk_components(self.components):
            if component.get("custom_id") == custom_id:
                return component
        raise KeyError(f"message {self.id} has no component with custom_id {custom_id!r}")

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in walk_components(self.components) if "custom_id" in c]

    def attachment(self, filename: str) -> Attachment:
        for attachment in self.attachments:
            if attachment.filename == filename:
                return attachment
        raise KeyError(f"message {self.id} has no attachment {filename!r}; it has "
                       f"{[a.filename for a in self.attachments]}")

    def embed_image(self, index: int = 0, kind: str = "image") -> Attachment | None:
        """The attachment an embed's image (or thumbnail) shows, when it points at one of this message's files."""
        url = ((self.embeds[index] if index < len(self.embeds) else {}).get(kind) or {}).get("url")
        return next((a for a in self.attachments if a.url == url), None)

    @property
    def embed_titles(self) -> list[str]:
        return [e.get("title", "") for e in self.embeds]

    @property
    def text(self) -> str:
        """Content plus every embed's visible text, one piece a line: easy to search in assertions."""
        parts = [self.content] if self.content else []
        for embed in self.embeds:
            parts.extend(str(embed[k]) for k in ("title", "description") if embed.get(k))
            if embed.get("author", {}).get("name"):
                parts.append(embed["author"]["name"])
            for f in embed.get("fields", []):
                parts.append(f"{f.get('name', '')}: {f.get('value', '')}")
            if embed.get("footer", {}).get("text"):
                parts.append(embed["footer"]["text"])
        for component in walk_components(self.components):
            if component.get("type") == 10 and component.get("content"):
                parts.append(component["content"])
        return "\n".join(parts)

    def snapshot(self) -> JSONDict:
        return {
            "content": self.content,
            "embeds": list(self.embeds),
            "components": list(self.components),
            "flags": self.flags,
            "edited_at": self.edited_at,
        }

    def payload(self) -> JSONDict:
        """The message without the fields that need other state (mentions); see State.message_payload. REST's
        shape: `guild_id` and `member` come only with the gateway's events (State.gateway_message_payload)."""
        data: JSONDict = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.created_at,
            "edited_timestamp": self.edited_at,
            "tts": self.tts,
            "mention_everyone": "@everyone" in self.content,
            "mentions": [],
            "mention_roles": [str(r) for r in self.role_mention_ids],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": self.pinned,
            "type": self.type,
            "flags": self.flags,
        }
        if self.reactions:
            data["reactions"] = [
                {"emoji": _emoji_payload(key), "count": len(users), "me": False, "burst_count": 0, "me_burst": False,
                 "count_details": {"burst": 0, "normal": len(users)}, "burst_colors": []}
                for key, users in self.reactions.items()
            ]
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
        return data

    def __repr__(self) -> str:
        preview = self.content[:40] or (self.embed_titles[0][:40] if self.embeds else "")
        return f"<Message id={self.id} channel={self.channel_id} author={self.author.username} {preview!r}>"


def _emoji_payload(key: str) -> JSONDict:
    # Custom emoji arrive as "name:id", unicode ones as the character itself.
    name, _, emoji_id = key.partition(":")
    return {"id": emoji_id or None, "name": name}
