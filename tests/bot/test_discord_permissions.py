"""One list of the permissions the bot uses: the README states it, `grievous invite` asks for it, the
emulator's bot role has it, and a refusal is remembered and told once."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import discord
import pytest

from bot.cli import main
from bot.discord_permissions import BOT_PERMISSIONS, PIN, SEND, Refusals, invite_permissions
from emulator import permissions as emulated

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_lists_exactly_the_bots_permissions() -> None:
    block = re.search(r"<!-- bot-permissions -->(.*?)<!-- /bot-permissions -->", README.read_text(), re.S)
    assert block is not None
    listed = [line.removeprefix("- ").strip() for line in block.group(1).strip().splitlines()]
    assert listed == [needed.name for needed in BOT_PERMISSIONS]


def test_the_invite_url_asks_for_exactly_that_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["invite", "--client-id", "42"]) == 0
    query = parse_qs(urlparse(capsys.readouterr().out.strip()).query)
    assert query["client_id"] == ["42"] and query["scope"] == ["bot applications.commands"]
    granted = discord.Permissions(int(query["permissions"][0]))
    assert all(getattr(granted, n.flag) for n in BOT_PERMISSIONS)
    assert bin(granted.value).count("1") == len(BOT_PERMISSIONS)  # and nothing else


def test_pin_messages_not_manage_messages() -> None:
    assert invite_permissions().pin_messages and not invite_permissions().manage_messages


def test_the_emulators_bot_role_is_the_documented_list() -> None:
    assert invite_permissions().value == emulated.DEFAULT_BOT


def test_invite_without_an_id_is_one_line_and_exit_2(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["invite"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_a_refusal_is_told_once_and_forgotten_when_the_permission_is_back() -> None:
    refusals = Refusals()
    assert not refusals.tell_once(7, PIN)  # nothing refused yet
    refusals.remember(7, PIN)
    assert refusals.tell_once(7, PIN) and not refusals.tell_once(7, PIN)
    assert refusals.refused(7, PIN) and not refusals.refused(7, SEND) and not refusals.refused(8, PIN)
    refusals.update(7, discord.Permissions(pin_messages=True))
    assert not refusals.refused(7, PIN)
    refusals.remember(7, PIN)
    assert refusals.tell_once(7, PIN)  # refused again after it was given back: told again
