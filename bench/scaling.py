"""How much one Grievous process holds: guilds (memory, time to ready) and commands per second.

    .venv/bin/python -m bench.scaling                    # SQLite and PostgreSQL: 1-4 minutes, by the load
    .venv/bin/python -m bench.scaling --backends sqlite --guilds 500 --active 20
    .venv/bin/python -m bench.scaling --write            # also updates docs/scaling.md between its markers

The bot is `grievous run` in a process of its own (`emulator.launch`), logged in to the loopback emulator in
this process, so the bot's own CPU time and memory can be read from /proc apart from the emulator's.

1. Baseline: the bot with one guild; its resident memory once ready.
2. The same bot with ``--guilds`` idle guilds (``--channels`` channels and five roles each, no members cached:
   the bot asks only for the guilds intent) plus ``--active`` guilds with a fight going on: time from start to
   discord.py's "ready" (which waits 2 s after the last GUILD_CREATE), resident memory, so memory per guild.
3. Load: one player per active guild attacking in a closed loop (the next /attack once the last was answered)
   ``--per-player`` times. An attack that misses (forced dice): one transaction with its event, the answer,
   the pinned tracker's edit. Printed: commands per second, latency to the finished answer (p50, p99), the bot
   process's CPU seconds per command (what a core can carry, whatever else the machine was doing), and on
   PostgreSQL the most connections the bot held at once.

``--mix`` measures a real evening instead (bench/evening.py: attacks that hit and miss, GM buttons, /roll,
/log, /injuries, autocomplete, the no-op; each kind's bot CPU beside the no-op's, and how an attack that
hits grows), on SQLite. Then, for ``--per-kind`` attacks that hit at each table on fresh Bandits:
``--spy FILE`` samples the bot process with py-spy (every thread, CPU only; py-spy installed by hand) and
prints where the CPU went; ``--profile FILE`` writes a cProfile of the event loop's thread instead (exact
call counts, but it slows Python code about threefold). Read either with ``python -m bench.profile_summary``.

    .venv/bin/python -m bench.scaling --mix --active 20 --per-player 10 --per-kind 15 --spy /tmp/hit.pyspy
    .venv/bin/python -m bench.scaling --mix --active 20 --per-player 40 --profile /tmp/evening.prof
    .venv/bin/python -m bench.scaling --mix --active 20 --rates 20,40,80,160   # and p99 at set rates
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

if __package__ in (None, ""):  # `python bench/scaling.py`: make `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import make_url, text

from bench import evening, profile_summary, spy
from bench.doc_block import write_block
from bot.db.engine import Database
from bot.db.migrate import upgrade
from bot.db.scratch_postgres import start_scratch_postgres
from bot.services import Actor, Services
from emulator import permissions as perms
from emulator.harness import running_emulator
from emulator.models import Channel, Member
from emulator.processes import BotProcess
from emulator.server import Emulator

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "scaling.md"
WAIT = 30.0
MISS = "attack=2 defense=9"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
GRIEVOUS_RUN = ["bot.cli:main", "run"]
QUIET = {"HEALTH_PORT": "0", "LOG_LEVEL": "INFO"}  # a free health port; INFO has the "ready" line, not each command


@dataclass
class Fight:
    channel: Channel
    gm: Member


@dataclass
class Figures:
    backend: str
    server: str
    guilds: int
    ready_s: float
    rss_mb: float
    commands: int
    seconds: float
    latencies_ms: list[float]
    bot_cpu_s: float
    errors: list[str] = field(default_factory=list)
    peak_connections: int | None = None

    @property
    def per_second(self) -> float:
        return self.commands / self.seconds if self.seconds else math.nan

    @property
    def cpu_ms_per_command(self) -> float:
        return 1000.0 * self.bot_cpu_s / self.commands if self.commands else math.nan


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered), max(1, math.ceil(q / 100 * len(ordered)))) - 1]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return math.nan


def cpu_seconds(pid: int) -> float:
    """CPU time of a process so far: the sum over its threads of the scheduler's nanoseconds on a CPU
    (/proc/PID/task/*/schedstat), where the kernel keeps them; else user + system in clock ticks (10 ms each,
    too coarse for a hundred no-ops). Its threads live as long as it does (the event loop, aiosqlite's)."""
    try:
        return sum(int((task / "schedstat").read_text().split()[0])
                   for task in Path(f"/proc/{pid}/task").iterdir()) / 1e9
    except (OSError, ValueError, IndexError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def add_idle_guilds(emu: Emulator, count: int, channels: int) -> None:
    for g in range(count):
        guild = emu.add_guild(f"Idle {g}")
        for r in range(5):
            emu.add_role(guild, f"role-{r}")
        for c in range(channels):
            emu.add_channel(guild, f"channel-{c}")


async def add_fights(emu: Emulator, services: Services, count: int) -> list[Fight]:
    """Guilds with a GM and an encounter (a raider and a bandit), set up straight in the database."""
    fights = []
    for g in range(count):
        guild = emu.add_guild(f"Table {g}")
        role = emu.add_role(guild, "GM", permissions=perms.MANAGE_MESSAGES | perms.PIN_MESSAGES)
        gm = emu.add_member(guild, emu.add_user(f"gm-{g}"), roles=[role])
        channel = emu.add_channel(guild, "fight")
        manager = Actor(guild.id, channel.id, emu.state.owner.id, "Owner", is_manager=True)
        actor = Actor(guild.id, channel.id, gm.user.id, "GM", (role.id,))
        await services.setup.set_system(manager, "ars-harn")
        await services.setup.set_gm_role(manager, role.id)
        await services.encounters.start(actor)
        await services.encounters.add_npcs(actor, "bandit", 1, "Raider")
        await services.encounters.add_npcs(actor, "bandit", 1, "Bandit")
        fights.append(Fight(channel, gm))
    return fights


async def wait_ready(bot: BotProcess, emu: Emulator) -> None:
    def ready() -> bool:
        if not bot.running:
            raise RuntimeError(f"{bot.name} exited:\n{bot.log()[-3000:]}")
        return "ready as" in bot.log()

    try:
        await emu.wait_until(ready, WAIT * 4, f"{bot.name} to be ready")
    except TimeoutError:
        raise TimeoutError(f"{bot.name} was not ready within {WAIT * 4:.0f}s:\n{bot.log()[-3000:]}") from None


async def connections(url: str, peak: list[int], stop: asyncio.Event) -> None:
    """The most connections other than this one to the bot's database, sampled every 50 ms."""
    database = Database.from_url(url)
    query = text("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                 "AND pid <> pg_backend_pid()")
    try:
        async with database.engine.connect() as connection:
            while not stop.is_set():
                peak[0] = max(peak[0], int((await connection.execute(query)).scalar_one()))
                await connection.commit()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), 0.05)
    finally:
        await database.dispose()


async def load(emu: Emulator, fights: list[Fight], per_player: int) -> tuple[list[float], list[str]]:
    latencies: list[float] = []
    errors: list[str] = []

    async def player(fight: Fight) -> None:
        for _ in range(per_player):
            handle = await emu.slash("attack", {"target": "Bandit 1", "attacker": "Raider 1", "aspect": "edge",
                                                "dice": MISS}, user=fight.gm, channel=fight.channel)
            message = await handle.message(WAIT)
            latencies.append((time.monotonic() - handle.created_at) * 1000.0)
            if message.ephemeral or not message.embeds:
                errors.append(message.content)

    await asyncio.gather(*(player(f) for f in fights))
    return latencies, errors


async def baseline_rss(workdir: Path) -> float:
    url = f"sqlite+aiosqlite:///{workdir / 'baseline.db'}"
    async with running_emulator(interaction_deadline=WAIT) as emu:
        emu.add_guild("Only")
        bot = BotProcess(emu, GRIEVOUS_RUN, env={"DATABASE_URL": url, **QUIET}, log_path=workdir / "baseline.log",
                         name="baseline")
        try:
            await bot.start(WAIT)
            await wait_ready(bot, emu)
            assert bot.pid is not None
            return rss_mb(bot.pid)
        finally:
            await bot.stop()


async def run_backend(backend: str, url: str, server: str, args: argparse.Namespace, workdir: Path) -> Figures:
    database = Database.from_url(url)
    await upgrade(database)
    services = Services(database)
    async with running_emulator(interaction_deadline=WAIT) as emu:
        add_idle_guilds(emu, args.guilds, args.channels)
        fights = await add_fights(emu, services, args.active)
        await services.runtime.close()  # its writer task: the bot process does the writing from here on
        await database.dispose()
        bot = BotProcess(emu, GRIEVOUS_RUN, env={"DATABASE_URL": url, "SYNC_COMMANDS": "1", **QUIET},
                         log_path=workdir / f"{backend}.log", name=f"grievous-{backend}")
        started = time.monotonic()
        try:
            await bot.start(WAIT * 4)
            await wait_ready(bot, emu)
            ready_s = time.monotonic() - started
            assert bot.pid is not None
            memory = rss_mb(bot.pid)
            # Each server is sent its own commands once, on this first start (docs/decisions/per-server-commands.md):
            # measure after that, not while it runs.
            guilds = len(emu.state.guilds)
            await emu.wait_until(
                lambda: len({w.guild_id for w in emu.command_writes if w.guild_id is not None}) >= guilds or None,
                max(WAIT, guilds / 20), "every server's own commands")
            # Warm up: imports, caches, the pool; each channel's first attack posts and pins its tracker.
            await load(emu, fights, 2)
            emu.interactions.clear()
            peak = [0]
            stop = asyncio.Event()
            sampler = (asyncio.create_task(connections(url, peak, stop)) if backend == "postgresql" else None)
            cpu_before, began = cpu_seconds(bot.pid), time.perf_counter()
            latencies, errors = await load(emu, fights, args.per_player)
            seconds, cpu = time.perf_counter() - began, cpu_seconds(bot.pid) - cpu_before
            stop.set()
            if sampler is not None:
                await sampler
        finally:
            await bot.stop()
    return Figures(backend, server, args.guilds + args.active, ready_s, memory, len(latencies), seconds, latencies,
                   cpu, errors, peak[0] if backend == "postgresql" else None)


def render(figures: list[Figures], baseline: float, args: argparse.Namespace, load_avg: str, started: datetime) -> str:
    command = args.command
    out = [
        f"Measured {started:%Y-%m-%d %H:%M} UTC with `{command.strip()}` on {os.cpu_count()} cores "
        f"({platform.processor() or platform.machine()}), Python {platform.python_version()}; load average "
        f"{load_avg} at the start (the machine was shared with other work).",
        "",
        f"Idle guilds: {args.guilds} with {args.channels} channels and 5 roles each; active guilds: {args.active}, "
        f"one player each, {args.per_player} attacks per player in a closed loop.",
        "",
        "| backend | guilds | ready after | resident memory | attacks/s | p50 ms | p99 ms | bot CPU ms per attack "
        "| peak DB connections | errors |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for f in figures:
        out.append(
            f"| {f.server} | {f.guilds} | {f.ready_s:.1f} s | {f.rss_mb:.0f} MB | {f.per_second:.0f} "
            f"| {percentile(f.latencies_ms, 50):.0f} | {percentile(f.latencies_ms, 99):.0f} "
            f"| {f.cpu_ms_per_command:.1f} | {f.peak_connections if f.peak_connections is not None else '—'} "
            f"| {len(f.errors)} |")
    per_guild = [(f.rss_mb - baseline) * 1024 / f.guilds for f in figures if f.guilds]
    out += ["", f"Baseline (one guild): {baseline:.0f} MB resident; so about "
            f"{sum(per_guild) / len(per_guild):.0f} KB per guild of this shape."]
    return "\n".join(out) + "\n"


# Discord's global limit (50 requests a second a bot) counts every request but these: "interaction endpoints are not
# bound to the bot's global rate limit" (the callback, the follow-ups and edits through the interaction's token)
INTERACTION_ROUTES = ("/interactions/", "/webhooks/{application_id}/{token}")


@dataclass
class MixSide:
    """What the mix's closed loop did beside the bot's CPU: its REST requests (``"PATCH /channels/..."``, from the
    emulator's log) and, on PostgreSQL, the server's own CPU (its processes, not the bot's) and the most
    connections the bot held (over every closed-loop phase, not the mix's alone)."""
    requests: list[str] = field(default_factory=list)
    db_cpu_s: float | None = None
    peak_connections: int | None = None

    @property
    def global_requests(self) -> list[str]:
        """The requests Discord's global limit counts."""
        return [r for r in self.requests if not r.split(" ", 1)[-1].startswith(INTERACTION_ROUTES)]


def postgres_cpu_seconds(port: int) -> float:
    """CPU seconds of the PostgreSQL server listening on ``port``: its postmaster, every live child (backends,
    the WAL writer, the checkpointer ...) and the children it has reaped (the postmaster's cutime and cstime)."""
    procs = [d for d in Path("/proc").iterdir() if d.name.isdigit()]
    postmaster = None
    for d in procs:
        with contextlib.suppress(OSError):
            argv = (d / "cmdline").read_bytes().split(b"\0")
            if argv and argv[0].endswith(b"/postgres") and str(port).encode() in argv:
                postmaster = d
                break
    if postmaster is None:
        return math.nan
    total = cpu_seconds(int(postmaster.name))
    reaped = (postmaster / "stat").read_text().rsplit(")", 1)[1].split()
    total += (int(reaped[13]) + int(reaped[14])) / CLOCK_TICKS
    for d in procs:
        with contextlib.suppress(OSError, IndexError):
            if (d / "stat").read_text().rsplit(")", 1)[1].split()[1] == postmaster.name:
                total += cpu_seconds(int(d.name))
    return total


async def run_mix(args: argparse.Namespace, workdir: Path, url: str | None = None,
                  side: MixSide | None = None) -> tuple[evening.Evening, str | None]:
    """The evening (bench/evening.py) against the bot in its own process, on SQLite unless given a PostgreSQL
    ``url``; ``side`` gets the mix's requests (and on PostgreSQL the server's CPU and the bot's connections); and
    its profile. The open loop, with ``--open-tables``, runs over that many guilds (the closed loops over the first
    ``--active``)."""
    url = url or f"sqlite+aiosqlite:///{workdir / 'evening.db'}"
    database = Database.from_url(url)
    await upgrade(database)
    services = Services(database)
    async with running_emulator(interaction_deadline=WAIT) as emu:
        tables = await evening.add_tables(emu, services, max(args.active, args.open_tables), args.combatants)
        await services.runtime.close()
        await database.dispose()
        env = {"DATABASE_URL": url, "SYNC_COMMANDS": "1", **QUIET}
        if args.profile:
            env["BENCH_PROFILE"] = args.profile
        bot = BotProcess(emu, ["bench.evening_bot:main", "run"], env=env, log_path=workdir / "evening.log",
                         name="grievous-evening")
        try:
            await bot.start(WAIT * 4)
            await wait_ready(bot, emu)
            pid = bot.pid
            assert pid is not None
            guilds = len(emu.state.guilds)
            await emu.wait_until(
                lambda: len({w.guild_id for w in emu.command_writes if w.guild_id is not None}) >= guilds or None,
                max(WAIT, guilds / 20), "every server's own commands")
            reads: list[tuple[float, int]] = []
            port = make_url(url).port if url.startswith("postgresql") else None

            def cpu() -> float:
                # run_evening reads cpu() first at the mix's start, then at its end: what else the mix did, beside
                reads.append((postgres_cpu_seconds(port) if port is not None else math.nan, len(emu.requests)))
                return cpu_seconds(pid)

            peak, stop = [0], asyncio.Event()
            sampler = asyncio.create_task(connections(url, peak, stop)) if port is not None else None
            try:
                result = await evening.run_evening(emu, tables[:args.active], args.per_player, args.per_kind, cpu,
                                                   rounds=args.rounds, wounds=args.wounds)
            finally:
                stop.set()
                if sampler is not None:
                    await sampler
            if side is not None and len(reads) >= 2:
                (db_before, first), (db_after, last) = reads[:2]
                side.requests = emu.requests[first:last]
                if port is not None:
                    side.db_cpu_s, side.peak_connections = db_after - db_before, peak[0]
            if args.rates:
                rates = [float(r) for r in args.rates.split(",") if r.strip()]
                result.open_loop = await evening.open_loop(emu, tables[:args.open_tables or args.active], rates,
                                                           args.seconds, lambda: cpu_seconds(pid))
            profiled = await profile_hits(emu, tables[:args.active], pid, args) if args.profile or args.spy else None
        finally:
            await bot.stop()
    return result, profiled


async def profile_hits(emu: Emulator, tables: list[evening.Table], pid: int, args: argparse.Namespace) -> str:
    """Attacks that hit, on fresh Bandits, under cProfile (the bot's SIGUSR1/SIGUSR2: bench/evening_bot.py) or
    py-spy, each stretch a sheet holds sampled and the fresh encounters between them not; what was profiled,
    and for py-spy where the CPU went."""
    out = Path(args.spy) if args.spy else None
    if out is not None:
        out.unlink(missing_ok=True)
    part = out.with_name(out.name + ".part") if out is not None else None
    recording: list[spy.Recording] = []
    cpu = [0.0, 0.0]  # CPU seconds in the stretches so far; the clock at the current one's start

    async def start() -> None:
        if part is not None:
            recording.append(spy.Recording(pid, part))
            await recording[-1].start()
        else:
            os.kill(pid, signal.SIGUSR1)
        cpu[1] = cpu_seconds(pid)

    async def stop() -> None:
        cpu[0] += cpu_seconds(pid) - cpu[1]
        if out is not None:
            sampled = await recording.pop().stop()
            with out.open("a", encoding="utf-8") as whole:  # raw stacks add up: a line a stack and its count
                whole.write(sampled.read_text(encoding="utf-8"))
            sampled.unlink()
        else:
            os.kill(pid, signal.SIGUSR2)  # the profile so far, written
            await asyncio.sleep(1.0)

    seen = await evening.hits_window(emu, tables, args.per_kind, start, stop, args.profile_wounded)
    hits, spent = len(seen.latencies["attack (hit)"]), cpu[0]
    on = f"Bandits given {args.profile_wounded} wounds first" if args.profile_wounded else "fresh Bandits"
    said = (f"{hits} attacks that hit ({args.per_kind} a table on {on}, at most "
            f"{evening.WOUND_CAP - args.profile_wounded} on one; "
            f"{seen.for_room} fresh encounters, not profiled), {seen.refused} refused, "
            f"errors {len(seen.errors)}" + (f" ({'; '.join(seen.errors[:2])})" if seen.errors else "")
            + f", {evening.render_unmeasured(seen)}"
            + f"; the bot's CPU in them {spent:.2f} s ({1000 * spent / max(1, seen.commands):.2f} ms a command)")
    if out is None:
        return f"{said}, profiled into {args.profile}: `python -m bench.profile_summary {args.profile} --per {hits}`"
    lines = profile_summary.report(out, per=seen.commands, top=25, cpu_s=spent,
                                   pattern=r"^Session\.(flush|execute|get|commit) ")
    return "\n".join([f"{said}, sampled by py-spy into {out} (`python -m bench.profile_summary {out} "
                      f"--per {seen.commands} --cpu {spent:.2f}`; the ms per command below are that CPU shared "
                      "out by the samples):", "", *lines])


@dataclass
class MixRun:
    backend: str  # as written: "SQLite (WAL, one file)" or the PostgreSQL server's version
    evening: evening.Evening
    side: MixSide
    profiled: str | None


def machine() -> str:
    """The CPU's model name (platform.processor() says only "x86_64" on Linux) and the core count."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return f"{os.cpu_count()} cores ({line.split(':', 1)[1].strip()})"
    return f"{os.cpu_count()} cores ({platform.machine()})"


def commit() -> str:
    """The checkout measured: its short commit, "+ changes" when tracked files differ from it."""
    def git(*argv: str) -> str:
        return subprocess.run(["git", *argv], cwd=ROOT, capture_output=True, text=True, check=False).stdout.strip()
    head = git("rev-parse", "--short", "HEAD") or "unknown"
    return head + (" + changes" if git("status", "--porcelain", "--untracked-files=no") else "")


async def mix_on(backend: str, args: argparse.Namespace, workdir: Path) -> MixRun | None:
    side = MixSide()
    if backend == "sqlite":
        result, profiled = await run_mix(args, workdir, side=side)
        return MixRun("SQLite (WAL, one file)", result, side, profiled)
    pg = await asyncio.to_thread(start_scratch_postgres, "grievous_evening", durable=True)
    if isinstance(pg, str):
        print(f"  skipping PostgreSQL: {pg}", file=sys.stderr)
        return None
    try:
        result, profiled = await run_mix(args, workdir, pg.url, side)
        return MixRun(pg.version, result, side, profiled)
    finally:
        await asyncio.to_thread(pg.stop)


def short(backend: str) -> str:
    return "SQLite" if backend.startswith("SQLite") else "PostgreSQL"


def render_mix(runs: list[MixRun], args: argparse.Namespace, load_avg: str, started: datetime, head: str) -> str:
    """The block ``--mix --write`` puts in docs/scaling.md: what the plan reads, one row a backend."""
    command = args.command
    out = [f"Measured {started:%Y-%m-%d %H:%M} UTC at {head} with `{command.strip()}` on {machine()}, Python "
           f"{platform.python_version()}; load average {load_avg} at the start, {load_average()} at the end (the "
           f"machine shared with other work). {args.active} guilds, one closed-loop player each, "
           f"{args.per_player} commands of the mix each.", "",
           "| backend | commands | commands/s | bot CPU ms a command | REST calls a command | of them, counted by "
           "the global limit | p50 ms | p99 ms | the database's own CPU ms a command | peak DB connections | errors |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for run in runs:
        mix, seconds, side = run.evening.mix, run.evening.mix_seconds, run.side
        values = [v for group in mix.latencies.values() for v in group]
        db_cpu = (f"{1000 * side.db_cpu_s / max(1, mix.commands):.1f}" if side.db_cpu_s is not None
                  else "— (SQLite's is in the bot's)")
        out.append(f"| {run.backend} | {mix.commands} | {mix.commands / seconds:.0f} "
                   f"| {1000 * run.evening.mix_cpu_s / max(1, mix.commands):.1f} "
                   f"| {run.evening.mix_rest_calls / max(1, mix.commands):.2f} "
                   f"| {len(side.global_requests) / max(1, mix.commands):.2f} | {percentile(values, 50):.0f} "
                   f"| {percentile(values, 99):.0f} | {db_cpu} "
                   f"| {side.peak_connections if side.peak_connections is not None else '—'} | {len(mix.errors)} |")
    out += ["", "Each kind alone (every guild at once): bot CPU ms a command, the median of its rounds, and × the "
            "same run's no-op:", "",
            "| kind | " + " | ".join(short(r.backend) for r in runs) + " |",
            "|---|" + "---:|" * len(runs)]
    for i, kind in enumerate(evening.KINDS):
        cells = []
        for run in runs:
            noop, k = run.evening.kinds[0].cpu_ms, run.evening.kinds[i]
            cells.append(f"{k.cpu_ms:.2f} ({k.cpu_ms / noop:.1f}×)" if noop else f"{k.cpu_ms:.2f}")
        out.append(f"| {kind} | " + " | ".join(cells) + " |")
    for run in runs:
        if run.evening.open_loop:
            tables = args.open_tables or args.active
            out += ["", f"Open loop on {short(run.backend)}: the mix's steps sent at a set rate over "
                    f"{tables} guilds, {args.seconds:g} s a rate, whether or not the last was answered; p99 over "
                    "every command (a command unanswered within 30 s counts as 30 s):", "",
                    *evening.render_open_loop(run.evening.open_loop, tables)]
    return "\n".join(out) + "\n"


async def main_mix(args: argparse.Namespace) -> int:
    load_avg, started, head = load_average(), datetime.now(UTC), commit()  # the checkout as the run starts
    runs: list[MixRun] = []
    for backend in [b.strip() for b in args.backends.split(",") if b.strip()]:
        if backend not in ("sqlite", "postgres"):
            print(f"unknown backend {backend!r} (sqlite, postgres)", file=sys.stderr)
            return 2
        workdir = Path(tempfile.mkdtemp(prefix="grievous-evening-"))
        try:
            run = await mix_on(backend, args, workdir)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        if run is not None:
            runs.append(run)
    command = args.command
    for run in runs:
        print(f"Measured {started:%Y-%m-%d %H:%M} UTC at {head} with `{command.strip()}` on {machine()}, "
              f"Python {platform.python_version()}; load average {load_avg} at the start, {load_average()} at the "
              f"end. {run.backend}; {args.active} guilds, one closed-loop player each ({args.per_player} mixed "
              f"commands, {args.per_kind} per kind alone).\n")
        print("\n".join(evening.render(run.evening)))
        commands = max(1, run.evening.mix.commands)
        routes = Counter(run.side.global_requests).most_common(6)
        print(f"\nRequests the global limit counts: {len(run.side.global_requests) / commands:.2f} a command ("
              + ", ".join(f"{route} {n / commands:.2f}" for route, n in routes) + ").")
        if run.side.db_cpu_s is not None:
            print(f"PostgreSQL's own processes: {run.side.db_cpu_s:.2f} s of CPU over the mix "
                  f"({1000 * run.side.db_cpu_s / commands:.2f} ms a command); the bot held at most "
                  f"{run.side.peak_connections} connections.")
        if run.evening.open_loop:
            tables = args.open_tables or args.active
            print(f"\nOpen loop: the mix sent at a set rate over {tables} guilds, {args.seconds:g} s at each rate "
                  "(p99 over every kind):\n")
            print("\n".join(evening.render_open_loop(run.evening.open_loop, tables)))
        if run.profiled:
            print(f"\nProfile: {run.profiled}")
        print()
    if args.write and runs:
        write_block(DOC, "scaling-mix", render_mix(runs, args, load_avg, started, head),
                    intro="## The real evening's mix, measured\n\nWritten by `.venv/bin/python -m bench.scaling "
                    "--mix --write`.")
        print(f"written to {DOC}", file=sys.stderr)
    return 1 if any(r.evening.mix.errors or r.evening.mix.unmeasured or r.evening.outside.unmeasured
                    for r in runs) else 0


async def main_async(args: argparse.Namespace) -> int:
    if args.mix:
        return await main_mix(args)
    load_avg = load_average()
    started = datetime.now(UTC)
    workdir = Path(tempfile.mkdtemp(prefix="grievous-scaling-"))
    figures = []
    try:
        baseline = await baseline_rss(workdir)
        for backend in [b.strip() for b in args.backends.split(",") if b.strip()]:
            print(f"  {backend}: {args.guilds} idle + {args.active} active guilds", file=sys.stderr, flush=True)
            if backend == "sqlite":
                figures.append(await run_backend("sqlite", f"sqlite+aiosqlite:///{workdir / 'bench.db'}",
                                                 "SQLite (WAL, one file)", args, workdir))
            elif backend == "postgres":
                pg = await asyncio.to_thread(start_scratch_postgres, "grievous_scaling", durable=True)
                if isinstance(pg, str):
                    print(f"  skipping PostgreSQL: {pg}", file=sys.stderr)
                    continue
                try:
                    figures.append(await run_backend("postgresql", pg.url, pg.version, args, workdir))
                finally:
                    await asyncio.to_thread(pg.stop)
            else:
                print(f"unknown backend {backend!r} (sqlite, postgres)", file=sys.stderr)
                return 2
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    block = render(figures, baseline, args, load_avg, started)
    print(block)
    if args.write:
        write_block(DOC, "scaling", block, intro="## Measured\n\nWritten by `.venv/bin/python -m bench.scaling "
                    "--write`.")
        print(f"written to {DOC}", file=sys.stderr)
    return 1 if any(f.errors for f in figures) else 0


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.scaling", description=__doc__.split("\n\n")[0])
    parser.add_argument("--backends", help="comma-separated: sqlite, postgres (default both; with --mix, sqlite)")
    parser.add_argument("--guilds", type=int, default=2000, help="idle guilds (default 2000)")
    parser.add_argument("--channels", type=int, default=10, help="channels per idle guild (default 10)")
    parser.add_argument("--active", type=int, default=50, help="guilds with a player attacking (default 50)")
    parser.add_argument("--per-player", type=int, default=10, help="attacks per player (default 10)")
    parser.add_argument("--mix", action="store_true", help="a real evening's mix instead (bench/evening.py)")
    parser.add_argument("--per-kind", type=int, default=5, help="with --mix: commands per guild for each kind alone")
    parser.add_argument("--rounds", type=int, default=3,
                        help="with --mix: rounds of every kind alone, each kind's figure their median (default 3)")
    parser.add_argument("--combatants", type=int, default=10, help="with --mix: the larger encounters' size")
    parser.add_argument("--wounds", type=int, default=evening.WOUND_CAP,
                        help=f"with --mix: blows on one Bandit for the growth by wounds (at most, and default, "
                        f"{evening.WOUND_CAP})")
    parser.add_argument("--rates", default="", help="with --mix: open-loop rates (commands/s), e.g. 20,40,80")
    parser.add_argument("--seconds", type=float, default=15.0, help="with --mix: seconds at each open-loop rate")
    parser.add_argument("--open-tables", type=int, default=0, metavar="N",
                        help="with --rates: the open loop's guilds (default --active): more guilds, each at a "
                        "human pace, rather than the closed loops' few at a machine's")
    profilers = parser.add_mutually_exclusive_group()
    profilers.add_argument("--profile", help="with --mix: write a cProfile of the bot for attacks that hit here")
    profilers.add_argument("--spy", help="with --mix: py-spy's samples of the bot for attacks that hit, here")
    parser.add_argument("--profile-wounded", type=int, default=0, metavar="N",
                        help="with --spy or --profile: each Bandit takes N hits first, not profiled (how a hit "
                        "grows with the wounds on its target)")
    parser.add_argument("--write", action="store_true", help=f"update {DOC.relative_to(ROOT)} between its markers")
    args = parser.parse_args(argv)
    # the command as typed, for the blocks written into the docs (not sys.argv: under pytest that is pytest's)
    args.command = " ".join(["python -m bench.scaling", *(sys.argv[1:] if argv is None else argv)])
    if args.backends is None:
        args.backends = "sqlite" if args.mix else "sqlite,postgres"
    if args.profile:
        args.profile = str(Path(args.profile).resolve())  # the bot process runs in the repository's root
    if args.spy:
        args.spy = str(Path(args.spy).resolve())
        if spy.executable() is None:
            parser.error(spy.MISSING)
    if not 1 <= args.wounds <= evening.WOUND_CAP:
        parser.error(f"--wounds is 1 to {evening.WOUND_CAP}")
    if not 0 <= args.profile_wounded < evening.WOUND_CAP:
        parser.error(f"--profile-wounded is 0 to {evening.WOUND_CAP - 1}")
    if (args.spy or args.profile) and not args.mix:
        parser.error("--spy and --profile go with --mix")
    if min(args.guilds, args.channels, args.active, args.per_player, args.open_tables) < 0 or args.active < 1:
        parser.error("counts must be positive (and at least one active guild)")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    return asyncio.run(main_async(parse_args(argv)))


if __name__ == "__main__":
    raise SystemExit(main())
