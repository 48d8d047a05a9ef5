"""`grievous web` (bot/web_process.py): the page in a process of its own."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

import pytest

from bot.config import Config
from bot.db.engine import Database
from bot.web_process import WebProcess


async def test_a_stall_in_the_web_process_is_the_page_servers_own_work(tmp_path: Path,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    """It runs no commands: its watchdog names what held the loop as the page server's work, not 'no command (the
    bot's own work)'."""
    config = Config(token="", web_port=0, web_base_url="http://127.0.0.1", health_port=None, stall_ms=100)
    db = Database.from_url(f"sqlite+aiosqlite:///{tmp_path / 'grievous.db'}")
    process = WebProcess(config, db)
    try:
        with caplog.at_level(logging.WARNING, logger="grievous.watchdog"):
            process.watchdog.start()
            await asyncio.sleep(0.1)
            time.sleep(0.4)  # noqa: ASYNC251 (holding the loop is what is being measured)
            await asyncio.sleep(0.1)
            await process.watchdog.stop()
    finally:
        await db.dispose()
    stalls = [record.getMessage() for record in caplog.records if record.name == "grievous.watchdog"]
    assert stalls and all("the page server's own work" in line and "command" not in line and "the bot" not in line
                          for line in stalls), stalls
