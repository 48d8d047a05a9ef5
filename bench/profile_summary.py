"""Where the bot's CPU goes, by component: from a cProfile (``bench.latency --profile``, ``bench.scaling --mix
--profile``) or from py-spy's raw samples (``bench.scaling --mix --spy``).

    .venv/bin/python -m bench.latency --backends sqlite --systems ars-harn -n 300 --no-write --profile /tmp/p
    .venv/bin/python -m bench.profile_summary /tmp/p-SQLite.prof --per 900
    .venv/bin/python -m bench.scaling --mix --active 20 --per-player 10 --per-kind 15 --spy /tmp/hit.pyspy
    .venv/bin/python -m bench.profile_summary /tmp/hit.pyspy --per 300 --functions 'sqlalchemy|bot/'

A cProfile: each function's own time (``tottime``) is added to the component its file belongs to: the bot's
packages by module, the libraries by distribution, the standard library by what it is for. cProfile sees only
the thread it ran in (the event loop's) and slows pure Python code more than C code: read the shares, not the
absolute figures.

py-spy's raw output (one line a stack, ``frame;frame;... COUNT``): each sample goes to the component of its
innermost Python frame, so time in C (sqlite3, json's encoder, a builtin) counts for the Python function that
called it. It samples every thread of the process; a stack whose innermost frame only waits (a worker thread on
its queue, ``Condition.wait``: py-spy counts some of those though it leaves idle threads out) is dropped and
counted apart. Sampling barely slows the process, so its shares are closer to the truth than cProfile's. Code run
in SQLAlchemy's greenlets is seen from the greenlet's start: a function's inclusive share leaves out what it
awaited of the database.

``--per N`` divides by N (the commands measured) to give milliseconds per command (py-spy: the samples' time,
``--rate`` the rate it sampled at; with ``--cpu S``, the CPU seconds the process spent meanwhile shared out by
the samples, which is what ``bench.scaling --spy`` prints). ``--functions REGEX`` adds the inclusive share of
each function whose name or file matches (its own time and everything it called).
"""

from __future__ import annotations

import argparse
import linecache
import pstats
import re
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
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
SPY_RATE = 500  # samples a second: what bench.scaling --spy asks py-spy for

# -- a frame's component ----------------------------------------------------------------------------


def component(filename: str, function: str) -> str:
    if filename == "~":  # a builtin: name it by itself
        return "idle (waiting in epoll)" if function == _IDLE else "C builtins (sockets, queues, greenlet switches...)"
    if "site-packages/" in filename:
        package = filename.split("site-packages/", 1)[1].split("/", 1)[0]
        return _LIBRARIES.get(package, package)
    if filename.startswith("<sqlalchemy"):  # code SQLAlchemy generates at run time
        return _DB
    if filename == "<string>":  # code made at run time: dataclasses' __init__, namedtuples
        return "generated (dataclass __init__...)"
    if filename.startswith("<frozen "):  # the frozen standard library: abc's isinstance checks, importlib
        return "stdlib (other)"
    try:
        parts = Path(filename).resolve().relative_to(ROOT).parts
    except ValueError:
        return _STDLIB.get(Path(filename).name, "stdlib (other)")
    if parts[0] in ("bot", "rules", "content") and len(parts) > 2:
        return "/".join(parts[:2])
    return parts[0]


# -- cProfile -----------------------------------------------------------------------------------------


def summarize(path: Path) -> Counter[str]:
    """A cProfile's own time (seconds) by component."""
    stats = pstats.Stats(str(path))
    totals: Counter[str] = Counter()
    for (filename, _line, function), row in stats.stats.items():  # type: ignore[attr-defined]
        totals[component(filename, function)] += row[2]
    return totals


def cprofile_functions(path: Path) -> Counter[str]:
    """A cProfile's inclusive time (seconds) by function, named ``function (file)``."""
    stats = pstats.Stats(str(path))
    return Counter({f"{function} ({filename})": row[3]
                    for (filename, _line, function), row in stats.stats.items()})  # type: ignore[attr-defined]


# -- py-spy's raw output --------------------------------------------------------------------------------

