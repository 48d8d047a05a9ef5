"""The health and metrics endpoint: a small aiohttp server beside the bot (bind it to 127.0.0.1).

``GET /healthz`` answers 200 with {"gateway": ..., "database": ..., "migrations": ..., "storage": ...} when
all four are well, else 503 with the same keys, a failed check saying what is wrong (``storage``: whether
the last write failed for want of space, bot/db/storage.py; ``database``: "database file deleted" once the
SQLite file the bot opened is deleted or replaced, bot/db/identity.py); ``GET /metrics`` is the
Prometheus text format of the bot's own registry.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Callable
from dataclasses import dataclass

from aiohttp import web
from sqlalchemy import text

from bot.db.engine import Database
from bot.db.migrate import current_revision, head_revision
from bot.ops.metrics import CONTENT_TYPE, Metrics

log = logging.getLogger("grievous.health")
DB_TIMEOUT = 2.0  # seconds for the SELECT 1 and the revision look-up
NO_GATEWAY = "none: this process serves the web page only"  # `grievous web`'s gateway check (not a failure)


@dataclass(frozen=True)
class Health:
    gateway: str  # "ok", or what is wrong
    database: str
    migrations: str
    storage: str = "ok"
    notes: str = ""  # what the operator should know that is not a failure (a shard reconnected by itself)

    @property
    def ok(self) -> bool:
        return not self.failed()

    def failed(self) -> list[str]:
        return [name for name, value in vars(self).items()
                if name != "notes" and value != "ok" and not (name == "gateway" and value == NO_GATEWAY)]

    def shown(self) -> dict[str, str]:
        """The JSON body: every check, and the notes when there are any."""
        return {name: value for name, value in vars(self).items() if name != "notes" or value}


async def check(gateway: Callable[[], str], db: Database | None, head: str | None) -> Health:
    """Each check says "ok" or one line on what failed; the database ones give up after DB_TIMEOUT."""
    if db is None:
        return Health(gateway(), "not open yet", "unknown: the database is not open yet")
    gone = db.file_gone()  # a SQLite file deleted or replaced under the bot (bot/db/identity.py)
    if gone is not None:
        return Health(gateway(), gone, "unknown: the database file is gone", db.storage.check())
    try:
        async with asyncio.timeout(DB_TIMEOUT):
            async with db.engine.connect() as connection:
                await connection.execute(text("SELECT 1"))
    except TimeoutError:
        return Health(gateway(), f"no answer within {DB_TIMEOUT:g} s", "unknown: the database did not answer",
                      db.storage.check())
    except Exception as exc:
        return Health(gateway(), f"unreachable: {type(exc).__name__}", "unknown: the database is unreachable",
                      db.storage.check())
    try:
        async with asyncio.timeout(DB_TIMEOUT):
            revision = await current_revision(db)
        migrations = "ok" if revision == head else f"database at {revision or 'no revision'}, code at {head}"
    except Exception as exc:
        migrations = f"cannot read the revision: {type(exc).__name__}"
    return Health(gateway(), "ok", migrations, db.storage.check())


class HealthServer:
    def __init__(self, *, gateway: Callable[[], str], db: Callable[[], Database | None], metrics: Metrics,
                 host: str = "127.0.0.1", port: int = 8081, notes: Callable[[], str] = str) -> None:
        self._gateway = gateway
        self._notes = notes
        self._db = db
        self._metrics = metrics
        self.host = host
        self.port = port  # 0 picks a free port; the real one is here after start()
        self._head = head_revision()
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics_page)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        address = self._runner.addresses[0]
        self.port = int(address[1])
        log.info("health and metrics on http://%s:%d/healthz and /metrics", self.host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def health(self) -> Health:
        return dataclasses.replace(await check(self._gateway, self._db(), self._head), notes=self._notes())

    async def _healthz(self, request: web.Request) -> web.Response:
        health = await self.health()
        if not health.ok:
            log.warning("unhealthy: %s", "; ".join(f"{name}: {getattr(health, name)}" for name in health.failed()))
        return web.json_response(health.shown(), status=200 if health.ok else 503)

    async def _metrics_page(self, request: web.Request) -> web.Response:
        body = self._metrics.exposition()
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE})
