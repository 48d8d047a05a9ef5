"""A crash in the middle of a burst: `grievous run` as a process of its own, SIGKILLed while attacks in
several channels are in flight, then started again on the same database (SQLite file or PostgreSQL).

Every attack has a target of its own (one bandit each), so the database can be read attack by attack:
- an attack the emulator saw answered is stored exactly once: one event, one wound;
- any other attack is all there or not there at all (a wound never without its event, nor the reverse);
- every attack stored but not answered (committed, then killed before its answer) is posted late in its
  channel by the new process, so the channel shows each stored attack exactly once: answered or posted;
- the GM's buttons posted before the kill are handled by the new process;
- the attacks that got no answer, sent again as a player would, leave every bandit with exactly one.
Dice are forced in every attack (the `dice` option); the counts are fixed; every wait is bounded.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.ui import late_embeds
from emulator import Channel, Emulator, InteractionHandle, Message, profiles
from emulator.harness import running_emulator
from emulator.testing import World, build_world
from tests.e2e.process_support import (
    DEADLINE,
    answer_text,
    answered,
    attack_rows,
    grievous,
    message_text,
    problems_in_log,
    raid,
    run,
    seat_ars_harn,
    settled,
)

CHANNELS = 4
TARGETS = 10  # attacks (one bandit each) per channel in the burst
KILL_AFTER = 12  # answers seen before the SIGKILL, of CHANNELS * TARGETS
HIT = "attack=9 defense=2 location=50 defender_shock=9 defender_kill=9 defender_fumble=9 defender_stumble=9"
KILL_BLOW = {"target": "Keeper 1", "weapon": "Broadsword", "aspect": "edge", "aim": "mid", "modifier": 8,
             "dice": "attack=9 defense=2 location=50 defender_kill=2 defender_shock=8"}


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


async def prepare(emu: Emulator, world: World, channels: list[Channel]) -> Message:
    """ars-harn; in each channel a raider and TARGETS bandits; in the first, Bjorn's kill blow waits on the GM."""
    await seat_ars_harn(emu, world.manager, world.gm_role, world.combat)
    await run(emu, "character create", {"name": "Bjorn", "stats": "str=2 sta=1 dex=1 qik=1 abilities.Sword=5",
                                        "weapons": "Broadsword"}, user=world.alice, channel=world.combat)
    for n, channel in enumerate(channels):
        await raid(emu, world.gm, channel, raider=f"C{n} Raider", bandit=f"C{n} Bandit", bandits=TARGETS)
    first = channels[0]
    await run(emu, "encounter add", {"character": "Bjorn"}, user=world.alice, channel=first)
    await run(emu, "encounter npcs", {"template": "bandit", "count": 1, "name_prefix": "Keeper"},
              user=world.gm, channel=first)
    kill = await run(emu, "attack", KILL_BLOW, user=world.alice, channel=first)
    assert sorted(b.rsplit(":", 1)[1] for b in kill.custom_ids if b.startswith("grv:gm:")) == ["death",
                                                                                              "incapacitation"]
    return kill


async def send_attack(emu: Emulator, world: World, channel: Channel, n: int, i: int) -> InteractionHandle:
    return await emu.slash("attack", {"target": f"C{n} Bandit {i}", "attacker": f"C{n} Raider 1", "aspect": "edge",
                                      "dice": HIT}, user=world.gm, channel=channel)


async def test_sigkill_in_a_burst_keeps_every_answered_attack_once_and_nothing_half_written(
        empty_db_url: str, tmp_path: Path, discord_profile: str) -> None:
    async with running_emulator(**profiles.options(discord_profile), interaction_deadline=DEADLINE) as emu:
        world = build_world(emu)
        channels = [emu.add_channel(world.guild, f"fight-{n}") for n in range(CHANNELS)]
        bot = grievous(emu, empty_db_url, tmp_path, "grievous", sync=True)
        restarted = grievous(emu, empty_db_url, tmp_path, "grievous-restarted")
        processes = [bot, restarted]
        try:
            await bot.start()
            await emu.wait_for_commands("attack", "encounter", guild=world.guild, within=DEADLINE)  # its own
            kill = await prepare(emu, world, channels)

            # The burst: every attack sent at once; the bot works through each channel's queue in order.
            handles = {(n, i): await send_attack(emu, world, channel, n, i)
                       for i in range(1, TARGETS + 1) for n, channel in enumerate(channels)}
            await emu.wait_until(lambda: sum(map(answered, handles.values())) >= KILL_AFTER, DEADLINE,
                                 f"{KILL_AFTER} answers")
            bot.kill()
            assert await bot.wait() == -9
            acknowledged = {key for key, handle in handles.items() if answered(handle)}
            assert KILL_AFTER <= len(acknowledged) < len(handles), "the kill did not land mid-burst"
            for (n, i) in acknowledged:
                assert f"C{n} Raider 1 attacks C{n} Bandit {i}" in answer_text(handles[(n, i)])

            # Restarted as `grievous run` is, on the same database, not syncing.
            await restarted.start()
            events, wounds = await attack_rows(empty_db_url)
            guild = world.guild.id
            stored = set()
            for (n, i) in handles:
                target = (guild, f"C{n} Bandit {i}")
                assert events[target] == wounds[target] <= 1, (target, events[target], wounds[target])
                if events[target]:
                    stored.add((n, i))
            assert acknowledged <= stored, f"answered but not stored: {sorted(acknowledged - stored)}"
            assert events[(guild, "Keeper 1")] == wounds[(guild, "Keeper 1")] == 1

            # Committed but never answered: the new process posts each in its channel, marked late; every
            # stored attack is then shown exactly once (its answer, or the late post), and none is left.
            unanswered = stored - acknowledged
            print(f"{len(handles)} sent, {len(acknowledged)} answered, {len(unanswered)} committed but unanswered")

            def shown(n: int, i: int) -> list[Message]:
                heading = f"C{n} Raider 1 attacks C{n} Bandit {i}"
                return [m for m in emu.messages(channels[n], include_ephemeral=False)
                        if f"{heading}\n" in message_text(m) + "\n" or f"{heading}:" in message_text(m)]

            def late_posted() -> bool:
                return all(any(late_embeds.LATE in message_text(m) for m in shown(n, i)) for (n, i) in unanswered)

            await emu.wait_until(late_posted, DEADLINE, f"{len(unanswered)} late posts")
            await asyncio.sleep(0.5)  # a repeat, if there were one, would come now
            for (n, i) in sorted(stored):
                assert len(shown(n, i)) == 1, (n, i, [message_text(m) for m in shown(n, i)])
            # marked once posted (or found answered in the channel)
            assert await settled(empty_db_url) == 0, "stored, neither answered nor posted late"

            # The GM's buttons from before the kill work in the new process.
            [death] = [b for b in kill.custom_ids if b.endswith(":death")]
            pressed = await emu.click(kill, death, user=world.gm)
            [result] = await pressed.followups(within=DEADLINE)
            assert "dies" in message_text(result)

            # The players send again what got no answer and was not stored: now every bandit has exactly one.
            again = [await send_attack(emu, world, channels[n], n, i) for (n, i) in sorted(set(handles) - stored)]
            await asyncio.gather(*(h.message(DEADLINE) for h in again))
            events, wounds = await attack_rows(empty_db_url)
            assert all(events[(guild, f"C{n} Bandit {i}")] == wounds[(guild, f"C{n} Bandit {i}")] == 1
                       for (n, i) in handles)
            await restarted.stop()
            assert problems_in_log(restarted.log()) == []
            assert emu.refusals == [] and emu.internal_errors == []
        finally:
            for process in processes:
                process.kill()
