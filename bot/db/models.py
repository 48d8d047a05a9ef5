"""The tables. Sheets are stored as the engine returns them (JSON); versions guard against lost updates."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from bot.db.base import Base, NullableJson


class GuildSettings(Base):
    __tablename__ = "guild_settings"

    guild_id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    system: Mapped[str | None] = mapped_column(String(32))
    gm_role_id: Mapped[int | None]
    rolls_mode: Mapped[str] = mapped_column(String(8), default="auto", server_default="auto")
    # {system id: {ruling name: value}}: only the values the server changed from the engine default
    rulings: Mapped[dict[str, Any]] = mapped_column(default=dict)
    # Moves on every change to the server's homebrew packs (0: never had one), so a process can tell
    # whether its cached catalog is current from the row every command already loads.
    pack_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # Turn order: "enforce" (players act only on their turn), "warn" (they may, and the result says so), "off".
    turns: Mapped[str] = mapped_column(String(8), default="warn", server_default="warn")
    # Secret NPC rolls: players see what their characters would; the full rolls go to the GM only.
    secret_rolls: Mapped[bool] = mapped_column(default=False, server_default=text("false"))
    gm_channel_id: Mapped[int | None]  # where secret rolls are posted (None: privately to the GM who rolled)


class ChannelSettings(Base):
    __tablename__ = "channel_settings"

    guild_id: Mapped[int] = mapped_column(index=True)  # a guild's channels' systems (the web pages' revision)
    channel_id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    system: Mapped[str | None] = mapped_column(String(32))


class ContentPack(Base):
    """One homebrew file of a server's pack for one system: it replaces the default file of that name."""

    __tablename__ = "content_packs"
    __table_args__ = (UniqueConstraint("guild_id", "system", "filename"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int]
    system: Mapped[str] = mapped_column(String(32))
    filename: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    uploaded_by: Mapped[int]
    updated_at: Mapped[datetime]


class Character(Base):
    __tablename__ = "characters"
    __table_args__ = (UniqueConstraint("guild_id", "name_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(index=True)
    name: Mapped[str] = mapped_column(String(100))
    name_key: Mapped[str] = mapped_column(String(100))  # casefolded name: unique per guild
    owner_id: Mapped[int]
    # The owner's display name when they made it: how a page with no gateway cache (grievous web) names an owner who
    # has not acted since (the events name those who have). None: made before it was kept.
    owner_name: Mapped[str | None] = mapped_column(String(100))
    npc: Mapped[bool] = mapped_column(default=False)
    system: Mapped[str] = mapped_column(String(32))
    sheet: Mapped[dict[str, Any]]
    # An NPC made for an encounter (/encounter npcs) belongs to it: it goes when the encounter ends, unless kept.
    encounter_id: Mapped[int | None] = mapped_column(Integer, index=True)
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]

    __mapper_args__ = {"version_id_col": version}


class Encounter(Base):
    __tablename__ = "encounters"
    # One active encounter per channel; ended ones stay for the log.
    __table_args__ = (
        Index("uq_encounters_active_channel", "channel_id", unique=True,
              sqlite_where=text("active"), postgresql_where=text("active")),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(index=True)
    channel_id: Mapped[int] = mapped_column(index=True)
    system: Mapped[str] = mapped_column(String(32))
    round: Mapped[int] = mapped_column(Integer, default=1)
    turn: Mapped[int] = mapped_column(Integer, default=0)
    order: Mapped[list[Any]] = mapped_column(default=list)  # character ids in turn order
    active: Mapped[bool] = mapped_column(default=True)
    tracker_message_id: Mapped[int | None]
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]

    combatants: Mapped[list[Combatant]] = relationship(
        back_populates="encounter", lazy="raise", cascade="save-update, merge, delete", passive_deletes=True,
        order_by="Combatant.id",
    )

    __mapper_args__ = {"version_id_col": version}


class Combatant(Base):
    __tablename__ = "combatants"
    __table_args__ = (UniqueConstraint("encounter_id", "character_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    encounter_id: Mapped[int] = mapped_column(Integer, ForeignKey("encounters.id", ondelete="CASCADE"), index=True)
    character_id: Mapped[int] = mapped_column(Integer, ForeignKey("characters.id", ondelete="CASCADE"), index=True)
    initiative: Mapped[int | None] = mapped_column(Integer)
    declaration: Mapped[dict[str, Any]] = mapped_column(default=dict)

    encounter: Mapped[Encounter] = relationship(back_populates="combatants", lazy="raise")
    character: Mapped[Character] = relationship(lazy="raise")


class Event(Base):
    __tablename__ = "events"
    __table_args__ = (
        Index("ix_events_channel_id_id", "channel_id", "id"),
        # A guild's newest event (the web pages' revision, bot/services/campaign.py) without a scan of them all.
        Index("ix_events_guild_id_id", "guild_id", "id"),
        # Only the few not answered yet: found by their interaction once its answer is sent, or after a restart.
        Index("ix_events_unanswered", "interaction_id", sqlite_where=text("NOT answered"),
              postgresql_where=text("NOT answered")),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int]
    channel_id: Mapped[int]
    encounter_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("encounters.id", ondelete="SET NULL"), index=True)
    user_id: Mapped[int]
    user_name: Mapped[str] = mapped_column(String(100))
    kind: Mapped[str] = mapped_column(String(32))
    payload: Mapped[dict[str, Any]]  # what happened (shown by /log)
    # What /undo takes back: the action's own changes (bot/services/undo_record.py); events logged before
    # those records hold whole snapshots instead. None: /undo skips the event.
    before: Mapped[dict[str, Any] | None] = mapped_column(NullableJson, default=None)
    undone: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime]
    # The interaction that made it, and whether the user has seen its result: false from the commit until its
    # answer (or a late post in the channel, bot/ui/late.py) is sent. Events made without one are answered.
    interaction_id: Mapped[int | None]
    answered: Mapped[bool] = mapped_column(default=True, server_default=text("true"))
    # shown by a late post, its answer having failed: a player's retry of it is refused (bot/services/retries.py)
    late: Mapped[bool] = mapped_column(default=False, server_default=text("false"))
    # The public message that shows it (its answer, or its late post): /undo marks it taken back. None: not
    # known (an ephemeral answer, or an event from before this column).
    message_id: Mapped[int | None]


class EventName(Base):
    """A character an event names (its record's ``named``), by the name's skeleton (bot/text_safety.py): what
    the web page's log filtered by a character reads (bot/services/campaign.py), written with the event (a
    process's first filtered read parsed 2,000 payloads, issue 33). An event's payload is rewritten only to say
    how it was answered, never to name other characters, so its rows never change."""

    __tablename__ = "event_names"
    __table_args__ = (
        # "the newest events of this channel naming this skeleton", read newest first without a table lookup
        Index("ix_event_names_channel", "channel_id", "guild_id", "skeleton", "event_id"),
    )

    event_id: Mapped[int] = mapped_column(Integer, ForeignKey("events.id", ondelete="CASCADE"), primary_key=True)
    skeleton: Mapped[str] = mapped_column(Text, primary_key=True)
    guild_id: Mapped[int]  # the event's, as its channel_id: the index reads no event
    channel_id: Mapped[int]
    event: Mapped[Event] = relationship(lazy="raise")  # the ORM inserts the event first and fills in its id


class PendingDecision(Base):
    __tablename__ = "pending_decisions"
    __table_args__ = (
        # An action asks which decisions its characters still owe, /pending-roll and the tracker those of a
        # channel, a late post those of its events, a GM press those on its message (what it carries): each found
        # without reading every decision ever made, nor every one of its channel.
        Index("ix_pending_decisions_character_id", "character_id"),
        Index("ix_pending_decisions_channel_id", "channel_id"),
        Index("ix_pending_decisions_event_id", "event_id"),
        Index("ix_pending_decisions_message_id", "message_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(index=True)
    channel_id: Mapped[int]
    event_id: Mapped[int | None] = mapped_column(Integer, ForeignKey("events.id", ondelete="SET NULL"))
    character_id: Mapped[int] = mapped_column(Integer, ForeignKey("characters.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(32))
    who: Mapped[str] = mapped_column(String(100))
    options: Mapped[list[Any]]
    choice: Mapped[str | None] = mapped_column(String(64))
    decided_by: Mapped[int | None]
    cancelled: Mapped[bool] = mapped_column(default=False)  # its event was undone
    message_id: Mapped[int | None]  # the message in ``channel_id`` that carries its buttons (None: not posted yet)
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime]

    __mapper_args__ = {"version_id_col": version}


class GuildCommandSync(Base):
    """What a server's own commands were last sent as (bot/system_commands.py), so that a restart sends
    again only to the servers whose commands changed, not to every server (Discord limits those writes)."""

    __tablename__ = "guild_command_syncs"

    guild_id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    signature: Mapped[str] = mapped_column(String(64))
    synced_at: Mapped[datetime]


class DatabaseIdentity(Base):
    """The database's one random id, also written beside a SQLite file (bot/db/identity.py)."""

    __tablename__ = "database_identity"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    created_at: Mapped[datetime]


class WebLink(Base):
    """A /web link not yet opened, or opened or withdrawn (kept until it expires, so a second try says why):
    keyed by the SHA-256 of its token, never the token (bot/services/web_sessions.py)."""

    __tablename__ = "web_links"
    __table_args__ = (Index("ix_web_links_member", "guild_id", "user_id"),)

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    guild_id: Mapped[int]
    user_id: Mapped[int]
    grant: Mapped[str] = mapped_column(Text)  # the Grant as JSON: names, role and channel ids, no secret
    state: Mapped[str] = mapped_column(String(8))  # open, used, revoked
    expires: Mapped[float] = mapped_column(Float)


class WebSession(Base):
    """An open web session, keyed by the SHA-256 of the cookie's session id, never the id itself."""

    __tablename__ = "web_sessions"
    __table_args__ = (Index("ix_web_sessions_member", "guild_id", "user_id"),)

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    guild_id: Mapped[int]
    user_id: Mapped[int]
    grant: Mapped[str] = mapped_column(Text)
    expires: Mapped[float] = mapped_column(Float)
