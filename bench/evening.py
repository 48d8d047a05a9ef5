"""``bench.scaling --mix``: a real evening's commands, the bot in its own process, and what each kind costs.

Each active guild plays Ars Magica (ars-harn) in one channel: a GM, an encounter of a Raider, a Bandit and
(every other guild) ``--combatants`` - 2 guards. Half the guilds have the GM make the rolls (``/setup rolls
mode:gm``): there the GM presses the buttons an attack asks for (shock, kill, death or incapacitation).

1. The mix, one closed-loop player per guild: /attack with rolled dice (half of the commands; they hit and
   miss, the wounds pile up until the Bandit is out of the fight, then ``/encounter end`` and a fresh
   encounter), the GM's buttons, /roll, /log, /injuries, autocomplete and /bench-noop. Latency per kind,
   and the bot's CPU per command over the whole mix.
2. Each kind alone (every guild at once, closed loop): the bot's CPU per command, beside the no-op's
   measured the same way; an attack that hits has all its dice forced (``HIT``: a wound and a shock roll,
   from the third blow a kill roll too, each passed where the bot rolls it, so that the Bandit never dies and
   every run does the same work). Every kind in turn, three rounds; each figure is the median of its rounds.
   Beside them the floor of an attack in the same measure (``FLOOR``, bench/evening_bot.py): a durable no-op (one
   write through the bot's runtime), a no-op with one message edit, and the engine's resolve of a hit alone.
3. How an attack that hits grows: by the wounds already on its target (up to the 64 a sheet holds), by the
   events in the channel (a burst of /roll) and by the encounter's size. Each compares two halves of the tables
   measured in turn, round after round (``paired``), so that the machine's load drifting over the phase lands on
   both alike: for the wounds, one half's Bandits fresh and the other's given half the wounds first (not
   measured); for the events, one half's channels given the burst first; for the size, the small encounters and
   the large. Each figure is the median of its rounds, with their range, and each comparison also the median of
   the rounds' differences.

Every blow measured as a hit is a hit and every miss a miss. A wounded Bandit in shock cannot defend, and then
``MISS``'s dice hit: so misses are measured on a Bandit nothing but misses has struck. A sheet holds at most 64
wounds (``WOUND_CAP``, ars-harn's own limit): the engine writes a 65th, and every later blow at that sheet is
refused, so a Bandit that would pass the cap within a measured stretch of hits is replaced too. Replaced means a
fresh encounter, outside the measured CPU; the output says how many that took, and how many blows were refused all
the same (a Bandit dead: none, unless the rules change what ``HIT`` does).

A command's answer is what its user sees (``answer_of``): the response message once loaded, or, where the bot
deleted its public "thinking" message to refuse privately (``bot/tree.py`` ``send_line``: a slow command deferred,
then refused), the follow-up after it. Its latency runs to that follow-up. A command the bench could not read an
answer for (none within ``WAIT``, a press on a message gone) is counted, by kind, as not measured, and the run goes
on: a loaded machine still gives its figures, and says what it could not see.
"""

from __future__ import annotations

import asyncio
import math
import os
import re
import statistics
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from bot.services import Actor, Services
from emulator import permissions as perms
from emulator.interactions import InteractionError
from emulator.models import Channel, Member, Message, walk_components
from emulator.records import InteractionHandle
from emulator.server import Emulator
from rules.ars_harn.character import MAX_LIST

WAIT = 30.0
# An edge blow to the Bandit (tests/e2e gm rolls): a wound and a shock roll; from the third blow the wound is a
# killing one, with a kill roll and an amputation check. Where the bot rolls them they pass (forced): left to
# chance, a failed amputation check killed the Bandit, and the next blows measured as hits were refusals.
HIT = "attack=9 defense=3 location=12 defender_shock=9 defender_kill=9 defender_amputation=9"
MISS = "attack=2 defense=9"
WOUND_CAP = MAX_LIST  # the wounds an ars-harn sheet holds: the sheet with one more is refused
WOUND_BAND = 8  # the growth by wounds is shown in bands of this many blows
# An answer naming one of these means the Bandit is out of the fight: the table starts a fresh encounter.
GONE = re.compile(r"\bis already (dead|out)", re.IGNORECASE)  # the answer to a blow at a dead Bandit
OUT = re.compile(r"\b(dies|dead|killed|incapacitated|unconscious|out of the fight)\b", re.IGNORECASE)
SCHEDULE = ("attack", "roll", "attack", "log", "attack", "injuries", "attack", "autocomplete", "attack", "noop")
# The floor of an attack, in the same measure (bench/evening_bot.py's FloorCog): one write through the bot's runtime,
# the no-op's answer and one message edit, the engine's resolve of a hit alone (no database).
FLOOR = {"durable no-op": "bench-save", "no-op + edit": "bench-noop-edit", "engine only": "bench-engine"}
# Discord's per-channel limit on message writes (POST and PATCH), as the emulator assumes it (emulator/ratelimits.py)
WRITES_PER_WINDOW, WRITES_WINDOW = 5, 5.0
KINDS = ("noop", "roll", "log", "injuries", "autocomplete", "attack (miss)", "attack (hit)", *FLOOR)


