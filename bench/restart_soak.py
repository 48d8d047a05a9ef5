"""SIGKILL-and-restart soak (``python -m bench.restart_soak --rounds 200``).

`grievous run` as a process of its own serves one guild with ``--channels`` fights (12, as in the restart
that once hung for 14 minutes). Each round: an attack in every channel at once; once a few are answered
the process is SIGKILLed mid-burst and started again on the same database; the attacks that got no answer
are sent again, as a player would; then every channel must answer a /roll. A round that does not finish
within ``--round-limit`` seconds (240), or whose restarted process has not connected after two minutes, is a
hang: the soak stops there and prints the log's tail (with the stuck process's stacks, from faulthandler).

Reported: rounds run, hung rounds, the slowest restart (kill to a connected shard) and round, results
posted late by the restarted process, attacks sent again, and the missed deadlines the processes logged.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from emulator import Channel, Emulator, InteractionHandle, Message
from emulator.harness import running_emulator
from emulator.processes import BotProcess
from emulator.testing import World, build_world

MISS = "attack=2 defense=8"  # the raider misses: an event stored, a tracker edit, no wound to pile up
KILL_AFTER = 3  # answers seen in the burst before the SIGKILL
WAIT = 30.0
START_DUMP = 120.0  # a restarted process not connected by then dumps its threads' stacks into its log
_MISSED = re.compile(r"was not answered within Discord's deadline")
_LATE = re.compile(r"stored but not answered; (\d+) posted late")


@dataclass
class Round:
    restart: float  # seconds from the SIGKILL to the new process's connected shard
    seconds: float  # the whole round
    late: int  # results the new process posted late
    resent: int  # attacks sent again


@dataclass
class Result:
    rounds: list[Round] = field(default_factory=list)
    hung: int = 0
    missed: int = 0
    hang_log: str = ""
    seconds: float = 0.0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.restart_soak", description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--channels", type=int, default=12)
    parser.add_argument("--round-limit", type=float, default=240.0,
                        help="seconds a round may take before it counts as a hang (default 240)")
    parser.add_argument("--database-url", default=None, help="default: a SQLite file in a temporary folder")
    parser.add_argument("--deadline", type=float, default=3.0,
                        help="the emulator's interaction deadline (default: Discord's 3 s). On a loaded machine every "
                             "attack of a burst can miss it, and the round then waits for answers that cannot come")
    parser.add_argument("--keep", type=Path, default=None, help="write the processes' logs and the database here")
    return parser.parse_args(argv)


def answered(handle: InteractionHandle) -> bool:
    return handle.original is not None and not handle.original.loading


async def run_command(emu: Emulator, command: str, options: dict[str, object], *, user: object,
                      channel: Channel) -> Message:
    handle = await emu.slash(command, options, user=user, channel=channel)  # type: ignore[arg-type]
    message = await handle.message(WAIT)
    if message.content.startswith(("\u26a0", "Sorry")):
        raise RuntimeError(f"/{command} {options}: {message.content}")
    return message


async def prepare(emu: Emulator, world: World, channels: list[Channel]) -> None:
    manager = world.manager
    await run_command(emu, "setup system", {"system": "ars-harn"}, user=manager, channel=world.combat)
    await run_command(emu, "setup gm-role", {"role": world.gm_role}, user=manager, channel=world.combat)
    for n, channel in enumerate(channels):
        await run_command(emu, "encounter start", {}, user=world.gm, channel=channel)
        await run_command(emu, "encounter npcs", {"template": "bandit", "count": 2, "name_prefix": f"C{n} Bandit"},
                          user=world.gm, channel=channel)


async def attack(emu: Emulator, world: World, channel: Channel, n: int) -> InteractionHandle:
    return await emu.slash("attack", {"target": f"C{n} Bandit 2", "attacker": f"C{n} Bandit 1", "aspect": "edge",
                                      "dice": MISS}, user=world.gm, channel=channel)


def process(emu: Emulator, url: str, workdir: Path, number: int, *, sync: bool) -> BotProcess:
    env = {"DATABASE_URL": url, "SYNC_COMMANDS": "1" if sync else "0", "LOG_LEVEL": "INFO", "HEALTH_PORT": "0",
           "PYTHONFAULTHANDLER": "1"}
    return BotProcess(emu, ["bot.cli:main", "run"], env=env, log_path=workdir / f"bot-{number}.log",
                      name=f"grievous-{number}")


async def one_round(emu: Emulator, world: World, channels: list[Channel], bot: BotProcess,
                    restarted: BotProcess, sent: list[InteractionHandle]) -> Round:
    started = time.monotonic()
    handles = [await attack(emu, world, channel, n) for n, channel in enumerate(channels)]
    sent[:] = handles
    await emu.wait_until(lambda: sum(map(answered, handles)) >= min(KILL_AFTER, len(handles)) or None, WAIT,
                         f"{KILL_AFTER} answers before the kill")
    bot.kill()
    await bot.wait()
    killed = time.monotonic()

    async def dump_if_stuck() -> None:
        """A process not connected after START_DUMP seconds is asked where it is (faulthandler's dump on
        SIGABRT, into its log), which ends it: the round is then a hang with that dump in its log."""
        await asyncio.sleep(START_DUMP)
        restarted.signal(signal.SIGABRT)

    dump = asyncio.get_running_loop().create_task(dump_if_stuck())
    try:
        await restarted.start(START_DUMP + WAIT)
    finally:
        dump.cancel()
    restart = time.monotonic() - killed
    # What got no answer is sent again once the new process is there (a player pressing Enter again).
    again = [await attack(emu, world, channels[n], n) for n, handle in enumerate(handles) if not answered(handle)]
    sent[:] = again
    await emu.wait_until(lambda: all(map(answered, again)) or None, WAIT, f"{len(again)} attacks sent again")
    rolls = [await emu.slash("roll", {"expression": "1d6", "dice": "4"}, user=world.bob, channel=channel)
             for channel in channels]
    sent[:] = rolls
    await emu.wait_until(lambda: all(map(answered, rolls)) or None, WAIT, "a /roll answered in every channel")
    late = sum(int(m[1]) for m in _LATE.finditer(restarted.log()))
    return Round(restart, time.monotonic() - started, late, len(again))


async def stuck(emu: Emulator, sent: list[InteractionHandle], *processes: BotProcess) -> str:
    """What a hung round leaves to read: each interaction of the step that waited (delivered to the bot? its
    events), the gateway's sessions, and each live process's stacks (faulthandler, on SIGABRT) and log."""
    lines = [f"{h.name} in #{h.channel.name}: delivered {h.delivered}x, events "
             f"{[(e.kind, e.type) for e in h.events]}" for h in sent]
    lines += [f"session {s.id[:8]} shard {s.shard_id}: seq {s.seq}, connected {s.connection is not None}, "
              f"invalidated {s.invalidated}" for s in emu.gateway.sessions.values()]
    for each in processes:
        if each.running:
            each.signal(signal.SIGABRT)
            with contextlib.suppress(TimeoutError):
                await each.wait(10.0)
        lines.append(f"--- {each.name}'s log, its end:\n{each.log()[-12000:]}")
    return "\n".join(lines)


async def run(args: argparse.Namespace, workdir: Path) -> Result:
    url = args.database_url or f"sqlite+aiosqlite:///{workdir / 'soak.db'}"
    result = Result()
    began = time.monotonic()
    async with running_emulator(interaction_deadline=args.deadline) as emu:
        world = build_world(emu)
        channels = [emu.add_channel(world.guild, f"fight-{n}") for n in range(args.channels)]
        bot = process(emu, url, workdir, 0, sync=True)
        processes = [bot]
        try:
            await bot.start(START_DUMP)  # the first start compiles every module: slow on a loaded machine
            await emu.wait_for_commands("attack", "encounter", guild=world.guild, within=WAIT)
            await prepare(emu, world, channels)
            for number in range(1, args.rounds + 1):
                restarted = process(emu, url, workdir, number, sync=False)
                processes.append(restarted)
                sent: list[InteractionHandle] = []
                try:
                    done = await asyncio.wait_for(one_round(emu, world, channels, bot, restarted, sent),
                                                  args.round_limit)
                except (TimeoutError, RuntimeError) as exc:
                    result.hung += 1
                    result.hang_log = f"round {number}: {exc}\n" + await stuck(emu, sent, bot, restarted)
                    break
                result.rounds.append(done)
                bot = restarted
                print(f"round {number}: restart {done.restart:.1f} s, round {done.seconds:.1f} s, "
                      f"{done.late} late, {done.resent} sent again", file=sys.stderr)
        finally:
            for each in processes:
                each.kill()
                await each.wait()
            result.missed = sum(len(_MISSED.findall(p.log())) for p in processes)
    result.seconds = time.monotonic() - began
    return result


def render(result: Result, args: argparse.Namespace) -> list[str]:
    rounds = result.rounds
    lines = [f"restart soak: {len(rounds)} of {args.rounds} rounds with {args.channels} channels in "
             f"{result.seconds:.0f} s; {result.hung} hung (a round over {args.round_limit:g} s)"]
    if rounds:
        mean = sum(r.seconds for r in rounds) / len(rounds)
        lines.append(f"slowest restart {max(r.restart for r in rounds):.1f} s, slowest round "
                     f"{max(r.seconds for r in rounds):.1f} s, mean round {mean:.1f} s")
        lines.append(f"{sum(r.late for r in rounds)} results posted late, {sum(r.resent for r in rounds)} attacks "
                     f"sent again, {result.missed} missed deadlines logged")
    if result.hang_log:
        lines.append("the hung round:\n" + result.hang_log)
    return lines


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
        result = asyncio.run(run(args, args.keep))
    else:
        with tempfile.TemporaryDirectory(prefix="grievous-soak-") as workdir:
            result = asyncio.run(run(args, Path(workdir)))
    print("\n".join(render(result, args)))
    return 1 if result.hung else 0


if __name__ == "__main__":
    raise SystemExit(main())
