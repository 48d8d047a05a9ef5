"""Every autocomplete the bot offers is ``capped`` (bot/ui/autocomplete.py): it answers within Discord's
deadline counted from the keystroke, whatever the database does (tests/e2e/test_e2e_autocomplete_deadline.py
shows it on a slow one)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from discord import app_commands

from bot.app import GrievousBot
from bot.services import Services


def commands(items: list[Any]) -> Iterator[app_commands.Command[Any, ..., Any]]:
    for item in items:
        if isinstance(item, app_commands.Group):
            yield from commands(item.commands)
        elif isinstance(item, app_commands.Command):
            yield item


async def test_every_autocomplete_is_capped() -> None:
    bot = GrievousBot(services=object.__new__(Services))  # the tree needs no database
    for name in bot.extension_names:
        await bot.load_extension(name)
    # The callbacks themselves (Command.parameters says only whether there is one).
    found = [(command.qualified_name, name, parameter.autocomplete)
             for command in commands(bot.tree.get_commands())
             for name, parameter in command._params.items() if parameter.autocomplete is not None]
    assert len(found) > 30
    uncapped = [(c, p) for c, p, callback in found if not getattr(callback, "capped", False)]
    assert uncapped == []
