"""`grievous run`, `grievous web`, `grievous health` and `grievous db upgrade`: registered into the command line by
bot.cli.

The database and the bot are imported only when one of these runs, so `grievous resolve` and
`grievous roll` start quickly. A database that cannot be reached or migrated is one line and exit 2.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING

from bot.cli import EXIT_USAGE, EXTRA_COMMANDS, say

if TYPE_CHECKING:
    from bot.app import GrievousBot
    from bot.config import Config
    from bot.db.engine import Database

log = logging.getLogger("grievous")

# How long to wait for the database to answer at all, before any migration runs (a migration itself
# may take longer): an unreachable host is one line after this, not a hang.
CONNECT_TIMEOUT = 15.0
WAL_RACE_PAUSE = 0.05  # seconds before connecting again to a new SQLite file another process is switching to WAL


class DatabaseUnavailable(Exception):
    """The database URL is malformed, its driver is missing, or the server cannot be reached or migrated."""


def cmd_db_upgrade(args: argparse.Namespace) -> int:
    from bot.config import Config, ConfigError
    from bot.db.engine import DEFAULT_DATABASE_URL

    try:
        url = args.url or Config.from_env(require_token=False).database_url or DEFAULT_DATABASE_URL
        revision = asyncio.run(_upgrade(url))
    except (ConfigError, DatabaseUnavailable) as exc:
        say(f"grievous: {exc}")
        return EXIT_USAGE
    print(f"database is at revision {revision}")
    return 0


async def _upgrade(url: str) -> str | None:
    from bot.db.migrate import current_revision

    db = await ready_database(url)
    try:
        return await current_revision(db)
    finally:
        await db.dispose()


async def ready_database(url: str, **engine_options: int) -> Database:
    """The database at ``url``, answering and migrated to the newest revision; else DatabaseUnavailable.
    ``engine_options``: the connection pool's size (Config.pool_options)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import DBAPIError, SQLAlchemyError

    from bot.db import identity
    from bot.db.engine import Database
    from bot.db.migrate import upgrade

    try:
        expected = identity.before_open(url)  # before opening: opening makes a missing SQLite file
    except identity.IdentityRefused as exc:
        raise DatabaseUnavailable(str(exc)) from None
    except (SQLAlchemyError, ValueError) as exc:  # a URL that does not parse: the same line as below
        raise DatabaseUnavailable(f"DATABASE_URL is not usable: {_cause(exc)}") from None
    try:
        parsed = make_url(url)
        shown = parsed.render_as_string(hide_password=True)
        folder = Path(parsed.database or "").parent
        if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:") \
                and not folder.is_dir():
            # said before connecting: aiosqlite's thread, failing to open the file, can outlive the event
            # loop and print its own traceback after our line
            raise DatabaseUnavailable(f"database {shown} is not usable: there is no folder {folder}")
        db = Database.from_url(url, **engine_options)
    except (SQLAlchemyError, ImportError, ValueError) as exc:
        raise DatabaseUnavailable(f"DATABASE_URL is not usable: {_cause(exc)}") from None
    try:
        async with asyncio.timeout(CONNECT_TIMEOUT):
            await _first_connection(db)
        await identity.check(db, url, expected)  # another database in its place is refused before migrating
        await upgrade(db)
        await identity.settle(db, url)
    except BaseException as exc:
        await db.dispose()
        if isinstance(exc, identity.IdentityRefused):
            raise DatabaseUnavailable(str(exc)) from None
        if isinstance(exc, TimeoutError):
            raise DatabaseUnavailable(f"database {shown} did not answer within {CONNECT_TIMEOUT:.0f} s") from None
        if isinstance(exc, SQLAlchemyError | OSError | ImportError):
            cause = exc.orig if isinstance(exc, DBAPIError) and exc.orig is not None else exc
            raise DatabaseUnavailable(f"database {shown} is not usable: {_cause(cause)}") from None
        raise
    return db


async def _first_connection(db: Database) -> None:
    """A connection that answers. Processes opening a new SQLite file at once (the bot and ``grievous web``) race
    to switch it to WAL on connecting, which needs the file alone and fails at once, busy timeout or not: the
    loser connects again, and finds the file in WAL already (a full test run saw it; 1 start in 40 beside a CPU
    load)."""
    from sqlalchemy import text
    from sqlalchemy.exc import OperationalError

    while True:
        try:
            async with db.engine.connect() as connection:
                await connection.execute(text("SELECT 1"))
            return
        except OperationalError as exc:
            if db.engine.dialect.name != "sqlite" or "database is locked" not in str(exc.orig):
                raise
        await asyncio.sleep(WAL_RACE_PAUSE)


