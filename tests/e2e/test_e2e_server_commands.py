"""Each server sees its own system's options (docs/decisions/per-server-commands.md): /attack and the other
system-dependent commands are the server's own, re-sent when /setup system changes, never global; a client's
stale copy gets one line in the slash options' words."""

from __future__ import annotations

import asyncio
from typing import Any

from emulator import Emulator
from emulator.testing import World

SYSTEM_ONLY = {"aspect", "aim", "save_excess", "mounted", "charge", "location", "defense"}


def server_command(emu: Emulator, world: World, name: str) -> dict[str, Any] | None:
    return next((c for c in emu.commands(world.guild) if c["name"] == name), None)


def attack_options(table: Any) -> set[str]:
    attack = server_command(table.emu, table.world, "attack")
    assert attack is not None, "the server has no /attack"
    return {o["name"] for o in attack["options"]} & SYSTEM_ONLY


async def test_a_pendragon_servers_attack_has_no_aspect_or_aim(table: Any) -> None:
    await table.setup("pendragon")
    assert attack_options(table) == {"mounted", "charge"}
    assert server_command(table.emu, table.world, "cast") is None
    assert server_command(table.emu, table.world, "shock") is None


async def test_an_ars_harn_servers_attack_has_no_mounted(table: Any) -> None:
    assert attack_options(table) == {"aspect", "aim", "save_excess"}  # a new server plays ars-harn
    await table.setup("ars-harn")
    assert attack_options(table) == {"aspect", "aim", "save_excess"}
    assert server_command(table.emu, table.world, "cast") is not None


async def test_setup_system_resends_the_servers_commands_and_none_are_global(table: Any) -> None:
    await table.setup("fading-suns")
    assert attack_options(table) == {"location", "defense"}
    await table.setup("pendragon")
    assert attack_options(table) == {"mounted", "charge"}
    # A channel playing another system adds its options, each description naming its system.
    message = await table.run("setup system", {"system": "ars-harn", "channel_only": True}, user=table.manager)
    assert message.ephemeral
    assert attack_options(table) == {"mounted", "charge", "aspect", "aim", "save_excess"}
    await table.run("setup channel-reset", user=table.manager)
    assert attack_options(table) == {"mounted", "charge"}
    shared = set(table.emu.command_names())
    assert "help" in shared and not shared & {"attack", "cast", "advantage", "shock", "pending-roll", "encounter"}


async def test_a_restart_sends_nothing_when_nothing_changed(table: Any) -> None:
    await table.setup("pendragon")
    before = table.emu.commands(table.world.guild)
    await table.stop()
    await table.start(sync=False)
    await asyncio.wait_for(table.bot.command_sync.checked.wait(), 10)
    await table.bot.command_sync.idle()
    assert table.emu.commands(table.world.guild) == before  # the same versions: not written again


async def test_a_stale_option_answers_one_line_in_slash_words(table: Any) -> None:
    held = server_command(table.emu, table.world, "attack")  # alice's client keeps the ars-harn /attack
    await table.setup("pendragon")
    await table.run("encounter start")
    line = await table.line("attack", {"target": "Nobody", "aspect": "edge"}, user=table.alice, held=held)
    assert line == ("\u26a0\ufe0f /attack has no aspect option in King Arthur Pendragon "
                    "(this system's: mounted, charge, unopposed)")
