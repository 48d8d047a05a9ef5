"""Max-size homebrew uploads from many servers at once, while another server sends /roll (issue 24 §3).

    .venv/bin/python -m bench.pack_uploads                       # 19 servers, each merging a 500 KiB weapons.yaml
    .venv/bin/python -m bench.pack_uploads --servers 4 --replace  # the whole file stored as it is (no merge)

The bot is `grievous run` in a process of its own (`emulator.processes.BotProcess`) with its watchdog logging
every event-loop stall over 20 ms; the emulator (this process) holds Discord's 3 s to the interaction
callback, so a /roll answered later than that is refused (10062) and counts as unanswered. Every server's
upload is sent at once; a /roll goes every ``--every`` seconds from then until the last upload is stored.

Printed: /roll latency to its callback (p50, max) and how many got no answer in time, each upload's time to
its stored answer, and the watchdog's longest stall (with how much of it the bot held the loop, the
machine's run queue left out).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import platform
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path

if __package__ in (None, ""):  # `python bench/pack_uploads.py`: make `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.scaling import load_average, percentile, wait_ready
from emulator.harness import running_emulator
from emulator.processes import BotProcess
from emulator.records import InteractionHandle
from emulator.server import Emulator
from emulator.testing import build_world

WAIT = 30.0
STALL_LOG_MS = 20
_STALL = re.compile(r"event loop stalled for (\d+) ms in (.*?) \((\d+) ms on a CPU, (\d+) ms waiting for one")


def max_size_weapons_pack(tag: str, size: int = 500 * 1024) -> bytes:
    """The default ars-harn weapons.yaml with homebrew blades added until it is ``size`` bytes (an upload may be
    512 KiB; merged into the default file, 500 KiB of it stays under that)."""
    default = (resources.files("content") / "ars_harn" / "weapons.yaml").read_bytes().decode().rstrip("\n")
    lines = [default]
    total, n = len(default), 0
    while total < size:
        lines.append(f"  {tag} Blade {n}: {{skill: Sword, weight: 3, hm_attack: 15, hm_defence: 5, blunt: 2, "
                     f"edge: 7, point: 4}}")
        total, n = total + len(lines[-1]) + 1, n + 1
    return ("\n".join(lines) + "\n").encode()


@dataclass
class Stall:
    ms: int
    held_ms: int  # less the time the loop's thread waited for a CPU another process had
    where: str


@dataclass
class Result:
    rolls: list[InteractionHandle] = field(default_factory=list)
    uploads: list[InteractionHandle] = field(default_factory=list)
    upload_texts: list[str] = field(default_factory=list)
    stalls: list[Stall] = field(default_factory=list)


def stalls_in(log: str) -> list[Stall]:
    found = []
    for match in _STALL.finditer(log):
        ms, where, _cpu, waiting = int(match[1]), match[2], int(match[3]), int(match[4])
        if len(where) > 80:  # "one of /roll, /roll, ..." with every command in flight
            where = where[:77] + "..."
        found.append(Stall(ms, max(0, ms - waiting), where))
    return found


def text_of(handle: InteractionHandle) -> str:
    message = handle.original
    if message is None:
        return ""
    return "\n".join([message.content, *((e.get("title") or "") + " " + (e.get("description") or "")
                                         for e in message.embeds)])


async def run(args: argparse.Namespace, workdir: Path) -> Result:
    url = f"sqlite+aiosqlite:///{workdir / 'uploads.db'}"
    async with running_emulator(interaction_deadline=args.deadline) as emu:
        world = build_world(emu)
        owners = []
        for n in range(args.servers):
            owner = emu.add_user(f"owner{n}")
            guild = emu.add_guild(f"Upload {n}", owner=owner)
            channel = emu.add_channel(guild, "general")
            owners.append((guild, channel, guild.members[owner.id]))
        env = {"DATABASE_URL": url, "SYNC_COMMANDS": "1", "HEALTH_PORT": "0", "LOG_LEVEL": "INFO",
               "STALL_LOG_MS": str(STALL_LOG_MS)}
        if args.work_seconds is not None:
            env["WORK_SECONDS"] = str(args.work_seconds)
        bot = BotProcess(emu, ["bot.cli:main", "run"], env=env, log_path=workdir / "bot.log", name="grievous")
        try:
            await bot.start(WAIT * 4)
            await wait_ready(bot, emu)
            await emu.wait_for_commands("roll", "setup", "pack", within=WAIT)
            manager = world.manager
            await setup(emu, world.guild, world.general, manager)
            for guild, channel, member in owners:
                await setup(emu, guild, channel, member)
            before = len(bot.log())
            result = Result()
            packs = [max_size_weapons_pack(f"Server {n}") for n in range(args.servers)]
            for (_guild, channel, member), pack in zip(owners, packs, strict=True):
                options: dict[str, object] = {"file": emu.make_attachment("weapons.yaml", pack)}
                if args.replace:
                    options["replace"] = True
                result.uploads.append(await emu.slash("pack upload", options, user=member, channel=channel))
            started = time.monotonic()
            print(f"{len(result.uploads)} uploads sent; /roll every {args.every:g} s", file=sys.stderr)
            while time.monotonic() - started < args.limit:
                result.rolls.append(await emu.slash("roll", {"expression": "3d6", "dice": "1,2,3"}, user=world.bob,
                                                    channel=world.general))
                if all(stored(h) for h in result.uploads):
                    break
                await asyncio.sleep(args.every)
            print(f"{len(result.rolls)} /rolls sent in {time.monotonic() - started:.0f} s; "
                  f"{sum(map(stored, result.uploads))} uploads stored", file=sys.stderr)
            await asyncio.sleep(4.0)  # past Discord's 3 s: every /roll is answered or refused by now
            with contextlib.suppress(TimeoutError):  # the uploads still building, within one bound for all
                await emu.wait_until(lambda: all(stored(h) for h in result.uploads) or None, WAIT * 4,
                                     "every upload's answer")
            result.upload_texts = [text_of(handle) for handle in result.uploads]
            result.stalls = stalls_in(bot.log()[before:])
        finally:
            await bot.stop()
    return result


def stored(handle: InteractionHandle) -> bool:
    return handle.original is not None and not handle.original.loading


async def setup(emu: Emulator, guild: object, channel: object, member: object) -> None:
    handle = await emu.slash("setup system", {"system": "ars-harn"}, user=member, channel=channel)  # type: ignore[arg-type]
    await handle.message(WAIT)
    assert "Done" in text_of(handle) or "already" in text_of(handle), text_of(handle)


def render(result: Result, args: argparse.Namespace) -> list[str]:
    answered = [h for h in result.rolls if h.callback is not None]
    waits = [h.callback.at - h.created_at for h in answered if h.callback is not None]
    done = [h.events[-1].at - h.created_at for h in result.uploads if h.events and stored(h)]
    ok = sum(1 for text in result.upload_texts if "Done" in text)
    worst = max(result.stalls, key=lambda s: s.ms, default=None)
    held = max(result.stalls, key=lambda s: s.held_ms, default=None)
    p50 = percentile(waits, 50)
    mode = "replaced" if args.replace else "merged into the default file"
    lines = [
        f"{args.servers} servers each uploading a 500 KiB weapons.yaml at once ({mode}); /roll every "
        f"{args.every:g} s in another server meanwhile",
        f"- /roll: {len(result.rolls)} sent, {len(result.rolls) - len(answered)} unanswered within 3 s; "
        f"answered p50 {p50:.2f} s, max {max(waits, default=float('nan')):.2f} s",
        f"- uploads: {ok} of {len(result.uploads)} stored; answered after "
        + (", ".join(f"{t:.1f}" for t in sorted(done)) or "none") + " s",
        f"- watchdog: {len(result.stalls)} stalls over {STALL_LOG_MS} ms; longest "
        + (f"{worst.ms} ms ({worst.held_ms} ms held by the bot) in {worst.where}" if worst else "none")
        + (f"; most held {held.held_ms} ms" if held else ""),
    ]
    failed = [text for text in result.upload_texts if "Done" not in text]
    if failed:
        lines.append(f"- an upload not stored: {failed[0][:300]!r}")
    return lines


async def main_async(args: argparse.Namespace) -> int:
    load_before, started = load_average(), datetime.now(UTC)
    workdir = Path(tempfile.mkdtemp(prefix="grievous-uploads-"))
    try:
        result = await run(args, workdir)
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    command = "python -m bench.pack_uploads " + " ".join(sys.argv[1:])
    print(f"Measured {started:%Y-%m-%d %H:%M} UTC with `{command.strip()}` on {os.cpu_count()} cores, Python "
          f"{platform.python_version()}; load average {load_before} at the start, {load_average()} at the end.")
    print("\n".join(render(result, args)))
    if args.keep:
        print(f"(the bot's log: {workdir / 'bot.log'})")
    unanswered = sum(1 for h in result.rolls if h.callback is None)
    stored_all = all("Done" in text for text in result.upload_texts)
    return 0 if stored_all and not unanswered else 1


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--servers", type=int, default=19, help="servers uploading at once (default 19)")
    parser.add_argument("--replace", action="store_true", help="store each file as it is (no merge)")
    parser.add_argument("--every", type=float, default=0.25, help="seconds between /rolls (default 0.25)")
    parser.add_argument("--limit", type=float, default=180.0, help="stop sending /roll after this many seconds")
    parser.add_argument("--keep", action="store_true", help="keep the bot's log")
    parser.add_argument("--work-seconds", type=int, default=None,
                        help="the bot's limit on reading an upload (WORK_SECONDS; default: production's, 10 s)")
    parser.add_argument("--deadline", type=float, default=3.0,
                        help="the emulator's interaction deadline (default: Discord's, 3 s)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    return asyncio.run(main_async(parse_args(argv)))


if __name__ == "__main__":
    raise SystemExit(main())
