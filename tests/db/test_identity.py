"""The database's identity (bot/db/identity.py) through the start's own path (`ready_database`): a first
start makes the database and its id file, a start that finds the id file without its database or with another
one refuses in one line, and the running process notices its file deleted or replaced."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import text

from bot.commands_cli import DatabaseUnavailable, ready_database
from bot.db import identity
from bot.db.identity import id_file, stored_id
from bot.errors import DatabaseFileGone
from bot.ops.health import check
from bot.services.runtime import Runtime


def matching(folder: Path) -> list[Path]:
    return list(folder.glob("grievous.db*"))


def rm_database(folder: Path) -> None:
    """What `rm grievous.db*` does."""
    for path in matching(folder):
        path.unlink()


def tables(path: Path) -> int:
    with sqlite3.connect(path) as connection:
        return int(connection.execute("SELECT count(*) FROM sqlite_master").fetchone()[0])


def url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


async def test_a_first_start_makes_the_database_and_its_id_file_and_the_next_start_finds_them(tmp_path: Path) -> None:
    path = tmp_path / "grievous.db"
    db = await ready_database(url(path))
    try:
        made = await stored_id(db)
    finally:
        await db.dispose()
    assert made and path.exists()
    assert made in id_file(path).read_text().splitlines()
    assert id_file(path).name == ".grievous.db.id"
    assert id_file(path) not in matching(tmp_path), "outside the database's glob"
    db = await ready_database(url(path))
    try:
        assert await stored_id(db) == made
    finally:
        await db.dispose()


async def test_the_bot_and_grievous_web_starting_at_once_on_a_new_file_migrate_it_once_and_share_one_id(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each takes the write lock (BEGIN IMMEDIATE) before reading the revision, or the id it may have to make: the
    second waits, then finds nothing to migrate and the first one's id. Both are made to find no id at first (as when
    each looks before the other wrote), which is where the write transaction's own look decides."""

    async def none_yet(_db: object) -> None:
        return None

    monkeypatch.setattr(identity, "stored_id", none_yet)
    path = tmp_path / "grievous.db"
    first, second = await asyncio.gather(ready_database(url(path)), ready_database(url(path)))
    monkeypatch.undo()
    try:
        ids = {await stored_id(first), await stored_id(second)}
        async with first.engine.connect() as connection:
            rows = (await connection.execute(text("SELECT count(*) FROM database_identity"))).scalar_one()
    finally:
        await first.dispose()
        await second.dispose()
    assert len(ids) == 1 and rows == 1
    assert ids.pop() in id_file(path).read_text().splitlines()


async def test_a_start_that_finds_the_id_file_but_no_database_refuses_and_makes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "grievous.db"
    await (await ready_database(url(path))).dispose()
    rm_database(tmp_path)
    with pytest.raises(DatabaseUnavailable, match=r"grievous\.db is gone, but \.grievous\.db\.id beside it says "
                                                  r"one was there .*restore grievous\.db from a backup"):
        await ready_database(url(path))
    assert not path.exists()


async def test_a_start_that_finds_another_database_refuses_before_migrating_it(
        tmp_path: Path, sqlite_template: Path) -> None:
    path = tmp_path / "grievous.db"
    await (await ready_database(url(path))).dispose()
    shutil.copyfile(sqlite_template, path)  # a mistaken restore: another campaign's file
    with pytest.raises(DatabaseUnavailable, match="is not the database that was there"):
        await ready_database(url(path))
    path.unlink()
    path.write_bytes(b"")  # an empty file: refused, and left empty
    with pytest.raises(DatabaseUnavailable, match="the file holds none"):
        await ready_database(url(path))
    assert tables(path) == 0, "not migrated"


async def test_a_database_from_before_the_ids_gets_its_id_file_silently(tmp_path: Path, sqlite_template: Path) -> None:
    path = tmp_path / "grievous.db"
    shutil.copyfile(sqlite_template, path)
    db = await ready_database(url(path))
    try:
        assert (await stored_id(db) or "x") in id_file(path).read_text()
    finally:
        await db.dispose()


@pytest.mark.parametrize("how", ["deleted", "replaced"])
async def test_the_running_process_refuses_writes_once_its_file_is_deleted_or_replaced(
        tmp_path: Path, how: str, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "grievous.db"
    db = await ready_database(url(path))
    runtime = Runtime(db)
    try:
        assert await runtime.transact(None, _write) == 1
        assert (await check(lambda: "ok", db, None)).database == "ok"
        saved = path.read_bytes()
        rm_database(tmp_path)
        if how == "replaced":
            path.write_bytes(saved)
        with pytest.raises(DatabaseFileGone, match="nothing was saved"):
            await runtime.transact(None, _write)
        health = await check(lambda: "ok", db, None)
        assert not health.ok and health.database.startswith("database file deleted")
        assert [r.message for r in caplog.records if r.levelname == "ERROR"] == [
            f"database file deleted: {path} {'is gone' if how == 'deleted' else 'was replaced by another file'}; "
            "writes are refused (they would vanish with the deleted file): restore the file and restart the bot"]
    finally:
        await runtime.close()
        await db.dispose()


async def _write(session: object) -> int:
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import AsyncSession

    assert isinstance(session, AsyncSession)
    await session.execute(text("UPDATE database_identity SET created_at = created_at"))
    return 1
