"""`grievous db copy SOURCE TARGET`: move a whole Grievous database, e.g. from a SQLite file to PostgreSQL.

The target is migrated to head, then every table is copied in dependency order (parents first), in
batches, inside one transaction on the target: a copy that fails leaves the target as it was. PostgreSQL's
id sequences are moved past the copied ids, and the row counts of both sides are compared at the end.
The source is only read, in one snapshot; stop the bot while copying, or later writes are not copied.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import DateTime, Table, func, insert, select, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.db import models  # noqa: F401  (registers the tables on Base.metadata)
from bot.db.base import Base
from bot.db.engine import Database
from bot.db.migrate import current_revision, head_revision, upgrade

DEFAULT_BATCH = 1000


class CopyError(Exception):
    """Why the copy cannot be done: one line, nothing changed."""


@dataclass(frozen=True)
class TableCount:
    table: str
    rows: int


@dataclass(frozen=True)
class CopyReport:
    source: str  # the URLs as shown (password hidden)
    target: str
    tables: tuple[TableCount, ...]

    @property
    def rows(self) -> int:
        return sum(t.rows for t in self.tables)


def tables() -> list[Table]:
    """The bot's tables, parents before the tables that refer to them; not the database's own id
    (bot/db/identity.py): the copy is another database, which gets its own on its first start."""
    return [table for table in Base.metadata.sorted_tables if table.name != "database_identity"]


def shown(url: URL) -> str:
    return url.render_as_string(hide_password=True)


def parse_url(text_url: str, role: str) -> URL:
    try:
        url = make_url(text_url)
    except ArgumentError:
        raise CopyError(f"{role} '{text_url}' is not a database URL (e.g. sqlite+aiosqlite:///grievous.db)") from None
    if url.get_backend_name() not in ("sqlite", "postgresql"):
        raise CopyError(f"{role} {shown(url)}: only SQLite and PostgreSQL databases are supported")
    return url


def check_inputs(source_url: str, target_url: str, batch: int) -> tuple[URL, URL]:
    if batch < 1:
        raise CopyError(f"--batch must be at least 1, not {batch}")
    source, target = parse_url(source_url, "source"), parse_url(target_url, "target")
    if source == target:
        raise CopyError("source and target are the same database")
    if source.get_backend_name() == "sqlite" and not Path(source.database or "").is_file():
        raise CopyError(f"source {shown(source)}: no such SQLite file")
    return source, target


async def copy_database(source_url: str, target_url: str, *, replace: bool = False, batch: int = DEFAULT_BATCH,
                        progress: Callable[[str, int], None] | None = None) -> CopyReport:
    """Copy every row of ``source_url`` into ``target_url`` (migrated to head first). The target must hold no
    rows unless ``replace``, which empties it first (in the same transaction)."""
    source, target = check_inputs(source_url, target_url, batch)
    source_db, target_db = _open(source, "source"), _open(target, "target")
    try:
        head = head_revision()
        revision = await _guarded(current_revision(source_db), source, "source")
        if revision != head:
            raise CopyError(f"source {shown(source)} is at revision {revision or 'none (not a Grievous database)'}, "
                            f"not {head}: run `grievous db upgrade --url SOURCE` first")
        await _guarded(upgrade(target_db), target, "target")
        reader = source_db.engine.execution_options(read_only=True)  # SQLite: a plain BEGIN, no write lock
        async with reader.connect() as reading, target_db.engine.connect() as writing:
            await _snapshot(reading)
            async with writing.begin():
                await _make_room(writing, shown(target), replace)
                await _copy_tables(reading, writing, batch, progress)
                if target_db.dialect == "postgresql":
                    await _fix_sequences(writing)
            await reading.rollback()
        counts = await _verify(source_db, target_db)
    finally:
        await source_db.dispose()
        await target_db.dispose()
    return CopyReport(shown(source), shown(target), counts)


async def _copy_tables(reading: AsyncConnection, writing: AsyncConnection, batch: int,
                       progress: Callable[[str, int], None] | None) -> None:
    """Every table's rows, in the order ``tables()`` gives; ``progress`` is told each table's count."""
    for table in tables():
        copied = await _copy_table(reading, writing, table, batch)
        if progress is not None:
            progress(table.name, copied)


def _open(url: URL, role: str) -> Database:
    try:
        return Database.from_url(url.render_as_string(hide_password=False))
    except (ArgumentError, NoSuchModuleError, ImportError) as exc:
        raise CopyError(f"{role} {shown(url)}: cannot use this URL ({exc})") from None


async def _guarded(work: Any, url: URL, role: str) -> Any:
    """The first touch of a database: an unreachable one is one line, not a traceback."""
    try:
        return await work
    except (OSError, OperationalError, DBAPIError) as exc:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        raise CopyError(f"cannot open {role} {shown(url)}: {reason}") from None


async def _snapshot(reading: AsyncConnection) -> None:
    """One consistent view of the source for the whole copy."""
    if reading.dialect.name == "postgresql":
        await reading.execute(text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY"))
    else:
        await reading.execute(text("SELECT 1"))  # SQLite's read transaction (WAL snapshot) starts here


async def _make_room(writing: AsyncConnection, target: str, replace: bool) -> None:
    filled = [(t.name, n) for t in tables() if (n := await _count(writing, t))]
    if not filled:
        return
    if not replace:
        listed = ", ".join(f"{name} {rows}" for name, rows in filled)
        raise CopyError(f"target {target} already holds rows ({listed}); add --replace to empty it first")
    for table in reversed(tables()):
        await writing.execute(table.delete())


async def _count(connection: AsyncConnection, table: Table) -> int:
    return int((await connection.execute(select(func.count()).select_from(table))).scalar_one())


async def _copy_table(reading: AsyncConnection, writing: AsyncConnection, table: Table, batch: int) -> int:
    aware = [c.name for c in table.columns if isinstance(c.type, DateTime) and c.type.timezone]
    copied = 0
    result = await reading.stream(select(table).order_by(*table.primary_key.columns))
    async for rows in result.partitions(batch):
        values = [_utc(dict(row._mapping), aware) for row in rows]
        await writing.execute(insert(table), values)
        copied += len(values)
    return copied


def _utc(row: dict[str, Any], aware: list[str]) -> dict[str, Any]:
    """SQLite gives back the bot's UTC times without their zone; PostgreSQL must not read them as local."""
    for name in aware:
        value = row.get(name)
        if isinstance(value, datetime) and value.tzinfo is None:
            row[name] = value.replace(tzinfo=UTC)
    return row


async def _fix_sequences(writing: AsyncConnection) -> None:
    """Rows were inserted with their ids, so each id sequence must move past the largest one."""
    for table in tables():
        column = table.autoincrement_column
        if column is not None:
            await writing.execute(text(
                f"SELECT setval(pg_get_serial_sequence('{table.name}', '{column.name}'), "
                f"COALESCE(MAX({column.name}), 1), MAX({column.name}) IS NOT NULL) FROM {table.name}"))


async def _verify(source_db: Database, target_db: Database) -> tuple[TableCount, ...]:
    counts = []
    async with source_db.engine.connect() as source, target_db.engine.connect() as target:
        for table in tables():
            expected, found = await _count(source, table), await _count(target, table)
            if expected != found:
                raise CopyError(f"{table.name}: the source has {expected} rows but the target {found}; "
                                "was the bot still writing to the source?")
            counts.append(TableCount(table.name, found))
    return tuple(counts)