@dataclass
class Table:
    channel: Channel
    gm: Member
    gm_rolls: bool
    guards: int
    attacks_on_target: int = 0
    misses_on_target: int = 0  # MISS blows on it: the others may each have wounded it


@dataclass
class Tally:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: list[str] = field(default_factory=list)
    fresh_encounters: int = 0
    refused: int = 0  # blows at a Bandit already dead (then a fresh encounter)
    for_room: int = 0  # fresh encounters made, unmeasured, for misses or before a Bandit would pass WOUND_CAP wounds
    unmeasured: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))  # kind: why, each
    to_edit: list[Message] = field(default_factory=list)  # the no-op + edit's answers, each edited by the bot soon
    requests: list[str] = field(default_factory=list)  # the bot's REST requests in the measured windows

    @property
    def commands(self) -> int:
        """The commands answered (and timed)."""
        return sum(len(v) for v in self.latencies.values())

    @property
    def sent(self) -> int:
        """Every command sent, answered or not: the bot's CPU is shared out over these."""
        return self.commands + sum(len(v) for v in self.unmeasured.values())

    def missed(self, kind: str, why: BaseException) -> None:
        self.unmeasured[kind].append(str(why).splitlines()[0][:200] if str(why) else type(why).__name__)

    def absorb(self, other: Tally) -> None:
        """``other``'s unmeasured commands, counted here too."""
        for kind, why in other.unmeasured.items():
            self.unmeasured[kind] += why


def percentile(values: list[float], q: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered), max(1, math.ceil(q / 100 * len(ordered)))) - 1]


def text_of(message: Message) -> str:
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        parts += [f"{f.get('name')} {f.get('value')}" for f in embed.get("fields") or []]
    return "\n".join(parts)


def answer_of(handle: InteractionHandle) -> Message | None:
    """The message a command's user sees as its answer, once there is one: the response, loaded (not "thinking");
    or, if the bot deleted its response, the first follow-up after that. The bot does so for a refusal after a
    public defer (``bot/tree.py`` ``send_line``): a message's privacy cannot change, so the public "thinking" goes
    and the line comes privately; Discord sends a follow-up after the deferred response is deleted as a new
    message (discord-api-docs#2739, fixed 2021), as the emulator does."""
    original = handle.original
    if original is None:
        return None
    if not original.deleted:
        return None if original.loading else original
    kinds = [e.kind for e in handle.events]
    if "delete" not in kinds or "followup" not in kinds[kinds.index("delete"):]:
        return None
    return handle.events[kinds.index("followup", kinds.index("delete"))].message


def gm_buttons(message: Message) -> list[str]:
    """The GM decisions a message waits for (``grv:gm:<id>:<choice>``; not its Details button)."""
    return [c["custom_id"] for c in walk_components(message.components or []) if c.get("type") == 2
            and str(c.get("custom_id", "")).startswith("grv:gm:") and not c.get("disabled")]


async def add_tables(emu: Emulator, services: Services, count: int, combatants: int) -> list[Table]:
    """Guilds with a GM and an encounter, set up straight in the database before the bot starts."""
    tables = []
    for g in range(count):
        guild = emu.add_guild(f"Evening {g}")
        role = emu.add_role(guild, "GM", permissions=perms.MANAGE_MESSAGES | perms.PIN_MESSAGES)
        gm = emu.add_member(guild, emu.add_user(f"gm-{g}"), roles=[role])
        channel = emu.add_channel(guild, "fight")
        manager = Actor(guild.id, channel.id, emu.state.owner.id, "Owner", is_manager=True)
        await services.setup.set_system(manager, "ars-harn")
        await services.setup.set_gm_role(manager, role.id)
        table = Table(channel, gm, gm_rolls=g % 2 == 1, guards=max(0, combatants - 2) if g % 4 >= 2 else 0)
        if table.gm_rolls:
            await services.setup.set_rolls(manager, "gm")
        actor = Actor(guild.id, channel.id, gm.user.id, "GM", (role.id,))
        await services.encounters.start(actor)
        for template, number, prefix in fighters(table):
            await services.encounters.add_npcs(actor, template, number, prefix)
        tables.append(table)
    return tables


