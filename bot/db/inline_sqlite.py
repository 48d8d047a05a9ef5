"""An aiosqlite connection that runs SQLite's quick calls on the event loop's own thread.

aiosqlite sends every call (make a cursor, execute, fetch, close the cursor) to its worker thread and wakes
the event loop when it is done: about four thread hand-offs per statement, each a queue put, a wake-up
of the thread, and a self-pipe write that wakes the loop again. A statement on this bot's small rows takes
microseconds in SQLite itself, far less than its hand-offs (measured in docs/benchmarks.md, issue 12).

So only the calls that can wait go to the thread: ``BEGIN`` (waits for the write lock while another
process writes), ``COMMIT`` (the fsync), ``ROLLBACK``, ``PRAGMA``s, schema changes, and the connection's own
methods (open, commit, close; a rollback with a transaction to undo). Everything else (SELECT, INSERT,
UPDATE, DELETE, SAVEPOINT, RELEASE and the cursor calls) runs inline: inside a transaction opened with
``BEGIN IMMEDIATE`` a write never waits for a lock, and in WAL mode a read never does.

A read that returns many rows (a web page's 200 events, 2,000 payloads) is not quick: its fetch would hold the
event loop for tens of milliseconds. Code that makes such reads runs them ``off_the_loop()``: every call of the
task within it goes to the thread, as aiosqlite does.

One connection is used by one command at a time (SQLAlchemy's pool), and a call to the thread is awaited
before the next call is made, so the sqlite3 connection is never used from both threads at once; it is
opened with ``check_same_thread=False`` because it is used from both, one after the other.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

import aiosqlite
from sqlalchemy.ext.asyncio import AsyncConnection

# Statements that never wait inside a write transaction (or, for reads, in WAL mode): run inline.
_INLINE_STATEMENTS = ("SELECT", "INSERT", "UPDATE", "DELETE", "SAVEPOINT", "RELEASE", "WITH")
# Cursor methods that only hand back what SQLite already produced: run inline.
_INLINE_CURSOR_CALLS = frozenset({"fetchone", "fetchmany", "fetchall", "close"})


_THREADED: contextvars.ContextVar[bool] = contextvars.ContextVar("sqlite_threaded", default=False)


@contextlib.contextmanager
def off_the_loop() -> Iterator[None]:
    """Within the block, this task's SQLite calls all go to aiosqlite's thread (its big reads' fetches too)."""
    token = _THREADED.set(True)
    try:
        yield
    finally:
        _THREADED.reset(token)


def _inline(fn: Callable[..., Any], args: tuple[Any, ...]) -> bool:
    if _THREADED.get():
        return False
    owner = getattr(fn, "__self__", None)
    name = getattr(fn, "__name__", "")
    if isinstance(owner, sqlite3.Connection):
        # the pool's rollback when a connection comes back: after a COMMIT there is nothing to roll back
        return name == "cursor" or (name == "rollback" and not owner.in_transaction)
    if not isinstance(owner, sqlite3.Cursor):
        return False
    if name in _INLINE_CURSOR_CALLS:
        return True
    if name in ("execute", "executemany") and args and isinstance(args[0], str):
        return args[0].lstrip()[:9].upper().startswith(_INLINE_STATEMENTS)
    return False


class InlineConnection(aiosqlite.Connection):
    """aiosqlite's connection, with its quick calls made on the caller's thread (see the module docstring)."""

    async def _execute(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if self._running and self._connection is not None and _inline(fn, args):
            return fn(*args, **kwargs)
        return await super()._execute(fn, *args, **kwargs)  # type: ignore[no-untyped-call]


def connector(path: str, *, timeout: float) -> Callable[[], Any]:
    """An ``async_creator`` for SQLAlchemy's aiosqlite dialect: a new InlineConnection to ``path``."""

    async def connect() -> aiosqlite.Connection:
        connection = InlineConnection(functools.partial(sqlite3.connect, path, timeout=timeout,
                                                        check_same_thread=False), iter_chunk_size=64)
        connection._thread.daemon = True  # as SQLAlchemy does for aiosqlite: never keep the process alive
        return await connection

    return connect


async def change_counter(connection: AsyncConnection) -> Callable[[], int] | None:
    """What reads SQLite's count of rows inserted, updated or deleted on ``connection`` since it opened
    (``sqlite3_total_changes``: a counter, never undone by a rollback), or None if its driver cannot say
    (PostgreSQL). A command that leaves it where it was wrote nothing, whatever it ran."""
    raw = (await connection.get_raw_connection()).driver_connection
    if not isinstance(raw, aiosqlite.Connection):
        return None
    return lambda: raw.total_changes  # a counter's read: safe from any thread
