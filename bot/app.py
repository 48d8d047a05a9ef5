"""The bot: a typed AutoShardedBot that loads the cogs, registers the GM buttons and (when told) syncs."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Coroutine, Sequence
from datetime import UTC, datetime
from typing import Any, Protocol, TypeVar

import discord
from discord.ext import commands

from bot.cogs import EXTENSIONS
from bot.command_sync import CommandSync
from bot.config import Config
from bot.db.engine import DEFAULT_DATABASE_URL, Database
from bot.discord_heartbeat import install as install_heartbeat_stamp
from bot.discord_json import install as install_discord_json
from bot.discord_permissions import Refusals
from bot.ops import gc_tuning
from bot.ops.flights import Flight, Flights, current, install_task_factory
from bot.ops.gateway_watch import CHECK_EVERY, SILENCE, GatewayWatch
from bot.ops.health import HealthServer
from bot.ops.metrics import Metrics
from bot.ops.payloads import guard_parsers
from bot.ops.redact import add_secret
from bot.ops.watchdog import Stall, Watchdog
from bot.services import Services
from bot.tree import GrievousTree
from bot.ui import autocomplete, replies
from bot.ui.action_message import GM_VALUE_TEMPLATE, DetailsButton, GMDecisionButton, value_submitted
from bot.ui.confirm import ConfirmButton
from bot.ui.defense_prompts import DefenseButton
from bot.ui.forms import FormRoutes
from bot.ui.late import answer_late, recover
from bot.ui.offers import OfferButton
from bot.ui.publish import SHOWN, trackers_settled
from bot.web.http import PREFIX
from bot.web.server import WebServer

log = logging.getLogger("grievous")

install_discord_json()  # orjson for discord.py, read as json reads (bot/discord_json.py)
install_heartbeat_stamp()  # heartbeat latency timed from the heartbeat it answers (bot/discord_heartbeat.py)

# On SIGTERM or SIGINT the bot stops taking interactions and gives those in flight this long to finish and
# be answered (a command's own work is bounded at 10 s; most end in well under a second). It fits Docker's
# default stop timeout (10 s) with room to close; deploy/ gives systemd and compose 20 s.
DRAIN_SECONDS = 7.0
TRACKER_SECONDS = 2.0  # on closing, how long the tracker edits under way may take to finish
FILE_CHECK_SECONDS = 5.0  # how often the database file is looked at (bot/db/identity.py FileWatch)


def default_intents() -> discord.Intents:
    """Slash commands and buttons need only the guilds intent (no privileged intents)."""
    intents = discord.Intents.none()
    intents.guilds = True
    return intents


class GrievousBot(commands.AutoShardedBot):
    """Construct with a ready ``services`` (tests, the playground), a ``db``/``database``, or a ``database_url``;
    ``config`` (bot.config.Config, read from the environment) supplies database_url, sync_commands, the
    shards and the health endpoint.

    ``sync_commands`` pushes the commands every server shares to Discord in ``setup_hook``: globally, or
    to ``sync_guild_id`` only (instant, for development). Only one process of several should sync them.
    Each server's own commands (bot/system_commands.py) are kept in step by the process that serves it
    (bot/command_sync.py), unless ``guild_commands`` is false.

    The operator's view (bot.ops): ``metrics`` (its own Prometheus registry), ``flights`` (interactions in
    flight), ``watchdog`` (event-loop stalls over ``stall_ms``), and with a ``health_port`` the
    /healthz and /metrics endpoint (``health``).
    """

    services: Services
    db: Database | None
    tree: GrievousTree

    def __init__(
        self,
        *,
        config: Config | None = None,
        services: Services | None = None,
        db: Database | None = None,
        database: Database | None = None,
        database_url: str = DEFAULT_DATABASE_URL,
        migrate: bool = True,
        sync_commands: bool = False,
        sync_guild_id: int | None = None,
        guild_commands: bool = True,
        extensions: Sequence[str] = EXTENSIONS,
        shard_ids: list[int] | None = None,
        shard_count: int | None = None,
        intents: discord.Intents | None = None,
        health_host: str = "127.0.0.1",
        health_port: int | None = None,
        stall_ms: int = 100,
        settle_memory: bool = False,
        gateway_silence: float = SILENCE,
        web_port: int | None = None,
        web_host: str = "127.0.0.1",
        web_base_url: str | None = None,
        web_trusted_proxies: tuple[str, ...] = (),
        **options: Any,
    ) -> None:
        database = database or db
        if config is not None:  # the process configuration: its values win over the defaults above
            database_url = config.database_url or database_url
            sync_commands = config.sync_commands
            shard_ids = list(config.shard_ids) if config.shard_ids is not None else shard_ids
            shard_count = config.shard_count or shard_count
            health_host, health_port, stall_ms = config.health_host, config.health_port, config.stall_ms
            if config.web_base_url is not None:  # WEB_PORT off: links only, `grievous web` serves the page
                web_port, web_host, web_base_url = config.web_port, config.web_host, config.web_base_url
                web_trusted_proxies = config.web_trusted_proxies
        self._work_seconds = config.work_seconds if config is not None else None
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=intents or default_intents(),
            tree_cls=GrievousTree,
            allowed_mentions=discord.AllowedMentions.none(),
            shard_ids=shard_ids,  # type: ignore[arg-type]  # None means every shard
            shard_count=shard_count,
            **options,
        )
        if services is not None:
            self.services = services
        self.db = getattr(services, "db", None) if services is not None else database
        self._owns_db = services is None and database is None
        self._database_url = database_url
        self._migrate = migrate and self._owns_db
        self.sync_commands = sync_commands
        self.sync_guild_id = sync_guild_id
        self.extension_names = tuple(extensions)
        self.metrics = Metrics()
        self.refusals = Refusals()  # what channels refused the bot (bot/discord_permissions.py)
        self.flights = Flights(self._landed)
        self.metrics.in_flight.set_function(lambda: len(self.flights.active))
        self.watchdog = Watchdog(stall_ms / 1000, in_flight=self.flights.names, on_stall=self._stalled)
        self.gateway_watch = GatewayWatch(silence=gateway_silence)
        self._watching: asyncio.Task[None] | None = None
        self.health: HealthServer | None = None
        if health_port is not None:
            self.health = HealthServer(gateway=self.gateway_status, db=lambda: self.db, metrics=self.metrics,
                                       host=health_host, port=health_port, notes=self.gateway_watch.note)
        # The campaign web page (bot/web/), served when a port is given (base URL None: http://host:port, the
        # playground). A base URL without a port: /web makes links to the page `grievous web` serves.
        self.web: WebServer | None = None
        self._serves_web = web_port is not None
        if web_port is not None or web_base_url is not None:
            self.web = WebServer(self, host=web_host, port=web_port or 0, base_url=web_base_url,
                                 trusted_proxies=web_trusted_proxies)
        # Every interaction arrives through this one gateway parser: wrapped, each one's handling is a Flight;
        # while the bot is stopping (``drain``), a new one is turned away instead of run.
        parsers = self._connection.parsers
        parse = self.flights.wrap_parser(parsers["INTERACTION_CREATE"],
                                         lambda name: self.tree.get_command(name) is not None)
        self.draining = False
        self._turned_away: set[asyncio.Task[None]] = set()

        def interaction_create(data: dict[str, Any]) -> None:
            if self.draining:
                task = asyncio.get_running_loop().create_task(self._turn_away(data))
                self._turned_away.add(task)
                task.add_done_callback(self._turned_away_done)
            else:
                parse(data)

        parsers["INTERACTION_CREATE"] = interaction_create
        # Outermost, on every parser: a malformed payload is dropped and logged, and the process goes on.
        self.dropped_payloads = guard_parsers(parsers, self._guild_of_channel,
                                              lambda event, _reason: self.metrics.dropped_payloads.labels(event).inc(),
                                              seen=self._dispatched)
        self._late: set[asyncio.Task[None]] = set()  # results being posted late (bot/ui/late.py)
        self._waits: set[asyncio.Task[None]] = set()  # attacks waiting for a defence (bot/ui/defense_prompts.py)
        self._recovered = False
        self._settle_memory = settle_memory  # grievous run: the garbage collector set once ready (bot/ops/gc_tuning.py)
        self.started_at = datetime.now(UTC)
        self._quiet = asyncio.Event()  # set whenever an interaction's handling ends (``drain`` waits on it)
        self.guild_commands = guild_commands
        self.command_sync = CommandSync(self, dev_guild_id=sync_guild_id)
        # Forms (modals) are routed by their custom_id, like the buttons: a submit works after a restart.
        self.forms = FormRoutes()
        self.forms.add(GM_VALUE_TEMPLATE, value_submitted)

    def _guild_of_channel(self, channel_id: int) -> int | None:
        """The guild a channel (or thread) this process has cached belongs to; None if unknown or private."""
        channel = self._connection.get_channel(channel_id)
        guild = getattr(channel, "guild", None)
        return guild.id if guild is not None else None

    def _dispatched(self, event: str, data: dict[str, Any]) -> None:
        """Every gateway dispatch, before it is parsed: the gateway watch's clock of its shard."""
        guild_id = data.get("guild_id") or (data.get("id") if event == "GUILD_CREATE" else None)
        try:
            shard_id = (int(guild_id) >> 22) % (self.shard_count or 1) if guild_id is not None else None
        except (TypeError, ValueError):
            return  # a malformed id: the guard drops the payload
        if shard_id is None:
            shard_id = self.shard_ids[0] if self.shard_ids and len(self.shard_ids) == 1 else 0
        self.gateway_watch.dispatched(shard_id, interaction=event == "INTERACTION_CREATE")

    async def _watch_gateway(self) -> None:
        """Every few seconds: a shard silent while its servers play is closed with a resumable code, so
        discord.py resumes it and Discord replays what it missed (bot/ops/gateway_watch.py)."""
        while not self.is_closed():
            await asyncio.sleep(min(CHECK_EVERY, self.gateway_watch.silence / 4))
            for shard_id, quiet in self.gateway_watch.silent(self.shards):
                shard = self.get_shard(shard_id)
                ws = getattr(getattr(shard, "_parent", None), "ws", None)
                self.gateway_watch.reconnecting(shard_id, quiet)
                self.metrics.gateway_reconnects.inc()
                log.warning("shard %d delivered no event for %.0f s while its servers were playing: reconnecting",
                            shard_id, quiet)
                if ws is not None:
                    await ws.close(code=4000)  # resumable: discord.py resumes the session
                elif shard is not None:
                    await shard.reconnect()

    async def login(self, token: str) -> None:
        add_secret(token)  # never in a log line or a reply
        await super().login(token)

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        if event_name == "interaction" and args:  # inside the wrapped parser: the flight's Interaction exists
            flight = current()
            if flight is not None and isinstance(args[0], discord.Interaction):
                flight.answered = args[0].response.is_done
                flight.interaction = args[0]
        super().dispatch(event_name, *args, **kwargs)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        await self.forms.dispatch(interaction)

    async def _answer_late(self, interaction_id: int) -> None:
        try:
            posted = await answer_late(self, interaction_id)
            if posted:
                log.warning("an answer failed: %d stored actions posted late in their channel", posted)
        except Exception:
            log.exception("could not post the result of interaction %s late", interaction_id)

    def _late_done(self, task: asyncio.Task[None]) -> None:
        self._late.discard(task)
        self._quiet.set()

    def _turned_away_done(self, task: asyncio.Task[None]) -> None:
        self._turned_away.discard(task)
        self._quiet.set()

    def _landed(self, flight: Flight) -> None:
        self._quiet.set()
        interaction = flight.interaction
        if interaction is not None and hasattr(self, "services") \
                and self.services.runtime.answers.take(interaction.id):
            if interaction.extras.get(SHOWN):
                self.services.runtime.answers.answered((interaction.id,))
            else:  # stored, but its answer failed: shown in the channel instead (and a retry of it refused)
                self.services.runtime.answers.failed(interaction.id)
                task = asyncio.get_running_loop().create_task(self._answer_late(interaction.id))
                self._late.add(task)
                task.add_done_callback(self._late_done)
        elapsed = time.monotonic() - flight.started
        if flight.kind != "autocomplete":
            self.metrics.observe_command(flight.name, flight.result, elapsed, deferred=flight.deferred,
                                         missed=flight.missed)
        log.debug("%s: %s in %.0f ms", flight.name, flight.result, elapsed * 1000)

    def _stalled(self, stall: Stall) -> None:
        self.metrics.observe_stall(stall.seconds, stall.culprit)

    def gateway_status(self) -> str:
        """"ok" when every shard of this process is connected, else what is not."""
        if self.is_closed():
            return "closed"
        if not self.is_ready():
            return "not connected yet"
        down = sorted(shard_id for shard_id, shard in self.shards.items() if shard.is_closed())
        if down:
            return f"shard {', '.join(map(str, down))} disconnected"
        return self.gateway_watch.problem(self.shards) or "ok"

    async def setup_hook(self) -> None:
        install_task_factory(asyncio.get_running_loop())
        if self.health is not None:  # a port taken: the users are served anyway, the missing endpoint shows
            self.health = await _listening(self.health, "no health endpoint")
        await self._open_services()
        # Engines and default catalogs take a second to build: in a thread now, not on the loop in a command.
        await asyncio.to_thread(self.services.runtime.catalogs.warm_up)
        for name in self.extension_names:
            await self.load_extension(name)
        # Persistent buttons: any message's grv:gm:<id>:<choice> button is handled, even after a restart (and
        # every grv:confirm: press is answered, even one forged on another message).
        self.add_dynamic_items(GMDecisionButton, DetailsButton, OfferButton, ConfirmButton, DefenseButton)
        if self.web is not None and self._serves_web:
            self.web = await _listening(self.web, "no web page")
        elif self.web is not None:
            log.info("the /web links lead to %s%s/; no page is served here (WEB_PORT off: `grievous web` serves it)",
                     self.web.base_url, PREFIX)
        if self.sync_commands:
            await self.sync_tree()
        # Watched from here on: loading the extensions above holds the loop, but before anyone can be waiting.
        self.watchdog.start()
        if self.db is not None and self.db.watch is not None:
            self.start_wait(self._watch_database_file(self.db))
        self._watching = asyncio.get_running_loop().create_task(self._watch_gateway(), name="grievous-gateway-watch")

    async def _open_services(self) -> None:
        """The services on the bot's database (opened, and migrated where asked) unless it was given them, with the
        configured work limit; the metrics watch their transactions and encounter cache."""
        if not hasattr(self, "services"):
            if self.db is None:
                self.db = Database.from_url(self._database_url)
            if self._migrate:
                from bot.db.migrate import upgrade

                await upgrade(self.db)
            self.services = Services(self.db)
        self.services.runtime.transactions.on_transaction = self.metrics.observe_transaction
        if self._work_seconds is not None:
            self.services.runtime.slow_work.work_budget = float(self._work_seconds)
        if self.services.runtime.transactions.encounters is not None:
            self.metrics.watch_encounter_cache(self.services.runtime.transactions.encounters)

    async def sync_tree(self) -> int:
        """Register the shared commands (globally, or with the development server's own); how many."""
        synced = await self.command_sync.sync_shared()
        if self.sync_guild_id is not None:
            await self.command_sync.sync_guild(self.sync_guild_id, force=True)
        return synced

    async def on_ready(self) -> None:
        log.info("ready as %s in %d guilds (shards %s)", self.user, len(self.guilds), self.shard_ids or "all")
        if not self._recovered:  # once per process: what a crash left stored but unanswered
            self._recovered = True
            if self._settle_memory:
                gc_tuning.settle()
            try:
                await recover(self, self.started_at)
            except Exception:
                if self.draining or self.is_closed():  # stopped meanwhile: what is still unanswered stays so
                    log.info("stopped before the actions left unanswered were all posted; the next start posts "
                             "the rest")
                else:
                    log.exception("could not post the actions left unanswered before the restart")
        if self.guild_commands:
            queued = await self.command_sync.check(guild.id for guild in self.guilds)
            if queued:
                log.info("syncing the commands of %d guilds whose commands changed", queued)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        if self.guild_commands:  # a server that removed the bot lost its commands: always send them
            self.command_sync.queue(guild.id, force=True)

    async def resync_guild(self, guild_id: int) -> discord.HTTPException | None:
        """After the systems a server uses changed (``/setup system``): why its commands could not be
        updated, or None."""
        if self.guild_commands:
            await self.command_sync.sync_guild(guild_id)
            return self.command_sync.problems.get(guild_id)
        return None

    async def drain(self, within: float = DRAIN_SECONDS) -> int:
        """Stop taking interactions (each new one is told to send it again), and wait up to ``within`` seconds
        for those in flight to end, answered; how many were still running after that."""
        self.draining = True

        async def settled() -> None:
            while self.flights.active or self._turned_away or self._late:
                self._quiet.clear()
                await self._quiet.wait()

        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(settled(), within)
        await self.services.runtime.answers.flush()
        left = len(self.flights.active)
        if left:
            log.warning("stopping with %d interactions still running after %.0f s: %s", left, within,
                        ", ".join(self.flights.names()))
        else:
            log.info("stopping: every interaction in flight was answered")
        return left

    async def earlier_handled(self, interaction: discord.Interaction[Any], within: float) -> None:
        """Wait, up to ``within`` seconds, until the interactions of ``interaction``'s channel that this process
        took before it have been handled: a command that reads what they did (``/undo``) then finds their
        messages known. With latency an answer's message id comes back ~100 ms after the user saw it."""
        mine = current()
        loop = asyncio.get_running_loop()
        until = loop.time() + within

        def earlier() -> bool:
            return any(f is not mine and f.interaction is not None and f.kind != "autocomplete"
                       and f.interaction.channel_id == interaction.channel_id
                       and (mine is None or f.started <= mine.started) for f in self.flights.active)

        while True:
            self._quiet.clear()  # before looking: a flight that lands after the look sets it again
            left = until - loop.time()
            if not earlier() or left <= 0:
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._quiet.wait(), left)

    async def _turn_away(self, data: dict[str, Any]) -> None:
        """An interaction that arrived while stopping: not run, and the user told so (nothing to undo)."""
        try:
            interaction: discord.Interaction[Any] = discord.Interaction(data=data, state=self._connection)  # type: ignore[arg-type]
            if interaction.type is discord.InteractionType.autocomplete:
                await interaction.response.autocomplete([])
            else:
                await interaction.response.send_message(replies.STOPPING, ephemeral=True)
        except (discord.HTTPException, RuntimeError, KeyError, ValueError) as exc:
            log.info("could not turn away an interaction while stopping: %s", exc)

    async def _watch_database_file(self, db: Database) -> None:
        """A SQLite file deleted or replaced under the bot is noticed (logged once, health 503) even while nobody
        writes; a write notices it at once anyway (bot/db/identity.py)."""
        while True:
            if db.file_gone() is not None:
                return
            await asyncio.sleep(FILE_CHECK_SECONDS)

    def start_wait(self, wait: Coroutine[Any, Any, None]) -> None:
        """Run ``wait`` (a timer that acts when it runs out) until it ends or the bot closes."""
        task = asyncio.get_running_loop().create_task(wait)
        self._waits.add(task)
        task.add_done_callback(self._waits.discard)

    async def close(self) -> None:
        self.draining = True
        for task in list(self._waits):  # timers left running: what they would do waits for a button instead
            task.cancel()
        await self.watchdog.stop()  # closing holds the loop now and then; nobody is waiting on it any more
        if self._watching is not None:
            self._watching.cancel()
        await self.command_sync.close()
        autocomplete.forget(self)  # the reads left running past their answer
        await trackers_settled(self, TRACKER_SECONDS)
        try:
            await super().close()
        finally:
            if hasattr(self, "services"):
                # The last answers' marks are written before whoever owns the database closes it.
                await self.services.runtime.answers.flush()
                self.services.runtime.slow_work.stop()
            if self.web is not None:
                await self.web.stop()
            if self.health is not None:
                await self.health.stop()
            if self._owns_db and self.db is not None:
                await self.db.dispose()


class _Listener(Protocol):
    host: str
    port: int

    async def start(self) -> None: ...


_L = TypeVar("_L", bound=_Listener)


async def _listening(server: _L, what: str) -> _L | None:
    """``server`` listening, or None where it cannot (its port taken): logged as ``what``, the bot runs on."""
    try:
        await server.start()
    except OSError as exc:
        log.error("%s: cannot listen on %s:%s (%s)", what, server.host, server.port, exc.strerror or exc)
        return None
    return server
