"""Settings from the environment, and the `grievous run` / `grievous db upgrade` commands."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.db.migrate import head_revision
from bot.settings import MissingToken, Settings, SettingsError


def test_settings_from_env() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": " abc ", "SHARD_COUNT": "8", "SHARD_IDS": "0-3,6",
                                  "SYNC_COMMANDS": "yes", "LOG_LEVEL": "debug"})
    assert (settings.token, settings.shard_count, settings.shard_ids) == ("abc", 8, (0, 1, 2, 3, 6))
    assert (settings.sync_commands, settings.log_level) == (True, "DEBUG")
    assert settings.database_url == "sqlite+aiosqlite:///grievous.db"
    assert "abc" not in repr(settings)


@pytest.mark.parametrize(("env", "message"), [
    ({}, "DISCORD_TOKEN is not set"),
    ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "x"}, "SHARD_COUNT must be a whole number"),
    ({"DISCORD_TOKEN": "t", "SHARD_IDS": "0-3"}, "SHARD_IDS needs SHARD_COUNT"),
    ({"DISCORD_TOKEN": "t", "SHARD_IDS": "0-9", "SHARD_COUNT": "4"}, "SHARD_IDS go up to 9"),
    ({"DISCORD_TOKEN": "t", "SHARD_IDS": "3-1", "SHARD_COUNT": "4"}, "SHARD_IDS is a list"),
    ({"DISCORD_TOKEN": "t", "SYNC_COMMANDS": "perhaps"}, "SYNC_COMMANDS must be true or false"),
    ({"DISCORD_TOKEN": "t", "LOG_LEVEL": "loud"}, "LOG_LEVEL is one of"),
])
def test_bad_settings_are_one_line(env: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        Settings.from_env(env)


def test_missing_token_is_its_own_error() -> None:
    with pytest.raises(MissingToken):
        Settings.from_env({"DATABASE_URL": "sqlite+aiosqlite:///x.db"})


def test_run_without_a_token_prints_one_line_and_exits_2(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("grievous: DISCORD_TOKEN is not set") and err.count("\n") == 1


def test_db_upgrade_command(tmp_path: Path, capsys: Any) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'g.db'}"
    assert main(["db", "upgrade", "--url", url]) == 0
    assert main(["db", "upgrade", "--url", url]) == 0
    assert capsys.readouterr().out.count(f"database is at revision {head_revision()}") == 2
