"""The Discord-layer tests run on SQLite only; the service suites cover PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from discord import app_commands

from bot.app import GrievousBot
from bot.services import Services


@pytest.fixture
def backend() -> str:
    return "sqlite"


@pytest.fixture
async def tree_payloads() -> list[dict[str, Any]]:
    """The command tree as the bot syncs it (every extension loaded): the payloads Discord would get."""
    bot = GrievousBot(services=object.__new__(Services))  # the tree needs no database
    for name in bot.extension_names:
        await bot.load_extension(name)
    tree: app_commands.CommandTree[Any] = bot.tree
    return [command.to_dict(tree) for command in tree.get_commands()]
