"""Apply the Alembic migrations shipped inside the package (on start and by `grievous db upgrade`)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import Connection

from bot.db.engine import Database

# Any fixed key of the bot's own (the channels' advisory locks are their ids, Discord snowflakes, never this small).
_MIGRATION_LOCK = text("SELECT pg_advisory_xact_lock(4779128)")


def alembic_config() -> Config:
    ini = Path(str(resources.files("bot.db") / "alembic.ini"))
    config = Config(str(ini))
    config.set_main_option("script_location", str(ini.parent / "migrations"))
    return config


async def upgrade(db: Database, revision: str = "head") -> None:
    """Bring the database to ``revision`` on the database's own engine. Processes starting at once (the bot, its
    shards, ``grievous web``) take turns: each reads the revision only once it holds the database's migration
    lock (SQLite: the write lock of its ``BEGIN IMMEDIATE``; PostgreSQL: an advisory lock), so the first migrates
    and the others find nothing left to do."""
    config = alembic_config()

    def _upgrade(connection: Connection) -> None:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)

    async with db.engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            await connection.execute(_MIGRATION_LOCK)  # released when this transaction ends
        await connection.run_sync(_upgrade)


async def current_revision(db: Database) -> str | None:
    async with db.engine.connect() as connection:
        return await connection.run_sync(lambda c: MigrationContext.configure(c).get_current_revision())


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()
