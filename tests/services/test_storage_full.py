"""Issue 24: with the database's storage full, a write is one line ("the bot's storage is full, nothing was
saved"), not the internal-error apology; the health check says so until a write commits again, and the bot
recovers without a restart."""

from __future__ import annotations

import errno
from typing import Any

import pytest
from sqlalchemy import event, text

from bot.db.storage import is_storage_full
from bot.errors import StorageFull
from bot.ops.health import check


async def _events(services: Any) -> int:
    async with services.db.sessions() as session:
        return int(await session.scalar(text("SELECT count(*) FROM events")))


@pytest.mark.parametrize("backend", ["sqlite"])
async def test_a_full_disk_is_one_line_nothing_is_saved_and_health_says_so(services: Any, manager: Any,
                                                                           alice: Any) -> None:
    await services.setup.set_system(manager, "fake")
    assert (await check(lambda: "ok", services.db, None)).storage == "ok"
    capped = {"on": True}

    def cap(connection: Any) -> None:  # SQLite's own "disk is full": the file may not grow by one page
        if capped["on"]:
            pages = connection.exec_driver_sql("PRAGMA page_count").scalar()
            connection.exec_driver_sql(f"PRAGMA max_page_count = {pages}")
        else:
            connection.exec_driver_sql("PRAGMA max_page_count = 1073741823")

    event.listen(services.db.engine.sync_engine, "begin", cap)
    stored = await _events(services)
    refused = None
    for _ in range(400):  # each roll is one event row; the free room in the last pages runs out
        try:
            await services.records.roll(alice, "3d6", dice_text="1,2,3")
        except StorageFull as exc:
            refused = exc
            break
        stored += 1
    assert refused is not None, "the capped database never filled"
    assert str(refused).startswith("The bot's storage is full, so nothing was saved")
    assert await _events(services) == stored  # the refused roll left nothing
    health = await check(lambda: "ok", services.db, None)
    assert health.storage.startswith("full since ") and "nothing is saved" in health.storage
    assert not health.ok and "storage" in health.failed()

    capped["on"] = False  # the operator frees space: the next write commits, and health is well again
    await services.records.roll(alice, "3d6")
    assert await _events(services) == stored + 1
    assert (await check(lambda: "ok", services.db, None)).storage == "ok"


def test_disk_full_is_recognised_from_each_database_and_the_system() -> None:
    class PgDiskFull(Exception):
        sqlstate = "53100"

    wrapped = RuntimeError("commit failed")
    wrapped.__cause__ = PgDiskFull("could not extend file: No space left on device")
    assert is_storage_full(wrapped)
    assert is_storage_full(OSError(errno.ENOSPC, "No space left on device"))
    assert is_storage_full(Exception("(sqlite3.OperationalError) database or disk is full"))
    assert not is_storage_full(OSError(errno.EACCES, "Permission denied"))
    assert not is_storage_full(ValueError("a mistake"))