def _cause(exc: BaseException) -> str:
    """The first line of an error, short enough for one line of a terminal."""
    text = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    text = text.split(" (Background on this error")[0]
    return text if len(text) <= 200 else text[:199] + "\u2026"


def cmd_db_copy(args: argparse.Namespace) -> int:
    from bot.cli import UsageError
    from bot.db.copy import CopyError, copy_database

    def progress(table: str, rows: int) -> None:
        print(f"  {table}: {rows} rows", file=sys.stderr)

    try:
        report = asyncio.run(copy_database(args.source, args.target, replace=args.replace, batch=args.batch,
                                           progress=progress))
    except CopyError as exc:
        raise UsageError(str(exc)) from None
    print(f"copied {report.rows} rows in {len(report.tables)} tables from {report.source} to {report.target}; "
          "row counts verified")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from bot.config import Config, ConfigError

    try:
        config = Config.from_env()
    except ConfigError as exc:
        say(f"grievous: {exc}")
        return EXIT_USAGE
    from bot.ops.logs import configure_logging

    configure_logging(config.log_level, config.log_format, token=config.token)
    try:
        asyncio.run(run_bot(config))
    except DatabaseUnavailable as exc:
        say(f"grievous: {exc}")
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        from discord import LoginFailure

        if isinstance(exc, LoginFailure):
            say("grievous: Discord refused DISCORD_TOKEN: copy the bot's token again from the developer portal")
            return EXIT_USAGE
        # One logged record (redacted, a JSON line like the rest) rather than a raw traceback on stderr.
        log.exception("the bot stopped on an unexpected error")
        return 1
    return 0


async def run_bot(config: Config) -> None:
    """Upgrade the database, then run the bot until it is closed."""
    from bot.app import GrievousBot  # the Discord layer is imported only when the bot really starts

    db = await ready_database(config.database_url, **config.pool_options())
    try:
        log.info("database ready (%s)", db.dialect)
        bot = GrievousBot(config=config, db=db, settle_memory=True)
        async with bot:
            await _run_until_stopped(bot, config.token)
    finally:
        await db.dispose()


async def _run_until_stopped(bot: GrievousBot, token: str) -> None:
    """Run the bot until it ends, or until SIGTERM (systemctl stop, docker stop) or SIGINT (Ctrl-C): then it
    stops taking interactions, lets those in flight finish and answer (``GrievousBot.drain``), and closes.
    A second signal while draining closes at once."""
    import signal

    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    signals = (signal.SIGTERM, signal.SIGINT)
    for number in signals:
        loop.add_signal_handler(number, stopping.set)
    running = asyncio.ensure_future(bot.start(token))
    try:
        waiting = asyncio.ensure_future(stopping.wait())
        await asyncio.wait({running, waiting}, return_when=asyncio.FIRST_COMPLETED)
        waiting.cancel()
        if running.done():
            return running.result()
        log.info("stopping on a signal: finishing the interactions in flight")
        stopping.clear()
        drain = asyncio.ensure_future(bot.drain())
        again = asyncio.ensure_future(stopping.wait())
        await asyncio.wait({drain, again}, return_when=asyncio.FIRST_COMPLETED)
        if not drain.done():
            log.warning("a second signal: closing without waiting for the interactions in flight")
            drain.cancel()
        again.cancel()
        await bot.close()
        await running
    finally:
        for number in signals:
            loop.remove_signal_handler(number)
        if not running.done():
            running.cancel()


NO_WEB_PORT = ("grievous web serves the campaign page: set WEB_PORT (where it listens) and WEB_BASE_URL (the address "
               "the /web links carry), as for the bot (docs/operations.md)")


def cmd_web(args: argparse.Namespace) -> int:
    """The campaign page in a process of its own (bot/web_process.py): no Discord token needed."""
    from bot.config import Config, ConfigError

    try:
        config = Config.from_env(require_token=False)
    except ConfigError as exc:
        say(f"grievous: {exc}")
        return EXIT_USAGE
    if not config.web_serves:
        say(f"grievous: {NO_WEB_PORT}")
        return EXIT_USAGE
    from bot.ops.logs import configure_logging

    configure_logging(config.log_level, config.log_format, token=config.token or None)
    from bot.web_process import WebPortTaken

    try:
        asyncio.run(run_web(config))
    except (DatabaseUnavailable, WebPortTaken) as exc:
        say(f"grievous: {exc}")
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except Exception:
        log.exception("the web process stopped on an unexpected error")
        return 1
    return 0


