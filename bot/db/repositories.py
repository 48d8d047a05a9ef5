"""Queries, each taking the caller's AsyncSession: the caller owns the transaction."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, cast

from sqlalchemy import BigInteger, Select, Table, Update, bindparam, func, insert, inspect, or_, select, text, update
from sqlalchemy import Text as TextType
from sqlalchemy import cast as sql_cast
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession
from sqlalchemy.orm import Session, defer, joinedload
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.exc import StaleDataError

from bot.db.models import (
    ChannelSettings,
    Character,
    Combatant,
    ContentPack,
    Encounter,
    Event,
    EventName,
    GuildSettings,
    PendingDecision,
)

# session.info: {guild id: its settings row, or None for a server with none}, as the command first read it (or
# the encounter cache lent it). A command asks for the row about seven times (the GM check, the catalog, the
# rulings, secret rolls...): the first asks the session, the rest read this dict.
GUILD_SETTINGS = "guild_settings"


def name_key(name: str) -> str:
    return " ".join(name.split()).casefold()


def know_guild_settings(session: AsyncSession, guild_id: int, row: GuildSettings | None) -> None:
    """``row`` is the server's settings row in ``session`` (None: the server has none), so ``guild_settings``
    reads it without asking the session. The dict also holds the row, which the identity map holds only weakly."""
    session.info.setdefault(GUILD_SETTINGS, {})[guild_id] = row


def _known_guild_settings(session: AsyncSession, guild_id: int) -> tuple[bool, GuildSettings | None]:
    known: dict[int, GuildSettings | None] | None = session.info.get(GUILD_SETTINGS)
    if known is None or guild_id not in known:
        return False, None
    row = known[guild_id]
    if row is None:
        return True, None
    # Still this session's and loaded (or added by guild_settings_for_update): not expunged (between a batch's
    # commands), expired or rolled back.
    state = inspect(row)
    if (state.session_id == session.sync_session.hash_key and (state.persistent or state.pending)
            and not state.expired_attributes):
        return True, row
    return False, None


async def guild_settings(session: AsyncSession, guild_id: int) -> GuildSettings | None:
    known, row = _known_guild_settings(session, guild_id)
    if known:
        return row
    row = await session.get(GuildSettings, guild_id)
    know_guild_settings(session, guild_id, row)
    return row


async def guild_settings_for_update(session: AsyncSession, guild_id: int) -> GuildSettings:
    row = await session.get(GuildSettings, guild_id, with_for_update=True)
    if row is None:
        row = GuildSettings(guild_id=guild_id, rolls_mode="auto", rulings={})
        session.add(row)
    know_guild_settings(session, guild_id, row)
    return row


async def content_packs(session: AsyncSession, guild_id: int, system: str) -> Sequence[ContentPack]:
    """The server's homebrew files for ``system``, by file name."""
    query = select(ContentPack).where(ContentPack.guild_id == guild_id, ContentPack.system == system)
    return (await session.scalars(query.order_by(ContentPack.filename))).all()


async def channel_settings(session: AsyncSession, channel_id: int) -> ChannelSettings | None:
    return await session.get(ChannelSettings, channel_id)


async def character_by_name(session: AsyncSession, guild_id: int, name: str,
                            *, for_update: bool = False) -> Character | None:
    query = select(Character).where(Character.guild_id == guild_id, Character.name_key == name_key(name))
    if for_update:
        query = query.with_for_update()
    return (await session.scalars(query)).first()


async def characters(session: AsyncSession, guild_id: int, owner_id: int | None = None) -> Sequence[Character]:
    query = select(Character).where(Character.guild_id == guild_id)
    if owner_id is not None:
        query = query.where(Character.owner_id == owner_id)
    return (await session.scalars(query.order_by(Character.name_key))).all()


async def npc_names(session: AsyncSession, guild_id: int, names: set[str]) -> list[str]:
    """Those of ``names`` that are NPCs of the server (as they are named there now)."""
    keys = {name_key(name): name for name in names}
    query = select(Character.name_key).where(Character.guild_id == guild_id, Character.npc.is_(True),
                                            Character.name_key.in_(keys))
    return [keys[key] for key in (await session.scalars(query)).all()]


