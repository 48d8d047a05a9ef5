"""Stopping: `grievous run` as a process of its own gets SIGTERM (systemctl stop, docker stop) or SIGINT
(Ctrl-C) in the middle of a burst of attacks. It stops taking interactions, finishes and answers every one
in flight, and exits 0 within Docker's default stop timeout: no attack is stored without its answer, and
nothing is logged as an error (no "Session is closed")."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from bot.app import DRAIN_SECONDS
from bot.ui import replies
from emulator import Channel, Emulator, InteractionHandle, profiles
from emulator.harness import running_emulator
from emulator.testing import World, build_world
from tests.e2e.process_support import (
    DEADLINE,
    answered,
    attack_rows,
    grievous,
    problems_in_log,
    raid,
    seat_ars_harn,
)

CHANNELS = 3
TARGETS = 12
SIGNAL_AFTER = 6  # answers seen before the signal, of CHANNELS * TARGETS
HIT = "attack=9 defense=2 location=50 defender_shock=9 defender_kill=9 defender_fumble=9 defender_stumble=9"
DOCKER_STOP_TIMEOUT = 10.0  # seconds between docker stop's SIGTERM and its SIGKILL, by default


async def prepare(emu: Emulator, world: World, channels: list[Channel]) -> None:
    await seat_ars_harn(emu, world.manager, world.gm_role, world.combat)
    for n, channel in enumerate(channels):
        await raid(emu, world.gm, channel, raider=f"C{n} Raider", bandit=f"C{n} Bandit", bandits=TARGETS)


async def send_attack(emu: Emulator, world: World, channel: Channel, n: int, i: int) -> InteractionHandle:
    return await emu.slash("attack", {"target": f"C{n} Bandit {i}", "attacker": f"C{n} Raider 1", "aspect": "edge",
                                      "dice": HIT}, user=world.gm, channel=channel)


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_a_stop_signal_mid_burst_answers_every_attack_it_stored_and_exits_cleanly(
        empty_db_url: str, tmp_path: Path, number: int, discord_profile: str) -> None:
    async with running_emulator(**profiles.options(discord_profile), interaction_deadline=DEADLINE) as emu:
        world = build_world(emu)
        channels = [emu.add_channel(world.guild, f"fight-{n}") for n in range(CHANNELS)]
        bot = grievous(emu, empty_db_url, tmp_path, "grievous", sync=True)
        try:
            await bot.start()
            await emu.wait_for_commands("attack", "encounter", guild=world.guild, within=DEADLINE)
            await prepare(emu, world, channels)

            handles = {(n, i): await send_attack(emu, world, channel, n, i)
                       for i in range(1, TARGETS + 1) for n, channel in enumerate(channels)}
            await emu.wait_until(lambda: sum(map(answered, handles.values())) >= SIGNAL_AFTER, DEADLINE,
                                 f"{SIGNAL_AFTER} answers")
            signalled = time.monotonic()
            bot.signal(number)
            # Sent once the bot took the signal: turned away with a line (or never seen, if it was gone), never run.
            await emu.wait_until(lambda: "stopping on a signal" in bot.log(), DEADLINE, "the signal taken")
            late = await send_attack(emu, world, channels[0], 0, 1)
            assert await bot.wait(DOCKER_STOP_TIMEOUT) == 0
            took = time.monotonic() - signalled
            assert took < DRAIN_SECONDS + 2, f"stopping took {took:.1f} s"

            events, _wounds = await attack_rows(empty_db_url)
            guild = world.guild.id
            stored = {key for key in handles if events[(guild, f"C{key[0]} Bandit {key[1]}")]}
            shown = {key for key, handle in handles.items() if answered(handle)}
            assert stored == shown, f"stored, not answered: {sorted(stored - shown)}; " \
                                    f"answered, not stored: {sorted(shown - stored)}"
            assert len(shown) > SIGNAL_AFTER, "nothing was in flight when the signal came"
            assert events[(guild, "C0 Bandit 1")] == int((0, 1) in stored)  # the one sent after the signal: not run
            if late.original is not None:
                assert late.original.content == replies.STOPPING
            log = bot.log()
            assert "every interaction in flight was answered" in log
            assert "Session is closed" not in log
            assert problems_in_log(log) == []
            assert emu.refusals == [] and emu.internal_errors == []
        finally:
            bot.kill()
