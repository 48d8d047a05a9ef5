"""bot/ops/gc_tuning.py: once ready, ``grievous run`` freezes what is alive and spaces the young collections out. Run
in a process of its own: freezing the test process would keep every later test's cycles."""

from __future__ import annotations

import subprocess
import sys

from bot.app import GrievousBot
from bot.ops import gc_tuning
from bot.services import Services

PROBE = """
import gc
from bot.ops import gc_tuning
cycle = []
cycle.append(cycle)  # garbage the settle collects before it freezes
del cycle
kept = [{"a": [1]} for _ in range(1000)]
gc_tuning.settle()
print(gc.get_threshold(), gc.get_freeze_count() >= 1000, gc.get_count()[0] < 100)
"""


def test_settle_freezes_what_is_alive_and_spaces_young_collections_out() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=60, check=True)
    every = (gc_tuning.YOUNG_EVERY, gc_tuning.OLDER_EVERY, gc_tuning.OLDER_EVERY)
    assert done.stdout.split("\n")[0] == f"{every} True True"


def test_only_grievous_run_settles_the_collector() -> None:
    assert GrievousBot(services=object.__new__(Services))._settle_memory is False  # tests, the playground
