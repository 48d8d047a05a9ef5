"""DATABASE_POOL_SIZE and DATABASE_MAX_OVERFLOW: the connection budget of one process (docs/scaling.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import Config, ConfigError
from bot.db.engine import Database


def test_the_pool_is_sqlalchemys_default_unless_set() -> None:
    assert Config.from_env({"DISCORD_TOKEN": "t"}).pool_options() == {}
    config = Config.from_env({"DISCORD_TOKEN": "t", "DATABASE_POOL_SIZE": "3", "DATABASE_MAX_OVERFLOW": "0"})
    assert config.pool_options() == {"pool_size": 3, "max_overflow": 0}


@pytest.mark.parametrize(("env", "says"), [
    ({"DATABASE_POOL_SIZE": "0"}, "DATABASE_POOL_SIZE must be at least 1, not 0"),
    ({"DATABASE_POOL_SIZE": "many"}, "DATABASE_POOL_SIZE must be a whole number"),
    ({"DATABASE_MAX_OVERFLOW": "-1"}, "DATABASE_MAX_OVERFLOW must be at least 0, not -1"),
])
def test_a_bad_pool_setting_is_one_line(env: dict[str, str], says: str) -> None:
    with pytest.raises(ConfigError, match=says):
        Config.from_env({"DISCORD_TOKEN": "t", **env})


async def test_the_engine_gets_the_pool_it_was_given(tmp_path: Path) -> None:
    config = Config.from_env({"DISCORD_TOKEN": "t", "DATABASE_POOL_SIZE": "3", "DATABASE_MAX_OVERFLOW": "1"})
    database = Database.from_url(f"sqlite+aiosqlite:///{tmp_path / 'g.db'}", **config.pool_options())
    try:
        pool = database.engine.pool
        assert (pool.size(), pool._max_overflow) == (3, 1)  # type: ignore[attr-defined]
    finally:
        await database.dispose()