_FRAME = re.compile(r"^(?P<function>.*) \((?P<file>.*?)(?::(?P<line>\d+))?\)$")
_THREAD = re.compile(r"^thread \((?:0x)?[0-9A-Fa-f]+\)(?::\s*(?P<name>.*))?$")
_PROCESS = re.compile(r'^process \d+:".*"$')  # py-spy --subprocesses: the process a stack is from
# Functions that only wait, wherever they are the innermost frame.
WAIT_FUNCTIONS = frozenset({
    "Condition.wait", "Event.wait", "Thread.join", "Semaphore.acquire", "BoundedSemaphore.acquire",
    "Barrier.wait", "Queue.get", "EpollSelector.select", "PollSelector.select", "SelectSelector.select",
    "KqueueSelector.select",
})
# A worker thread's loop waits on its queue in C (``future, function = tx.get()``, ``work_queue.get(block=True)``):
# the innermost Python frame is then the loop itself, on that line. The line is read from the source, so the same
# loop running its work (``result = function()``) still counts.
_WAITING_LINE = re.compile(r"^\s*(?:[\w\s,()]+=\s*)?[\w.]+\.(?:get\((?:block=True)?\)|wait\(.*\)|acquire\(.*\)"
                           r"|join\(.*\)|poll\(.*\)|select\(.*\))\s*$|^\s*time\.sleep\(.*\)\s*$")


@dataclass(frozen=True)
class Frame:
    function: str
    file: str
    line: int | None

    @property
    def name(self) -> str:
        return f"{self.function} ({short_path(self.file)})"


def short_path(file: str) -> str:
    """A file as a reader names it: from its package on (``sqlalchemy/orm/session.py``, ``bot/ui/publish.py``)."""
    if "site-packages/" in file:
        return file.split("site-packages/", 1)[1]
    path = Path(file)
    if path.is_absolute() and path.is_relative_to(ROOT):
        return str(path.relative_to(ROOT))
    for base in sorted(filter(None, sys.path), key=len, reverse=True):  # the standard library's own modules
        if path.is_absolute() and path.is_relative_to(base):
            return str(path.relative_to(base))
    return file


@dataclass
class Samples:
    """py-spy's raw samples, read: by component (innermost frame), by thread, inclusive by function."""

    by_component: Counter[str] = field(default_factory=Counter)
    by_thread: Counter[str] = field(default_factory=Counter)
    by_function: Counter[str] = field(default_factory=Counter)  # inclusive: a stack counts once per function
    waits: Counter[str] = field(default_factory=Counter)  # dropped: thread -> samples in a wait

    @property
    def busy(self) -> int:
        return sum(self.by_thread.values())


def parse_frame(text: str) -> Frame:
    match = _FRAME.match(text)
    if match is None:
        return Frame(text, "", None)
    line = match.group("line")
    return Frame(match.group("function"), match.group("file"), int(line) if line else None)


def thread_group(name: str) -> str:
    """A thread's name with its numbers taken out, so that the pool's threads add up: ``Thread-N (...)``."""
    return re.sub(r"\d+", "N", name.strip()) or "thread"


def source_file(file: str) -> Path | None:
    """The source a frame's file names: the path itself (``--full-filenames``), else py-spy's short form (the part
    from the package on) found on ``sys.path`` or, ending a path, in this repository."""
    path = Path(file)
    if path.is_absolute():
        return path if path.is_file() else None
    if file not in _SHORT:
        bases = (ROOT, *map(Path, filter(None, sys.path)))
        found = next((base / path for base in bases if (base / path).is_file()), None)
        if found is None and path.suffix == ".py":  # py-spy shortens some of ours to the module's own name
            mine = [p for p in ROOT.glob(f"*/**/{file}") if ".venv" not in p.parts]
            found = next((p for top in _OURS for p in mine if p.relative_to(ROOT).parts[0] == top),
                         mine[0] if len(mine) == 1 else None)
        _SHORT[file] = found
    return _SHORT[file]


_SHORT: dict[str, Path | None] = {}
_OURS = ("bot", "rules", "content")  # the bot process's own packages, first where a short name is ambiguous


def absolute_file(file: str) -> str:
    found = source_file(file)
    return str(found) if found is not None else file


def is_wait(frame: Frame, sources: dict[tuple[str, int], bool]) -> bool:
    if frame.function in WAIT_FUNCTIONS:
        return True
    if frame.line is None:
        return False
    key = (frame.file, frame.line)
    if key not in sources:
        found = source_file(frame.file)
        sources[key] = found is not None and bool(_WAITING_LINE.match(linecache.getline(str(found), frame.line)))
    return sources[key]


