"""The async engine and the one session factory; SQLite gets WAL, foreign keys and serialized writers.

``Database.on_change`` tells listeners which rows a session is about to write (every flush, and an action's
Core writes of its rows: ``written``) or that a bulk statement changed rows it cannot name: what lets a
process keep rows in memory between commands (bot/services/encounter_cache.py) and drop them the moment any
command changes them."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.orm import ORMExecuteState, Session

from bot.db import json_text
from bot.db.inline_sqlite import connector
from bot.db.pg_url import asyncpg_options
from bot.db.storage import StorageState

if TYPE_CHECKING:
    from bot.db.identity import FileWatch


@dataclass(frozen=True)
class BulkWrite:
    """A bulk UPDATE or DELETE: rows changed that no object names, in ``tables`` (None: which is not known,
    so whatever a listener holds may be stale)."""

    tables: frozenset[str] | None


# A listener gets the session and the ORM objects it is writing (new, changed or deleted), or a BulkWrite.
ChangeListener = Callable[[Session, Iterable[object] | BulkWrite], None]

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///grievous.db"
SQLITE_BUSY_TIMEOUT_MS = 30_000


class Database:
    """One engine and its session factory; ``await db.dispose()`` on shutdown."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.storage = StorageState()  # whether writes fail for want of space (health's "storage")
        # The SQLite file as opened, once its identity is settled (bot/db/identity.py): deleted or replaced, writes
        # are refused. None for PostgreSQL and for a database opened without that check (tests, tools).
        self.watch: FileWatch | None = None
        self.on_change: list[ChangeListener] = []
        # A Session class of this database's own, so that its flush events reach its listeners only.
        session_class: type[Session] = type("GrievousSession", (Session,), {})
        event.listen(session_class, "after_flush", self._flushed)
        event.listen(session_class, "do_orm_execute", self._executing)
        self.sessions: async_sessionmaker[AsyncSession] = async_sessionmaker(
            engine, expire_on_commit=False, sync_session_class=session_class)
        # Readers (autocomplete, status, log) skip SQLite's up-front write lock; WAL lets them run beside a writer.
        self.readers: async_sessionmaker[AsyncSession] = async_sessionmaker(
            engine.execution_options(read_only=True), expire_on_commit=False, sync_session_class=session_class)

    def _flushed(self, session: Session, _context: Any) -> None:
        # Still the pre-flush lists here: what this flush wrote.
        self.written(session, [*session.new, *session.dirty, *session.deleted])

    def written(self, session: Session, rows: list[object]) -> None:
        """``session`` wrote these ORM rows: by its flush, or by Core statements that left them as a flush
        would (bot/db/repositories.py, ``write_versioned``); the listeners hear it the same way."""
        if rows:
            for listener in self.on_change:
                listener(session, rows)

    def _executing(self, state: ORMExecuteState) -> None:
        if state.is_update or state.is_delete:
            # The answer log marks events answered in bulk after nearly every command: naming the table lets
            # the encounter cache keep what such a statement cannot have touched.
            # An ORM statement names its mapper; a Core one (update(Event.__table__)) only its table.
            mapper = state.bind_mapper
            table_name = getattr(getattr(state.statement, "table", None), "name", None)
            if mapper is not None:
                change = BulkWrite(frozenset(t.name for t in mapper.tables))
            elif isinstance(table_name, str):
                change = BulkWrite(frozenset({table_name}))
            else:
                change = BulkWrite(None)
            for listener in self.on_change:
                listener(state.session, change)

    @classmethod
    def from_url(cls, url: str = DEFAULT_DATABASE_URL, **engine_options: Any) -> Database:
        parsed = make_url(url)
        # The JSON columns' text: orjson where it is exactly json's, json where not (bot/db/json_text.py).
        engine_options.setdefault("json_serializer", json_text.dumps)
        engine_options.setdefault("json_deserializer", json_text.loads)
        if parsed.get_backend_name() == "sqlite":
            timeout = SQLITE_BUSY_TIMEOUT_MS / 1000
            if parsed.database not in (None, "", ":memory:") and not parsed.query:
                # A file: quick calls on the loop's thread, the ones that may wait in aiosqlite's (inline_sqlite.py)
                engine_options.setdefault("async_creator", connector(os.path.abspath(parsed.database), timeout=timeout))
            engine = create_async_engine(url, connect_args={"timeout": timeout}, **engine_options)
            _configure_sqlite(engine)
        else:
            connect_args: dict[str, Any] = {}
            if parsed.get_driver_name() == "asyncpg":
                parsed, connect_args = asyncpg_options(parsed)  # libpq's sslmode=... and the like
            engine = create_async_engine(parsed, pool_pre_ping=True, connect_args=connect_args, **engine_options)
        return cls(engine)

    def file_gone(self) -> str | None:
        """None while the opened SQLite file is in its place (or none is watched); else what happened to it."""
        return self.watch.gone() if self.watch is not None else None

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncSession]:
        """One session, one transaction: commits on success, rolls back on any error."""
        async with self.sessions() as session, session.begin():
            yield session

    async def dispose(self) -> None:
        await self.engine.dispose()


def _configure_sqlite(engine: AsyncEngine) -> None:
    sync_engine = engine.sync_engine

    @event.listens_for(sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy (not the driver) emit BEGIN, so the "begin" hook below decides its kind.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        if engine.url.database not in (None, "", ":memory:"):
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.close()

    @event.listens_for(sync_engine, "begin")
    def _on_begin(connection: Any) -> None:
        # BEGIN IMMEDIATE takes the write lock up front: a read-then-write transaction can't hit
        # SQLITE_BUSY on upgrade, so writers queue on the busy timeout instead of failing.
        read_only = connection.get_execution_options().get("read_only", False)
        connection.exec_driver_sql("BEGIN" if read_only else "BEGIN IMMEDIATE")
