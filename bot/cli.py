"""The ``grievous`` command line: resolve a scenario, roll dice, check content, run the bot.

User mistakes print one line to stderr and exit 2; nothing here ever shows a traceback to a user.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

from rules.errors import RulesError

EXIT_USAGE = 2
# Read at most this much of a scenario file or stdin: past the guard's 256 KiB scenario bound, so the
# guard names the real size (up to here) in its one line.
MAX_INPUT_BYTES = 1024 * 1024

# Subcommands added by other modules (the bot, the playground) register here.
Command = Callable[[argparse.Namespace], int]
EXTRA_COMMANDS: list[Callable[[argparse._SubParsersAction], None]] = []  # type: ignore[type-arg]


class UsageError(Exception):
    """A mistake on the command line: printed as one line, exit 2."""


def _read_input(name: str) -> tuple[bytes, str]:
    if name == "-":
        data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        return data, "<stdin>"
    path = Path(name)
    if not path.is_file():
        raise UsageError(f"{name}: no such file")
    size = path.stat().st_size
    if size > MAX_INPUT_BYTES:  # not read at all; the guard words it as it does a smaller file over its limit
        from content.input_guard import SCENARIO

        raise UsageError(f"{name}: is {size} bytes, over the {SCENARIO.max_bytes // 1024} KiB limit")
    with path.open("rb") as handle:
        return handle.read(MAX_INPUT_BYTES + 1), name


def cmd_resolve(args: argparse.Namespace) -> int:
    from bot.scenario_runner import resolve_text

    data, source = _read_input(args.file)
    result = resolve_text(data, source)
    print(json.dumps(result, indent=None if args.compact else 2, ensure_ascii=False))
    return 0


def cmd_odds(args: argparse.Namespace) -> int:
    from bot.scenario_runner import odds_text

    if args.budget is not None and not 0 < args.budget <= 3600:
        raise UsageError(f"--budget takes seconds from 0 to 3600, not {args.budget}")
    data, source = _read_input(args.file)
    result = odds_text(data, source, args.budget)
    print(json.dumps(result, indent=None if args.compact else 2, ensure_ascii=False))
    return 0


def cmd_roll(args: argparse.Namespace) -> int:
    from random import Random

    from content import victory_chart
    from content.input_guard import check_text
    from rules.dice import DiceSource
    from rules.dice_expr import MAX_LENGTH, roll_expression

    forced = _parse_faces(args.dice) if args.dice else None
    dice = DiceSource({"roll": forced} if forced else None, rng=Random(args.seed) if args.seed is not None else None)
    expression = check_text(" ".join(args.expression), "roll", MAX_LENGTH)
    result = roll_expression(expression, dice, victory_chart())
    if args.json:
        print(json.dumps({"expression": expression, "total": result.total, "result": result.result,
                          "rolls": [r.to_dict() for r in result.rolls]}))
    else:
        from bot.ui.embed_common import signed_modifier

        shown = "; ".join(f"{r.kind} {list(r.faces)}" for r in result.rolls) + signed_modifier(result.modifier)
        verdict = f" ({result.result.replace('_', ' ')})" if result.result else ""
        points = result.rolls[-1].victory_points if result.rolls else None
        if points:
            verdict += f", {points} victory point{'s' if points != 1 else ''}"
        print(f"{expression}: {shown} = {result.total}{verdict}")
    return 0


def _parse_faces(text: str) -> list[int]:
    from content.input_guard import check_text, whole_number

    parts = check_text(text, "--dice", 200).replace(",", " ").split()
    return [whole_number(part, "--dice", -1000, 1000) for part in parts]


def cmd_content_check(args: argparse.Namespace) -> int:
    from content import load_catalog
    from rules.model import Catalog
    from rules.registry import system_ids

    path = Path(args.path) if args.path else None
    systems = [args.system] if args.system else system_ids()
    if path is not None and not args.system:
        guess = path.name.replace("_", "-")
        if guess not in system_ids():
            raise UsageError(f"{path}: say which system it is for with --system ({', '.join(system_ids())})")
        systems = [guess]
    for system in systems:
        catalog = load_catalog(system, path)
        if isinstance(catalog, Catalog):
            print(f"{system}: ok: {len(catalog.weapon_names())} weapons, {len(catalog.armour_names())} armour, "
                  f"{len(catalog.npc_templates())} NPC templates")
        else:
            print(f"{system}: ok")
    return 0


def _seed(text: str) -> int:
    from content.input_guard import whole_number

    try:
        return whole_number(text, "--seed")
    except RulesError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


class _Parser(argparse.ArgumentParser):
    """argparse, with its mistakes as one line (no usage block) and exit 2."""

    def error(self, message: str) -> NoReturn:
        say(f"{self.prog}: {message} (see {self.prog} --help)")
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="grievous", description="Hit-location combat for Discord.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    resolve = sub.add_parser("resolve", help="resolve one scenario (YAML or JSON) and print JSON")
    resolve.add_argument("file", help="scenario file, or - for standard input")
    resolve.add_argument("--compact", action="store_true", help="print the JSON on one line")
    resolve.set_defaults(func=cmd_resolve)

    odds = sub.add_parser("odds", help="exact odds of one scenario's action (dice it leaves out are followed)")
    odds.add_argument("file", help="scenario file, or - for standard input")
    odds.add_argument("--budget", type=float, help="stop after this many seconds and report what is exact so far")
    odds.add_argument("--compact", action="store_true", help="print the JSON on one line")
    odds.set_defaults(func=cmd_odds)

    roll = sub.add_parser("roll", help="roll a free-form expression: 3d6+2, stress+5 vs 9, d20 vs 14, fs vs 12")
    roll.add_argument("expression", nargs="+")
    roll.add_argument("--dice", help="faces to use instead of random ones, e.g. 1,1,4")
    roll.add_argument("--seed", type=_seed, help="seed for the random generator")
    roll.add_argument("--json", action="store_true", help="print JSON")
    roll.set_defaults(func=cmd_roll)

    content = sub.add_parser("content", help="content packs")
    content_sub = content.add_subparsers(dest="content_command", required=True, metavar="ACTION")
    check = content_sub.add_parser("check", help="validate a pack (the default packs without PATH)")
    check.add_argument("path", nargs="?", help="a homebrew pack folder")
    check.add_argument("--system", help="the system the pack is for")
    check.set_defaults(func=cmd_content_check)

    for add in EXTRA_COMMANDS:
        add(sub)
    return parser


def _load_extra_commands() -> None:
    # The bot's own subcommands (run, db, playground) live beside it and register themselves.
    import importlib

    for module in ("bot.commands_cli", "bot.playground.cli", "bot.sheets_cli", "bot.invite_cli"):
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise


def say(line: str) -> None:
    """One line on stderr, whatever it holds: newlines folded, unprintable characters escaped."""
    text = " ".join(line.split())
    sys.stderr.write(text.encode(sys.stderr.encoding or "utf-8", "backslashreplace").decode(
        sys.stderr.encoding or "utf-8", "replace") + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    _load_extra_commands()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse already printed its one-line usage error
        return int(exc.code or 0) if exc.code in (0, None) else EXIT_USAGE
    try:
        func: Command = args.func
        return func(args)
    except (UsageError, RulesError) as exc:
        say(f"grievous: {exc}")
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader (say, `| head`) went away: not an error worth a traceback.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
