"""Persistence: typed SQLAlchemy 2 async models, the engine/session factory, repositories, migrations."""

from bot.db.engine import Database

__all__ = ["Database"]