async def run_web(config: Config) -> None:
    """Open (and migrate, as `grievous run` does: processes starting at once take turns) the database, then serve
    the page until SIGTERM or SIGINT: the live streams end, the process exits."""
    import signal

    from bot.web_process import WebProcess

    db = await ready_database(config.database_url, **config.pool_options())
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    signals = (signal.SIGTERM, signal.SIGINT)
    try:
        log.info("database ready (%s)", db.dialect)
        process = WebProcess(config, db)
        for number in signals:
            loop.add_signal_handler(number, stopping.set)
        try:
            await process.start()
            await stopping.wait()
            log.info("stopping on a signal: ending the live pages")
        finally:
            await process.stop()
    finally:
        for number in signals:
            loop.remove_signal_handler(number)
        await db.dispose()


HEALTH_TIMEOUT = 5.0  # seconds; the endpoint's own database check gives up after 2


def cmd_health(args: argparse.Namespace) -> int:
    """Ask the running bot's /healthz: exit 0 when healthy, 1 when not (or no answer); one line either way."""
    from bot.config import Config, ConfigError

    try:
        config = Config.from_env(require_token=False)
    except ConfigError as exc:
        print(f"grievous: {exc}", file=sys.stderr)
        return EXIT_USAGE
    port = args.port if args.port is not None else config.health_port
    if port is None:
        print("grievous: HEALTH_PORT is off: the bot has no health endpoint to ask", file=sys.stderr)
        return EXIT_USAGE
    host = config.health_host if config.health_host not in ("0.0.0.0", "::") else "127.0.0.1"
    url = f"http://{host}:{port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=HEALTH_TIMEOUT) as answer:
            status, body = answer.status, answer.read()
    except urllib.error.HTTPError as exc:
        status, body = exc.code, exc.read()
    except (OSError, TimeoutError) as exc:
        print(f"unhealthy: no answer from {url} ({getattr(exc, 'reason', exc)})")
        return 1
    try:
        checks = json.loads(body)
        shown = ", ".join(f"{name} {value}" for name, value in checks.items())
    except ValueError:
        shown = f"HTTP {status}"
    print(f"{'healthy' if status == 200 else 'unhealthy'}: {shown}")
    return 0 if status == 200 else 1


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    run = sub.add_parser("run", help="run the Discord bot (configuration from the environment: DISCORD_TOKEN ...)")
    run.set_defaults(func=cmd_run)
    web = sub.add_parser("web", help="serve the campaign web page in a process of its own, beside `grievous run` on "
                         "its database (WEB_PORT, WEB_BASE_URL ...; no Discord token)")
    web.set_defaults(func=cmd_web)
    health = sub.add_parser("health", help="ask the running bot whether it is healthy (exit 0) or not (exit 1)")
    health.add_argument("--port", type=int, help="the bot's HEALTH_PORT (default: HEALTH_PORT, else 8081)")
    health.set_defaults(func=cmd_health)
    db = sub.add_parser("db", help="the bot's database")
    db_sub = db.add_subparsers(dest="db_command", required=True, metavar="ACTION")
    upgrade = db_sub.add_parser("upgrade", help="apply the migrations (the bot also does this on start)")
    upgrade.add_argument("--url", help="database URL (default: DATABASE_URL, else sqlite+aiosqlite:///grievous.db)")
    upgrade.set_defaults(func=cmd_db_upgrade)
    copy = db_sub.add_parser("copy", help="copy every row of one database into another (e.g. SQLite to PostgreSQL); "
                             "stop the bot first")
    copy.add_argument("source", help="the database to read, e.g. sqlite+aiosqlite:///grievous.db")
    copy.add_argument("target", help="the database to fill (migrated first), e.g. "
                      "postgresql+asyncpg://grievous@localhost/grievous")
    copy.add_argument("--replace", action="store_true", help="empty a target that already holds rows")
    copy.add_argument("--batch", type=int, default=1000, help="rows per insert (default 1000)")
    copy.set_defaults(func=cmd_db_copy)


if register not in EXTRA_COMMANDS:
    EXTRA_COMMANDS.append(register)
