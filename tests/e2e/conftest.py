"""End-to-end fixtures: the real GrievousBot, on a real database, logged in to the loopback Discord emulator.

`table` is a started emulator with a guild (a manager who owns it, a GM role, a GM, players alice and bob,
#general and #combat), a running GrievousBot whose command tree is synced, and helpers to type slash
commands as those members. Its teardown stops the bot and fails the test if Discord would have refused
anything the bot sent (`emu.assert_no_refusals()`), if any interaction was not answered exactly once, or
if the bot logged an error. The emulator's profile (emulator/profiles.py) is `discord_profile`'s: quick
bucket windows; Discord's in a test marked `discord_rates`; with latency in a `latency` test's `[realistic]` run.

Every e2e test also fails if the bot held the event loop for more than STALL_LIMIT_MS (500 ms; the bot's
watchdog names the command): `stall_guard`. Held is the loop's lateness less the time its thread waited
for a CPU that other processes had (the watchdog reads it from the kernel), so a busy machine does not
fail a test by itself; GRIEVOUS_E2E_STALL_MS still raises the limit for a local run. CI never sets it.
"""

from __future__ import annotations

import gc
import logging
import os
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from random import Random
from typing import Any, ClassVar

import pytest
from sqlalchemy import text

from bot.app import GrievousBot
from bot.db.engine import Database
from bot.ops.watchdog import Stall
from bot.services import Services
from bot.ui import publish
from emulator import Channel, Emulator, InteractionHandle, Member, Message, profiles
from emulator.harness import RunningBot, running_emulator, start_bot
from emulator.testing import World, build_world

GM_BUTTON = "grv:gm:"
TABLES = ("pending_decisions", "events", "combatants", "encounters", "characters", "channel_settings",
          "guild_settings", "content_packs", "guild_command_syncs")
# Interaction types the bot must answer (slash commands, autocomplete, buttons, modals).
ANSWERED_TYPES = {2, 3, 4, 5}
# The tracker follows a command's answer, behind the channel's message bucket (5 per 5 s at Discord's sizes).
TRACKER_WAIT = 15.0
STALL_LIMIT_MS = int(os.environ.get("GRIEVOUS_E2E_STALL_MS") or 500)
FUNCTIONAL_WORK_SECONDS = 300.0  # the bot's limit on reading an upload, in a test that is not about it


def embed_text(message: Message) -> str:
    """Everything a reader sees in the message: content, titles, descriptions, fields, footers."""
    parts = [message.content]
    for embed in message.embeds:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        parts += [f"{f['name']}: {f['value']}" for f in embed.get("fields", [])]
        parts.append((embed.get("footer") or {}).get("text", ""))
    return "\n".join(p for p in parts if p)


def field_value(message: Message, name: str) -> str:
    """The value of the first embed field called `name`, or else the first whose name starts with it
    ("Sir Kay" finds "Sir Kay (sword)"); a KeyError names the fields there are."""
    fields = [f for e in message.embeds for f in e.get("fields", [])]
    for found in fields:
        if found["name"] == name:
            return str(found["value"])
    for found in fields:
        if str(found["name"]).startswith(name):
            return str(found["value"])
    raise KeyError(f"no field {name!r}; fields: {[f['name'] for f in fields]}")


def gm_buttons(message: Message) -> list[str]:
    return [custom_id for custom_id in message.custom_ids if custom_id.startswith(GM_BUTTON)]


def public(emu: Emulator, channel: Channel) -> list[Message]:
    return emu.messages(channel, include_ephemeral=False)


