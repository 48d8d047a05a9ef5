"""bot/db/inline_sqlite.py: on a SQLite file, the quick calls run on the event loop's thread and only the
ones that can wait (BEGIN, COMMIT, PRAGMA, opening) go to aiosqlite's thread; a BEGIN that waits for
another process's write lock leaves the event loop free for everyone else."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiosqlite
import pytest
from sqlalchemy import text

from bot.db.engine import Database
from bot.db.inline_sqlite import InlineConnection, off_the_loop


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = Database.from_url(f"sqlite+aiosqlite:///{tmp_path / 'inline.db'}")
    async with database.engine.begin() as connection:
        await connection.execute(text("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)"))
    yield database
    await database.dispose()


@pytest.fixture
def threaded(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each call that goes to aiosqlite's thread, by its function and SQL, as it is made."""
    calls: list[str] = []
    original = aiosqlite.Connection._execute

    async def spy(self: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(f"{getattr(fn, '__name__', fn)} {args[0] if args else ''}".strip())
        return await original(self, fn, *args, **kwargs)

    monkeypatch.setattr(aiosqlite.Connection, "_execute", spy)
    return calls


async def test_only_the_calls_that_can_wait_go_to_the_driver_thread(db: Database, threaded: list[str]) -> None:
    async with db.transaction() as session:
        raw = await (await session.connection()).get_raw_connection()
        assert isinstance(raw.driver_connection, InlineConnection)
        await session.execute(text("INSERT INTO notes (body) VALUES ('a'), ('b')"))
        await session.execute(text("UPDATE notes SET body = 'c' WHERE id = 2"))
        rows = (await session.execute(text("SELECT body FROM notes ORDER BY id"))).scalars().all()
    assert rows == ["a", "c"]
    assert threaded == ["execute BEGIN IMMEDIATE", "commit"]


async def test_a_big_read_off_the_loop_fetches_in_the_driver_thread(db: Database, threaded: list[str]) -> None:
    """A web page's read of 200 events (bot/services/campaign.py) fetched on the loop held it tens of ms."""
    with off_the_loop():
        async with db.readers() as session:
            assert (await session.execute(text("SELECT count(*) FROM notes"))).scalar() == 0
    assert "execute SELECT count(*) FROM notes" in threaded and any(t.startswith("fetch") for t in threaded), threaded
    threaded.clear()
    async with db.readers() as session:  # outside the block: on the loop again
        await session.execute(text("SELECT count(*) FROM notes"))
    assert not [t for t in threaded if "SELECT" in t or t.startswith("fetch")], threaded


async def test_a_begin_waiting_for_another_process_leaves_the_loop_free(db: Database, tmp_path: Path) -> None:
    locked, release = threading.Event(), threading.Event()

    def other_process() -> None:  # another writer on the same file holds the write lock for a while
        connection = sqlite3.connect(tmp_path / "inline.db", isolation_level=None)
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("INSERT INTO notes (body) VALUES ('theirs')")
        locked.set()
        release.wait(5)
        connection.execute("COMMIT")
        connection.close()

    holder = threading.Thread(target=other_process)
    holder.start()
    await asyncio.to_thread(locked.wait, 5)

    async def write() -> list[str]:
        async with db.transaction() as session:
            await session.execute(text("INSERT INTO notes (body) VALUES ('ours')"))
        async with db.readers() as session:
            return list((await session.execute(text("SELECT body FROM notes ORDER BY id"))).scalars())

    writing = asyncio.ensure_future(write())
    ticks, started = 0, time.monotonic()
    while time.monotonic() - started < 0.4:  # the loop keeps turning while our BEGIN waits
        await asyncio.sleep(0.01)
        ticks += 1
    assert not writing.done()
    release.set()
    assert await asyncio.wait_for(writing, 10) == ["theirs", "ours"]
    holder.join()
    assert ticks >= 20