def fighters(table: Table) -> list[tuple[str, int, str]]:
    return [("bandit", 1, "Raider"), ("bandit", 1, "Bandit")] + ([("bandit", table.guards, "Guard")]
                                                                if table.guards else [])


class Player:
    """One guild's GM sending commands and reading the answers, timing each."""

    def __init__(self, emu: Emulator, table: Table, tally: Tally) -> None:
        self.emu, self.table, self.tally = emu, table, tally

    async def answer(self, kind: str, handle: InteractionHandle) -> Message | None:
        """The command's answer (``answer_of``), timed; None for autocomplete, or when none came within WAIT
        (then counted as not measured)."""
        try:
            if kind == "autocomplete":
                await handle.choices(WAIT)
            else:
                message = await handle.wait_for(lambda: answer_of(handle), "the answer the user sees", WAIT)
        except (TimeoutError, AssertionError) as exc:
            self.tally.missed(kind, exc)
            return None
        self.tally.latencies[kind].append((time.monotonic() - handle.created_at) * 1000.0)
        if kind == "autocomplete":
            return None
        if message.ephemeral and kind not in ("log",):
            self.tally.errors.append(f"{kind}: {text_of(message)[:200]}")
        return message

    async def slash(self, kind: str, command: str, options: dict[str, Any]) -> Message | None:
        handle = await self.emu.slash(command, options, user=self.table.gm, channel=self.table.channel)
        return await self.answer(kind, handle)

    async def attack(self, dice: str | None, kind: str = "attack") -> Message | None:
        options = {"target": "Bandit 1", "attacker": "Raider 1", "aspect": "edge"}
        message = await self.slash(kind, "attack", options | ({"dice": dice} if dice else {}))
        self.table.attacks_on_target += 1
        self.table.misses_on_target += dice == MISS
        if message is not None and message.ephemeral and GONE.search(text_of(message)):
            # forced blows can kill where the bot rolls shock and kill itself: not an error, a fresh fight
            self.tally.errors.pop()
            self.tally.refused += 1
            await self.fresh_encounter()
        return message

    async def press_decisions(self, message: Message) -> str:
        """The GM presses what the answer asks of them (a roll first), and what that leads to; their texts."""
        seen = []
        for _ in range(4):
            waiting = gm_buttons(message)
            if not waiting:
                break
            choice = next((b for b in waiting if b.endswith(":roll")), waiting[0])
            try:
                handle = await self.emu.click(message, choice, user=self.table.gm)
                await handle.response(WAIT)
                result = (await handle.followups(1, WAIT))[0]
            except (TimeoutError, InteractionError) as exc:  # no result, or its message gone meanwhile
                self.tally.missed("gm button", exc)
                break
            self.tally.latencies["gm button"].append((time.monotonic() - handle.created_at) * 1000.0)
            if result.ephemeral:
                self.tally.errors.append(f"gm button: {text_of(result)[:200]}")
            seen.append(text_of(result))
            message = result
        return "\n".join(seen)

    async def fresh_encounter(self) -> None:
        await self.slash("encounter", "encounter end", {})
        await self.slash("encounter", "encounter start", {})
        for template, number, prefix in fighters(self.table):
            await self.slash("encounter", "encounter npcs", {"template": template, "count": number,
                                                             "name_prefix": prefix})
        self.table.attacks_on_target = self.table.misses_on_target = 0
        self.tally.fresh_encounters += 1

    async def step(self, kind: str) -> None:
        if kind == "attack":
            message = await self.attack(None)
            if message is None or message.ephemeral:
                return
            said = text_of(message)
            if self.table.gm_rolls:
                said += await self.press_decisions(message)
            if OUT.search(said) or self.table.attacks_on_target >= 40:
                await self.fresh_encounter()
        elif kind == "roll":
            await self.slash(kind, "roll", {"expression": "stress+5 vs 9"})
        elif kind == "log":
            await self.slash(kind, "log", {"limit": 10})
        elif kind == "injuries":
            await self.slash(kind, "injuries", {"character": "Bandit 1"})
        elif kind == "autocomplete":
            handle = await self.emu.autocomplete("attack", {"target": "Ban"}, focused="target", user=self.table.gm,
                                                 channel=self.table.channel)
            await self.answer(kind, handle)
        elif kind == "noop":
            await self.slash(kind, "bench-noop", {})
        elif kind in FLOOR:
            message = await self.slash(kind, FLOOR[kind], {})
            if kind == "no-op + edit" and message is not None:
                self.tally.to_edit.append(message)
        elif kind == "attack (miss)":
            await self.attack(MISS, kind)
        elif kind == "attack (hit)":
            await self.attack(HIT, kind)
        else:
            raise ValueError(kind)


