"""How long exact odds take: the enumeration alone, step by step, and /odds through the emulator.

    .venv/bin/python -m bench.odds                 # print the tables
    .venv/bin/python -m bench.odds --write         # also put them in docs/benchmarks.md
    .venv/bin/python -m bench.odds --repeat 5 --naive-cap 20

For every example fight /odds can answer (content/examples, attacks and spells), with none of its dice
forced:

* **steps**: the same enumeration with the state sharing switched off (outcomes of one roll still merge:
  a stress die by total, a check by result), capped at ``--naive-cap`` seconds (the share it covered is
  shown), then with it on: engine runs, leaves, seconds;
* **/odds through the emulator**: the production bot on SQLite; an encounter per example with its two
  sheets; ``--repeat`` /odds commands; the time from sending the command to the answer's arrival (the
  deferral, when the answer takes over 1.5 s, does not count as the answer), and the event loop's longest
  stall meanwhile. The service's own time budget (5 s) bounds the enumeration: a slower one answers with
  what is exact so far. Twice: enumerating in the worker process, then in a thread as before it.

/odds keeps no results: every ask, the first or the fifth, enumerates from the start.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # `python bench/odds.py`
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import yaml

from bench.doc_block import write_block
from bench.switches import SwitchedServices, Switches
from bot.app import GrievousBot
from bot.db.engine import Database
from bot.db.migrate import upgrade
from bot.services import Actor
from content import load_catalog
from content.scenario import parse_scenario
from emulator import permissions as perms
from emulator.harness import running_emulator, start_bot
from rules.odds.api import ACTIONS, compute_odds
from rules.registry import get_engine

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "content" / "examples"
DOCS = ROOT / "docs" / "benchmarks.md"
WAIT = 60.0
ARENA_NAMES = [f"{a}{b}" for a in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" for b in ("", "a", "e", "u")]


def examples() -> list[tuple[str, Any, dict[str, Any]]]:
    """(name, scenario, the YAML) of every example /odds answers."""
    out = []
    for path in sorted(EXAMPLES.glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        scenario, _forced, _seed = parse_scenario(text, str(path))
        if scenario.action.get("type", "attack") in ACTIONS[scenario.system]:
            out.append((path.stem, scenario, yaml.safe_load(text)))
    return out


def steps(cap: float) -> list[str]:
    rows = ["| example | states off: runs | covered | s | states on: runs | leaves | s |",
            "|---|---:|---:|---:|---:|---:|---:|"]
    for name, scenario, _ in examples():
        engine, catalog = get_engine(scenario.system), load_catalog(scenario.system)
        naive = compute_odds(engine, scenario, catalog, budget=cap, share_states=False).distribution
        merged = compute_odds(engine, scenario, catalog).distribution
        covered = 1.0 - naive.missing
        shown = f"{covered:.1%}" if naive.complete or covered < 0.999 else f"{covered:.3%}"
        rows.append(f"| {name} | {naive.runs} | {shown}{'' if naive.complete else ' (cap)'} | "
                    f"{naive.seconds:.2f} | {merged.runs} | {len(merged.leaves)} | {merged.seconds:.2f} |")
        print(rows[-1], file=sys.stderr, flush=True)
    return rows


class StallWatch:
    """The event loop's longest stall: a task that asks to wake every 5 ms and notes how late it is (the bot,
    the emulator and this bench share the loop, so a stall is one every guild would feel)."""

    def __init__(self) -> None:
        self.longest = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            began = loop.time()
            await asyncio.sleep(0.005)
            self.longest = max(self.longest, loop.time() - began - 0.005)

    def start(self) -> None:
        self.longest = 0.0
        self._task = asyncio.create_task(self._watch())

    async def stop(self) -> float:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        return self.longest


async def through_emulator(repeat: int, worker: bool = True) -> list[str]:
    """/odds ``repeat`` times on every example; ``worker`` False: the enumeration in a thread, as before."""
    rows = ["| example | n | p50 ms | max ms | longest loop stall ms | exact |", "|---|---:|---:|---:|---:|---|"]
    watch = StallWatch()
    with tempfile.TemporaryDirectory(prefix="grievous-odds-bench-") as folder:
        db = Database.from_url(f"sqlite+aiosqlite:///{folder}/bench.db")
        await upgrade(db)
        services = SwitchedServices(db, Switches(odds_worker=worker))
        async with running_emulator() as emu:
            arenas: list[tuple[str, Any, Any, dict[str, Any]]] = []
            guilds: dict[str, Any] = {}
            for name, scenario, data in examples():
                system = scenario.system
                if system not in guilds:
                    guild = emu.add_guild(f"Odds {system}")
                    gm_role = emu.add_role(guild, "GM", permissions=perms.MANAGE_MESSAGES | perms.PIN_MESSAGES)
                    gm = emu.add_member(guild, emu.add_user(f"gm-{system}"), roles=[gm_role])
                    manager = Actor(guild.id, 0, gm.user.id, "Manager", is_manager=True)
                    await services.setup.set_system(manager, system)
                    await services.setup.set_gm_role(manager, gm_role.id)
                    guilds[system] = (guild, gm, gm_role)
                guild, gm, gm_role = guilds[system]
                channel = emu.add_channel(guild, name[:90])
                actor = Actor(guild.id, channel.id, gm.user.id, "GM", (gm_role.id,))
                names = []
                for side in ("attacker", "defender"):
                    sheet = dict(data[side])
                    # a name of its own per arena, ending in no number: "Bandit 0" would read like a pack NPC's
                    sheet["name"] = f"{sheet['name']} of Arena {ARENA_NAMES[len(arenas)]}"
                    names.append(sheet["name"])
                    await services.characters.import_sheet(actor, f"{side}.json", json.dumps(sheet).encode())
                await services.encounters.start(actor)
                for who in names:
                    await services.encounters.add(actor, who)
                options = {k: v for k, v in dict(scenario.action).items() if k != "type" and isinstance(v, str | int)}
                if scenario.system == "fading-suns" and "aim" in options:
                    options["location"] = options.pop("aim")
                options = {k: v for k, v in options.items()
                           if k in ("weapon", "aspect", "aim", "location", "defense", "spell", "damage")}
                if scenario.action.get("damage_type"):
                    options["kind"] = scenario.action["damage_type"]
                arenas.append((name, channel, gm, {"target": names[1], "attacker": names[0], **options}))
            bot = GrievousBot(services=services, sync_commands=True)
            runner = await start_bot(emu, bot)
            try:
                await emu.wait_for_commands("odds", within=WAIT)
                for name, channel, gm, options in arenas:
                    samples, exact = [], True
                    watch.start()
                    for _ in range(repeat):
                        began = time.perf_counter()
                        handle = await emu.slash("odds", options, user=gm, channel=channel)
                        message = await handle.message(WAIT)
                        samples.append((time.perf_counter() - began) * 1000)
                        if not message.embeds:
                            raise SystemExit(f"/odds {options} in {name}: {message.content}")
                        exact = exact and "time ran out" not in message.embeds[0]["footer"]["text"]
                    stall = await watch.stop()
                    rows.append(f"| {name} | {repeat} | {statistics.median(samples):.0f} | {max(samples):.0f} | "
                                f"{stall * 1000:.0f} | {'yes' if exact else '**no**: time ran out'} |")
                    print(rows[-1], file=sys.stderr, flush=True)
            finally:
                await runner.stop()
                await db.dispose()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.odds", description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="/odds per example (default %(default)s)")
    parser.add_argument("--naive-cap", type=float, default=20.0, help="seconds for the states-off step")
    parser.add_argument("--write", action="store_true", help=f"put the tables in {DOCS.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    load = " ".join(f"{v:.2f}" for v in os.getloadavg())
    first = steps(args.naive_cap)
    second = asyncio.run(through_emulator(args.repeat))
    threaded = asyncio.run(through_emulator(args.repeat, worker=False))
    after = " ".join(f"{v:.2f}" for v in os.getloadavg())
    text = "\n".join([
        f"Measured {datetime.now(UTC):%Y-%m-%d %H:%M} UTC with `python -m bench.odds --repeat {args.repeat} "
        f"--naive-cap {args.naive_cap:g}` (load average {load} before, {after} after: the 2-core machine was "
        "shared with other work, so these are upper bounds). Goal: /odds p50 under 100 ms, max under 1 s.",
        "", "Enumeration alone, none of the example's dice forced:", "", *first, "",
        "/odds through the emulator (SQLite), the same declarations, enumerated in the worker process (the very "
        "first /odds runs in a thread while the worker starts):", "", *second, "",
        "The same with the enumeration in a thread of the bot's process, as before the worker:", "", *threaded, ""])
    print(text)
    if args.write:
        write_block(DOCS, "odds", text, intro="## Exact odds (/odds)\n\nWritten by `.venv/bin/python -m bench.odds "
                    "--write`; how the enumeration works is in `docs/odds.md`.")
        print(f"wrote {DOCS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
