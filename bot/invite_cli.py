"""`grievous invite`: the URL that adds the bot to a server with exactly the permissions it uses.

Registered into the command line by bot.cli. The permissions are bot/discord_permissions.py's one list.
"""

from __future__ import annotations

import argparse
import base64
import binascii
import os

from bot.cli import EXTRA_COMMANDS, UsageError


def application_id(client_id: str | None, token: str | None) -> int:
    """``--client-id``, else the id a bot token starts with (its first part is the bot's id in base64)."""
    if client_id:
        if not client_id.isdigit():
            raise UsageError(f"--client-id is the application's number, not '{client_id}'")
        return int(client_id)
    if token:
        head = token.split(".", 1)[0]
        try:
            decoded = base64.b64decode(head + "=" * (-len(head) % 4), validate=True).decode("ascii")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            decoded = ""
        if decoded.isdigit():
            return int(decoded)
    raise UsageError("give --client-id (the application id in the developer portal), or set DISCORD_TOKEN")


def cmd_invite(args: argparse.Namespace) -> int:
    from bot.discord_permissions import BOT_PERMISSIONS, invite_url

    print(invite_url(application_id(args.client_id, os.environ.get("DISCORD_TOKEN"))))
    if args.explain:
        for needed in BOT_PERMISSIONS:
            print(f"  {needed.name}: to {needed.why}")
    return 0


def _register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    invite = sub.add_parser("invite", help="print the URL that invites the bot with the permissions it uses")
    invite.add_argument("--client-id", help="the application id (else read from DISCORD_TOKEN)")
    invite.add_argument("--explain", action="store_true", help="also list each permission and what it is for")
    invite.set_defaults(func=cmd_invite)


EXTRA_COMMANDS.append(_register)