@dataclass
class Table:
    """One emulated server with Grievous running on `db_url`."""

    emu: Emulator
    world: World
    db_url: str
    runner: RunningBot[GrievousBot] | None = None
    databases: list[Database] = field(default_factory=list)

    # The helpers above, for the test modules (conftest is not importable under --import-mode=importlib).
    text = staticmethod(embed_text)
    value = staticmethod(field_value)
    buttons = staticmethod(gm_buttons)
    # Alice's ars-harn character in most fights: the options of his `character create` (bjorn_against_bandits)
    BJORN: ClassVar[Mapping[str, str]] = {"name": "Bjorn", "stats": "str=2 sta=1 dex=1 qik=1 abilities.Sword=5",
                                          "weapons": "Broadsword"}

    def public(self, channel: Channel | None = None) -> list[Message]:
        return public(self.emu, channel or self.combat)

    @property
    def bot(self) -> GrievousBot:
        assert self.runner is not None, "the bot is not running"
        return self.runner.client

    @property
    def manager(self) -> Member:
        """The server's owner, who sets it up."""
        return self.world.manager

    @property
    def gm(self) -> Member:
        return self.world.gm

    @property
    def alice(self) -> Member:
        return self.world.alice

    @property
    def bob(self) -> Member:
        return self.world.bob

    @property
    def combat(self) -> Channel:
        return self.world.combat

    # -- the bot's life ------------------------------------------------------------------------------

    async def start(self, *, seed: int = 1, sync: bool = True, from_url: bool = False) -> GrievousBot:
        """A new bot process on the same database: with seeded Services, or (`from_url`) as `grievous run`
        builds it, opening and migrating the database itself. Its health endpoint is on a free port."""
        if from_url:
            client = GrievousBot(database_url=self.db_url, sync_commands=sync, health_port=0)
        else:
            database = Database.from_url(self.db_url)
            self.databases.append(database)
            counter = iter(range(10**9))
            services = Services(database, rng=lambda: Random(seed * 1_000_003 + next(counter)))
            client = GrievousBot(services=services, sync_commands=sync, health_port=0)
        self.runner = await start_bot(self.emu, client)
        # A functional test is not decided by the production limit on reading an upload (10 s): on a loaded
        # machine a max-size pack can take longer. The test of that limit sets its own (test_pack_builds.py).
        client.services.runtime.slow_work.work_budget = FUNCTIONAL_WORK_SECONDS
        if sync:
            await self.emu.wait_for_commands("character", "setup")
            await self.emu.wait_for_commands("attack", "encounter", guild=self.world.guild)  # the server's own
        return client

    async def stop(self) -> None:
        """Stop the bot as `grievous run` does on SIGTERM: drain (what is in flight ends, answered, its tracker
        edits included), then close. Closing with a request on its way (latency) would cut it off."""
        if self.runner is not None:
            await self.bot.drain()
            await self.runner.stop()
            self.runner = None
        for database in self.databases:
            await database.dispose()
        self.databases.clear()

    # -- typing commands -----------------------------------------------------------------------------

    async def send(self, command: str, options: Mapping[str, Any] | None = None, *, user: Member | None = None,
                   channel: Channel | None = None, held: dict[str, Any] | None = None) -> InteractionHandle:
        """Dispatch a slash command (the GM in #combat unless told) without waiting for the answer; `held` is
        the command as the user's client still holds it (see Emulator.slash)."""
        return await self.emu.slash(command, dict(options or {}), user=user or self.gm,
                                    channel=channel or self.combat, held=held)

    async def run(self, command: str, options: Mapping[str, Any] | None = None, *, user: Member | None = None,
                  channel: Channel | None = None, within: float = 10.0) -> Message:
        """Run a slash command and return the bot's answer; it must not be an error line."""
        handle = await self.send(command, options, user=user, channel=channel)
        message = await handle.message(within)
        assert not message.content.startswith(("\u26a0", "Sorry")), f"/{command} {options}: {message.content}"
        return message

    async def sheet(self, command: str, options: Mapping[str, Any] | None = None, *, user: Member | None = None,
                    within: float = 10.0) -> Message:
        """A create, an import or a stat edit: its one line in the channel, then the whole sheet privately to the
        one who typed it; the sheet's message."""
        handle = await self.send(command, options, user=user)
        line = await handle.message(within)
        assert not line.ephemeral and not line.embeds and "\n" not in line.content, line
        shown = await handle.wait_for(lambda: next(iter(handle.followup_messages), None), "the private sheet",
                                      within)
        assert shown.ephemeral and shown.embeds, shown
        return shown

    async def details(self, message: Message, *, user: Member | None = None) -> Message:
        """Press the action message's Details button (as Bob unless told): the private embed of every die."""
        custom_id = next(i for i in message.custom_ids if i.startswith("grv:details:"))
        pressed = await self.emu.click(message, custom_id, user=user or self.bob)
        shown = await pressed.message()
        assert shown.ephemeral and shown.embeds, shown
        return shown

    async def line(self, command: str, options: Mapping[str, Any] | None = None, *, user: Member | None = None,
                   channel: Channel | None = None, held: dict[str, Any] | None = None) -> str:
        """Run a command that must fail: one private line, and nothing posted publicly."""
        where = channel or self.combat
        await self.trackers_idle()  # a tracker the last command posts after its answer is not this one's
        before = len(public(self.emu, where))
        handle = await self.send(command, options, user=user, channel=where, held=held)
        return await self.private_line(handle, where, before)

    async def private_line(self, handle: InteractionHandle, channel: Channel, public_before: int) -> str:
        message = await handle.message()
        assert not handle.followup_messages, "more than the one line"
        assert message.ephemeral and not message.embeds, message
        assert message.content and "\n" not in message.content and "Traceback" not in message.content
        assert len(public(self.emu, channel)) == public_before, "an error posted something public"
        return str(message.content)

    async def setup(self, system: str) -> None:
        """The manager picks the system and the GM role (both answered privately)."""
        for command, options in (("setup system", {"system": system}),
                                 ("setup gm-role", {"role": self.world.gm_role})):
            message = await self.run(command, options, user=self.manager)
            assert message.ephemeral and "Done" in embed_text(message)

    async def bjorn_against_bandits(self, bandits: int = 1, *, settings: Mapping[str, Mapping[str, Any]] | None = None,
                                    bjorn: Mapping[str, Any] | None = None, bjorn_joins_first: bool = False) -> None:
        """The ars-harn fight most e2e tests start from, in #combat: the manager sets up ars-harn (`setup`), then
        each of `settings` (command -> options, e.g. {"setup rolls": {"mode": "gm"}}), answered privately; Alice
        creates Bjorn (BJORN unless told); the GM starts an encounter and seats `bandits` bandits (Bandit 1, 2...),
        and Alice adds Bjorn: after them, or before if `bjorn_joins_first` (the order of the initiative draws)."""
        bjorn = bjorn or self.BJORN
        await self.setup("ars-harn")
        for command, options in (settings or {}).items():
            answer = await self.run(command, options, user=self.manager)
            assert answer.ephemeral, answer
        await self.run("character create", bjorn, user=self.alice)
        await self.run("encounter start")
        npcs = ("encounter npcs", {"template": "bandit", "count": bandits}, self.gm)
        add = ("encounter add", {"character": bjorn["name"]}, self.alice)
        for command, options, user in (add, npcs) if bjorn_joins_first else (npcs, add):
            await self.run(command, options, user=user)

    async def idle(self) -> None:
        """Nothing of the last command still under way: its flight ended, and its tracker edit with it."""
        await self.emu.wait_until(lambda: not self.bot.flights.active or None, 10.0, "the bot to be idle")
        await self.trackers_idle()

    async def trackers_idle(self) -> None:
        """Wait until the bot has no tracker update under way (they follow a command's answer)."""
        if self.runner is None:
            return
        updates = publish.tracker_updates(self.bot)
        await self.emu.wait_until(lambda: all(u.task is None for u in updates.values()) or None, 10.0,
                                  "the tracker updates to finish")

    async def tracker(self, channel: Channel | None = None) -> Message:
        """The one pinned tracker message of the channel (the bot pins it after answering: waited for)."""
        where = channel or self.combat
        await self.emu.wait_until(lambda: self.emu.pins(where) or None, TRACKER_WAIT, "the tracker to be pinned")
        pins = self.emu.pins(where)
        assert len(pins) == 1, f"expected one pinned tracker, found {len(pins)}"
        return pins[0]

    async def wait_tracker(self, predicate: Callable[[str], bool], channel: Channel | None = None,
                           what: str = "the tracker to change") -> Message:
        where = channel or self.combat

        def ready() -> Message | None:
            pins = self.emu.pins(where)
            return pins[0] if len(pins) == 1 and predicate(embed_text(pins[0])) else None

        return await self.emu.wait_until(ready, TRACKER_WAIT, what)

    async def channel_edit(self, predicate: Callable[[], Any], what: str) -> Any:
        """Wait for a change the bot makes through channel REST after answering (buttons taken off an older
        message, a tracker): it waits on the channel's message bucket, as long as TRACKER_WAIT at Discord's
        sizes, not only the emulator's default 5 s."""
        return await self.emu.wait_until(lambda: predicate() or None, TRACKER_WAIT, what)

    async def count_rows(self, sql: str, **params: Any) -> int:
        database = Database.from_url(self.db_url)
        try:
            async with database.engine.connect() as connection:
                return int((await connection.execute(text(sql), params)).scalar_one())
        finally:
            await database.dispose()

    def check_clean(self) -> None:
        """Discord accepted everything, every interaction was answered exactly once, and no message shows a
        file twice."""
        self.emu.assert_no_refusals()
        self.emu.assert_no_file_shown_twice()
        assert self.emu.unhandled == [], self.emu.unhandled
        unanswered = [h for h in self.emu.interactions if h.type in ANSWERED_TYPES and h.callback_count != 1]
        assert not unanswered, f"interactions not answered exactly once: {unanswered}"
        thinking = [h for h in self.emu.interactions
                    if h.original is not None and h.original.loading and not h.original.deleted]
        assert not thinking, f"a deferred answer left 'thinking…' showing: {thinking}"


