"""A gateway that goes silent while the servers play: the bot reconnects by itself and says so.

The emulator's fault switch ``Gateway.mute`` keeps the bot's websocket open and acknowledging heartbeats
but delivers no dispatch on it (the shape of a restart that once sat idle for 14 minutes). discord.py sees
a live connection. The bot's gateway watch (bot/ops/gateway_watch.py) closes the shard with a resumable
code once no event came for its silence limit (the test sets the limit it checks), the shard resumes, and
the interaction sent meanwhile is replayed and answered; ``grievous health`` names the reconnect.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.cli import main as cli_main


async def test_a_shard_silent_while_its_servers_play_resumes_by_itself_and_health_says_so(
        table: Any, capsys: pytest.CaptureFixture[str]) -> None:
    await table.setup("ars-harn")  # interactions arrived: more are expected
    table.bot.gateway_watch.silence = 1.0
    # An interaction held by a silent gateway is past Discord's 3 s in production (60 s of silence); here the
    # replayed one is answered, to show it reached the bot: the deadline is not what this test is about.
    table.emu.interaction_deadline = 60.0
    resumes = table.emu.gateway.resume_count
    table.emu.gateway.mute()
    handle = await table.send("roll", {"expression": "1d6", "dice": "4"}, user=table.bob)
    await asyncio.sleep(0.3)
    assert handle.delivered == 0  # held by the muted socket
    answer = await handle.message(10.0)
    assert "**4**" in table.text(answer)
    assert table.emu.gateway.resume_count == resumes + 1
    reconnect = table.bot.gateway_watch.reconnects[0]
    assert reconnect.shard_id == 0 and reconnect.silent >= 1.0

    port = str(table.bot.health.port)
    assert await asyncio.to_thread(cli_main, ["health", "--port", port]) == 0
    out = capsys.readouterr().out
    assert out.startswith("healthy: gateway ok, database ok, migrations ok, storage ok, notes shard 0 reconnected "
                          "by itself at "), out

    # A table that stops playing costs one resume at most (the roll above was an interaction, so its quiet may
    # count once); after that the watch waits for a new interaction before it counts a silence again.
    await asyncio.sleep(2.0)
    settled = len(table.bot.gateway_watch.reconnects)
    assert settled <= 2
    await asyncio.sleep(2.0)
    assert len(table.bot.gateway_watch.reconnects) == settled


async def test_a_quiet_shard_with_no_play_is_left_alone(table: Any) -> None:
    table.bot.gateway_watch.silence = 0.5
    table.emu.gateway.mute()
    await asyncio.sleep(1.5)  # no interaction ever arrived: nothing is expected, nothing is done
    assert table.bot.gateway_watch.reconnects == []
    table.emu.gateway.unmute()
