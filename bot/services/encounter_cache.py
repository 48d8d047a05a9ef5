"""Active encounters held in memory between commands, so that an attack reads nothing from the database.

A command on a channel's encounter (``/attack``, ``/cast``, the other engine actions) takes the channel's
entry: the encounter with its combatants and their characters, and the server's settings row, as the last
command on it left them (detached ORM objects). It re-attaches them to its session, which then finds them
in its identity map instead of selecting them. The entry goes back only after the command's transaction
has committed, so the cache holds committed state only; a command that fails, or whose transaction does
not commit, leaves the channel uncached and the next command loads it afresh.

It stays right because:

- The rows it holds carry versions (characters, the encounter): a write based on a stale copy (another
  process changed the row) fails its version check, the command is retried, and the retry loads fresh.
- Every write in this process goes through a session of ``Database.sessions``, whose flushes tell the cache
  which rows they wrote (``Database.on_change``): an entry holding any of them is dropped at once, or, if a
  command has it out, is not put back. A command's own writes to its own entry do not count: the rows it held
  when taken, and the rows it writes and holds when it goes back (a combatant joining, the NPC made for it).
  A bulk UPDATE or DELETE names only its table: one on a table an entry is made of drops every entry,
  one on another table (the answer log marking events answered) none.
- The server's settings row has no version: another process's change to it (a second ``grievous`` process
  on the same database) is seen when the entry is next loaded, at most ``TTL`` seconds later.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field

from sqlalchemy import inspect
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import instance_state

from bot.db.engine import BulkWrite
from bot.db.models import ChannelSettings, Character, Combatant, ContentPack, Encounter, GuildSettings
from bot.db.repositories import know_guild_settings

TTL = 60.0  # seconds an entry is trusted for what carries no version (the server's settings)
SIZE = 2048  # channels held at most, least recently used dropped first
OWNER = "grievous_cache_entry"  # session.info: the entry the session's command has out
LENT = "grievous_cache"  # session.info: (the cache, the entries this attempt took), set by the transaction runner

Key = tuple[str, int]
# The tables whose rows an entry is made of or depends on (what _keys_of reads): a bulk write to any other
# (events marked answered) cannot make an entry stale.
HELD_TABLES = frozenset(model.__tablename__ for model in (Character, Combatant, Encounter, GuildSettings,
                                                          ContentPack, ChannelSettings))


def _keys_of(row: object) -> tuple[Key, ...]:
    """What a written row could make stale, as keys an entry is indexed by."""
    if isinstance(row, Character):
        return (("character", row.id),)
    if isinstance(row, Encounter):
        return (("encounter", row.id), ("channel", row.channel_id))
    if isinstance(row, Combatant):
        return (("encounter", row.encounter_id),)
    if isinstance(row, GuildSettings | ContentPack):
        return (("guild", row.guild_id),)
    if isinstance(row, ChannelSettings):
        return (("channel", row.channel_id),)
    return ()


@dataclass(eq=False)
class Entry:
    """One channel's active encounter (combatants and characters loaded) and its server's settings row.

    What the cache indexes it by is read once, when it is made: its rows may be expired later (a rolled
    back savepoint) and detached, and then cannot be read without the database."""

    encounter: Encounter
    guild: GuildSettings | None
    channel_id: int
    keys: frozenset[Key]
    row_ids: frozenset[int]  # id() of the rows it holds: a command's writes to these are its own
    rows: tuple[object, ...]  # the encounter, its combatants, their characters
    identities: frozenset[tuple[type, tuple[int]]]  # the same, as an identity map's keys begin
    loaded_at: float = field(default_factory=time.monotonic)
    stale: bool = False  # a write by another command while this entry was out: do not put it back
    # Rows its own command wrote that it did not hold when taken (a combatant joining, an NPC made for it): its
    # own news only if it holds them when it goes back, else what it holds misses them and it is stale.
    unheld: list[object] = field(default_factory=list)

    @classmethod
    def of(cls, encounter: Encounter, guild: GuildSettings | None, loaded_at: float | None = None) -> Entry:
        combatants = list(encounter.combatants)
        # vars(): a combatant added by a command may not have its character loaded (lazy="raise")
        characters = [vars(c)["character"] for c in combatants if "character" in vars(c)]
        keys = {("encounter", encounter.id), ("channel", encounter.channel_id), ("guild", encounter.guild_id)}
        keys.update(("character", c.character_id) for c in combatants)
        identities: set[tuple[type, tuple[int]]] = {(Encounter, (encounter.id,))}
        identities.update((Combatant, (c.id,)) for c in combatants)
        identities.update((Character, (c.character_id,)) for c in combatants)
        rows = (encounter, *combatants, *characters)
        row_ids = frozenset(map(id, rows if guild is None else (*rows, guild)))
        return cls(encounter, guild, encounter.channel_id, frozenset(keys), row_ids, rows, frozenset(identities),
                   time.monotonic() if loaded_at is None else loaded_at)


class EncounterCache:
    """Channel id -> Entry; see the module's docstring."""

    def __init__(self, *, ttl: float = TTL, size: int = SIZE) -> None:
        self.ttl, self.size = ttl, size
        self._entries: OrderedDict[int, Entry] = OrderedDict()
        self._out: dict[int, Entry] = {}  # taken by a command that has not committed yet
        self.hits = self.misses = self.dropped = 0

    def __len__(self) -> int:
        return len(self._entries)

    def take(self, channel_id: int) -> Entry | None:
        """The channel's entry, now the caller's until it gives it back (``put``) or drops it."""
        entry = self._entries.pop(channel_id, None)
        if entry is not None and time.monotonic() - entry.loaded_at > self.ttl:
            entry = None
        if entry is None:
            self.misses += 1
            return None
        self.hits += 1
        self._out[channel_id] = entry
        return entry

    def peek(self, channel_id: int) -> Entry | None:
        """The channel's entry for a read that finishes before it next awaits (autocomplete): not taken, so
        read it at once and change nothing in it. None if it is not here or a command has it out."""
        entry = self._entries.get(channel_id)
        if entry is None or time.monotonic() - entry.loaded_at > self.ttl:
            return None
        return entry

    def lend(self, entry: Entry) -> None:
        """Mark a freshly loaded ``entry`` as out, so that writes by others meanwhile keep it from coming back."""
        self._out[entry.channel_id] = entry

    def put(self, entry: Entry) -> None:
        """Give ``entry`` back after its command committed (unless something it holds was written meanwhile)."""
        if self._out.get(entry.channel_id) is entry:
            del self._out[entry.channel_id]
        if entry.stale or not _intact(entry) or not entry.encounter.active:
            return
        unheld, entry = entry.unheld, Entry.of(entry.encounter, entry.guild, entry.loaded_at)  # what it holds now
        if any(id(row) not in entry.row_ids for row in unheld):
            return
        self._entries[entry.channel_id] = entry
        self._entries.move_to_end(entry.channel_id)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)

    def release(self, entry: Entry) -> None:
        """The command that had ``entry`` out failed: keep nothing of it."""
        if self._out.get(entry.channel_id) is entry:
            del self._out[entry.channel_id]

    def clear(self) -> None:
        self._entries.clear()
        for entry in self._out.values():
            entry.stale = True

    def changed(self, session: Session, rows: Iterable[object] | BulkWrite) -> None:
        """``Database.on_change``: drop every entry holding a row ``session`` writes (all of them for a bulk
        write to a table they are made of, or to tables not known)."""
        if isinstance(rows, BulkWrite):
            if rows.tables is None or not rows.tables.isdisjoint(HELD_TABLES):
                self.clear()
            return
        mine = session.info.get(OWNER)
        if not isinstance(mine, Entry):
            mine = None
        keys = _written_keys(rows, mine)
        if keys:
            self._drop_holding(keys, mine)

    def _drop_holding(self, keys: set[Hashable], mine: Entry | None) -> None:
        """Drop every entry that holds one of ``keys``; one out with another command is stale (not ``mine``)."""
        for channel_id, entry in list(self._entries.items()):
            if not keys.isdisjoint(entry.keys):
                del self._entries[channel_id]
                self.dropped += 1
        for entry in self._out.values():
            if entry is not mine and not keys.isdisjoint(entry.keys):
                entry.stale = True