class StallGuard(logging.Handler):
    """Collects the stalls the bot's watchdog reports (logger grievous.watchdog) during one test."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.stalls: list[Stall] = []
        self.expected: set[str] = set()
        self.tests_own_work = False  # see allow_the_tests_own_work

    def emit(self, record: logging.LogRecord) -> None:
        stall = getattr(record, "stall", None)
        if isinstance(stall, Stall):
            self.stalls.append(stall)

    def too_long(self) -> list[Stall]:
        return [s for s in self.stalls if s.held * 1000 > STALL_LIMIT_MS and s.culprit not in self.expected
                and not (self.tests_own_work and s.culprit is None and not s.in_flight)]

    def allow_the_tests_own_work(self) -> None:
        """A property test (hypothesis) draws its examples in the event loop's thread, between the bot's
        commands: a stall with no command in flight is then the test's own work, not the bot's. A stall
        while a command runs still fails."""
        self.tests_own_work = True

    def expect(self, command: str) -> None:
        """A test that stalls the loop on purpose names the command it stalls."""
        self.expected.add(command)


@pytest.fixture(autouse=True)
def stall_guard() -> Iterator[StallGuard]:
    """Fails the test (at teardown) if the event loop was held for more than STALL_LIMIT_MS."""
    # Late in a long session a full garbage collection of what earlier tests left can take over half a
    # second, in whichever test it falls: collect now, and freeze what survives, so the watchdog times the
    # bot's own work.
    gc.collect()
    gc.freeze()
    guard = StallGuard()
    logger = logging.getLogger("grievous.watchdog")
    logger.addHandler(guard)
    try:
        yield guard
    finally:
        logger.removeHandler(guard)
    stalls = guard.too_long()
    if stalls:
        pytest.fail("the bot held the event loop: " + "; ".join(
            f"{round(s.held * 1000)} ms in {s.commands} ({round(s.cpu_seconds * 1000)} ms on a CPU)"
            for s in stalls) + f" (limit {STALL_LIMIT_MS} ms)")


@pytest.fixture
def backend() -> str:
    """The e2e tests run on SQLite; a module may parametrize this to add PostgreSQL."""
    return "sqlite"


@pytest.fixture
def e2e_db_url(db_url: str) -> str:
    """A migrated database (tests/conftest.py's `db_url` on this folder's `backend`): a SQLite file of its own, or
    the session's PostgreSQL (emptied by `table`)."""
    return db_url