async def character_names(session: AsyncSession, guild_id: int, prefix: str, limit: int = 25,
                          *, npcs_seated_in: int | None = None) -> list[str]:
    """Names starting with ``prefix`` first, then names containing it (autocomplete). ``npcs_seated_in``: of
    the NPCs, only those seated in that channel's running encounter."""
    key = name_key(prefix)
    query = select(Character.name, Character.name_key).where(Character.guild_id == guild_id)
    if npcs_seated_in is not None:
        seated = (select(Combatant.character_id).join(Encounter, Encounter.id == Combatant.encounter_id)
                  .where(Encounter.channel_id == npcs_seated_in, Encounter.active.is_(True)))
        query = query.where(or_(Character.npc.is_(False), Character.id.in_(seated)))
    if key:
        escaped = key.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        query = query.where(Character.name_key.like(f"%{escaped}%", escape="\\"))
    rows = (await session.execute(query.order_by(Character.name_key).limit(200))).all()
    ranked = sorted(rows, key=lambda row: (not row.name_key.startswith(key), row.name_key))
    return [row.name for row in ranked[:limit]]


async def guild_names(session: AsyncSession, guild_id: int) -> list[tuple[str, bool]]:
    """Every character's (name, npc) in a server: a new name is checked against how each reads."""
    rows = await session.execute(select(Character.name, Character.npc).where(Character.guild_id == guild_id))
    return [(row.name, bool(row.npc)) for row in rows]


async def taken_name_keys(session: AsyncSession, guild_id: int, keys: Sequence[str]) -> set[str]:
    rows = await session.scalars(
        select(Character.name_key).where(Character.guild_id == guild_id, Character.name_key.in_(list(keys))))
    return set(rows)


def _with_combatants(query: Select[Any]) -> Select[Any]:
    # One SELECT with two LEFT OUTER JOINs (selectinload took three round trips on every command).
    return query.options(joinedload(Encounter.combatants).joinedload(Combatant.character))


async def _one_encounter(session: AsyncSession, query: Select[Any]) -> Encounter | None:
    """The first encounter of ``query`` with its combatants: joined rows are read whole, then de-duplicated."""
    rows = (await session.scalars(_with_combatants(query))).unique().all()
    return rows[0] if rows else None


async def active_encounter(session: AsyncSession, channel_id: int, *, for_update: bool = False) -> Encounter | None:
    """The channel's active encounter with its combatants and their characters loaded."""
    query = select(Encounter).where(Encounter.channel_id == channel_id, Encounter.active.is_(True))
    if for_update and session.get_bind().dialect.name != "sqlite":
        # On PostgreSQL this serializes commands on one channel across processes too (SQLite's
        # BEGIN IMMEDIATE already does). Lock first, then read in a new statement: under READ
        # COMMITTED a locking read that waited sees the locked row's new version but the joined
        # rows (the combatants' sheets) as they were before the lock holder committed.
        locked = await session.scalar(query.with_only_columns(Encounter.id).with_for_update())
        if locked is None:
            return None
        query = select(Encounter).where(Encounter.id == locked)
    return await _one_encounter(session, query)


async def encounter_by_id(session: AsyncSession, encounter_id: int) -> Encounter | None:
    query = select(Encounter).where(Encounter.id == encounter_id)
    return await _one_encounter(session, query)


async def npcs_made_for(session: AsyncSession, encounter_id: int) -> Sequence[Character]:
    """The NPCs /encounter npcs made for that encounter (in it or not)."""
    query = select(Character).where(Character.encounter_id == encounter_id, Character.npc.is_(True))
    return (await session.scalars(query.order_by(Character.name_key))).all()


async def active_encounters_of(session: AsyncSession, character_id: int) -> Sequence[Encounter]:
    query = (select(Encounter).join(Combatant, Combatant.encounter_id == Encounter.id)
             .where(Combatant.character_id == character_id, Encounter.active.is_(True)))
    return (await session.scalars(query)).all()


