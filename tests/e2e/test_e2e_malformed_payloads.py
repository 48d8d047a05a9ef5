"""Malformed gateway payloads, sent on purpose by the emulator's fault switch (``inject_dispatch``, its frames
marked): each one costs its own interaction at most. It is dropped and logged once with its shape and no
token, nothing is answered for it, and the bot goes on answering everyone else. Before the guard, a
``member`` without ``user`` ended the shard's reader (``grievous run`` exited 1) and the other shapes failed
in a task nobody awaited; a ``channel_id`` of another guild was read as that guild's channel."""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable
from typing import Any

import pytest

from emulator.snowflake import interaction_token

JSON = dict[str, Any]


def _no_user(p: JSON) -> None:
    p["member"].pop("user")


def _no_token(p: JSON) -> None:
    p.pop("token")


def _word_id(p: JSON) -> None:
    p["id"] = "not-a-number"


def _options_string(p: JSON) -> None:
    p["data"]["options"] = "lines"


def _options_null(p: JSON) -> None:
    p["data"]["options"] = [None]


SLASH_SHAPES: dict[str, Callable[[JSON], None]] = {
    "member-without-user": _no_user, "no-token": _no_token, "non-numeric-id": _word_id,
    "options-a-string": _options_string, "options-null": _options_null,
}


def forged(table: Any, base: JSON, change: Callable[[JSON], None]) -> JSON:
    """``base`` (a real interaction's payload) with a fresh id and token, then ``change``d."""
    payload = copy.deepcopy(base)
    new_id = table.emu.ids.next()
    payload["id"], payload["token"] = str(new_id), interaction_token(new_id)
    change(payload)
    return payload


def dropped_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if "dropped a malformed" in r.getMessage()]


async def still_answers(table: Any) -> None:
    rolled = await table.run("roll", {"expression": "3d6", "dice": "1,2,3"}, user=table.bob)
    assert "**6**" in table.text(rolled)


async def test_each_malformed_interaction_is_dropped_and_logged_once_and_the_bot_stays_up(
        table: Any, caplog: pytest.LogCaptureFixture) -> None:
    await table.setup("ars-harn")
    shown = await table.send("log", {})
    await shown.message()
    base = shown.payload
    tokens = []
    for fault, change in SLASH_SHAPES.items():
        payload = forged(table, base, change)
        tokens.append(payload.get("token"))
        assert table.emu.inject_dispatch("INTERACTION_CREATE", payload, fault=fault, guild_id=table.world.guild.id)
        await still_answers(table)  # after each one, on the same shard

    # a button press whose component has no component_type
    hit = await table.run("roll", {"expression": "3d6", "dice": "1,2,3"}, user=table.bob)
    assert not table.bot.is_closed()
    press = dict(base, type=3, data={"custom_id": "grv:details:1"}, message={"id": str(hit.id)})
    tokens.append(press["token"])
    table.emu.inject_dispatch("INTERACTION_CREATE", forged(table, press, lambda p: None), fault="no-component-type",
                              guild_id=table.world.guild.id)
    await still_answers(table)

    await table.emu.wait_until(lambda: table.bot.dropped_payloads.count == 6 or None, what="six payloads dropped")
    lines = dropped_lines(caplog)
    assert len(lines) == 6, lines  # once each
    assert all("INTERACTION_CREATE" in line and ("'token': 'str'" in line or "no token" in line) for line in lines)
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert not any(token and token in logged for token in tokens)
    assert "Task exception was never retrieved" not in caplog.text
    assert not table.bot.is_closed()


async def test_an_interaction_whose_channel_is_another_guilds_reads_nothing_of_it(
        table: Any, caplog: pytest.LogCaptureFixture) -> None:
    await table.setup("ars-harn")
    owner = table.emu.add_user("other-owner")
    other = table.emu.add_guild("Other", owner=owner, channels=["secrets"])
    secrets = next(c for c in other.channels.values() if c.name == "secrets")
    await table.emu.wait_until(lambda: table.bot.get_guild(other.id), 10.0, "the other guild joined")
    shown = await table.send("log", {})
    await shown.message()
    calls = len(table.emu.requests)

    def elsewhere(p: JSON) -> None:  # guild A's member and guild_id, guild B's channel
        p["channel_id"] = str(secrets.id)
        p["channel"] = dict(p["channel"], id=str(secrets.id), guild_id=str(other.id))

    def elsewhere_bare(p: JSON) -> None:  # the same without the channel object: the cache knows the channel
        p["channel_id"] = str(secrets.id)
        p.pop("channel")

    for fault, change in (("channel-of-another-guild", elsewhere), ("channel-id-of-another-guild", elsewhere_bare)):
        table.emu.inject_dispatch("INTERACTION_CREATE", forged(table, shown.payload, change), fault=fault,
                                  guild_id=table.world.guild.id)
    await table.emu.wait_until(lambda: table.bot.dropped_payloads.count == 2 or None, what="two payloads dropped")
    assert all("another guild" in line for line in dropped_lines(caplog))
    assert len(table.emu.requests) == calls  # nothing answered, nothing read out to anyone
    await still_answers(table)


async def test_a_payload_no_check_foresaw_is_dropped_when_its_parser_raises(
        table: Any, caplog: pytest.LogCaptureFixture) -> None:
    """Any event, not only interactions: a GUILD_CREATE without its fields makes discord.py's parser raise."""
    caplog.set_level(logging.INFO)
    await table.setup("ars-harn")
    table.emu.inject_dispatch("GUILD_CREATE", {"id": "not-a-number"}, fault="guild-create-word-id",
                              guild_id=table.world.guild.id)
    table.emu.inject_dispatch("CHANNEL_CREATE", {"id": "7", "guild_id": str(table.world.guild.id)},
                              fault="channel-without-type", guild_id=table.world.guild.id)
    await table.emu.wait_until(lambda: table.bot.dropped_payloads.count >= 1 or None, what="a payload dropped")
    await still_answers(table)
    assert any("its parser raised" in line for line in dropped_lines(caplog))
