"""The live pages' feed (bot/services/live_events.py): one poller per process hands each watcher of a channel the
ids of that channel's new events, whichever process wrote them; a dropped connection loses none and repeats none.

"Another process" here is what bench/two_processes.py and test_two_processes_one_channel.py use: a second
``Services`` with its own engine on the same database, sharing no memory with the feed's."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from sqlalchemy import text

from bot.db.engine import Database
from bot.db.models import Event
from bot.services import Services, live_events
from bot.services.live_events import EventFeed
from bot.services.runtime import utcnow
from tests.conftest import CHANNEL, GUILD

POLL = 0.05


@pytest.fixture
async def feed(table: Any) -> AsyncIterator[EventFeed]:
    feed = table.campaign.event_feed(POLL)
    task = asyncio.create_task(feed.run())
    yield feed
    await feed.close()
    task.cancel()


async def until(check: Callable[[], bool], within: float = 5.0) -> None:
    start = time.monotonic()
    while not check():
        assert time.monotonic() - start < within, "not within the time"
        await asyncio.sleep(0.01)


async def channel_ids(db: Database, after: int = 0) -> list[int]:
    async with db.engine.connect() as connection:
        rows = await connection.execute(text("SELECT id FROM events WHERE channel_id = :c AND id > :a ORDER BY id"),
                                        {"c": CHANNEL, "a": after})
        return [int(i) for (i,) in rows]


async def hit(services: Services, gm: Any, n: int) -> None:
    await services.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text=f"attack=5 location={n}")


async def collect(watch: Any, count: int, within: float = 5.0) -> list[int]:
    got: list[int] = []
    start = time.monotonic()
    while len(got) < count and time.monotonic() - start < within:
        got += await watch.next(0.2)
    got += await watch.next(0.3)  # nothing more, nothing again
    return got


async def test_an_event_another_process_commits_reaches_its_channels_watchers_within_2_s_by_id(
        table: Any, gm: Any, db: Database, feed: EventFeed, other_process: Services) -> None:
    async with feed.watch(CHANNEL) as here, feed.watch(CHANNEL + 1) as elsewhere:
        before = (await channel_ids(db))[-1]
        started = time.monotonic()
        await hit(other_process, gm, 3)
        ids = await here.next(2.0)
        assert time.monotonic() - started < 2.0
        assert list(ids) == await channel_ids(db, before) and ids  # the ids, each once, nothing of what happened
        assert await elsewhere.next(0.2) == ()
    assert feed.watching == 0


async def test_a_dropped_feed_connection_reconnects_and_catches_up_with_none_lost_or_repeated(
        table: Any, gm: Any, db: Database, feed: EventFeed, other_process: Services) -> None:
    async with feed.watch(CHANNEL) as here:
        start = feed.last_id
        assert start is not None
        await hit(other_process, gm, 1)
        await hit(table, gm, 2)
        seen = await collect(here, len(await channel_ids(db, start)))
        # The listener is killed mid-fight: its server process ended (PostgreSQL), its connection closed (SQLite).
        if db.dialect == "postgresql":
            async with db.engine.connect() as connection:
                await connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": feed.backend})
        else:
            connection = feed._connection
            assert connection is not None
            await connection.close()
        await until(lambda: feed.failures >= 1)
        for n in range(3, 6):  # the fight goes on while the feed reconnects
            await hit(other_process if n % 2 else table, gm, n)
        wanted = await channel_ids(db, start)
        seen += await collect(here, len(wanted) - len(seen))
        assert seen == wanted  # every event once, in order
        assert feed.failures >= 1


@pytest.mark.postgres
@pytest.mark.parametrize("backend", ["postgres"])
async def test_an_id_committed_after_a_later_one_is_still_handed_out(
        table: Any, gm: Any, db: Database, feed: EventFeed, other_process: Services) -> None:
    """PostgreSQL numbers an event at its insert: a slow transaction's event may commit after a later id was
    seen. The feed looks for the skipped id again."""
    async with feed.watch(CHANNEL) as here:
        async with db.sessions() as slow, slow.begin():
            early = Event(guild_id=GUILD, channel_id=CHANNEL, user_id=2, user_name="Gemma", kind="roll",
                          payload={}, created_at=utcnow())
            slow.add(early)
            await slow.flush()  # numbered, not committed
            await hit(other_process, gm, 7)
            later = await collect(here, 1)
            assert later and min(later) > early.id
        assert await collect(here, 1) == [early.id]


async def test_closing_the_feed_waits_for_a_poll_in_flight_and_no_poll_reads_after(
        table: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # A web server's stop closed the feed's connection (in aiosqlite's thread) while its poller's SELECT ran on
    # the loop's thread (bot/db/inline_sqlite.py): "Cannot operate on a closed database", at times a segfault.
    feed = table.campaign.event_feed(POLL)
    reading, release = asyncio.Event(), asyncio.Event()
    real = live_events.repo.event_marks

    async def held(*args: Any) -> Any:
        reading.set()
        await release.wait()
        return await real(*args)

    monkeypatch.setattr(live_events.repo, "event_marks", held)
    async with feed.watch(CHANNEL):
        poll = asyncio.create_task(feed.poll())
        await reading.wait()
        closing = asyncio.create_task(feed.close())
        await asyncio.sleep(0.05)
        assert not closing.done()  # the connection is not closed under the read
        release.set()
        await poll  # the read ended on its open connection
        await closing
        assert await feed.poll() is False and feed.polls == 1 and feed.failures == 0  # closed: nothing read again