async def recent_events(session: AsyncSession, channel_id: int, limit: int) -> Sequence[Event]:
    """The channel's last ``limit`` events, newest first, without their undo records (``before``: the sheets
    as they were, the largest column; reading it raises): /log shows what happened, not what /undo restores."""
    query = (select(Event).options(defer(Event.before, raiseload=True)).where(Event.channel_id == channel_id)
             .order_by(Event.id.desc()).limit(limit))
    return (await session.scalars(query)).all()


async def events_page(session: AsyncSession, channel_id: int, offset: int, limit: int) -> Sequence[Event]:
    """The channel's events newest first, ``limit`` of them after the newest ``offset`` (the web page's log)."""
    query = (select(Event).options(defer(Event.before, raiseload=True)).where(Event.channel_id == channel_id)
             .order_by(Event.id.desc()).offset(offset).limit(limit))
    return (await session.scalars(query)).all()


async def event_stamps(session: AsyncSession, channel_id: int, limit: int
                       ) -> list[tuple[int, int, int | None, str, str, bool, str]]:
    """(id, guild, encounter, kind, user name, undone, the payload's JSON text) of the channel's newest ``limit``
    events, newest first: what a live page compares with the lines it has worded, no payload parsed."""
    query = (select(Event.id, Event.guild_id, Event.encounter_id, Event.kind, Event.user_name, Event.undone,
                    sql_cast(Event.payload, TextType))
             .where(Event.channel_id == channel_id).order_by(Event.id.desc()).limit(limit))
    return [(int(i), int(guild), None if encounter is None else int(encounter), str(kind), str(name), bool(undone),
             str(payload)) for i, guild, encounter, kind, name, undone, payload in await session.execute(query)]


async def events_naming(session: AsyncSession, channel_id: int, guild_id: int, name: str, scan: int, offset: int,
                        limit: int) -> list[int]:
    """The ids of the guild's events in the channel naming the skeleton ``name`` (``event_names``) among the
    channel's ``scan`` newest, newest first: ``limit`` of them after the newest ``offset``. Both read an index
    alone: the oldest id scanned (ix_events_channel_id_id, the channel's ids; a channel is one guild's, its id a
    Discord snowflake: with the guild in that WHERE, SQLite walked the guild's index through every channel's
    events instead), then the names' rows (ix_event_names_channel)."""
    oldest = (select(Event.id).where(Event.channel_id == channel_id)
              .order_by(Event.id.desc()).offset(scan - 1).limit(1).scalar_subquery())
    query = (select(EventName.event_id)
             .where(EventName.channel_id == channel_id, EventName.guild_id == guild_id, EventName.skeleton == name,
                    EventName.event_id >= func.coalesce(oldest, 0))
             .order_by(EventName.event_id.desc()).offset(offset).limit(limit))
    return [int(i) for i in await session.scalars(query)]


async def events_by_ids(session: AsyncSession, ids: Collection[int]) -> list[Event]:
    """The events of ``ids`` (those that exist), newest first, without their undo records."""
    found: list[Event] = []
    chunk = list(ids)
    for start in range(0, len(chunk), 500):  # SQLite's bound parameters, a few at a time
        query = (select(Event).options(defer(Event.before, raiseload=True))
                 .where(Event.id.in_(chunk[start:start + 500])))
        found += (await session.scalars(query)).all()
    return sorted(found, key=lambda e: e.id, reverse=True)


async def characters_by_name(session: AsyncSession, guild_id: int) -> list[tuple[int, str, bool]]:
    """(id, name, whether an NPC) of the guild's characters by name, without their sheets."""
    query = select(Character.id, Character.name, Character.npc).where(Character.guild_id == guild_id)
    return [(int(i), str(n), bool(npc)) for i, n, npc in await session.execute(query.order_by(Character.name_key))]


async def owner_names(session: AsyncSession, guild_id: int) -> list[tuple[int, str]]:
    """(owner, their display name when they made it) of the guild's player characters that kept it, oldest
    character first: the name of a member who has not acted since (``member_names_after`` names those who have)."""
    query = select(Character.owner_id, Character.owner_name).where(
        Character.guild_id == guild_id, Character.npc.is_(False), Character.owner_name.is_not(None))
    return [(int(owner), str(name)) for owner, name in await session.execute(query.order_by(Character.id))]


