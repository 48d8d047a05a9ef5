"""Where the event loop's CPU goes, by component, from a cProfile written by ``bench.latency --profile``.

    .venv/bin/python -m bench.latency --backends sqlite --systems ars-harn -n 300 --no-write --profile /tmp/p
    .venv/bin/python -m bench.profile_summary /tmp/p-SQLite.prof --per 900

Each function's own time (``tottime``) is added to the component its file belongs to: the bot's packages
by module, the libraries by distribution, the standard library by what it is for. cProfile sees only the
thread it ran in (the event loop's), so the database driver's thread is not in it, and it slows pure
Python code more than C code: read the shares, not the absolute figures. ``--per N`` divides by N (the
commands measured) to give milliseconds per command.
"""

from __future__ import annotations

import argparse
import pstats
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# standard library modules -> what they are for
_STDLIB = {
    "base_events.py": "asyncio", "events.py": "asyncio", "tasks.py": "asyncio", "futures.py": "asyncio",
    "locks.py": "asyncio", "queues.py": "asyncio", "selector_events.py": "asyncio", "selectors.py": "asyncio",
    "streams.py": "asyncio", "transports.py": "asyncio", "timeouts.py": "asyncio", "runners.py": "asyncio",
    "encoder.py": "json", "decoder.py": "json", "__init__.py": "stdlib (other)", "copy.py": "copy (deep copies)",
}
_DB = "sqlalchemy + driver"
_LIBRARIES = {"aiosqlite": _DB, "sqlalchemy": _DB, "asyncpg": _DB, "greenlet": _DB, "yarl": "aiohttp",
              "multidict": "aiohttp", "PIL": "Pillow"}
_IDLE = "<method 'poll' of 'select.epoll' objects>"


def component(filename: str, function: str) -> str:
    if filename == "~":  # a builtin: name it by itself
        return "idle (waiting in epoll)" if function == _IDLE else "C builtins (sockets, queues, greenlet switches...)"
    if "site-packages/" in filename:
        package = filename.split("site-packages/", 1)[1].split("/", 1)[0]
        return _LIBRARIES.get(package, package)
    if filename.startswith("<sqlalchemy"):  # code SQLAlchemy generates at run time
        return _DB
    try:
        parts = Path(filename).resolve().relative_to(ROOT).parts
    except ValueError:
        return _STDLIB.get(Path(filename).name, "stdlib (other)")
    if parts[0] in ("bot", "rules", "content") and len(parts) > 2:
        return "/".join(parts[:2])
    return parts[0]


def summarize(path: Path) -> Counter[str]:
    stats = pstats.Stats(str(path))
    totals: Counter[str] = Counter()
    for (filename, _line, function), row in stats.stats.items():  # type: ignore[attr-defined]
        totals[component(filename, function)] += row[2]
    return totals


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.profile_summary", description=__doc__.split("\n\n")[0])
    parser.add_argument("profile", type=Path)
    parser.add_argument("--per", type=int, default=0, help="commands measured: print milliseconds per command")
    parser.add_argument("--top", type=int, default=20)
    args = parser.parse_args(argv)
    if not args.profile.is_file():
        print(f"no profile at {args.profile}", file=sys.stderr)
        return 2
    totals = summarize(args.profile)
    busy = sum(v for k, v in totals.items() if not k.startswith("idle"))
    print(f"| component | share of busy time | {'ms per command' if args.per else 's'} |")
    print("|---|---:|---:|")
    for name, seconds in totals.most_common(args.top):
        share = "" if name.startswith("idle") else f"{100 * seconds / busy:.1f}%"
        figure = 1000 * seconds / args.per if args.per else seconds
        print(f"| {name} | {share} | {figure:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
