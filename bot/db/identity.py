"""Which database this is, so that a campaign never vanishes with its file unnoticed.

The database holds a random id (table ``database_identity``). Beside a SQLite file the same id is written to a
file of its own, ``.<name>.id`` (``.grievous.db.id``), which ``rm grievous.db*`` does not match. A start reads
that file before it opens the database:

- neither the database nor the id file: a first start, both are made silently (the README's quick start);
- the id file but no database, or a database holding another id: refused in one line (``IdentityRefused``);
- a database without the id file (made before there were ids, or the id file deleted): the id file is written.

While running, ``FileWatch`` notices the opened file deleted or replaced (its inode changed): writes are then
refused (bot/services/transactions.py), and health says "database file deleted" (bot/ops/health.py).
"""

from __future__ import annotations

import logging
import os
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import insert, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError, ProgrammingError

from bot.db.engine import Database
from bot.db.models import DatabaseIdentity

log = logging.getLogger("grievous")


class IdentityRefused(Exception):
    """The start found the id file but not the database it names; ``str()`` is the one line saying so."""


def sqlite_file(url: str) -> Path | None:
    """The SQLite file a URL names (None for PostgreSQL, memory, or a URL with query options)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:") or parsed.query:
        return None
    return Path(os.path.abspath(parsed.database))


def id_file(database: Path) -> Path:
    return database.with_name(f".{database.name}.id")


def _read_id(path: Path) -> str | None:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return None
    return next((line.strip() for line in lines if line.strip() and not line.startswith("#")), "")


def before_open(url: str) -> str | None:
    """Before the database is opened (opening makes a missing SQLite file): the id its id file holds, if any;
    IdentityRefused when that file names a database that is not there."""
    database = sqlite_file(url)
    if database is None:
        return None
    expected = _read_id(id_file(database))
    if expected is not None and not database.exists():
        raise IdentityRefused(
            f"the database file {database} is gone, but {id_file(database).name} beside it says one was there "
            f"(id {expected}): restore {database.name} from a backup, or delete {id_file(database).name} "
            "to start with an empty database")
    return expected


async def stored_id(db: Database) -> str | None:
    """The id the database holds (None: none yet, or a database from before the table)."""
    try:
        async with db.engine.connect() as connection:
            return (await connection.execute(select(DatabaseIdentity.id))).scalar()
    except (OperationalError, ProgrammingError):  # no such table: not migrated this far
        return None


async def check(db: Database, url: str, expected: str | None) -> None:
    """Before the migrations touch it: the opened database is the one the id file names, else
    IdentityRefused."""
    database = sqlite_file(url)
    if database is None or expected is None:
        return
    found = await stored_id(db)
    if found != expected:
        raise IdentityRefused(
            f"{database} is not the database that was there: {id_file(database).name} says id {expected}, the "
            f"file holds {found or 'none'}; put the right file back, or delete {id_file(database).name} "
            "to use this one")


async def settle(db: Database, url: str) -> str:
    """After the migrations: the database's id (made on a first start), the id file written when missing,
    and the opened file watched."""
    found = await stored_id(db)
    if found is None:
        async with db.engine.begin() as connection:
            # read again in the write transaction: another process starting at once (grievous web) made it first
            found = (await connection.execute(select(DatabaseIdentity.id))).scalar()
            if found is None:
                found = secrets.token_hex(16)
                await connection.execute(insert(DatabaseIdentity).values(id=found, created_at=datetime.now(UTC)))
    database = sqlite_file(url)
    if database is None:
        return found
    if _read_id(id_file(database)) != found:
        id_file(database).write_text(f"# Grievous: the id of {database.name} beside it; a start refuses another "
                                     f"file or none in its place\n{found}\n", encoding="utf-8")
    db.watch = FileWatch.of(database)
    return found


@dataclass
class FileWatch:
    """The SQLite file as it was opened (device and inode): ``gone()`` says whether it was since deleted or
    replaced. The process still writes into the unlinked file, which vanishes at exit."""

    path: Path
    device: int
    inode: int
    noticed: bool = False

    @classmethod
    def of(cls, path: Path) -> FileWatch:
        found = path.stat()
        return cls(path, found.st_dev, found.st_ino)

    def gone(self) -> str | None:
        """None while the opened file is in its place; else what happened, logged the first time."""
        try:
            found = self.path.stat()
        except FileNotFoundError:
            what = f"database file deleted: {self.path} is gone"
        else:
            if (found.st_dev, found.st_ino) == (self.device, self.inode):
                return None
            what = f"database file deleted: {self.path} was replaced by another file"
        if not self.noticed:
            self.noticed = True
            log.error("%s; writes are refused (they would vanish with the deleted file): restore the file "
                      "and restart the bot", what)
        return what
