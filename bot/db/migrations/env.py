"""Alembic environment: async engine, batch mode on SQLite, our metadata.

The bot hands in an open connection (``config.attributes["connection"]``); the alembic command
line builds its own engine from ``-x url=...`` or DATABASE_URL.
"""

from __future__ import annotations

import asyncio
import os
from logging.config import fileConfig
from typing import Any

from alembic import context
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import async_engine_from_config
from sqlalchemy.pool import NullPool

from bot.db import models  # noqa: F401  (registers the tables)
from bot.db.base import Base
from bot.db.engine import DEFAULT_DATABASE_URL

config = context.config
target_metadata = Base.metadata


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def _url() -> str:
    return str(context.get_x_argument(as_dictionary=True).get("url") or os.environ.get("DATABASE_URL")
               or DEFAULT_DATABASE_URL)


async def _run_async() -> None:
    section: dict[str, Any] = {"sqlalchemy.url": _url()}
    engine = async_engine_from_config(section, prefix="sqlalchemy.", poolclass=NullPool)
    async with engine.connect() as connection:
        await connection.run_sync(_configure)
        await connection.commit()
    await engine.dispose()


def run_migrations_offline() -> None:
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True,
                      render_as_batch=_url().startswith("sqlite"))
    with context.begin_transaction():
        context.run_migrations()


connection = config.attributes.get("connection")
if context.is_offline_mode():
    run_migrations_offline()
elif connection is not None:
    _configure(connection)
else:
    if config.config_file_name is not None:
        fileConfig(config.config_file_name)
    asyncio.run(_run_async())
