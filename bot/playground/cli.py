"""`grievous playground`: the bot offline, in a terminal, with no token and no network."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from importlib import resources
from pathlib import Path

from bot.cli import EXIT_USAGE, EXTRA_COMMANDS, UsageError

DEMO = "playground-demo.txt"


def _demo_lines() -> list[str]:
    return (resources.files("content") / "examples" / DEMO).read_text(encoding="utf-8").splitlines()


def _script_lines(name: str) -> list[str]:
    if name == "-":
        return sys.stdin.read(1024 * 1024).splitlines()
    try:
        with open(name, encoding="utf-8") as handle:
            return handle.read(1024 * 1024).splitlines()
    except OSError as exc:
        raise UsageError(f"{name}: {exc.strerror or exc}") from None


async def _play(args: argparse.Namespace, lines: list[str], interactive: bool, base_dir: Path | None) -> int:
    from bot.playground.completion import install as install_completion
    from bot.playground.session import SCRIPT_SEED, Playground

    # A script replays the same every time unless it is given its own seed; a session typed live rolls afresh.
    seed = SCRIPT_SEED if args.seed is None and args.script else args.seed
    playground = Playground(sys.stdout, database_url=args.database, seed=seed, echo=True, base_dir=base_dir,
                            files_dir=Path(args.files), discord=args.discord, web_port=args.web_port)
    print("Starting a loopback Discord and the Grievous bot on SQLite (no token, no network)...", flush=True)
    async with playground.running():
        for line in lines:
            if not await playground.run_line(line):
                return EXIT_USAGE if playground.errors else 0
            sys.stdout.flush()
        if interactive:
            playground.echo = False
            install_completion(playground.registered_commands)
            print("\nYour turn: type slash commands (/help), or :help for the playground's own; :quit to leave.")
            if playground.web_address:
                print(f"The campaign web page is on {playground.web_address}: /web prints your login link to open in "
                      "a browser (as the GM now; :as alice, then /web, for a player's).")
            while True:
                try:
                    text = await asyncio.to_thread(input, playground.prompt)
                except EOFError:
                    break
                if not await playground.run_line(text):
                    break
    if playground.errors and not interactive:
        print(f"{playground.errors} line(s) could not be run", file=sys.stderr)
        return EXIT_USAGE
    return 0


def _web_port(text: str) -> int | None:
    if text.strip().lower() == "off":
        return None
    if not text.strip().isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"a port number or off, not {text!r}")
    return int(text)


def database_url(text: str | None) -> str | None:
    """``--database``: a database URL, or a plain file path kept as a SQLite file; one line if neither."""
    if text is None:
        return None
    if "://" not in text:
        path = Path(text).expanduser().resolve()
        if not path.parent.is_dir():
            raise UsageError(f"--database {text}: there is no folder {path.parent}")
        return f"sqlite+aiosqlite:///{path}"
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        backend = make_url(text).get_backend_name()
    except (ArgumentError, ValueError):  # ValueError: a port that is not a number
        raise UsageError(f"--database {text!r} is not a database URL: give a file path (campaign.db) or a URL "
                         "(sqlite+aiosqlite:///campaign.db, postgresql+asyncpg://user@host/db)") from None
    if backend not in ("sqlite", "postgresql"):
        raise UsageError(f"--database: only SQLite and PostgreSQL databases are supported, not {backend}")
    return text


def cmd_playground(args: argparse.Namespace) -> int:
    args.database = database_url(args.database)
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401  (line editing and history for input())
    interactive = sys.stdin.isatty() and not args.script
    base_dir: Path | None = None
    if args.demo:
        lines = _demo_lines()
        base_dir = Path(str(resources.files("content") / "examples"))
    elif args.script:
        lines = _script_lines(args.script)
        if args.script != "-":
            base_dir = Path(args.script).resolve().parent
    else:
        lines = [] if interactive else _script_lines("-")
    try:
        return asyncio.run(_play(args, lines, interactive, base_dir))
    except KeyboardInterrupt:
        return 130


def _register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("playground", help="play offline: a loopback Discord and the bot, in this terminal")
    parser.add_argument("--demo", action="store_true", help="replay a short demo fight first")
    parser.add_argument("--script", metavar="FILE", help="replay a script of lines (- for standard input)")
    parser.add_argument("--database", metavar="URL",
                        help="keep the game in this database: a file path or a URL (default: a scratch file)")
    parser.add_argument("--seed", type=int,
                        help="seed the dice for a repeatable session (a --script replay has a fixed one unless given)")
    parser.add_argument("--files", metavar="DIR", default="playground-files",
                        help="save the files the bot sends (pictures, exports) here (default: %(default)s)")
    parser.add_argument("--web-port", type=_web_port, default=0, metavar="PORT",
                        help="serve the campaign web page on this localhost port (default: a free one; off: none)")
    parser.add_argument("--discord", choices=("discord", "realistic"), default="discord",
                        help="the loopback Discord: its rules and rate limits (default), or with latency like a "
                             "real connection as well (50 ms REST, 40 ms gateway, one way)")
    parser.set_defaults(func=cmd_playground)


EXTRA_COMMANDS.append(_register)
