"""The pages: each reads through the services as the session's viewer, then words it with bot/ui's embeds.

Nothing here decides what a viewer may see beyond the channel list the session holds: the services do,
as for the same member's command in Discord (bot/services/campaign.py).

A page is rendered once per kind of viewer and campaign revision and kept (bot/web/page_cache.py): its content
must not depend on the viewer's user id or name, only on what ``kind_of`` holds. The header's name is put in
each answer (``Viewer.header_name``), not in the kept content.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import re
from collections.abc import Awaitable, Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, Any

import discord
from aiohttp import web
from markupsafe import Markup

from bot.errors import UserError
from bot.ops.page_thread import on_page_thread
from bot.services.campaign import LOG_PAGE, LiveLog
from bot.services.event_kinds import NextTurnEvent
from bot.services.results import CharacterView, EventView
from bot.ui import character_embeds, encounter_embeds, pictures, record_embeds, setup_embeds
from bot.web.embeds import Card, card
from bot.web.http import VIEWER, Problem
from bot.web.live import WordedLog, kind_of
from bot.web.markdown import Names, to_html, to_text
from bot.web.metrics import page_of
from bot.web.page_cache import MARK, Rendered

if TYPE_CHECKING:
    from bot.web.server import WebServer
    from bot.web.viewer import Viewer

log = logging.getLogger("grievous.web")
_CHANNEL = re.compile(r"[0-9]{1,20}")
MAX_PAGE = 10_000
ENCOUNTER_EVENTS = 200  # the encounter page's log reads the channel's newest events up to this many
# A page render's lookups in the gateway cache (key -> what it found), kept with the page and checked at each hit
# (bot/web/page_cache.py); None outside a kept page's render (a live frame's).
_LOOKED_UP: contextvars.ContextVar[dict[Hashable, Hashable] | None] = contextvars.ContextVar("web_looked_up",
                                                                                             default=None)


@dataclass(frozen=True)
class ChannelLink:
    id: int
    name: str


@dataclass(frozen=True)
class RosterRow:
    name: str
    npc: bool
    owner: str
    condition: Markup
    wounds: Markup
    wound_count: int
    penalty: int
    healing: Markup
    behind_screen: bool


@dataclass(frozen=True)
class LogLine:
    line: Markup
    undone: bool
    decision: bool


@dataclass(frozen=True)
class Round:
    number: int | None
    lines: tuple[LogLine, ...]


class Pages:
    def __init__(self, server: WebServer) -> None:
        self.server = server

    @property
    def _services(self) -> Any:
        return self.server.bot.services

    # -- helpers -----------------------------------------------------------------------------------

    def _viewer(self, request: web.Request) -> Viewer:
        return request[VIEWER]

    def _guild(self, viewer: Viewer) -> discord.Guild | None:
        return self.server.bot.get_guild(viewer.actor.guild_id)

    def _gateway(self, guild: discord.Guild | None, key: Hashable) -> Hashable:
        """What this process's gateway cache holds for ``key`` now: ("user", id) a member's display name, ("role",
        id) or ("channel", id) a name (None: not cached), ("channels",) the guild's text channels and threads."""
        match key:
            case ("user", int(user_id)):
                member = guild.get_member(user_id) if guild is not None else None
                found = member or self.server.bot.get_user(user_id)
                return found.display_name if found is not None else None
            case ("role", int(role_id)):
                role = guild.get_role(role_id) if guild is not None else None
                return role.name if role is not None else None
            case ("channel", int(channel_id)):
                place = guild.get_channel_or_thread(channel_id) if guild is not None else None
                return place.name if place is not None else None
            case ("channels",) if guild is not None:
                places: list[Any] = [*guild.text_channels, *guild.threads]
                return tuple((c.id, c.name) for c in places)
        return None

    def _looked_up(self, viewer: Viewer, key: Hashable) -> Any:
        """``_gateway``'s answer, noted for the page being rendered (its hits check it again: ``_still_named``)."""
        found = self._gateway(self._guild(viewer), key)
        looked = _LOOKED_UP.get()
        if looked is not None:
            looked[key] = found
        return found

    def _still_named(self, viewer: Viewer, kept: Rendered) -> bool:
        """Whether the gateway still names everything as it did when ``kept`` was rendered."""
        guild = self._guild(viewer)
        return all(self._gateway(guild, key) == found for key, found in kept.names)

    async def _names(self, viewer: Viewer) -> Names:
        """How the page names members, roles and channels: the same for every viewer of a kind (the viewer's own
        name too, as others read it: a page is kept for the kind, bot/web/page_cache.py)."""
        acted: dict[int, str] = await self._services.campaign.member_names(viewer.actor)
        captured = dict(viewer.channel_names)

        def user(user_id: int) -> str | None:
            return self._looked_up(viewer, ("user", user_id)) or acted.get(user_id)

        def role(role_id: int) -> str | None:
            return self._looked_up(viewer, ("role", role_id))  # type: ignore[no-any-return]

        def channel(channel_id: int) -> str | None:
            if viewer.channels is not None and channel_id not in viewer.channels:
                return None  # as Discord shows a mention of a channel one may not view: no name
            return self._looked_up(viewer, ("channel", channel_id)) or captured.get(channel_id)

        return Names(user, role, channel)

    def _channels(self, viewer: Viewer) -> list[ChannelLink]:
        """The guild's text channels and threads the viewer may see, by name: from this process's gateway cache,
        or, when another process holds the guild's shard, as /web named them."""
        found: tuple[tuple[int, str], ...] | None = self._looked_up(viewer, ("channels",))
        if found is None:
            return [ChannelLink(i, name) for i, name in viewer.channel_names]
        return [ChannelLink(i, name) for i, name in found if viewer.channels is None or i in viewer.channels]

    def _channel(self, request: web.Request, viewer: Viewer) -> ChannelLink:
        """The channel the address names, if this guild has it and the viewer may see it (else not found)."""
        text = request.match_info.get("channel", "")
        if _CHANNEL.fullmatch(text):
            for link in self._channels(viewer):
                if link.id == int(text):
                    return link
        raise web.HTTPNotFound

    async def _page(self, viewer: Viewer, template: str, **context: Any) -> Rendered:
        """A page's content for ``viewer``'s kind: the header names its viewer at ``MARK``, filled per answer."""
        fought = await self._services.campaign.fights(viewer.actor, viewer.channels)
        names = await self._names(viewer)
        fights = [ChannelLink(c, names.channel(c) or "a channel") for c in fought]
        return Rendered.page(await self.server.fragment(template, viewer=viewer, nav=True, viewer_name=MARK,
                                                        fights=fights, **context))

    async def _cached(self, request: web.Request, viewer: Viewer, params: Hashable,
                      render: Callable[[], Awaitable[Rendered]]) -> web.Response:
        """The page ``render`` makes, from the page cache when the viewer's kind read it at this revision: a hit
        costs the session's lookup (done) and the revision's read; only a render takes a turn at the gate."""
        page = page_of(request)
        revision = await self._services.campaign.revision(viewer.actor)

        async def gated() -> Rendered:
            looked: dict[Hashable, Hashable] = {}
            _LOOKED_UP.set(looked)  # this render's own task: its worker threads copy the context, so share the dict
            async with self.server.gate.page():
                rendered = await render()
            return replace(rendered, names=tuple(looked.items()))

        rendered = await self.server.cache.get(page, (page, params, kind_of(viewer), revision), gated,
                                               partial(self._still_named, viewer))
        return web.Response(body=rendered.body(viewer.header_name), content_type=rendered.content_type,
                            charset="utf-8" if rendered.content_type == "text/html" else None)

    # -- the pages ---------------------------------------------------------------------------------

    async def campaign(self, request: web.Request) -> web.StreamResponse:
        viewer = self._viewer(request)
        return await self._cached(request, viewer, (), partial(self._campaign, viewer))

    async def _campaign(self, viewer: Viewer) -> Rendered:
        actor = viewer.actor if viewer.table_channel is None else viewer.in_channel(viewer.table_channel)
        setup, rulings = await asyncio.gather(self._services.setup.show(actor),
                                              self._services.setup.ruling_names(actor))
        encounters = await self._services.campaign.encounters(viewer.actor, viewer.channels)
        names = await self._names(viewer)

        def worded() -> tuple[list[tuple[ChannelLink, Card]], Card]:  # five trackers' words: a worker thread's
            return ([(ChannelLink(e.channel_id, names.channel(e.channel_id) or "a channel"),
                      card(encounter_embeds.tracker(e), names, footer=False)) for e in encounters],
                    card(setup_embeds.setup_shown(setup, rulings), names, footer=False))

        running, shown = await on_page_thread(worded)
        return await self._page(viewer, "campaign.html", title="Campaign", setup=shown, running=running,
                                channels=self._channels(viewer))

    async def roster(self, request: web.Request) -> web.StreamResponse:
        viewer = self._viewer(request)
        return await self._cached(request, viewer, (), partial(self._roster, viewer))

    async def _roster(self, viewer: Viewer) -> Rendered:
        views = await self._services.campaign.roster(viewer.actor, viewer.channels)
        names = await self._names(viewer)
        rows = await on_page_thread(lambda: [_roster_row(v, names) for v in views])
        return await self._page(viewer, "roster.html", title="Roster", pcs=[r for r in rows if not r.npc],
                                npcs=[r for r in rows if r.npc])

    async def character(self, request: web.Request) -> web.StreamResponse:
        viewer = self._viewer(request)
        name = _name(request)
        return await self._cached(request, viewer, name, partial(self._character, viewer, name))

    async def _character(self, viewer: Viewer, name: str) -> Rendered:
        view = await self._read_character(viewer, name)
        names = await self._names(viewer)
        # wording a sheet of 64 wounds is CPU work: a worker thread does it
        return await self._page(viewer, "character.html", **await on_page_thread(_character_page, view, names))

    async def diagram(self, request: web.Request) -> web.StreamResponse:
        viewer = self._viewer(request)
        name = _name(request)
        return await self._cached(request, viewer, name, partial(self._diagram, viewer, name))

    async def _diagram(self, viewer: Viewer, name: str) -> Rendered:
        view = await self._read_character(viewer, name)
        png = await pictures.body_picture(view.picture)
        if png is None:
            raise web.HTTPNotFound
        return Rendered(png.data, content_type="image/png")

    async def _read_character(self, viewer: Viewer, name: str) -> CharacterView:
        try:
            view: CharacterView = await self._services.campaign.character(viewer.actor, name, viewer.channels)
        except UserError:  # not its words: they may suggest names close to the one asked for, met or not
            raise Problem(404, "No character of that name is one you can see (it may have been deleted since this "
                               "page was opened): pick one from the roster.") from None
        return view

    async def encounter(self, request: web.Request) -> web.StreamResponse:
        viewer = self._viewer(request)
        channel = self._channel(request, viewer)
        return await self._cached(request, viewer, channel, partial(self._encounter, viewer, channel))

    async def _encounter(self, viewer: Viewer, channel: ChannelLink) -> Rendered:
        live = await self.live_fragment(viewer, channel, self.server.live.worded(kind_of(viewer, channel.id)))
        return await self._page(viewer, "encounter.html", title=f"Fight in #{channel.name}", channel=channel,
                                live=Markup(live))

    async def live_fragment(self, viewer: Viewer, channel: ChannelLink, worded: WordedLog) -> str:
        """The part of the encounter page that changes: the tracker and the fight's log by round, as the viewer's
        kind reads it (bot/web/live.py: every viewer of the kind gets this rendering). Only the events new or
        changed since ``worded`` was last filled are read and worded again."""
        found = await self._services.campaign.encounter(viewer.actor, viewer.channels, channel.id)
        names = await self._names(viewer)
        tracker: Card | None = None
        rounds: list[Round] = []
        if found is not None:
            tracker = card(encounter_embeds.tracker(found), names, footer=False)
            before = worded.lines  # another render of the kind may replace it meanwhile: this one reads its own
            known = {event_id: stamp for event_id, (stamp, _) in before.items()}
            log = await self._services.campaign.live_log(viewer.in_channel(channel.id), viewer.channels, channel.id,
                                                         found.id, known, ENCOUNTER_EVENTS)
            # wording 200 lines is CPU work (~2 ms a line): a worker thread does it, the event loop stays free
            worded.lines, rounds = await on_page_thread(_worded, log, before, names)
        return await self.server.fragment("_live.html", tracker=tracker, rounds=rounds, channel=channel)

    async def live(self, request: web.Request) -> web.StreamResponse:
        """The encounter page's live stream (Server-Sent Events), shared by the viewers of a kind (bot/web/live.py)."""
        viewer = self._viewer(request)
        return await self.server.live.stream(request, viewer, self._channel(request, viewer))

    async def log(self, request: web.Request) -> web.StreamResponse:
        viewer = self._viewer(request)
        channel = self._channel(request, viewer)
        page_text = request.query.get("page", "1")
        if not page_text.isdigit() or not 1 <= int(page_text) <= MAX_PAGE:
            raise Problem(400, f"The page number is a whole number from 1 to {MAX_PAGE}; go back to the first page.")
        number = int(page_text)
        who = request.query.get("character", "").strip()[:100] or None
        return await self._cached(request, viewer, (channel, number, who),
                                  partial(self._log, viewer, channel, number, who))

    async def _log(self, viewer: Viewer, channel: ChannelLink, number: int, who: str | None) -> Rendered:
        campaign = self._services.campaign
        page = await campaign.log(viewer.in_channel(channel.id), viewer.channels, channel.id,
                                  offset=(number - 1) * LOG_PAGE, character=who)
        characters = await campaign.character_names(viewer.actor, viewer.channels)
        names = await self._names(viewer)
        lines = await on_page_thread(lambda: [log_line(e, names) for e in page.events])
        return await self._page(viewer, "log.html", title=f"Log of #{channel.name}", channel=channel,
                                lines=lines, number=number, more=page.more,
                                who=who, characters=list(characters))


