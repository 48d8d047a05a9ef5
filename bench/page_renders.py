"""Each web page's cold render, one at a time, on bench.web_pages' campaign (issue 33).

    .venv/bin/python -m bench.page_renders                        # builds the campaign (~20 s), keeps it
    .venv/bin/python -m bench.page_renders --repeat 7             # each page read 7 times, each time cold
    .venv/bin/python -m bench.page_renders --profile /tmp/pages   # a cProfile of each (page, viewer) instead

The campaign is bench.web_pages' (50 ars-harn characters in 5 running fights, targets wounded up to 64 times by
real attacks, 10,000 events), built once into ``--database`` (a SQLite file; kept, with a JSON file beside it
naming its guild, channels and members) and read by a ``grievous web`` server in this process (``WebServer`` on a
``WebOnlyHost``: no gateway cache, names from the session and the events). A GM and a player each read every page
(campaign, roster, a character with 56 wounds, its body diagram, its fight, a page of the fight's log, that log
filtered by the character) through HTTP, one request at a time, nothing else running.

A read is cold as a table in play makes it: before each, one action in another fight (``/encounter next``) moves
the campaign's revision, so the page cache misses and the page is rendered, while what the process keeps across
revisions (compiled templates, worded lines, drawn pictures, read records) is kept as it would be. The first read
of each page in the process (nothing kept yet: bench.web_pages' first run) is reported apart. Printed per (page,
viewer): the first read's wall and CPU ms, then the median wall and CPU ms of ``--repeat`` cold reads. CPU is this
process's, every thread's (the server and its client), which a busy machine disturbs far less than wall time.

To compare two checkouts, run each one's copy of this script in turn, several times, on the same ``--database``
(``PYTHONPATH=<checkout> python -m bench.page_renders`` from the checkout): the campaign is the same rows.

``--profile PREFIX`` writes ``PREFIX-first-<page>-<viewer>.prof`` for the first reads and ``PREFIX-<page>-<viewer>
.prof`` for one more cold read of each (no times are reported then), with the pages' worker threads run inline
(cProfile sees one thread; their CPU is the same) and SQLite's big reads too. cProfile slows Python code several
times over, unevenly: read its calls and proportions, and time a change without it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp

from bot.db.engine import Database
from bot.db.migrate import upgrade
from bot.services import Actor, Services
from bot.web.host import WebOnlyHost
from bot.web.server import COOKIE, WebServer
from bot.web.sessions import Grant

DEFAULT_DATABASE = Path("/tmp/grievous-page-renders.db")
PAGES = ("campaign", "roster", "character", "diagram", "encounter", "log", "log by character")
T = TypeVar("T")


@dataclass(frozen=True)
class Table:
    """What the pages need of the built campaign: its guild, fights and members (the JSON beside the database)."""

    guild_id: int
    channels: list[tuple[int, str]]
    gm: tuple[int, str]
    gm_role_id: int
    player: tuple[int, str]
    character: str  # a target with 56 wounds, in the first fight, owned by ``player``

    def grants(self) -> dict[str, Grant]:
        named = tuple(self.channels)
        seen = frozenset(c for c, _ in self.channels)
        return {"gm": Grant(self.guild_id, self.gm[0], self.gm[1], "gm", (self.gm_role_id,), False, None,
                            guild_name="Campaign", channel_names=named),
                "player": Grant(self.guild_id, self.player[0], self.player[1], "player", (), False, seen,
                                guild_name="Campaign", channel_names=named)}

    def paths(self) -> dict[str, str]:
        fight = self.channels[0][0]
        name = quote(self.character, safe="")
        return {"campaign": "/web/", "roster": "/web/roster", "character": f"/web/character/{name}",
                "diagram": f"/web/character/{name}/diagram.png", "encounter": f"/web/encounter/{fight}",
                "log": f"/web/log/{fight}?page=2", "log by character": f"/web/log/{fight}?character={name}"}


async def build(path: Path) -> Table:
    """bench.web_pages' campaign, built into ``path`` through the services (an emulator only names its members)."""
    from bench.web_pages import build_campaign
    from emulator.server import Emulator

    db = Database.from_url(f"sqlite+aiosqlite:///{path}")
    await upgrade(db)
    services = Services(db)
    try:
        campaign = await build_campaign(Emulator(), services)
    finally:
        await services.runtime.close()
        await db.dispose()
    first = campaign.channels[0]
    seated = campaign.characters[first.id]
    character = seated[2]  # 56 wounds
    owner = next(p for p in campaign.players if p.user.id == _owner(campaign, character))
    return Table(campaign.guild_id, [(c.id, c.name) for c in campaign.channels],
                 (campaign.gm.user.id, campaign.gm.display_name), campaign.gm_role_id,
                 (owner.user.id, owner.display_name), character)


def _owner(campaign: Any, name: str) -> int:
    """The player bench.web_pages seats as ``name``'s owner (the number-th character is players[number % 10]'s)."""
    number = [n for names in campaign.characters.values() for n in names].index(name)
    return int(campaign.players[number % len(campaign.players)].user.id)


def table_of(path: Path) -> Table:
    """The campaign kept in ``path``, or built there now."""
    described = path.with_suffix(".json")
    if path.exists() and described.exists():
        data = json.loads(described.read_text())
        return Table(data["guild_id"], [tuple(c) for c in data["channels"]], tuple(data["gm"]), data["gm_role_id"],
                     tuple(data["player"]), data["character"])
    path.unlink(missing_ok=True)
    began = time.perf_counter()
    table = asyncio.run(build(path))
    described.write_text(json.dumps(table.__dict__))
    print(f"campaign built in {time.perf_counter() - began:.0f} s into {path}", file=sys.stderr)
    return table