@dataclass
class KindCost:
    kind: str
    commands: int
    cpu_ms: float  # the bot's CPU per command
    p50_ms: float
    p99_ms: float
    cpu_runs: tuple[float, ...] = ()  # each round's CPU ms per command (the figure is their median)
    rest_calls: float = math.nan  # REST requests the bot made per command (answers, edits, reads), all rounds


@dataclass
class Growth:
    """One point of a growth line: CPU ms per attack that hits, a figure a round (``paired``'s rounds)."""

    label: str
    rounds: list[float]
    hits: int  # the attacks measured in all its rounds

    @property
    def median(self) -> float:
        return statistics.median(self.rounds) if self.rounds else math.nan

    def render(self) -> str:
        spread = f"{min(self.rounds):.2f}–{max(self.rounds):.2f}" if self.rounds else "—"
        return f"{self.label}: {self.median:.2f} ({spread}, {len(self.rounds)} rounds, {self.hits} hits)"


def render_step(low: Growth, high: Growth) -> str:
    """How much ``high`` costs over ``low``, round by round (their rounds were measured in turn): the median of
    the differences, and its share of ``low``'s median."""
    steps = [b - a for a, b in zip(low.rounds, high.rounds, strict=False)]
    if not steps:
        return "—"
    step = statistics.median(steps)
    share = f"{100 * step / low.median:+.0f}%" if low.median else "—"
    return (f"{step:+.2f} ms ({share}; the rounds' differences "
            f"{min(steps):+.2f} to {max(steps):+.2f})")


def halves(players: list[Player]) -> tuple[list[Player], list[Player]]:
    """Two halves of the tables, the same kinds in each (``add_tables`` makes four kinds, in turn: the bot or the
    GM rolls, a small or a large encounter): of every eight, tables 0, 3, 5 and 6 and tables 1, 2, 4 and 7, each
    one of every kind; of a last four, 0 and 3 (the bot rolls, small; the GM rolls, large) and 1 and 2."""
    first = [p for i, p in enumerate(players) if i % 8 in (0, 3, 5, 6)]
    return first, [p for p in players if p not in first]


@dataclass
class Evening:
    mix: Tally
    mix_seconds: float
    mix_cpu_s: float
    mix_rest_calls: int  # the REST requests the bot made during the mix
    kinds: list[KindCost]
    by_wounds: list[Growth]  # by the band of wounds already on the target
    by_events: list[Growth]
    by_combatants: list[Growth]
    open_loop: list[OpenRate] = field(default_factory=list)
    outside: Tally = field(default_factory=Tally)  # the phases after the mix: fresh encounters, refused blows
    wounds_apart: int = 0  # by_wounds' second half: Bandits given this many wounds before its rounds


