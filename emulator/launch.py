"""Run a program with discord.py pointed at an emulator in another process.

    python -m emulator.launch http://127.0.0.1:PORT bot.cli:main run

For tests and benchmarks that need the bot as a process of its own (killed with SIGKILL, restarted,
several at once): the program runs exactly as in production, only discord.py's REST base and default
gateway are redirected (`emulator.harness.redirect_discord_to`). ``MODULE:FUNCTION`` is called with the
remaining arguments as its argv list; its return value is the exit status.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence
from typing import Any

from .harness import redirect_discord_to

USAGE = "usage: python -m emulator.launch EMULATOR_URL MODULE:FUNCTION [ARG...]"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) < 2 or ":" not in args[1] or not args[0].startswith("http://"):
        print(USAGE, file=sys.stderr)
        return 2
    url, target, rest = args[0], args[1], args[2:]
    module_name, _, function_name = target.partition(":")
    entry: Callable[[list[str]], Any] = getattr(importlib.import_module(module_name), function_name)
    sys.argv = [target, *rest]
    with redirect_discord_to(url.rstrip("/")):
        status = entry(rest)
    return int(status or 0)


if __name__ == "__main__":
    raise SystemExit(main())