def _character_page(view: CharacterView, names: Names) -> dict[str, Any]:
    """The character page's parts (a worker thread's: it reads only what it is given)."""
    sheet = character_embeds.character(view)
    sheet.remove_footer()  # its stored id and version are the bot's bookkeeping
    for index in reversed(range(len(sheet.fields))):
        if (sheet.fields[index].name or "").startswith(("Wounds", "Owner")):
            sheet.remove_field(index)
    return {"title": view.name, "name": view.name, "npc": view.npc,
            "owner": (names.user(view.owner_id) or view.owner_name) if not view.npc else None,
            "injuries": card(character_embeds.injuries(view), names, footer=False), "sheet": card(sheet, names),
            "healing": [(to_html(character_embeds.wound_brief(w, view.system)), words) for w in view.wounds
                        if (words := character_embeds.healing_next(w, view.system))],
            "diagram": view.picture is not None, "alt": diagram_alt(view)}


def _name(request: web.Request) -> str:
    """The character's name the address holds (not found past a name's 100 characters)."""
    name = request.match_info.get("name", "")
    if not 0 < len(name) <= 100:
        raise web.HTTPNotFound
    return name


def log_line(event: EventView, names: Names) -> LogLine:
    line = record_embeds.event_line(event)
    return LogLine(to_html(line, names), event.undone, event.kind == "gm_decide")