async def member_names_after(session: AsyncSession, guild_id: int, after: int) -> list[tuple[int, int, str]]:
    """(id, user, display name) of the guild's events with an id over ``after``, oldest first: who acted, by the
    name of their latest event (the bot keeps no member list; the web page names owners and mentions with it)."""
    rows = await session.execute(select(Event.id, Event.user_id, Event.user_name)
                                 .where(Event.guild_id == guild_id, Event.id > after).order_by(Event.id))
    return [(int(event_id), int(user_id), str(name)) for event_id, user_id, name in rows]


async def active_channels(session: AsyncSession, guild_id: int) -> list[int]:
    """The channels of the guild's running encounters, oldest first (no combatant, no sheet read)."""
    query = select(Encounter.channel_id).where(Encounter.guild_id == guild_id, Encounter.active.is_(True))
    return [int(c) for c in await session.scalars(query.order_by(Encounter.id))]


async def seated_characters(session: AsyncSession, guild_id: int) -> list[tuple[int, int]]:
    """(channel, character id) of each combatant of the guild's running encounters (no sheet read)."""
    rows = await session.execute(select(Encounter.channel_id, Combatant.character_id)
                                 .join(Combatant, Combatant.encounter_id == Encounter.id)
                                 .where(Encounter.guild_id == guild_id, Encounter.active.is_(True)))
    return [(int(channel), int(character)) for channel, character in rows]


async def event_marks(connection: AsyncConnection, after: int, also: Collection[int], limit: int
                      ) -> Sequence[tuple[int, int]]:
    """(id, channel) of the events with an id over ``after``, and of those named in ``also`` now committed, oldest
    first: where something happened, never what (the live pages' feed, bot/services/live_events.py). Both columns
    are integers on either database: the rows are handed back as the driver made them (up to ``limit`` of them, a
    loop over them held by the feed's poll)."""
    found = EVENTS.c.id > after
    if also:
        found = or_(found, EVENTS.c.id.in_(list(also)))
    query = select(EVENTS.c.id, EVENTS.c.channel_id).where(found).order_by(EVENTS.c.id).limit(limit)
    return (await connection.execute(query)).all()


BACKEND_PID = text("SELECT pg_backend_pid()")  # PostgreSQL: the server process of a connection


async def newest_event_ids(connection: AsyncConnection, limit: int) -> list[int]:
    """The ids of the newest ``limit`` events committed, newest first."""
    return [int(i) for i in await connection.scalars(select(EVENTS.c.id).order_by(EVENTS.c.id.desc()).limit(limit))]


async def active_encounters_in(session: AsyncSession, guild_id: int) -> Sequence[Encounter]:
    """The guild's running encounters with their combatants and characters, oldest first."""
    query = select(Encounter).where(Encounter.guild_id == guild_id, Encounter.active.is_(True)).order_by(Encounter.id)
    return (await session.scalars(_with_combatants(query))).unique().all()


async def last_undoable_event(session: AsyncSession, encounter_id: int) -> Event | None:
    query = (select(Event).where(Event.encounter_id == encounter_id, Event.undone.is_(False),
                                 Event.before.is_not(None))
             .order_by(Event.id.desc()).limit(1))
    return (await session.scalars(query)).first()


async def count_events(session: AsyncSession, channel_id: int) -> int:
    return int(await session.scalar(select(func.count()).select_from(Event).where(Event.channel_id == channel_id))
               or 0)


async def decision(session: AsyncSession, decision_id: int, *, for_update: bool = False) -> PendingDecision | None:
    return await session.get(PendingDecision, decision_id, with_for_update=for_update)


async def decisions_of_event(session: AsyncSession, event_id: int) -> Sequence[PendingDecision]:
    return (await session.scalars(select(PendingDecision).where(PendingDecision.event_id == event_id))).all()