@contextlib.contextmanager
def inline() -> Iterator[None]:
    """The pages' worker threads (``asyncio.to_thread``, ``on_page_thread``) and SQLite's big reads run on the
    loop's thread, where cProfile sees them."""

    async def to_thread(func: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        return func(*args, **kwargs)

    swapped: list[tuple[object, str, object]] = [(asyncio, "to_thread", to_thread)]
    for module in list(sys.modules.values()):
        named = getattr(module, "__name__", "")
        if not named.startswith("bot.") or named in ("bot.ops.page_thread", "bot.db.inline_sqlite"):
            continue  # their callers hold the names: swapped there
        if hasattr(module, "on_page_thread"):
            swapped.append((module, "on_page_thread", to_thread))
        if hasattr(module, "off_the_loop"):
            swapped.append((module, "off_the_loop", contextlib.nullcontext))
    saved = [(place, name, getattr(place, name)) for place, name, _ in swapped]
    for place, name, new in swapped:
        setattr(place, name, new)
    try:
        yield
    finally:
        for place, name, old in saved:
            setattr(place, name, old)


@dataclass
class Timed:
    """One (page, viewer)'s reads: the first in the process, then the cold ones (ms: wall, this process's CPU)."""

    first: tuple[float, float] = (float("nan"), float("nan"))
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)


async def measure(path: Path, table: Table, repeat: int, profile: str | None) -> dict[tuple[str, str], Timed]:
    db = Database.from_url(f"sqlite+aiosqlite:///{path}")
    await upgrade(db)  # a campaign kept from an older checkout
    services = Services(db)
    await asyncio.to_thread(services.runtime.catalogs.warm_up)  # as `grievous web` starts
    server = WebServer(WebOnlyHost(services), port=0)
    await server.start()
    mover = Actor(table.guild_id, table.channels[-1][0], table.gm[0], table.gm[1], (table.gm_role_id,))
    found: dict[tuple[str, str], Timed] = {}
    try:
        cookies = {}
        for who, grant in table.grants().items():
            session = await server.sessions.exchange(await server.sessions.link_token(grant))
            cookies[who] = {"Cookie": f"{COOKIE}={session.id}"}
        async with aiohttp.ClientSession(base_url=server.base_url) as http:

            async def read(page: str, who: str, profiled: str | None = None) -> tuple[float, float]:
                """One cold read of ``page`` as ``who``: (wall ms, CPU ms); ``profiled``: a cProfile of it there."""
                await services.encounters.next_turn(mover)  # the revision moves: the page cache misses
                await asyncio.sleep(0.05)  # its commit's tail (the group commit's writer) done before the clock starts
                profiler = cProfile.Profile() if profiled is not None else None
                with inline() if profiler is not None else contextlib.nullcontext():
                    if profiler is not None:
                        profiler.enable()
                    wall, cpu = time.perf_counter(), time.process_time()
                    async with http.get(table.paths()[page], headers=cookies[who]) as response:
                        body = await response.read()
                    took = (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000
                    if profiler is not None:
                        profiler.disable()
                if response.status != 200:
                    raise RuntimeError(f"{page} as {who}: {response.status} {body[:300]!r}")
                if profiler is not None and profiled is not None:
                    profiler.dump_stats(profiled)
                    print(f"  wrote {profiled}", file=sys.stderr)
                return took

            for page in PAGES:  # the first reads (profiled: their times are cProfile's, not reported)
                for who in ("gm", "player"):
                    first = await read(page, who, profile and f"{profile}-first-{page.replace(' ', '-')}-{who}.prof")
                    found[page, who] = Timed(first=first if profile is None else Timed().first)
            for page in PAGES:
                for who in ("gm", "player"):
                    reads = [await read(page, who) for _ in range(repeat)]
                    found[page, who].wall[:] = [w for w, _ in reads]
                    found[page, who].cpu[:] = [c for _, c in reads]
            if profile is not None:
                for page in PAGES:
                    for who in ("gm", "player"):
                        await read(page, who, f"{profile}-{page.replace(' ', '-')}-{who}.prof")
    finally:
        await server.stop()
        await services.runtime.close()
        await db.dispose()
    return found


def report(found: dict[tuple[str, str], Timed], repeat: int) -> str:
    rows = [f"| page | viewer | first read ms | first read CPU ms | cold ms (median of {repeat}) | cold CPU ms |",
            "|---|---|---:|---:|---:|---:|"]
    for (page, who), timed in found.items():
        rows.append(f"| {page} | {who} | {timed.first[0]:.0f} | {timed.first[1]:.0f} "
                    f"| {statistics.median(timed.wall or [math.nan]):.0f} "
                    f"| {statistics.median(timed.cpu or [math.nan]):.0f} |")
    return "\n".join(rows)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.page_renders", description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", type=Path, default=DEFAULT_DATABASE,
                        help="the campaign's SQLite file: built there when missing, kept (default %(default)s)")
    parser.add_argument("--repeat", type=int, default=5, help="cold reads of each page per viewer")
    parser.add_argument("--profile", metavar="PREFIX", help="write PREFIX-<page>-<viewer>.prof (cProfile)")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    table = table_of(args.database)
    found = asyncio.run(measure(args.database, table, args.repeat, args.profile))
    print(report(found, args.repeat))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
