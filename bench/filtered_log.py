"""A filtered log's first read, and what an attack's event costs to store (issue 33's named-character index).

    .venv/bin/python -m bench.filtered_log --db /tmp/filtered-log.db         # builds the campaign there once
    .venv/bin/python -m bench.filtered_log --db /tmp/filtered-log.db --inserts 2000

bench.web_pages' campaign (5 fights, 10,000 events) on a SQLite file, built on the first run and kept (the
database is migrated to head first, so a file built before a migration is read as that migration leaves it).
Then, per channel, in a new ``Services`` (a process's first read: nothing kept in memory) and again in it: the
log of the channel filtered by one of its characters (``CampaignService.log(character=...)``), the wall time and
the process's CPU time (every thread's: aiosqlite's and the workers' too). And the write: ``--inserts`` events of
an attack stored as an /attack stores its own (``actions.insert_event``) inside one transaction rolled back,
per insert (CPU time); and a few real attacks through the services, each its own transaction, their median. Speed is
printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import func, select

from bench.evening import HIT
from bench.web_pages import FIGHTS, PER_FIGHT, build_campaign
from bot.db.engine import Database
from bot.db.migrate import upgrade
from bot.db.models import Event, GuildSettings
from bot.services import Actor, Services
from bot.services.actions import insert_event
from bot.services.event_records import read_event
from emulator.harness import running_emulator
from emulator.server import Emulator


async def _campaign(db: Database) -> tuple[Actor, dict[int, list[str]]]:
    """The GM of the campaign's guild, and each of its channels' fighters by name (read back from the events)."""
    async with db.sessions() as session:
        guild = await session.scalar(select(Event.guild_id).where(Event.kind == "join").order_by(Event.id).limit(1))
        assert guild is not None, "no campaign in this database"
        rows = (await session.execute(select(Event.channel_id, Event.user_id, Event.user_name, Event.payload)
                                      .where(Event.guild_id == guild, Event.kind == "start"))).all()
        fighters: dict[int, list[str]] = {}
        for channel, *_ in rows:
            joins = await session.scalars(select(Event.payload).where(Event.channel_id == channel,
                                                                      Event.kind == "join").order_by(Event.id))
            fighters[channel] = [name for payload in joins for name in payload.get("names", [])][:PER_FIGHT]
        _, gm_user, gm_name, _ = rows[0]
        count = await session.scalar(select(func.count()).select_from(Event).where(Event.guild_id == guild))
        print(f"  campaign: guild {guild}, {count} events, {len(fighters)} channels", file=sys.stderr)
        settings = await session.get(GuildSettings, guild)
        assert settings is not None and settings.gm_role_id is not None
        gm_role = settings.gm_role_id
    return Actor(int(guild), rows[0][0], int(gm_user), str(gm_name), (int(gm_role),)), fighters


async def _build(db: Database) -> None:
    services = Services(db)
    async with running_emulator(Emulator()) as emu:
        began = time.perf_counter()
        await build_campaign(emu, services)
        print(f"  built in {time.perf_counter() - began:.0f} s", file=sys.stderr)
    await services.runtime.close()


async def first_reads(db: Database, gm: Actor, fighters: dict[int, list[str]]) -> list[tuple[float, float, float]]:
    """Per channel: (first read's wall ms, its CPU ms, a second read's wall ms), each channel in a new Services."""
    out = []
    for channel, names in fighters.items():
        services = Services(db)
        actor = Actor(gm.guild_id, channel, gm.user_id, gm.user_name, gm.role_ids)
        name = names[3]  # a target of the Raider's: named by dozens of blows
        wall, cpu = time.perf_counter(), time.process_time()
        page = await services.campaign.log(actor, None, channel, character=name)
        first = ((time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000)
        wall = time.perf_counter()
        await services.campaign.log(actor, None, channel, character=name)
        again = (time.perf_counter() - wall) * 1000
        assert page.events, f"no event names {name}"
        out.append((*first, again))
        await services.runtime.close()
    return out


async def inserts(db: Database, gm: Actor, count: int) -> float:
    """CPU µs per attack's event stored as /attack stores it, in one transaction rolled back: the process's CPU
    time, which other work on a shared machine moves less than the wall clock."""
    services = Services(db)
    async with db.sessions() as session:
        row = await session.scalar(select(Event).where(Event.guild_id == gm.guild_id, Event.kind == "attack")
                                   .order_by(Event.id.desc()).limit(1))
        assert row is not None
        record = read_event(row.kind, row.payload)
    times = []
    for _ in range(9):
        async with db.sessions() as session:
            began = time.process_time()
            for _ in range(count):
                await insert_event(services.runtime, session, gm, "attack", record, {"sheets": {}}, None)
            times.append((time.process_time() - began) / count * 1e6)
            await session.rollback()
    await services.runtime.close()
    return statistics.median(times)


async def attacks(db: Database, gm: Actor, fighters: dict[int, list[str]], count: int) -> float:
    """Median ms of a whole attack through the services (its own transaction), the campaign's first channel: on
    its four least wounded fighters in turn (a sheet holds 64 wounds: 100 attacks fit)."""
    services = Services(db)
    channel, names = next(iter(fighters.items()))
    actor = Actor(gm.guild_id, channel, gm.user_id, gm.user_name, gm.role_ids)
    times = []
    for i in range(count):
        began = time.perf_counter()
        await services.combat.attack(actor, names[-1 - i % 4], "Broadsword", {"aspect": "edge"}, HIT,
                                     attacker=names[0])
        times.append((time.perf_counter() - began) * 1000)
    await services.runtime.close()
    return statistics.median(times)


async def main_async(args: argparse.Namespace, fresh: bool) -> int:
    path = Path(args.db)
    db = Database.from_url(f"sqlite+aiosqlite:///{path}")
    try:
        began = time.perf_counter()
        await upgrade(db)
        if not fresh:
            print(f"  upgrade to head: {time.perf_counter() - began:.2f} s", file=sys.stderr)
        if fresh:
            await _build(db)
        gm, fighters = await _campaign(db)
        assert len(fighters) == FIGHTS
        reads = await first_reads(db, gm, fighters)
        print("first filtered read per channel (new Services each): wall ms, CPU ms; a second read's wall ms")
        for wall, cpu, again in reads:
            print(f"  {wall:8.1f} {cpu:8.1f} {again:8.1f}")
        print(f"  median first: wall {statistics.median(r[0] for r in reads):.1f} ms, "
              f"CPU {statistics.median(r[1] for r in reads):.1f} ms; "
              f"second: {statistics.median(r[2] for r in reads):.1f} ms")
        if args.inserts:
            print(f"an attack's event stored (insert_event, in one transaction): "
                  f"{await inserts(db, gm, args.inserts):.1f} µs of CPU each (median of 9 x {args.inserts})")
        if args.attacks:
            print(f"a whole attack through the services (its own commit): median "
                  f"{await attacks(db, gm, fighters, args.attacks):.2f} ms of {args.attacks}")
    finally:
        await db.dispose()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", default="filtered-log.db", help="the campaign's SQLite file (built if missing)")
    parser.add_argument("--inserts", type=int, default=0, help="attack events stored per timed batch")
    parser.add_argument("--attacks", type=int, default=0, help="whole attacks timed (they add to the campaign)")
    args = parser.parse_args(argv)
    return asyncio.run(main_async(args, fresh=not Path(args.db).exists()))


if __name__ == "__main__":
    raise SystemExit(main())
