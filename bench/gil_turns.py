"""How long an event loop waits for the interpreter lock while worker threads do CPU work (bot/ops/page_thread.py).

The same jobs (pure-Python CPU work, as a page's render is) run on 1, 3 and 6 threads, while the loop ticks every
millisecond and does a little work of its own each tick, as a page server's loop does. Printed: the whole run's
time, and how late the loop's ticks were (p50, p99, max). The 3-thread figure is the web gate's three pages at
once each on a default-pool thread; the 1-thread figure is one page thread.

    .venv/bin/python -m bench.gil_turns [--jobs 12] [--size 2000000]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass


def cpu_job(size: int) -> int:
    total = 0
    for i in range(size):
        total += i * i
    return total


@dataclass(frozen=True)
class Turns:
    threads: int
    seconds: float
    late_ms: tuple[float, ...]

    def line(self) -> str:
        late = sorted(self.late_ms)
        p99 = late[min(len(late) - 1, int(len(late) * 0.99))]
        return (f"| {self.threads} | {self.seconds:.2f} | {len(late)} | {statistics.median(late):.1f} | {p99:.1f} "
                f"| {late[-1]:.1f} |")


async def _ticks(stop: asyncio.Event, late: list[float]) -> None:
    while not stop.is_set():
        asked = time.perf_counter()
        await asyncio.sleep(0.001)
        late.append((time.perf_counter() - asked - 0.001) * 1000)
        cpu_job(2_000)  # the loop's own bit of work each tick (~0.1 ms)


async def measure(threads: int, jobs: int, size: int) -> Turns:
    loop = asyncio.get_running_loop()
    late: list[float] = []
    stop = asyncio.Event()
    with ThreadPoolExecutor(max_workers=threads) as pool:
        ticking = asyncio.create_task(_ticks(stop, late))
        began = time.perf_counter()
        await asyncio.gather(*(loop.run_in_executor(pool, cpu_job, size) for _ in range(jobs)))
        seconds = time.perf_counter() - began
        stop.set()
        await ticking
    return Turns(threads, seconds, tuple(late))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=12, help="CPU jobs in all (default 12)")
    parser.add_argument("--size", type=int, default=2_000_000, help="loop steps a job (default 2,000,000)")
    parser.add_argument("--repeat", type=int, default=2, help="rounds of the three layouts, interleaved (default 2)")
    args = parser.parse_args(argv)
    print("| threads | run s | ticks | loop late p50 ms | p99 ms | max ms |")
    print("|---:|---:|---:|---:|---:|---:|")
    for _ in range(args.repeat):
        for threads in (1, 3, 6):
            print(asyncio.run(measure(threads, args.jobs, args.size)).line(), flush=True)


if __name__ == "__main__":
    main()
