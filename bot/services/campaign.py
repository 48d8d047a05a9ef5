"""What the campaign web page reads (bot/web/): the views the commands return, for one viewer's session.

A web viewer is an ``Actor`` rebuilt from the session (its roles as /web captured them) plus the channels it
may see (None: every channel of the guild, the GM's view). Whether it is the GM, and what an NPC's sheet shows
it, are decided as for a command: ``access`` and ``CharacterService.get``'s screen. What is new here is only
what a page adds: many channels at once, the NPCs a player has met, and the log in pages.
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import json_text
from bot.db import repositories as repo
from bot.db.inline_sqlite import off_the_loop
from bot.errors import NotFound
from bot.ops.page_thread import on_page_thread
from bot.services import access
from bot.services.actor import Actor
from bot.services.characters import load_character, shown
from bot.services.live_events import EventFeed
from bot.services.projection import project_encounter
from bot.services.records import logged
from bot.services.results import CharacterView, EncounterView, EventView
from bot.services.runtime import Runtime
from bot.services.snapshots import encounter_view
from bot.services.viewer import Viewer
from bot.text_safety import skeleton

T = TypeVar("T")
LOG_PAGE = 25
NAMES_REREAD = 100  # events below the newest read again for the members' names
FILTER_SCAN = 2000  # a filtered log reads at most this many of the channel's newest events


@dataclass(frozen=True)
class LiveLog:
    """An encounter's newest events for a live page that has already worded some: each event's id and stamp
    (changes when the stored event does: its payload, whether it was undone), newest first, and as the viewer
    reads them only those whose stamp the page did not know."""

    stamps: tuple[tuple[int, str], ...]
    fresh: tuple[EventView, ...]


@dataclass(frozen=True)
class LogPage:
    events: tuple[EventView, ...]
    offset: int
    more: bool  # older events follow


def _sees(channels: frozenset[int] | None, channel_id: int) -> bool:
    return channels is None or channel_id in channels


class CampaignService:
    def __init__(self, runtime: Runtime) -> None:
        self._rt = runtime
        # guild -> (the newest event read, each member's latest name): a page reads only the events since
        self._member_names: dict[int, tuple[int, dict[int, str]]] = {}

    async def live_log(self, actor: Actor, channels: frozenset[int] | None, channel_id: int, encounter_id: int,
                       known: Mapping[int, str], limit: int) -> LiveLog:
        """The encounter's events among the channel's newest ``limit``, as ``log`` reads them to the viewer, but
        worded afresh (projected) only where ``known`` (id -> stamp, from an earlier call) does not hold the
        event as it is now stored: what a live page re-reads when its channel has a new event."""
        if not _sees(channels, channel_id):
            raise NotFound("no such channel")

        async def work(session: AsyncSession) -> LiveLog:
            # each event's stamp from its stored text: only the events whose stamp the page does not know are read
            # whole (a live page re-read 200 rows and wrote 200 payloads out again at every new event)
            rows = [r for r in await repo.event_stamps(session, channel_id, limit)
                    if r[1] == actor.guild_id and r[2] == encounter_id]
            viewer = await access.viewer_in(session, actor)  # secret rolls turned on or off: all worded afresh
            stamps = tuple((r[0], _stamp(r[3:], viewer)) for r in rows)
            wanted = [i for i, stamp in stamps if known.get(i) != stamp]
            fresh = await repo.events_by_ids(session, wanted) if wanted else []
            got = {r.id for r in fresh}  # one gone meanwhile is left out, not worded from nothing
            return LiveLog(tuple((i, s) for i, s in stamps if i in got or known.get(i) == s),
                           tuple(await logged(session, actor, fresh)))

        return await self._rt.read(work)

    async def _page_read(self, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
        """A read of thousands of rows, fetched off the event loop on SQLite (``off_the_loop``: tens of ms on it).
        Only those: each call to the driver's thread waits for a turn of the loop, which a busy bot makes long, so
        a page's reads of a few hundred rows stay on it."""
        with off_the_loop():
            return await self._rt.read(work)

    async def revision(self, actor: Actor) -> str:
        """What the campaign's pages show, as one short digest: equal while nothing a page of ``actor``'s guild
        shows changed in the database, whichever process wrote it (the web pages' cache, bot/web/page_cache.py).
        One read, one statement, each part through an index (~1 ms on a guild of 10,000 events).

        Covered, and what moves it:
        - a new event (every action, roll, edit, /undo, join, leave, turn, decision): the guild's newest event id,
          and how many of the newest thousand ids it has (on PostgreSQL an event may commit after one with a
          higher id, another process's).
          An event's row is changed in place only where no page shows it or beside a new event: /undo marks the
          undone one (and writes its own), an answer marks ``answered``, ``late`` and the message, an offer or a
          defence prompt records its answer in its payload (the log's line does not show it; an accepted offer and
          an answered prompt write the treatment's or the attack's event);
        - characters created, edited (each write moves ``version``: the ORM's and repositories.write_versioned)
          and deleted, NPCs made and dropped with an encounter: their count, newest id, versions and newest
          ``updated_at`` (a deleted newest row whose id SQLite gives again moves the last);
        - encounters started, ended, their turn, round and order: their count, newest id and versions; the running
          encounters' combatants (joined, left, initiative, declarations), row by row;
        - GM decisions asked, settled or cancelled (their version moves), their count and newest id;
        - the guild's settings row whole (system, GM role, rolls, rulings, turns, secret rolls, GM channel) and its
          ``pack_version``, which every content pack change moves; each channel's system.

        Not covered (not in the database): members', roles' and channels' names from the gateway (the page cache
        checks those a page shows at each hit) and a session's grant (the cache's key holds what a page reads of
        it). Web sessions and links are checked at each request."""
        digest = hashlib.blake2b(digest_size=12)
        digest.update(repr(await self._rt.read(lambda session: repo.page_revision(session, actor.guild_id))).encode())
        return digest.hexdigest()

    def event_feed(self, poll_seconds: float) -> EventFeed:
        """The process's poller of new events for the live pages (bot/services/live_events.py)."""
        return EventFeed(self._rt.db, poll_seconds=poll_seconds)

    async def viewer(self, actor: Actor, *, table_link: bool = False) -> Viewer:
        """Who ``actor`` is here (``viewer_of``): the seat a /web link gives them. A ``table_link`` (a screen that
        reads what the channel reads) is the GM's to make: NotGM for anyone else."""
        if table_link:
            return await self._rt.read(lambda session: access.require_gm(session, actor, "make a table link"))
        return await self._rt.read(lambda session: access.viewer_in(session, actor))

    async def member_names(self, actor: Actor) -> dict[int, str]:
        """Members' display names as their latest action in the guild recorded them, and for a player who has not
        acted, as they were when they made their character. Every page asks: the actions' names are kept, and only
        the events written since the last ask are read (a scan of 10,000 events took ~100 ms)."""
        guild = actor.guild_id

        async def work(session: AsyncSession) -> dict[int, str]:
            last, names = self._member_names.get(guild, (0, {}))
            # the newest few again: on PostgreSQL an id below the newest may commit after it (another process's)
            rows = await repo.member_names_after(session, guild, max(0, last - NAMES_REREAD))
            if rows:
                names = {**names, **{user_id: name for _, user_id, name in rows}}
                self._member_names[guild] = (max(last, rows[-1][0]), names)
            return {**dict(await repo.owner_names(session, guild)), **names}  # an action's name is the newer

        # the first read of a guild's names reads all its events (10,000 rows): fetched off the event loop
        return await (self._page_read(work) if guild not in self._member_names else self._rt.read(work))

    async def fights(self, actor: Actor, channels: frozenset[int] | None) -> tuple[int, ...]:
        """The channels of the guild's running encounters that the viewer may see (a page's list of fights)."""
        found = await self._rt.read(lambda session: repo.active_channels(session, actor.guild_id))
        return tuple(c for c in found if _sees(channels, c))

    async def encounters(self, actor: Actor, channels: frozenset[int] | None) -> tuple[EncounterView, ...]:
        """The guild's running encounters in the channels the viewer may see, as their trackers show them."""

        async def work(session: AsyncSession) -> tuple[EncounterView, ...]:
            secret = await _secret_npcs(session, actor.guild_id)
            viewer = await access.viewer_in(session, actor)  # each tracker as this viewer may read it
            found = [(e, await self._rt.catalogs.catalog_for(session, e.guild_id, e.system))
                     for e in await repo.active_encounters_in(session, actor.guild_id) if _sees(channels, e.channel_id)]
            # summarising each combatant's sheet (64 wounds) is CPU work: off the event loop (the rows are loaded)
            return await on_page_thread(lambda: tuple(
                [project_encounter(encounter_view(self._rt, e, catalog, secret), viewer) for e, catalog in found]))

        return await self._rt.read(work)

    async def encounter(self, actor: Actor, channels: frozenset[int] | None, channel_id: int
                        ) -> EncounterView | None:
        """The running encounter of one channel the viewer may see, as its tracker shows it (None: none runs)."""
        if not _sees(channels, channel_id):
            return None

        async def work(session: AsyncSession) -> EncounterView | None:
            found = await repo.active_encounter(session, channel_id)
            if found is None or found.guild_id != actor.guild_id:
                return None
            secret = await _secret_npcs(session, actor.guild_id)
            viewer = await access.viewer_in(session, actor)
            catalog = await self._rt.catalogs.catalog_for(session, found.guild_id, found.system)
            # as ``encounters``: the sheets' summaries off the event loop
            return await on_page_thread(
                lambda: project_encounter(encounter_view(self._rt, found, catalog, secret), viewer))

        return await self._rt.read(work)

    async def roster(self, actor: Actor, channels: frozenset[int] | None) -> tuple[CharacterView, ...]:
        """Every player character; for the GM the kept NPCs too, and for a player the NPCs they have met
        (seated in a running encounter in a channel they may see), as /character show shows them."""

        async def work(session: AsyncSession) -> tuple[CharacterView, ...]:
            gm = (await access.viewer_in(session, actor)).is_gm
            met = _met(await repo.seated_characters(session, actor.guild_id), channels)
            rows = [r for r in await repo.characters(session, actor.guild_id) if not r.npc or gm or r.id in met]
            settings = await repo.guild_settings(session, actor.guild_id)
            catalogs = {system: await self._rt.catalogs.catalog_for(session, actor.guild_id, system)
                        for system in {row.system for row in rows}}
            # each sheet's summary and projection is CPU work (50 sheets of 64 wounds): off the loop. The views keep
            # the rows' own sheets, not copies: the rows are this read's, dropped after it
            return await on_page_thread(lambda: tuple(
                [shown(self._rt, actor, row, catalogs[row.system], settings, False) for row in rows]))

        return await self._rt.read(work)

    async def character_names(self, actor: Actor, channels: frozenset[int] | None) -> tuple[str, ...]:
        """The names of the characters ``roster`` shows the viewer, without reading a sheet (the log's filter)."""

        async def work(session: AsyncSession) -> tuple[str, ...]:
            gm = (await access.viewer_in(session, actor)).is_gm
            met = _met(await repo.seated_characters(session, actor.guild_id), channels)
            return tuple(name for i, name, npc in await repo.characters_by_name(session, actor.guild_id)
                         if not npc or gm or i in met)

        return await self._rt.read(work)

    async def character(self, actor: Actor, name: str, channels: frozenset[int] | None) -> CharacterView:
        """One character as the viewer may see it; an NPC they have not met is not found."""

        async def work(session: AsyncSession) -> CharacterView:
            row = await load_character(session, actor, name)
            if row.npc and not (await access.viewer_in(session, actor)).is_gm \
                    and row.id not in _met(await repo.seated_characters(session, actor.guild_id), channels):
                raise NotFound(f"no character named '{name}'")
            settings = await repo.guild_settings(session, actor.guild_id)
            catalog = await self._rt.catalogs.catalog_for(session, actor.guild_id, row.system)
            # as ``roster``: the sheet's copy, summary and projection off the event loop
            return await on_page_thread(shown, self._rt, actor, row, catalog, settings)

        return await self._rt.read(work)

    async def log(self, actor: Actor, channels: frozenset[int] | None, channel_id: int, *, offset: int = 0,
                  limit: int = LOG_PAGE, character: str | None = None) -> LogPage:
        """A page of the channel's events, newest first, as /log shows them to the viewer; with ``character``,
        only the events naming that character (among the newest FILTER_SCAN)."""
        if not _sees(channels, channel_id):
            raise NotFound("no such channel")
        offset = max(0, offset)

        async def work(session: AsyncSession) -> LogPage:
            if character is None:
                rows = await repo.events_page(session, channel_id, offset, limit + 1)
                events = await logged(session, actor, [r for r in rows if r.guild_id == actor.guild_id])
                return LogPage(tuple(events[:limit]), offset, len(events) > limit)
            # the names each event names are stored with it (``event_names``): a page's ids through one index
            ids = await repo.events_naming(session, channel_id, actor.guild_id, skeleton(character), FILTER_SCAN,
                                           offset, limit + 1)
            events = await logged(session, actor, await repo.events_by_ids(session, ids))
            return LogPage(tuple(events[:limit]), offset, len(events) > limit)

        return await self._rt.read(work)


def _stamp(stored: tuple[str, str, bool, str], viewer: Viewer) -> str:
    """What a stored event's log line depends on (its kind, user name, whether undone, payload text), as a digest:
    a rewritten payload (an answered offer), an undo, or the viewer's seat and the server's secret rolls change it."""
    kind, user_name, undone, payload = stored
    text = json_text.dumps([kind, user_name, undone, viewer.seat.value, viewer.secret_rolls]) + payload
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def _met(seated: Iterable[tuple[int, int]], channels: frozenset[int] | None) -> set[int]:
    """The characters seated (channel, character id) in the running encounters of the channels a viewer may see."""
    return {character for channel, character in seated if _sees(channels, channel)}


async def _secret_npcs(session: AsyncSession, guild_id: int) -> bool:
    settings = await repo.guild_settings(session, guild_id)
    return bool(settings is not None and settings.secret_rolls)
