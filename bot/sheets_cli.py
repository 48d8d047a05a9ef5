"""`grievous character template --system ID`: the sheet template /character template attaches, on stdout.

Registered into the command line by bot.cli. It uses the default content pack (a server's homebrew files
live in its database).
"""

from __future__ import annotations

import argparse

from bot.cli import EXTRA_COMMANDS, UsageError


def cmd_template(args: argparse.Namespace) -> int:
    from bot.services.sheet_guide import sheet_guide
    from bot.ui.sheet_files import template_text
    from content import load_catalog
    from rules.registry import system_ids

    if args.system not in system_ids():
        raise UsageError(f"--system is one of {', '.join(system_ids())}, not '{args.system}'")
    print(template_text(sheet_guide(args.system, load_catalog(args.system))), end="")
    return 0


def _register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    character = sub.add_parser("character", help="character sheets")
    actions = character.add_subparsers(dest="character_command", required=True, metavar="ACTION")
    template = actions.add_parser("template", help="print a sheet to fill in for a system (YAML, commented)")
    template.add_argument("--system", required=True, help="ars-harn, pendragon or fading-suns")
    template.set_defaults(func=cmd_template)


EXTRA_COMMANDS.append(_register)