async def open_decisions(session: AsyncSession, channel_id: int) -> Sequence[PendingDecision]:
    query = select(PendingDecision).where(PendingDecision.channel_id == channel_id,
                                          PendingDecision.choice.is_(None), PendingDecision.cancelled.is_(False))
    return (await session.scalars(query.order_by(PendingDecision.id))).all()


async def later_events(session: AsyncSession, guild_id: int, event_id: int, limit: int = 1000) -> Sequence[Event]:
    """The server's events after ``event_id`` that /undo keeps records for and that stand, newest first."""
    query = (select(Event).where(Event.guild_id == guild_id, Event.id > event_id, Event.undone.is_(False),
                                 Event.before.is_not(None))
             .order_by(Event.id.desc()).limit(limit))
    return (await session.scalars(query)).all()


async def active_encounter_id(session: AsyncSession, channel_id: int) -> int | None:
    """The id of the channel's active encounter, if any (no rows loaded, no lock)."""
    return await session.scalar(select(Encounter.id).where(Encounter.channel_id == channel_id,
                                                           Encounter.active.is_(True)))


async def flush(session: AsyncSession) -> None:
    """``session.flush()``, without the call into the session's greenlet when nothing waits to be written (an
    attack's rows are Core statements: after one where the bot rolls, nothing does)."""
    sync = session.sync_session
    if sync.new or sync.dirty or sync.deleted:
        await session.flush()


# An action's own rows, written as Core statements (issue 23): the ORM's flush of an attack's four rows cost more
# than their statements (its unit of work: about a fifth of a hit's CPU). Each write checks the version the row
# was read at, as the ORM's version_id_col does, and leaves the ORM object as a flush would: the values in it
# as committed state, nothing dirty (``set_committed_value``, SQLAlchemy's public attribute API). The caller
# tells the database's change listeners which rows it wrote (``Database.written``), as a flush does.
CHARACTERS = cast(Table, Character.__table__)
ENCOUNTERS = cast(Table, Encounter.__table__)
EVENTS = cast(Table, Event.__table__)
EVENT_NAMES = cast(Table, EventName.__table__)
_VERSIONED: dict[tuple[str, tuple[str, ...]], Update] = {}


def _versioned_update(table: Table, columns: tuple[str, ...]) -> Update:
    """UPDATE ``table`` SET ``columns``, its version moved on, WHERE its id and the version it was read at."""
    key = (table.name, columns)
    statement = _VERSIONED.get(key)
    if statement is None:
        values = {name: bindparam(f"new_{name}", type_=table.c[name].type) for name in columns}
        statement = (update(table).where(table.c.id == bindparam("row_id"), table.c.version == bindparam("row_version"))
                     .values(**values, version=bindparam("new_version")))
        _VERSIONED[key] = statement
    return statement


def is_stored(row: object) -> bool:
    """The row is in the database and its session's as loaded (not new, deleted or expired): a Core write
    of it can stand for the flush's."""
    state = inspect(row)
    return state.persistent and not state.expired_attributes


# A row and the values to store in it (column name -> value).
VersionedWrite = tuple[Character | Encounter, dict[str, Any]]


def _write_versioned(session: Session, writes: Sequence[VersionedWrite]) -> None:
    connection = session.connection()
    for row, values in writes:
        table = cast(Table, type(row).__table__)
        seen = row.version
        params = {f"new_{name}": value for name, value in values.items()}
        params.update(row_id=row.id, row_version=seen, new_version=seen + 1)
        result = connection.execute(_versioned_update(table, tuple(sorted(values))), params)
        if result.rowcount != 1:
            raise StaleDataError(f"UPDATE statement on table '{table.name}' expected to update 1 row(s); "
                                 f"{result.rowcount} were matched.")
        for name, value in values.items():
            set_committed_value(row, name, value)
        set_committed_value(row, "version", seen + 1)


async def write_versioned(session: AsyncSession, writes: Sequence[VersionedWrite]) -> None:
    """Store each write's values in its row and its table, the row's version moved on; StaleDataError if another
    transaction moved a version first (the runner retries the command, as after a flush's). One call into the
    session's greenlet for them all (``run_sync``), as one flush is."""
    await session.run_sync(_write_versioned, writes)


