"""Two processes writing one channel (``python -m bench.two_processes``).

``--attacks`` attacks (30) in one ars-harn channel, all sent at once: by one process, then by two (each its
own ``Services`` and its own database engine on the same database, as two `grievous run` processes are),
on SQLite and, where its binaries are installed, on a scratch PostgreSQL. Reported per database: the
wall time of each, and the attempts the transactions took (a retry is a version clash or a deadlock).
Before the channel's advisory lock, two processes on PostgreSQL took ~20 s for what one took in 0.2 s.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from bot.db.engine import Database
from bot.db.migrate import upgrade
from bot.db.scratch_postgres import start_scratch_postgres
from bot.services import Services
from bot.services.actor import Actor

GUILD, CHANNEL, GM, ROLE = 1 << 40, (1 << 40) + 1, (1 << 40) + 2, (1 << 40) + 3
GM_ACTOR = Actor(GUILD, CHANNEL, GM, "GM", (ROLE,), is_manager=True)
HIT = "attack=9 defense=2 location=50 shock=9"
TARGETS = 20  # the attacks go round them


async def prepare(services: Services) -> None:
    await services.setup.set_system(GM_ACTOR, "ars-harn")
    await services.setup.set_gm_role(GM_ACTOR, ROLE)
    await services.encounters.start(GM_ACTOR)
    await services.encounters.add_npcs(GM_ACTOR, "bandit", 1, "Raider")
    await services.encounters.add_npcs(GM_ACTOR, "bandit", TARGETS, "Target")


async def burst(processes: list[Services], attacks: int) -> tuple[float, list[int]]:
    """``attacks`` attacks at once, dealt round the processes; the wall time and every write's attempts."""
    tries: list[int] = []
    for services in processes:
        services.runtime.transactions.on_transaction = lambda _seconds, n: tries.append(n) if n else None
    started = time.perf_counter()
    await asyncio.gather(*(processes[n % len(processes)].combat.attack(
        GM_ACTOR, f"Target {n % TARGETS + 1}", attacker="Raider 1", options={"aspect": "edge"}, dice_text=HIT)
        for n in range(attacks)))
    return time.perf_counter() - started, tries


async def measure(url: str, attacks: int) -> list[str]:
    databases = [Database.from_url(url), Database.from_url(url)]
    await upgrade(databases[0])
    both = [Services(db) for db in databases]
    try:
        await asyncio.to_thread(both[0].runtime.catalogs.warm_up)
        await asyncio.to_thread(both[1].runtime.catalogs.warm_up)
        await prepare(both[0])
        one, one_tries = await burst(both[:1], attacks)
        two, two_tries = await burst(both, attacks)
    finally:
        for services in both:
            await services.runtime.close()
        for db in databases:
            await db.dispose()
    dialect = databases[0].dialect
    return [f"{dialect}: {attacks} attacks in one channel: one process {one:.2f} s "
            f"({sum(one_tries) - len(one_tries)} retries), two processes {two:.2f} s "
            f"({sum(two_tries) - len(two_tries)} retries, at most {max(two_tries, default=0)} attempts)"]


async def main_async(args: argparse.Namespace) -> list[str]:
    lines = []
    with tempfile.TemporaryDirectory(prefix="grievous-two-") as workdir:
        lines += await measure(f"sqlite+aiosqlite:///{Path(workdir) / 'two.db'}", args.attacks)
    server = start_scratch_postgres("grievous_two_processes")
    if isinstance(server, str):
        lines.append(f"postgresql: not measured ({server})")
    else:
        try:
            lines += await measure(server.url, args.attacks)
        finally:
            server.stop()
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.two_processes", description=__doc__.split("\n")[0])
    parser.add_argument("--attacks", type=int, default=30)
    lines = asyncio.run(main_async(parser.parse_args(argv)))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
