"""Apply the Alembic migrations shipped inside the package (on start and by `grievous db upgrade`)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection

from bot.db.engine import Database


def alembic_config() -> Config:
    ini = Path(str(resources.files("bot.db") / "alembic.ini"))
    config = Config(str(ini))
    config.set_main_option("script_location", str(ini.parent / "migrations"))
    return config


async def upgrade(db: Database, revision: str = "head") -> None:
    """Bring the database to ``revision`` on the database's own engine."""
    config = alembic_config()

    def _upgrade(connection: Connection) -> None:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)

    async with db.engine.begin() as connection:
        await connection.run_sync(_upgrade)


async def current_revision(db: Database) -> str | None:
    async with db.engine.connect() as connection:
        return await connection.run_sync(lambda c: MigrationContext.configure(c).get_current_revision())


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()
