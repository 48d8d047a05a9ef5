"""Two processes writing one channel at once (a deploy's overlap, or two shard processes): they take turns.

On PostgreSQL their transactions once clashed on the same rows and deadlocked, each deadlock costing the
server's deadlock_timeout (1 s), and both retried in lockstep: 30 attacks took 20 s. Each write transaction
on a channel now takes the channel's advisory lock first, so the other process waits its turn; an attack
is retried at most once (its process held the encounter from before the other's write: the version check).
The time is measured in bench/ (``python -m bench.two_processes``), not here.
"""

from __future__ import annotations

import asyncio
from typing import Any

from bot.db.engine import Database
from bot.services import Services
from tests.conftest import catalogs

ATTACKS = 30


async def test_thirty_attacks_from_two_processes_in_one_channel_are_all_stored_with_one_retry_at_most(
        table: Any, gm: Any, db_url: str) -> None:
    other_db = Database.from_url(db_url)
    other = Services(other_db, catalogs=catalogs)
    attempts: list[int] = []
    for services in (table, other):
        services.runtime.transactions.on_transaction = lambda _seconds, tries: attempts.append(tries)
    try:
        async def attack(services: Any, n: int) -> None:
            await services.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text=f"attack=5 location={n}")

        await asyncio.gather(*(attack(table if n % 2 else other, n) for n in range(1, ATTACKS + 1)))
        brun = await table.characters.get(gm, "Brun")
        assert sorted(int(w.location) for w in brun.summary.wounds) == list(range(1, ATTACKS + 1))
        writes = [tries for tries in attempts if tries]
        assert len(writes) >= ATTACKS and max(writes) <= 2, sorted(writes)
    finally:
        await other.runtime.close()
        await other_db.dispose()
