"""Two `grievous run` processes, SHARD_IDS 0 and 1 of SHARD_COUNT 2, on one PostgreSQL, serving many guilds
(their ids spread over both shards, as Discord routes them: `(guild_id >> 22) % shard_count`) and channels
at once. Only the shard-0 process syncs the shared commands. Checked:
- every attack is answered once and stored once (one event, one wound: each attack has a target of its own);
- each guild is served by exactly one process: the one whose shard covers it;
- only one process writes the shared commands; each server is sent its own once, by the process serving it,
  and not again after that process restarts (the emulator records every write to the command lists);
- the shard-1 process is SIGKILLed and restarted while the shard-0 process keeps answering its guilds.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import pytest

from emulator import Channel, Emulator, Guild, InteractionHandle, Member, profiles
from emulator import permissions as perms
from emulator.harness import running_emulator
from emulator.processes import BotProcess
from tests.e2e.process_support import (
    DEADLINE,
    answer_text,
    attack_rows,
    grievous,
    problems_in_log,
    raid,
    seat_ars_harn,
)

pytestmark = pytest.mark.postgres

SHARDS = 2
GUILDS = 8  # alternating shards
CHANNELS = 3  # per guild
TARGETS = 4  # bandits per channel: one for each attack made in that channel over the test
HIT = "attack=9 defense=2 location=50 defender_shock=9 defender_kill=9 defender_fumble=9 defender_stumble=9"


@pytest.fixture
def backend() -> str:
    return "postgres"


@dataclass
class Server:
    guild: Guild
    shard: int
    manager: Member
    gm: Member
    gm_role_id: int
    channels: list[Channel]
    attacks: dict[tuple[int, int], InteractionHandle] = field(default_factory=dict)  # (channel no, bandit)


def build(emu: Emulator) -> list[Server]:
    servers = []
    for g in range(GUILDS):
        shard = g % SHARDS
        guild = emu.add_guild(f"Guild {g}", shard=(shard, SHARDS))
        assert (guild.id >> 22) % SHARDS == shard
        role = emu.add_role(guild, "GM", permissions=perms.MANAGE_MESSAGES | perms.PIN_MESSAGES)
        gm = emu.add_member(guild, emu.add_user(f"gm-{g}"), roles=[role])
        channels = [emu.add_channel(guild, f"fight-{c}") for c in range(CHANNELS)]
        servers.append(Server(guild, shard, guild.members[emu.state.owner.id], gm, role.id, channels))
    return servers


async def prepare(emu: Emulator, server: Server) -> None:
    await seat_ars_harn(emu, server.manager, server.gm_role_id, server.channels[0])
    await asyncio.gather(*(raid(emu, server.gm, channel, raider=f"C{c} Raider", bandit=f"C{c} Bandit",
                                bandits=TARGETS) for c, channel in enumerate(server.channels)))


async def burst(emu: Emulator, servers: list[Server], bandit: int) -> list[InteractionHandle]:
    """In every channel of `servers` at once, the raider attacks bandit number `bandit`; all answered."""
    sent: list[tuple[str, InteractionHandle]] = []
    for server in servers:
        for c, channel in enumerate(server.channels):
            handle = await emu.slash("attack", {"target": f"C{c} Bandit {bandit}", "attacker": f"C{c} Raider 1",
                                                "aspect": "edge", "dice": HIT}, user=server.gm, channel=channel)
            server.attacks[(c, bandit)] = handle
            sent.append((f"C{c} Raider 1 attacks C{c} Bandit {bandit}", handle))
    await asyncio.gather(*(h.message(DEADLINE) for _, h in sent))
    for title, handle in sent:
        assert handle.delivered == 1 and handle.callback_count == 1, handle
        assert title in answer_text(handle), answer_text(handle)
    return [handle for _, handle in sent]


async def ready_line(emu: Emulator, process: BotProcess) -> str:
    """The bot's "ready as ... in N guilds (shards ...)" line (discord.py fires on_ready once the guilds came)."""

    def line() -> str | None:
        return next((text for text in reversed(process.log().splitlines()) if "ready as" in text), None)

    return await emu.wait_until(line, DEADLINE, f"{process.name} to log that it is ready")