def _written_keys(rows: Iterable[object], mine: Entry | None) -> set[Hashable]:
    """The keys of the rows written.

    A row the command's own entry holds is no news to that entry, but it is to any other entry holding
    the same row (a character in two channels' encounters): those go. One it does not hold yet is its own
    news if it holds it when it goes back (``Entry.unheld``)."""
    keys: set[Hashable] = set()
    for row in rows:
        row_keys = _keys_of(row)
        keys.update(row_keys)
        if mine is not None and id(row) not in mine.row_ids and not mine.keys.isdisjoint(row_keys):
            mine.unheld.append(row)
    return keys


def attach(session: AsyncSession, entry: Entry) -> bool:
    """Make ``entry``'s rows the session's own, as if it had just loaded them: the encounter, its combatants and
    their characters, and the server's settings (or that it has none). False, and nothing attached, if the
    session already holds one of its encounter's rows (the command read them first)."""
    held = session.identity_map.keys()  # none, or a row or two, when a command asks for its encounter
    if held and not entry.identities.isdisjoint(key[:2] for key in held):
        return False
    # What session.add(encounter) does, less its walk of the cascade, which finds the rows the entry lists
    # (about half of attach's time): each row attached, as add attaches each it finds. Private API of
    # SQLAlchemy's Session, held to add's result by tests/services/test_command_reads.py.
    sync = session.sync_session
    instance_state(entry.encounter)._orphaned_outside_of_session = False  # as add does to the row it is given
    for row in entry.rows:
        sync._update_impl(instance_state(row))
    guild = entry.guild
    if guild is None or not _held(session, guild):
        if guild is not None:
            session.add(guild)
        know_guild_settings(session, entry.encounter.guild_id, guild)
    session.info[OWNER] = entry
    return True


def _held(session: AsyncSession, row: object) -> bool:
    key = inspect(row).key
    return key is not None and key in session.identity_map


def _intact(entry: Entry) -> bool:
    """Every attribute of every row still loaded (a row expired by a rollback would need the database)."""
    encounter = entry.encounter
    if "combatants" not in vars(encounter):
        return False
    rows: list[object] = [encounter] if entry.guild is None else [encounter, entry.guild]
    for combatant in encounter.combatants:
        character = vars(combatant).get("character")
        if character is None:
            return False
        rows += (combatant, character)
    for row in rows:
        state = instance_state(row)
        if state.expired_attributes or state.deleted or state.was_deleted or state.pending:
            return False
    return True
