"""Helpers for the tests that run Grievous as processes of their own (`grievous run` through
`emulator.launch`), or drive the emulator without the `table` fixture: starting one, typing commands and
seating a fight, reading what the database holds, and waiting on many answers."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sqlalchemy import text

from bot.db.engine import Database
from emulator import Channel, Emulator, InteractionHandle, Member, Message, Role
from emulator.processes import BotProcess

# The tests are about durability and routing, not latency: on a loaded 2-core machine a burst into a
# separate process can miss Discord's 3 s, which is measured by bench/, not here.
DEADLINE = 15.0


def grievous(emu: Emulator, db_url: str, log_dir: Path, name: str, *, sync: bool = False,
             shards: tuple[int, ...] | None = None, shard_count: int | None = None,
             settings: Mapping[str, str] | None = None) -> BotProcess:
    """`grievous run` as its own process on `db_url`, syncing the command tree if told; ``settings``: more of its
    environment."""
    # HEALTH_PORT 0: a free port each, as several of these run at once on one machine.
    env = {"DATABASE_URL": db_url, "SYNC_COMMANDS": "1" if sync else "0", "LOG_LEVEL": "INFO", "HEALTH_PORT": "0",
           **(settings or {})}
    if shards is not None and shard_count is not None:
        env |= {"SHARD_IDS": ",".join(map(str, shards)), "SHARD_COUNT": str(shard_count)}
    return BotProcess(emu, ["bot.cli:main", "run"], env=env, log_path=log_dir / f"{name}.log",
                      shards=shards if shards is not None else (0,), name=name)


async def answer(emu: Emulator, command: str, options: Mapping[str, Any], *, user: Member,
                 channel: Channel) -> Message:
    """`user` types the slash command in `channel`: the bot's answer (waited for up to DEADLINE)."""
    handle = await emu.slash(command, options, user=user, channel=channel)
    return await handle.message(DEADLINE)


async def run(emu: Emulator, command: str, options: Mapping[str, Any], *, user: Member, channel: Channel) -> Message:
    """`answer`, which must not be an error line."""
    message = await answer(emu, command, options, user=user, channel=channel)
    assert not message.content.startswith(("\u26a0", "Sorry")), f"/{command} {options}: {message.content}"
    return message


async def seat_ars_harn(emu: Emulator, manager: Member, gm_role: Role | int, channel: Channel) -> None:
    """The server's manager sets up ars-harn and the GM role, typing in `channel`."""
    await run(emu, "setup system", {"system": "ars-harn"}, user=manager, channel=channel)
    await run(emu, "setup gm-role", {"role": gm_role}, user=manager, channel=channel)


async def raid(emu: Emulator, gm: Member, channel: Channel, *, raider: str, bandit: str, bandits: int) -> None:
    """The GM starts an encounter in `channel` and seats bandits: one named `raider` (numbered: "Raider 1"), then
    `bandits` named `bandit`. NPC names are the server's, numbered across it: a prefix of each channel's own keeps
    them apart."""
    await run(emu, "encounter start", {}, user=gm, channel=channel)
    await run(emu, "encounter npcs", {"template": "bandit", "count": 1, "name_prefix": raider}, user=gm,
              channel=channel)
    await run(emu, "encounter npcs", {"template": "bandit", "count": bandits, "name_prefix": bandit}, user=gm,
              channel=channel)


def answered(handle: InteractionHandle) -> bool:
    """The emulator holds the bot's finished answer (not just "thinking")."""
    return handle.original is not None and not handle.original.loading


def message_text(message: Message | None) -> str:
    """What a reader sees: content, titles, descriptions, fields."""
    if message is None:
        return ""
    parts = [message.content]
    for embed in message.embeds:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        parts += [f"{f['name']}: {f['value']}" for f in embed.get("fields", [])]
    return "\n".join(parts)


def answer_text(handle: InteractionHandle) -> str:
    return message_text(handle.original)


async def attack_rows(db_url: str) -> tuple[Counter[tuple[int, str]], dict[tuple[int, str], int]]:
    """What the database holds: attack events per (guild, target name), and wounds per (guild, character)."""
    database = Database.from_url(db_url)
    try:
        async with database.engine.connect() as connection:
            attacks = text("SELECT guild_id, payload FROM events WHERE kind = 'attack'")
            events = (await connection.execute(attacks)).all()
            characters = (await connection.execute(text("SELECT guild_id, name, sheet FROM characters"))).all()
    finally:
        await database.dispose()
    by_target: Counter[tuple[int, str]] = Counter()
    for guild_id, payload in events:
        by_target[(int(guild_id), str(_json(payload)["target"]))] += 1
    wounds = {(int(guild_id), str(name)): len(_json(sheet).get("wounds") or []) for guild_id, name, sheet in characters}
    return by_target, wounds


async def unanswered_events(db_url: str) -> int:
    """Events committed whose result was neither answered nor posted late (bot/services/answers.py)."""
    database = Database.from_url(db_url)
    try:
        async with database.engine.connect() as connection:
            return int((await connection.execute(text("SELECT count(*) FROM events WHERE NOT answered"))).scalar_one())
    finally:
        await database.dispose()


async def settled(db_url: str, unanswered: int = 0) -> int:
    """Waits (up to DEADLINE) until `unanswered` stored events are neither answered nor posted late: how many are."""
    for _ in range(int(DEADLINE / 0.1)):
        if await unanswered_events(db_url) == unanswered:
            return unanswered
        await asyncio.sleep(0.1)
    return await unanswered_events(db_url)


def _json(value: Any) -> Mapping[str, Any]:
    return dict(json.loads(value)) if isinstance(value, str | bytes) else dict(value)


def problems_in_log(log: str) -> list[str]:
    """Error records (the bot logs JSON lines: bot.ops.logs) and anything that printed a traceback."""
    problems = []
    for line in log.splitlines():
        try:
            record = json.loads(line) if line.startswith("{") else None
        except ValueError:
            record = None
        if isinstance(record, dict):
            if record.get("level") in ("ERROR", "CRITICAL") or "exc" in record:
                problems.append(line)
        elif " ERROR " in line or line.startswith("Traceback"):
            problems.append(line)
    return problems
