"""The process configuration from the environment, and the `grievous run` / `grievous db upgrade` commands."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.app import GrievousBot
from bot.cli import main
from bot.config import Config, ConfigError, MissingToken
from bot.db.migrate import head_revision
from bot.services import Services


def test_config_from_env() -> None:
    config = Config.from_env({"DISCORD_TOKEN": " abc ", "SHARD_COUNT": "8", "SHARD_IDS": "0-3,6",
                              "SYNC_COMMANDS": "yes", "LOG_LEVEL": "debug"})
    assert (config.token, config.shard_count, config.shard_ids) == ("abc", 8, (0, 1, 2, 3, 6))
    assert (config.sync_commands, config.log_level) == (True, "DEBUG")
    assert config.database_url == "sqlite+aiosqlite:///grievous.db"
    assert "abc" not in repr(config)


@pytest.mark.parametrize(("env", "message"), [
    ({}, "DISCORD_TOKEN is not set"),
    ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "x"}, "SHARD_COUNT must be a whole number"),
    ({"DISCORD_TOKEN": "t", "SHARD_IDS": "0-3"}, "SHARD_IDS needs SHARD_COUNT"),
    ({"DISCORD_TOKEN": "t", "SHARD_IDS": "0-9", "SHARD_COUNT": "4"}, "SHARD_IDS go up to 9"),
    ({"DISCORD_TOKEN": "t", "SHARD_IDS": "3-1", "SHARD_COUNT": "4"}, "SHARD_IDS is a list"),
    ({"DISCORD_TOKEN": "t", "SYNC_COMMANDS": "perhaps"}, "SYNC_COMMANDS must be true or false"),
    ({"DISCORD_TOKEN": "t", "LOG_LEVEL": "loud"}, "LOG_LEVEL is one of"),
    ({"DISCORD_TOKEN": "t", "WEB_PORT": "8090"}, "the web page needs WEB_BASE_URL"),
])
def test_bad_config_is_one_line(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Config.from_env(env)


def test_missing_token_is_its_own_error() -> None:
    with pytest.raises(MissingToken):
        Config.from_env({"DATABASE_URL": "sqlite+aiosqlite:///x.db"})


async def test_the_bot_takes_its_values_from_the_config() -> None:
    config = Config.from_env({"DISCORD_TOKEN": "t", "SHARD_COUNT": "4", "SHARD_IDS": "1,3", "SYNC_COMMANDS": "yes",
                              "HEALTH_PORT": "off", "STALL_LOG_MS": "250", "WORK_SECONDS": "30"})
    bot = GrievousBot(config=config, services=object.__new__(Services))  # no database needed to read them
    assert (bot.shard_ids, bot.shard_count, bot.sync_commands) == ([1, 3], 4, True)
    assert config.work_seconds == 30 and Config.from_env({"DISCORD_TOKEN": "t"}).work_seconds is None
    assert bot.health is None and bot.watchdog.threshold == 0.25
    served = GrievousBot(config=Config.from_env({"DISCORD_TOKEN": "t", "HEALTH_PORT": "0"}),
                         services=object.__new__(Services))
    assert served.health is not None and served.shard_ids is None and served.sync_commands is False


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


async def test_web_base_url_alone_makes_links_and_serves_no_page() -> None:
    """The bot beside `grievous web` processes: /web makes links to WEB_BASE_URL, and nothing listens here."""
    links = Config.from_env({"DISCORD_TOKEN": "t", "WEB_BASE_URL": "https://grievous.example.org/"})
    both = Config.from_env({"DISCORD_TOKEN": "t", "WEB_BASE_URL": "https://grievous.example.org", "WEB_PORT": "8090"})
    assert (links.web_serves, both.web_serves) == (False, True)
    bot = GrievousBot(config=links, services=object.__new__(Services))
    assert bot.web is not None and bot.web.base_url == "https://grievous.example.org" and not bot._serves_web
    assert GrievousBot(config=Config.from_env({"DISCORD_TOKEN": "t"}), services=object.__new__(Services)).web is None


def test_grievous_web_without_its_port_prints_one_line_and_exits_2(monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: Any) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)  # not needed: the web process never connects to Discord
    monkeypatch.delenv("WEB_PORT", raising=False)
    monkeypatch.setenv("WEB_BASE_URL", "https://grievous.example.org")
    assert main(["web"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("grievous: grievous web serves the campaign page: set WEB_PORT") and err.count("\n") == 1