async def gateway_bot(emu: Emulator) -> dict[str, object]:
    async with aiohttp.ClientSession() as http, http.get(f"{emu.api_base}/gateway/bot",
                                                         headers={"Authorization": f"Bot {emu.token}"}) as reply:
        return dict(await reply.json())


async def test_two_shard_processes_on_one_postgres_share_the_guilds_and_survive_a_kill(
        empty_db_url: str, tmp_path: Path, discord_profile: str) -> None:
    async with running_emulator(**profiles.options(discord_profile), interaction_deadline=DEADLINE,
                                recommended_shards=SHARDS) as emu:
        servers = build(emu)
        assert (await gateway_bot(emu))["shards"] == SHARDS
        syncing = grievous(emu, empty_db_url, tmp_path, "shard-0", sync=True, shards=(0,), shard_count=SHARDS)
        other = grievous(emu, empty_db_url, tmp_path, "shard-1", shards=(1,), shard_count=SHARDS)
        try:
            await asyncio.gather(syncing.start(), other.start())
            await emu.wait_for_commands("help", within=DEADLINE)
            for server in servers:  # each server's own, sent by the process serving its shard
                await emu.wait_for_commands("attack", "encounter", guild=server.guild, within=DEADLINE)
            await asyncio.gather(*(prepare(emu, server) for server in servers))

            # Each process has its own shard's guilds and nothing else; one session per shard.
            per_shard = GUILDS // SHARDS
            assert re.search(rf"in {per_shard} guilds \(shards \[0\]\)", await ready_line(emu, syncing))
            assert re.search(rf"in {per_shard} guilds \(shards \[1\]\)", await ready_line(emu, other))
            assert sorted((s.shard_id, s.shard_count) for s in emu.gateway.live_sessions) == [(0, 2), (1, 2)]

            await burst(emu, servers, 1)
            await burst(emu, servers, 2)

            # Shard 1's process dies; shard 0's guilds keep answering meanwhile.
            other.kill()
            assert await other.wait() == -9
            await emu.wait_until(lambda: len(emu.gateway.live_sessions) == 1, DEADLINE, "shard 1 to drop")
            await burst(emu, [s for s in servers if s.shard == 0], 3)
            assert not other.running

            await other.start()
            assert sorted(s.shard_id for s in emu.gateway.live_sessions) == [0, 1]
            # The dead process's session is retired: shard 1's events go to the new process only.
            assert sorted(s.shard_id for s in emu.gateway.resumable_sessions) == [0, 1]
            await burst(emu, [s for s in servers if s.shard == 1], 3)
            await burst(emu, servers, 4)

            # Nothing lost, nothing doubled: one event and one wound per attack, none anywhere else.
            events, wounds = await attack_rows(empty_db_url)
            expected = {(s.guild.id, f"C{c} Bandit {b}") for s in servers for (c, b) in s.attacks}
            assert len(expected) == GUILDS * CHANNELS * TARGETS
            assert {key for key, count in events.items() if count} == expected
            assert all(events[key] == wounds[key] == 1 for key in expected)
            assert sum(wounds.values()) == len(expected)

            # Only the shard-0 process wrote the shared commands: one bulk overwrite, ever. Each server was sent
            # its own once, by the process serving it, and not again when that process came back.
            writes = [(w.method, w.guild_id) for w in emu.command_writes]
            assert writes.count(("PUT", None)) == 1 and {method for method, _ in writes} == {"PUT"}
            assert sorted(guild for _, guild in writes if guild is not None) == sorted(s.guild.id for s in servers)
            for server in servers:
                writer, idle = (syncing, other) if server.shard == 0 else (other, syncing)
                sent = f"to guild {server.guild.id} for"
                assert sent in writer.log() and sent not in idle.log(), server.guild.id
            for process in (syncing, other):
                await process.stop()
                assert problems_in_log(process.log()) == [], process.name
            assert emu.refusals == [] and emu.internal_errors == []
        finally:
            syncing.kill()
            other.kill()
