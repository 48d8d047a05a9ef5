"""PostgreSQL stopped under the running bot (`pg_ctl stop` on the test's own server): a command gets its own one
line, "the database is not answering; nothing was saved, try again in a moment", not the internal-error
apology; nothing is stored; and once the server is back the same command works, stored once."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from random import Random

import pytest
from sqlalchemy import text

from bot.app import GrievousBot
from bot.db.engine import Database
from bot.db.migrate import upgrade
from bot.db.scratch_postgres import ScratchServer, start_scratch_postgres
from bot.services import Services
from emulator.harness import running_emulator, start_bot
from emulator.testing import build_world
from tests.e2e.process_support import DEADLINE, answer, message_text, raid, seat_ars_harn

pytestmark = pytest.mark.postgres

HIT = "attack=9 defense=2 location=50 defender_shock=9 defender_kill=9 defender_fumble=9 defender_stumble=9"
ATTACK = {"target": "Bandit 1", "attacker": "Raider 1", "aspect": "edge", "dice": HIT}


@pytest.fixture
def own_postgres() -> Iterator[ScratchServer]:
    """A PostgreSQL of this test's own, to stop and start."""
    server = start_scratch_postgres("grievous_down")
    if isinstance(server, str):
        pytest.skip(server)
    try:
        yield server
    finally:
        server.stop()


async def attacks(db: Database) -> int:
    async with db.engine.connect() as connection:
        return int((await connection.execute(text("SELECT count(*) FROM events WHERE kind = 'attack'"))).scalar_one())


async def unanswered(db: Database) -> int:
    async with db.engine.connect() as connection:
        return int((await connection.execute(text("SELECT count(*) FROM events WHERE NOT answered"))).scalar_one())


async def test_a_stopped_postgresql_is_its_own_line_and_nothing_is_saved(
        own_postgres: ScratchServer, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    database = Database.from_url(own_postgres.url)
    await upgrade(database)
    async with running_emulator(interaction_deadline=DEADLINE) as emu:
        world = build_world(emu)
        services = Services(database, rng=lambda: Random(7))
        runner = await start_bot(emu, GrievousBot(services=services, sync_commands=True))
        try:
            await emu.wait_for_commands("setup")
            await seat_ars_harn(emu, world.manager, world.gm_role, world.combat)
            await emu.wait_for_commands("attack", "encounter", guild=world.guild, within=DEADLINE)
            await raid(emu, world.gm, world.combat, raider="Raider", bandit="Bandit", bandits=1)

            own_postgres.pause()
            refused = await answer(emu, "attack", ATTACK, user=world.gm, channel=world.combat)
            assert refused.ephemeral
            assert message_text(refused) == ("\u26a0\ufe0f The database is not answering; nothing was saved, try "
                                             "again in a moment.")
            status = await answer(emu, "encounter status", {}, user=world.gm, channel=world.combat)
            assert "database is not answering" in message_text(status)

            own_postgres.resume()
            again = await answer(emu, "attack", ATTACK, user=world.gm, channel=world.combat)
            assert "Raider 1 attacks Bandit 1" in message_text(again)
            assert await attacks(database) == 1
            for _ in range(int(DEADLINE / 0.2)):  # every answered mark, the outage's included, sticks
                if not await unanswered(database):
                    break
                await asyncio.sleep(0.2)
            assert await unanswered(database) == 0
        finally:
            await runner.client.drain()
            await runner.stop()
            await database.dispose()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], "not the internal-error path"
    assert any("the database is not answering" in r.getMessage() for r in caplog.records)