def read_spy(lines: Iterable[str]) -> Samples:
    """py-spy's raw lines (``--format raw``, with or without ``--threads``) read into a ``Samples``."""
    samples = Samples()
    files: dict[str, str] = {}  # py-spy's file -> the path component() reads
    sources: dict[tuple[str, int], bool] = {}
    for raw in lines:
        raw = raw.rstrip("\n")
        stack, _, count = raw.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        texts = stack.split(";")
        thread = "all threads"
        if texts and _PROCESS.match(texts[0]):
            texts = texts[1:]
        if texts and (match := _THREAD.match(texts[0])):
            thread = thread_group(match.group("name") or "thread")
            texts = texts[1:]
        if not texts:
            continue
        frames = [parse_frame(t) for t in texts]
        leaf = frames[-1]
        if is_wait(leaf, sources):
            samples.waits[thread] += n
            continue
        samples.by_thread[thread] += n
        if leaf.file not in files:
            files[leaf.file] = absolute_file(leaf.file)
        samples.by_component[component(files[leaf.file], leaf.function)] += n
        for name in {f.name for f in frames}:
            samples.by_function[name] += n
    return samples


def is_spy_output(path: Path) -> bool:
    """py-spy's raw output is text whose lines end in a count; a cProfile is marshalled binary."""
    with path.open("rb") as stream:
        head = stream.read(4096)
    try:
        first = head.decode().splitlines()[0]
    except (UnicodeDecodeError, IndexError):
        return False
    stack, _, count = first.rpartition(" ")
    return bool(stack) and count.isdigit()


# -- the report -------------------------------------------------------------------------------------------


def table(totals: Counter[str], busy: float, per: int, scale: float, top: int) -> list[str]:
    """``scale`` turns a total into seconds (cProfile's are seconds; py-spy's are samples)."""
    lines = [f"| component | share of busy time | {'ms per command' if per else 's'} |", "|---|---:|---:|"]
    for name, value in totals.most_common(top):
        share = "" if name.startswith("idle") else f"{100 * value / busy:.1f}%"
        seconds = value * scale
        lines.append(f"| {name} | {share} | {1000 * seconds / per if per else seconds:.2f} |")
    return lines


def functions(totals: Counter[str], busy: float, pattern: str, top: int) -> list[str]:
    wanted = re.compile(pattern)
    lines = ["| function (inclusive) | share of busy time |", "|---|---:|"]
    lines += [f"| {name} | {100 * value / busy:.1f}% |"
              for name, value in totals.most_common() if wanted.search(name)][:top + 2]
    return lines


def report(path: Path, per: int = 0, top: int = 20, rate: int = SPY_RATE, pattern: str | None = None,
           cpu_s: float | None = None) -> list[str]:
    """The component table (and with ``pattern`` the functions'). For py-spy, ``cpu_s`` is the CPU the process
    spent while it was sampled: the milliseconds are then that CPU shared out by the samples. Without it they
    are the samples' own time, which counts a thread that was ready to run but waiting for a core."""
    if is_spy_output(path):
        with path.open(encoding="utf-8") as stream:
            samples = read_spy(stream)
        busy = samples.busy
        if not busy:
            return [f"py-spy: no busy samples in {path}"]
        waited = sum(samples.waits.values())
        threads = ", ".join(f"{name} {100 * n / busy:.1f}%" for name, n in samples.by_thread.most_common())
        spent = (f"the process's {cpu_s:.2f} s of CPU shared out by them" if cpu_s
                 else f"{busy / rate:.2f} s sampled, waiting for a core included")
        out = [f"py-spy: {busy} samples at {rate}/s ({spent}); by thread: {threads}; {waited} more samples were "
               "waits and are left out.", ""]
        out += table(samples.by_component, busy, per, cpu_s / busy if cpu_s else 1 / rate, top)
        if pattern is not None:
            out += ["", *functions(samples.by_function, busy, pattern, top)]
        return out
    totals = summarize(path)
    busy_s = sum(v for k, v in totals.items() if not k.startswith("idle"))
    out = table(totals, busy_s, per, 1.0, top)
    if pattern is not None:
        out += ["", *functions(cprofile_functions(path), busy_s, pattern, top)]
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.profile_summary", description=__doc__.split("\n\n")[0])
    parser.add_argument("profile", type=Path, help="a cProfile file or py-spy's raw output")
    parser.add_argument("--per", type=int, default=0, help="commands measured: print milliseconds per command")
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--rate", type=int, default=SPY_RATE, help=f"py-spy's samples a second (default {SPY_RATE})")
    parser.add_argument("--functions", metavar="REGEX", help="also the inclusive share of the functions matching it")
    parser.add_argument("--cpu", type=float, help="py-spy: the CPU seconds the process spent while sampled "
                        "(bench.scaling prints it): milliseconds from it, not from the samples")
    args = parser.parse_args(argv)
    if not args.profile.is_file():
        print(f"no profile at {args.profile}", file=sys.stderr)
        return 2
    print("\n".join(report(args.profile, args.per, args.top, args.rate, args.functions, args.cpu)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