async def run_evening(emu: Emulator, tables: list[Table], per_player: int, per_kind: int,
                      cpu: Callable[[], float], warm: Callable[[], Awaitable[None]] | None = None,
                      rounds: int = 3, wounds: int = WOUND_CAP, growth_rounds: int = 4) -> Evening:
    """The phases above, against a bot that is ready; ``cpu()`` reads the bot process's CPU seconds."""
    mix = Tally()
    players = [Player(emu, t, mix) for t in tables]

    async def each(job: Callable[[Player], Awaitable[None]], among: list[Player] | None = None) -> None:
        await asyncio.gather(*(job(p) for p in (players if among is None else among)))

    async def mixed(player: Player, steps: int, offset: int) -> None:
        for i in range(steps):
            await player.step(SCHEDULE[(i + offset) % len(SCHEDULE)])

    # warm up: imports, caches, each channel's tracker posted and pinned; the floor's commands once each
    await each(lambda p: mixed(p, len(SCHEDULE), 0))
    await each(lambda p: _each_once(p, FLOOR))
    emu.interactions.clear()
    mix.latencies.clear()
    mix.errors.clear()
    mix.unmeasured.clear()
    before, began, requests = cpu(), time.perf_counter(), len(emu.requests)
    await asyncio.gather(*(mixed(p, per_player, i) for i, p in enumerate(players)))
    mix_seconds, mix_cpu = time.perf_counter() - began, cpu() - before
    mix_rest = len(emu.requests) - requests

    outside = Tally()

    async def measured(kind: str, among: list[Player], times: int, settled: bool = False) -> tuple[float, Tally]:
        """The bot's CPU ms per command of ``times`` commands of ``kind`` at each of ``among``'s tables. ``settled``:
        the window also holds what the bot does after the last answers (an attack's tracker edit, the no-op's
        edit, the channel's rate limit waited out): that work is the kind's, and must not land in the next
        kind's window."""
        alone, spent = Tally(), 0.0
        for stretch in in_stretches(times, kind):
            await make_room(among, kind, stretch, outside)  # outside the measured CPU
            for p in among:
                p.tally = alone
            if kind == "no-op + edit":
                # each channel's message writes bucket refilled (the attacks' tracker edits just before): its
                # edits are one PATCH each, not a 429 and a retry, up to WRITES_PER_WINDOW a table a stretch
                await asyncio.sleep(WRITES_WINDOW)
            before, first = cpu(), len(emu.requests)
            await asyncio.gather(*(_repeat(p, kind, stretch) for p in among))
            if settled:
                # the no-op + edit's edits may wait for the channel's rate limit (or a 429 and a retry): quiet
                # is not done
                await emu.wait_until(lambda: all(m.edited_at for m in alone.to_edit) or None, WAIT, "the edits")
                await settle(emu, quiet=WINDOW_QUIET)
            spent += cpu() - before
            alone.requests += emu.requests[first:]
        outside.refused += alone.refused
        outside.fresh_encounters += alone.fresh_encounters
        outside.absorb(alone)
        return 1000.0 * spent / max(1, alone.sent), alone

    async def fresh(among: list[Player]) -> None:
        for p in among:
            p.tally = Tally()
        await each(lambda p: p.fresh_encounter(), among)
        await settle(emu, quiet=WINDOW_QUIET)
        emu.interactions.clear()

    # Every kind once a round, ``rounds`` rounds: each kind's figure is the median of its rounds, so that the
    # machine's load drifting over the phase (other work on a shared machine) lands on every kind alike.
    await fresh(players)
    costs: dict[str, list[float]] = defaultdict(list)
    seen: dict[str, list[float]] = defaultdict(list)
    calls: dict[str, int] = defaultdict(int)
    for _ in range(rounds):
        # The round before (or the fresh encounters) may leave tracker edits waiting, silently, for a channel's
        # write bucket: let it refill, so they go out here and not in the no-op's window (a full test run saw the
        # no-op count 2.6 REST calls a command, not 1, with 0.8 s of quiet)
        await asyncio.sleep(WRITES_WINDOW)
        await settle(emu, quiet=WINDOW_QUIET)
        for kind in KINDS:
            cost, alone = await measured(kind, players, per_kind, settled=True)
            calls[kind] += len(alone.requests)
            costs[kind].append(cost)
            seen[kind] += alone.latencies[kind]
            mix.errors += alone.errors
    kinds = [KindCost(kind, len(seen[kind]), statistics.median(costs[kind]), percentile(seen[kind], 50),
                      percentile(seen[kind], 99), tuple(costs[kind]), calls[kind] / max(1, len(seen[kind])))
             for kind in KINDS]

    async def paired(low: list[Player], high: list[Player], times: int, per: int) -> tuple[list[float], list[float]]:
        """``times`` rounds of ``per`` hits a table, ``low`` then ``high`` and the other way round the next round:
        each half's CPU ms per attack, a figure a round."""
        found: tuple[list[float], list[float]] = ([], [])
        for r in range(times):
            for side in ((0, 1) if r % 2 == 0 else (1, 0)):
                cost, alone = await measured("attack (hit)", (low, high)[side], per)
                mix.errors += alone.errors
                found[side].append(cost)
        return found

    async def unmeasured(among: list[Player], kind: str, times: int) -> None:
        for p in among:
            p.tally = Tally()
        await each(lambda p: _repeat(p, kind, times), among)
        for p in among:
            mix.errors += p.tally.errors
            outside.absorb(p.tally)
        await settle(emu)

    # growth with the wounds on the target: one half's Bandits fresh, the other's given ``apart`` wounds first;
    # then ``apart`` rounds of a blow a table, the halves in turn: the first half's Bandits go through wounds
    # 0 to apart - 1 while the second's go through apart to 2 * apart - 1, in the same rounds.
    low, high = halves(players)
    apart = min(wounds, WOUND_CAP) // 2
    await fresh(players)
    await unmeasured(high, "attack (hit)", apart)
    fresh_rounds, wounded_rounds = await paired(low, high, apart, 1)

    def bands(costs: list[float], among: list[Player], offset: int) -> list[Growth]:
        return [Growth(f"{offset + b}-{offset + min(b + WOUND_BAND, len(costs)) - 1}", costs[b:b + WOUND_BAND],
                       len(among) * len(costs[b:b + WOUND_BAND])) for b in range(0, len(costs), WOUND_BAND)]

    by_wounds = bands(fresh_rounds, low, 0) + bands(wounded_rounds, high, apart)
    # events in the channel: one half's channels given a burst of /roll first (in the encounter, so in the channel)
    per_point, burst = 2, per_kind * 10
    await fresh(players)
    await unmeasured(low, "roll", burst)
    without, with_burst = await paired(high, low, growth_rounds, per_point)
    by_events = [Growth("without the burst", without, len(high) * per_point * growth_rounds),
                 Growth(f"with {burst} more /roll events", with_burst, len(low) * per_point * growth_rounds)]
    # encounter size: the small encounters and the large ones, on fresh Bandits
    small = [p for p in players if not p.table.guards]
    large = [p for p in players if p.table.guards]
    await fresh(players)
    by_combatants = []
    if small and large:
        few, many = await paired(small, large, growth_rounds, per_point)
        by_combatants = [Growth(str(2 + among[0].table.guards), costs, len(among) * per_point * growth_rounds)
                         for among, costs in ((small, few), (large, many))]
    return Evening(mix, mix_seconds, mix_cpu, mix_rest, kinds, by_wounds, by_events, by_combatants,
                   outside=outside, wounds_apart=apart)


