"""The command tree as Discord will see it: valid names, short descriptions, every option described."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from discord import app_commands

from bot.app import GrievousBot
from bot.services import Services

NAME = re.compile(r"^[-_a-z0-9]{1,32}$")  # Discord's regex, narrowed to the lowercase ASCII we use


@pytest.fixture
async def tree() -> app_commands.CommandTree[Any]:
    bot = GrievousBot(services=object.__new__(Services))  # the tree needs no database
    for name in bot.extension_names:
        await bot.load_extension(name)
    return bot.tree


def walk(payload: dict[str, Any], path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    here = f"{path} {payload['name']}".strip()
    yield here, payload
    for option in payload.get("options", []):
        if option["type"] in (1, 2):  # subcommand, subcommand group
            yield from walk(option, here)


def payloads(tree: app_commands.CommandTree[Any]) -> list[dict[str, Any]]:
    return [command.to_dict(tree) for command in tree.get_commands()]


async def test_names_are_unique_and_valid(tree: app_commands.CommandTree[Any]) -> None:
    top = [p["name"] for p in payloads(tree)]
    assert len(top) == len(set(top)) and len(top) <= 100
    for path, payload in (item for p in payloads(tree) for item in walk(p)):
        assert NAME.match(payload["name"]), path
        children = [o["name"] for o in payload.get("options", [])]
        assert len(children) == len(set(children)), path
        for option in payload.get("options", []):
            assert NAME.match(option["name"]), f"{path} {option['name']}"


async def test_descriptions_options_and_choices_are_within_discords_limits(
        tree: app_commands.CommandTree[Any]) -> None:
    for top in payloads(tree):
        assert len(json.dumps(top)) < 8000, top["name"]  # Discord caps a command's combined text at 8000 characters
        for path, payload in walk(top):
            assert 1 <= len(payload["description"]) <= 100, path
            assert payload["description"] != "\u2026", f"{path} has no description"
            options = payload.get("options", [])
            assert len(options) <= 25, path
            required_done = False
            for option in options:
                if option["type"] in (1, 2):
                    continue
                where = f"{path} {option['name']}"
                assert 1 <= len(option["description"]) <= 100, where
                assert option["description"] != "\u2026", f"{where} is not described"
                assert len(option.get("choices", [])) <= 25, where
                for choice in option.get("choices", []):
                    assert 1 <= len(choice["name"]) <= 100 and len(str(choice["value"])) <= 100, where
                # Discord wants required options before optional ones.
                if not option.get("required"):
                    required_done = True
                else:
                    assert not required_done, f"{where}: a required option after an optional one"


async def test_every_feature_is_there_and_server_only(tree: app_commands.CommandTree[Any]) -> None:
    names = {path for p in payloads(tree) for path, _ in walk(p)}
    for wanted in ("setup system", "setup gm-role", "setup rolls", "setup ruling", "character create",
                   "character import", "character delete", "encounter start", "encounter npcs", "encounter declare",
                   "encounter next", "encounter end", "attack", "cast", "shock", "advantage", "injuries", "heal",
                   "rest", "roll", "log", "undo", "help"):
        assert wanted in names
    for payload in payloads(tree):
        if payload["name"] != "help":
            assert payload.get("contexts") == [0] or payload.get("dm_permission") is False, payload["name"]


def test_docs_cover_every_command() -> None:
    from pathlib import Path

    docs = (Path(__file__).resolve().parents[2] / "docs" / "commands.md").read_text(encoding="utf-8")
    import asyncio

    async def names() -> set[str]:
        bot = GrievousBot(services=object.__new__(Services))
        for name in bot.extension_names:
            await bot.load_extension(name)
        return {path for p in payloads(bot.tree) for path, payload in walk(p)
                if not any(o["type"] in (1, 2) for o in payload.get("options", []))}

    for path in asyncio.run(names()):
        assert f"/{path}" in docs, f"docs/commands.md does not show /{path}"


async def test_every_command_says_guild_install_only(tree: app_commands.CommandTree[Any]) -> None:
    """Issue 21 (finding 11): without integration_types Discord takes the app's configured installs, and with
    User Install ticked a command would run where the bot is not a member and cannot post."""
    for top in payloads(tree):
        assert top.get("integration_types") == [0], top["name"]
