"""`grievous run` and `grievous db upgrade`: registered into the command line by bot.cli."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from bot.cli import EXIT_USAGE, EXTRA_COMMANDS
from bot.settings import Settings, SettingsError

log = logging.getLogger("grievous")


def cmd_db_upgrade(args: argparse.Namespace) -> int:
    from bot.db.engine import DEFAULT_DATABASE_URL

    url = args.url or Settings.from_env(require_token=False).database_url or DEFAULT_DATABASE_URL
    revision = asyncio.run(_upgrade(url))
    print(f"database is at revision {revision}")
    return 0


async def _upgrade(url: str) -> str | None:
    from bot.db.engine import Database
    from bot.db.migrate import current_revision, upgrade

    db = Database.from_url(url)
    try:
        await upgrade(db)
        return await current_revision(db)
    finally:
        await db.dispose()


def cmd_run(args: argparse.Namespace) -> int:
    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        print(f"grievous: {exc}", file=sys.stderr)
        return EXIT_USAGE
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        asyncio.run(run_bot(settings))
    except KeyboardInterrupt:
        return 130
    return 0


async def run_bot(settings: Settings) -> None:
    """Upgrade the database, then run the bot until it is closed."""
    from bot.app import GrievousBot  # the Discord layer is imported only when the bot really starts
    from bot.db.engine import Database
    from bot.db.migrate import upgrade

    db = Database.from_url(settings.database_url)
    try:
        await upgrade(db)
        log.info("database ready (%s)", db.dialect)
        bot = GrievousBot(settings=settings, db=db)
        async with bot:
            await bot.start(settings.token)
    finally:
        await db.dispose()


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    run = sub.add_parser("run", help="run the Discord bot (settings from the environment: DISCORD_TOKEN ...)")
    run.set_defaults(func=cmd_run)
    db = sub.add_parser("db", help="the bot's database")
    db_sub = db.add_subparsers(dest="db_command", required=True, metavar="ACTION")
    upgrade = db_sub.add_parser("upgrade", help="apply the migrations (the bot also does this on start)")
    upgrade.add_argument("--url", help="database URL (default: DATABASE_URL, else sqlite+aiosqlite:///grievous.db)")
    upgrade.set_defaults(func=cmd_db_upgrade)


if register not in EXTRA_COMMANDS:
    EXTRA_COMMANDS.append(register)
