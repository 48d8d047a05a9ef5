"""`grievous web`: the campaign page served by a process of its own, which never connects to Discord.

In `grievous run` the page shares the bot's event loop: under load its renders delay the commands (issue 33,
docs/benchmarks.md). Here it has a loop of its own, beside the bot on the same database: the links `/web` makes
and the sessions they open are rows (bot/services/web_sessions.py), the live pages poll the events table
(bot/services/live_events.py), and names come from the session and the events (bot/web/host.py), so nothing is
asked of the bot. Several may run behind one proxy.

The process is the web server (WEB_HOST:WEB_PORT), the health and metrics endpoint (HEALTH_HOST:HEALTH_PORT: the
database checks as the bot's, ``gateway`` reading NO_GATEWAY; ``/metrics`` the pages' metrics and the stalls) and
the event-loop watchdog (STALL_LOG_MS), whose stalls name the page that held the loop. It writes only web links and
sessions; every game row is the bot's, so the bot's memory of its encounters stays true.
"""

from __future__ import annotations

import asyncio
import logging
import time

from bot.config import Config
from bot.db.engine import Database
from bot.ops import gc_tuning
from bot.ops.health import NO_GATEWAY, HealthServer
from bot.ops.watchdog import PAGE_SERVER, Stall, Watchdog
from bot.services import Services
from bot.web.host import WebOnlyHost
from bot.web.server import WebServer

log = logging.getLogger("grievous")


class WebPortTaken(Exception):
    """The page cannot listen where it was told; ``str()`` is the one line saying so."""


class WebProcess:
    """The page, its health endpoint and its watchdog on ``db`` (opened and migrated by the caller)."""

    def __init__(self, config: Config, db: Database) -> None:
        assert config.web_port is not None and config.web_base_url is not None
        self.db = db
        self.host = WebOnlyHost(Services(db))
        self.web = WebServer(self.host, host=config.web_host, port=config.web_port, base_url=config.web_base_url,
                             trusted_proxies=config.web_trusted_proxies)
        self.watchdog = Watchdog(config.stall_ms / 1000, in_flight=list, on_stall=self._stalled, role=PAGE_SERVER)
        self.health: HealthServer | None = None
        if config.health_port is not None:
            self.health = HealthServer(gateway=lambda: NO_GATEWAY, db=lambda: db, metrics=self.host.metrics,
                                       host=config.health_host, port=config.health_port)

    def _stalled(self, stall: Stall) -> None:
        self.host.metrics.observe_stall(stall.seconds, None)  # no command runs here; the log line names the page

    async def start(self) -> None:
        started = time.monotonic()
        # Engines and default catalogs (about a second) in a thread, not in the first page that needs them.
        await asyncio.to_thread(self.host.services.runtime.catalogs.warm_up)
        try:
            await self.web.start()
        except OSError as exc:
            raise WebPortTaken(f"the web page cannot listen on {self.web.host}:{self.web.port} "
                               f"({exc.strerror or exc})") from None
        if self.health is not None:
            try:
                await self.health.start()
            except OSError as exc:  # the page is served anyway; the missing endpoint shows
                log.error("no health endpoint: cannot listen on %s:%s (%s)", self.health.host, self.health.port,
                          exc.strerror or exc)
                self.health = None
        gc_tuning.settle()
        self.watchdog.start()
        log.info("web process ready in %.1f s: serving the campaign page, no Discord connection",
                 time.monotonic() - started)

    async def stop(self) -> None:
        """Live streams end (each sees the server closing), the listeners close, then the services."""
        await self.watchdog.stop()
        await self.web.stop()
        if self.health is not None:
            await self.health.stop()
        await self.host.services.runtime.close()
