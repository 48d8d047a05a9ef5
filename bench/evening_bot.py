"""`grievous run` as in production, plus the benchmark's ``/bench-noop`` (the floor a command costs), for
``bench.scaling --mix``; run through ``emulator.launch`` as ``bench.evening_bot:main run``.

SIGUSR1 starts cProfile on the event loop's thread and SIGUSR2 stops it and writes the profile to
``$BENCH_PROFILE``: the benchmark profiles only the window it measures, not the start.
"""

from __future__ import annotations

import cProfile
import os
import signal
from collections.abc import Sequence
from types import FrameType

from bench.cog import BenchCog
from bot import app, cli


def main(argv: Sequence[str] | None = None) -> int:
    original = app.GrievousBot.sync_tree

    async def sync_tree(self: app.GrievousBot) -> int:  # the services exist by now; run with SYNC_COMMANDS=1
        if self.get_cog(BenchCog.__name__) is None:
            await self.add_cog(BenchCog(self.services.db))
        return await original(self)

    app.GrievousBot.sync_tree = sync_tree  # type: ignore[method-assign]
    profiler = cProfile.Profile()

    def start(_signal: int, _frame: FrameType | None) -> None:
        profiler.enable()

    def stop(_signal: int, _frame: FrameType | None) -> None:
        profiler.disable()
        profiler.dump_stats(os.environ.get("BENCH_PROFILE", "evening.prof"))

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)
    return cli.main(argv)