@dataclass(frozen=True)
class Entry:
    """One event of a fight's log, worded: its line, and the round it moved the fight to (``/encounter next``)."""

    id: int
    line: LogLine
    moved: int | None


def _worded(log: LiveLog, before: dict[int, tuple[str, Entry]], names: Names
            ) -> tuple[dict[int, tuple[str, Entry]], list[Round]]:
    """A live log's lines (event id -> (stamp, entry)): those ``before`` held as they are now stored kept, the
    fresh ones worded; and the log by round. Run in a worker thread: it reads only what it is given (``names``
    asks the gateway cache's dicts, which a read from another thread does not disturb)."""
    fresh = {event.id: event for event in log.fresh}
    lines: dict[int, tuple[str, Entry]] = {}
    for event_id, stamp in log.stamps:
        event = fresh.get(event_id)
        lines[event_id] = (stamp, _entry(event, names)) if event is not None else before[event_id]
    return lines, by_round([entry for _, (_, entry) in sorted(lines.items())])


def _entry(event: EventView, names: Names) -> Entry:
    record = event.record
    moved = record.round if isinstance(record, NextTurnEvent) and not event.undone else None
    return Entry(event.id, log_line(event, names), moved)


def by_round(entries: Sequence[Entry]) -> list[Round]:
    """An encounter's events (oldest first) under the round they happened in (``/encounter next`` records the
    round it moves to): the newest round first, and in each the newest event first (what just happened is on
    top)."""
    rounds: list[tuple[int | None, list[LogLine]]] = [(None, [])]
    for entry in entries:
        rounds[-1][1].append(entry.line)
        if entry.moved is not None and entry.moved != rounds[-1][0]:
            rounds.append((entry.moved, []))
    if rounds[0][0] is None and len(rounds) > 1:
        first = rounds[1][0]
        rounds[0] = (first - 1 if isinstance(first, int) and first > 1 else 1, rounds[0][1])
    elif rounds[0][0] is None:
        rounds[0] = (1, rounds[0][1])
    return [Round(number, tuple(reversed(lines))) for number, lines in reversed(rounds) if lines]


def diagram_alt(view: CharacterView) -> str:
    """The diagram's alt text: whose body, and each wound as the wound list names it."""
    wounds = [to_text(character_embeds.wound_brief(w, view.system)) for w in view.wounds]
    return f"Body diagram of {view.name}: " + ("; ".join(wounds) if wounds else "no wounds")


def _roster_row(view: CharacterView, names: Names) -> RosterRow:
    wounds = view.wounds
    condition = character_embeds.condition_text(view.summary.condition) if view.summary else ""
    notes = [character_embeds.wound_note(w.note) for w in wounds if w.note]
    return RosterRow(
        name=view.name, npc=view.npc,
        owner="" if view.npc else f"@{names.user(view.owner_id) or view.owner_name or 'a member'}",
        condition=to_html(condition), wounds=to_html(", ".join(character_embeds.wound_brief(w, view.system)
                                                               for w in wounds)),
        wound_count=len(wounds), penalty=sum(abs(w.penalty) for w in wounds),
        healing=to_html("; ".join(notes)), behind_screen=view.behind_screen)