async def empty_postgres(url: str) -> None:
    if not url.startswith("postgresql"):
        return
    database = Database.from_url(url)
    try:
        async with database.engine.begin() as connection:
            await connection.execute(text(f"TRUNCATE {', '.join(TABLES)} RESTART IDENTITY CASCADE"))
    finally:
        await database.dispose()


@pytest.fixture
async def empty_db_url(e2e_db_url: str) -> str:
    """`e2e_db_url`, emptied first on PostgreSQL: for tests that run the bot as a process of their own."""
    await empty_postgres(e2e_db_url)
    return e2e_db_url


@pytest.fixture
async def table(e2e_db_url: str, caplog: pytest.LogCaptureFixture, discord_profile: str) -> AsyncIterator[Table]:
    caplog.set_level(logging.INFO)
    await empty_postgres(e2e_db_url)
    async with running_emulator(**profiles.options(discord_profile)) as emu:
        world = build_world(emu)
        grievous = Table(emu, world, e2e_db_url)
        try:
            await grievous.start()
            yield grievous
        finally:
            await grievous.stop()
        grievous.check_clean()
    # Stalls are judged by stall_guard (only those over its limit fail a test).
    errors = [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.name != "grievous.watchdog" and (
              r.levelno >= logging.ERROR or (r.levelno >= logging.WARNING and not r.name.startswith("discord")))]
    assert not errors, "the bot logged problems:\n" + "\n".join(errors)