@dataclass
class OpenRate:
    """One rate of the open loop: what it measured, and the bot's CPU over it (from the first step sent to the
    last answer), so that its share of a core stands beside the latency: on a shared machine the bot may get less
    than a core, and then the latency says as much about the machine as about the bot."""
    rate: float
    tally: Tally
    seconds: float  # sent over
    elapsed: float  # until the last answer
    cpu_s: float = math.nan
    load: str = ""  # the machine's load average when the rate ended

    @property
    def core(self) -> float:
        return self.cpu_s / self.elapsed if self.elapsed else math.nan


async def open_loop(emu: Emulator, tables: list[Table], rates: list[float], seconds: float,
                    cpu: Callable[[], float] | None = None) -> list[OpenRate]:
    """The mix sent at a set rate (steps a second over all the tables, each table's next step when its turn
    comes, whether or not its last was answered), ``seconds`` at each rate; stops after the first rate whose
    p99 passes 1 s. Latency over every kind; a step that raised (no answer within ``WAIT``) is an error, and its
    latency counts as ``WAIT``, so that p99 is not read from the answers alone. ``cpu()``: the bot's CPU seconds."""
    found = []
    for rate in rates:
        tally = Tally()
        players = [Player(emu, t, tally) for t in tables]
        jobs: list[tuple[str, asyncio.Task[None]]] = []
        before, began = cpu() if cpu else math.nan, time.monotonic()
        for n in range(int(rate * seconds)):
            await asyncio.sleep(max(0.0, began + n / rate - time.monotonic()))
            player = players[n % len(players)]
            kind = SCHEDULE[(n // len(players)) % len(SCHEDULE)]
            jobs.append((kind, asyncio.create_task(player.step(kind))))
        outcomes = await asyncio.gather(*(job for _, job in jobs), return_exceptions=True)
        point = OpenRate(rate, tally, seconds, time.monotonic() - began, (cpu() - before) if cpu else math.nan,
                         f"{os.getloadavg()[0]:.2f}")
        for (kind, _), outcome in zip(jobs, outcomes, strict=True):
            if isinstance(outcome, BaseException):
                tally.errors.append(f"{kind}: {type(outcome).__name__} {str(outcome)[:120]}")
                tally.latencies["unanswered"].append(WAIT * 1000.0)
        for kind, why in tally.unmeasured.items():  # Player.answer's: no answer within WAIT (it does not raise)
            tally.errors += [f"{kind}: {w[:120]}" for w in why]
            tally.latencies["unanswered"] += [WAIT * 1000.0] * len(why)
        await settle(emu)
        emu.interactions.clear()
        found.append(point)
        if percentile([v for values in tally.latencies.values() for v in values], 99) > 1000.0:
            break
    return found


def render_open_loop(found: list[OpenRate], tables: int) -> list[str]:
    """A row a rate: the steps sent a second (each table's at that rate over ``tables``), the commands they made a
    second (an attack where the GM rolls brings their presses, a Bandit out of the fight a fresh encounter), the
    bot's share of a core, the latency over all of them, and the errors (the first of each rate's below)."""
    out = ["| steps/s sent | a table's pace | commands made/s | bot's core | load | p50 ms | p99 ms | max ms "
           "| unanswered | errors |", "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    notes = []
    for point in found:
        tally = point.tally
        values = [v for group in tally.latencies.values() for v in group]
        out.append(f"| {point.rate:g} | one every {tables / point.rate:.1f} s | {len(values) / point.seconds:.0f} "
                   f"| {point.core:.2f} | {point.load} | {percentile(values, 50):.0f} | {percentile(values, 99):.0f} "
                   f"| {max(values, default=math.nan):.0f} | {len(tally.latencies.get('unanswered', []))} "
                   f"| {len(tally.errors)} |")
        if tally.errors:
            first = [e.splitlines()[0] for e in sorted(set(tally.errors))[:3]]
            notes.append(f"- at {point.rate:g}/s: " + "; ".join(first))
    return out + (["", "First errors:", *notes] if notes else [])


async def _each_once(player: Player, kinds: Iterable[str]) -> None:
    for kind in kinds:
        await player.step(kind)


async def _repeat(player: Player, kind: str, times: int) -> None:
    for _ in range(times):
        await player.step(kind)


def needs_fresh(table: Table, kind: str, blows: int) -> bool:
    """Would ``blows`` attacks of ``kind`` at the table's Bandit not be what they are named? A miss needs a Bandit
    that can defend (struck by misses only); a hit, room for one more wound on the sheet (every blow but a miss
    may have wounded it)."""
    struck = table.attacks_on_target - table.misses_on_target
    if kind == "attack (miss)":
        return struck > 0
    if kind == "attack (hit)":
        if blows > WOUND_CAP:
            raise ValueError(f"{blows} hits on one Bandit: a sheet holds {WOUND_CAP} wounds")
        return struck + blows > WOUND_CAP
    return False


async def make_room(players: list[Player], kind: str, blows: int, counted: Tally) -> None:
    """Before ``blows`` attacks of ``kind``: a fresh encounter (its commands in no measure) for each player whose
    Bandit ``needs_fresh``; ``counted.for_room`` counts them."""
    full = [p for p in players if needs_fresh(p.table, kind, blows)]
    kept = [p.tally for p in full]
    for p in full:
        p.tally = Tally()
    await asyncio.gather(*(p.fresh_encounter() for p in full))
    for p, tally in zip(full, kept, strict=True):
        p.tally = tally
    counted.for_room += len(full)
    if full:
        await settle(full[0].emu)


# How long the bot must have sent nothing before a measured window closes. At 0.3 s a loaded machine (a full test
# run at -n 4 on 2 cores) let an attack's tracker edit, its database work starved of CPU, land in the next kind's
# window (the no-op counted 2.6 REST calls a command, not 1).
WINDOW_QUIET = 0.8


async def settle(emu: Emulator, quiet: float = 0.3, limit: float = 10.0) -> None:
    """Wait until the bot has sent nothing for ``quiet`` seconds: a fresh encounter's answers come before its
    tracker is posted and pinned, and that work must not land in the next measured window."""
    began = last_change = time.monotonic()
    seen = len(emu.requests)
    while time.monotonic() - began < limit:
        await asyncio.sleep(0.05)
        if len(emu.requests) != seen:
            seen, last_change = len(emu.requests), time.monotonic()
        elif time.monotonic() - last_change >= quiet:
            return


def in_stretches(times: int, kind: str, room: int = WOUND_CAP) -> list[int]:
    """``times`` attacks of ``kind`` in stretches one Bandit takes (hits: ``room``, at most ``WOUND_CAP``); other
    kinds in one."""
    if kind != "attack (hit)" or times <= room:
        return [times]
    return [room] * (times // room) + ([times % room] if times % room else [])


async def hits_window(emu: Emulator, tables: list[Table], per_table: int, start: Callable[[], Awaitable[None]],
                      stop: Callable[[], Awaitable[None]], wounded: int = 0) -> Tally:
    """``per_table`` attacks that hit at each table, on fresh Bandits (``wounded`` > 0: each first given that many
    wounds, not profiled), in stretches a sheet holds, each between ``start()`` and ``stop()`` (a profiler's) and
    the fresh encounters outside them. What the profiled attacks saw."""
    if not 0 <= wounded < WOUND_CAP:
        raise ValueError(f"a Bandit holds {WOUND_CAP} wounds: {wounded} before the profiled hits leaves no room")
    tally, outside = Tally(), Tally()
    players = [Player(emu, t, tally) for t in tables]
    for stretch in in_stretches(per_table, "attack (hit)", WOUND_CAP - wounded):
        for p in players:
            p.table.attacks_on_target = WOUND_CAP + 1  # a fresh Bandit for every stretch
        await make_room(players, "attack (hit)", stretch, outside)  # and settles
        if wounded:
            for p in players:
                p.tally = Tally()
            await asyncio.gather(*(_repeat(p, "attack (hit)", wounded) for p in players))
            for p in players:
                p.tally = tally
            await settle(emu)
        await start()
        await asyncio.gather(*(_repeat(p, "attack (hit)", stretch) for p in players))
        await stop()
    tally.for_room = outside.for_room
    return tally


def render_unmeasured(tally: Tally) -> str:
    """``not measured: 0``, or the count by kind and the first reason (a command with no answer is in no latency;
    the CPU figures share the bot's CPU over every command sent, answered or not)."""
    if not tally.unmeasured:
        return "not measured: 0"
    counts = ", ".join(f"{kind} {len(why)}" for kind, why in sorted(tally.unmeasured.items()))
    first = next(why[0] for why in tally.unmeasured.values() if why)
    return f"not measured (no answer the bench could read): {counts}; the first: {first}"


def render_growth(evening: Evening) -> list[str]:
    wounds, events, sizes = evening.by_wounds, evening.by_events, evening.by_combatants
    out = []
    if wounds:
        apart = evening.wounds_apart
        low = [w for w in wounds if int(w.label.split("-")[0]) < apart]
        high = wounds[len(low):]
        out.append(f"- by the wounds already on the target ({WOUND_BAND} rounds of a blow a table a figure; the "
                   f"first half's Bandits fresh, the second half's given {apart} first): "
                   + ", ".join(w.render() for w in wounds))
        if high:
            both = Growth("", [r for w in low for r in w.rounds], 0), Growth("", [r for w in high for r in w.rounds], 0)
            out.append(f"  - {apart} more wounds, the same rounds: {render_step(*both)}")
    if len(events) == 2:
        out.append("- by the events in the channel: " + ", ".join(e.render() for e in events)
                   + f"; the burst's cost: {render_step(*events)}")
    if len(sizes) == 2:
        out.append("- by the combatants in the encounter: " + ", ".join(s.render() for s in sizes)
                   + f"; the larger's cost: {render_step(*sizes)}")
    return out


def render(evening: Evening) -> list[str]:
    mix = evening.mix
    noop = next(k.cpu_ms for k in evening.kinds if k.kind == "noop")
    out = [f"Mix: {mix.commands} commands in {evening.mix_seconds:.1f} s ({mix.commands / evening.mix_seconds:.0f}/s), "
           f"bot CPU {1000 * evening.mix_cpu_s / max(1, mix.sent):.1f} ms per command, "
           f"{evening.mix_rest_calls / max(1, mix.sent):.2f} REST calls per command; "
           f"{mix.fresh_encounters} fresh encounters; {mix.refused} blows refused (a Bandit already dead: then a "
           f"fresh encounter); errors {len(mix.errors)}; "
           f"{render_unmeasured(mix)}.", "",
           f"After the mix: {evening.outside.for_room} fresh encounters, not measured, so that misses met a Bandit "
           f"that can defend and no sheet passed the {WOUND_CAP} wounds it holds; {evening.outside.refused} blows "
           "refused all the same (a Bandit already dead: then a fresh encounter, both measured); "
           f"{render_unmeasured(evening.outside)}.", "",
           "| in the mix | commands | p50 ms | p99 ms |", "|---|---:|---:|---:|"]
    for kind, values in sorted(mix.latencies.items()):
        out.append(f"| {kind} | {len(values)} | {percentile(values, 50):.0f} | {percentile(values, 99):.0f} |")
    out += ["", "| alone (every guild at once) | commands | bot CPU ms per command | rounds' range | × no-op "
            "| REST calls per command | p50 ms | p99 ms |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for k in evening.kinds:
        ratio = k.cpu_ms / noop if noop else math.nan  # a short run may see no CPU tick for the no-op
        spread = f"{min(k.cpu_runs):.2f}–{max(k.cpu_runs):.2f}" if k.cpu_runs else "—"
        out.append(f"| {k.kind} | {k.commands} | {k.cpu_ms:.2f} | {spread} | {ratio:.1f} | {k.rest_calls:.2f} "
                   f"| {k.p50_ms:.0f} | {k.p99_ms:.0f} |")
    out += ["", "Each kind ran once a round, every kind in turn, for several rounds: its CPU figure is the median of "
            "its rounds (the range beside it), the ratio is to the no-op's median. A kind's window runs until the "
            "bot has sent nothing for 0.3 s (its last tracker edits, the no-op + edit's edits, are its own). "
            "The floor: durable no-op = one write through the bot's runtime, then the answer; no-op + edit = the "
            "answer, then one message edit (one PATCH, as a tracker edit); engine only = one engine.resolve of a "
            "hit, no database.", "",
            "An attack that hits, bot CPU ms per attack, each point the median of its rounds (their range): two halves "
            "of the tables measured in turn, round after round, so that the machine's drift lands on both:", "",
            *render_growth(evening)]
    if mix.errors:
        out += ["", "First errors: " + "; ".join(mix.errors[:3])]
    return out