def _insert_event(session: Session, values: dict[str, Any], names: Sequence[str]) -> int:
    connection = session.connection()
    key = connection.execute(insert(EVENTS), values).inserted_primary_key
    event_id = key[0] if key is not None else None
    assert isinstance(event_id, int)
    if names:
        connection.execute(insert(EVENT_NAMES), [
            {"event_id": event_id, "skeleton": name, "guild_id": values["guild_id"], "channel_id": values["channel_id"]}
            for name in names])
    return event_id


async def insert_event(session: AsyncSession, values: dict[str, Any], names: Sequence[str] = ()) -> int:
    """INSERT an event (column name -> value; the columns' defaults for the rest) and the skeletons of the names
    it names (``event_names``, one executemany); its id. For an event whose ORM object nobody needs: an
    action's, which only its id and its undo record outlive."""
    return await session.run_sync(_insert_event, values, names)


async def set_event_before(session: AsyncSession, event_id: int, before: dict[str, Any] | None) -> None:
    """An event's undo record, rewritten after its insert (an action's decisions found moot afterwards)."""
    await (await session.connection()).execute(update(EVENTS).where(EVENTS.c.id == event_id).values(before=before))


def _joined(*parts: Any) -> Any:
    """SQL: the parts as one text, each NULL as empty, separated by '|'."""
    joined: Any = None
    for part in parts:
        text_part = func.coalesce(sql_cast(part, TextType), "")
        joined = text_part if joined is None else joined + "|" + text_part
    return joined


RECENT_EVENTS = 1000  # the newest events of a guild counted in the page revision (one committed late moves it)


def _page_revision_query() -> Select[Any]:
    """One SELECT of scalar subqueries, each read through an index on the guild (or a channel's encounter):
    what the campaign web pages show of ``guild_id`` moves at least one of them (CampaignService.revision says
    which and why). Its parameter: ``guild_id``."""
    guild_id = bindparam("guild_id", type_=BigInteger)

    def totals(model: Any) -> Any:  # rows only added, or changed with their version moved
        return (select(_joined(func.count(), func.max(model.id), func.sum(model.version)))
                .where(model.guild_id == guild_id).scalar_subquery())

    settings = GuildSettings
    newest = select(func.max(Event.id)).where(Event.guild_id == guild_id).scalar_subquery()
    return select(
        newest,
        # on PostgreSQL an event may commit after one with a higher id (another process's): counted among the newest
        select(func.count()).where(Event.guild_id == guild_id, Event.id > newest - RECENT_EVENTS).scalar_subquery(),
        select(_joined(func.count(), func.max(Character.id), func.sum(Character.version),
                       func.max(Character.updated_at))).where(Character.guild_id == guild_id).scalar_subquery(),
        totals(Encounter),
        totals(PendingDecision),
        select(func.aggregate_strings(_joined(Combatant.id, Combatant.character_id, Combatant.initiative,
                                              Combatant.declaration), ","))
        .join(Encounter, Encounter.id == Combatant.encounter_id)
        .where(Encounter.guild_id == guild_id, Encounter.active.is_(True)).scalar_subquery(),
        select(_joined(settings.system, settings.gm_role_id, settings.rolls_mode, settings.rulings,
                       settings.pack_version, settings.turns, settings.secret_rolls, settings.gm_channel_id))
        .where(settings.guild_id == guild_id).scalar_subquery(),
        select(func.aggregate_strings(_joined(ChannelSettings.channel_id, ChannelSettings.system), ","))
        .where(ChannelSettings.guild_id == guild_id).scalar_subquery(),
    )


PAGE_REVISION = _page_revision_query()


async def page_revision(session: AsyncSession, guild_id: int) -> tuple[Any, ...]:
    """The values ``PAGE_REVISION`` reads for ``guild_id``: equal while nothing a page shows changed."""
    return tuple((await session.execute(PAGE_REVISION, {"guild_id": guild_id})).one())
