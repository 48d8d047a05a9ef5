"""The garbage collector, set for a long-running bot once it is ready.

CPython's cycle collector runs a young collection every 700 container allocations and, now and then, a full one that
walks every object the process holds. A ready bot holds a few hundred thousand that never become garbage: the guild
caches, the command tree, the content packs, SQLAlchemy's mappers. Measured in ``bench.scaling --mix`` (2026-12-02,
20 tables, SQLite): the collector took 6% of the bot's CPU, and each full collection stopped the event loop for
about 190 ms (the stalls the watchdog logged under load). So, once, when the bot is first ready:

- everything alive then is collected once and frozen (``gc.freeze``): later collections skip it, so a full one walks
  only what was made since;
- young collections run every 10,000 allocations, not 700: a command makes a few thousand short-lived containers,
  almost all freed by reference counting, so most young collections found nothing to do.

With both the collector's share fell to about 1.4% and its longest pause to about 45 ms. Cyclic garbage waits a
little longer to be freed (at most some ten thousand objects). Only ``grievous run`` does this: a test process runs
many bots, and freezing would keep each one's cycles for the rest of the run.
"""

from __future__ import annotations

import gc
import logging

log = logging.getLogger("grievous")

YOUNG_EVERY = 10_000  # container allocations between young collections (CPython's default: 700)
OLDER_EVERY = 10  # younger collections between collections of the next generation (CPython's default: 10)


def settle() -> None:
    """Collect, freeze what is alive, and space the young collections out (see the module docstring). Safe to call
    again: what was frozen stays frozen, and what is new since is frozen too."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_EVERY, OLDER_EVERY, OLDER_EVERY)
    log.info("garbage collector settled: %d objects frozen, young collections every %d allocations",
             gc.get_freeze_count(), YOUNG_EVERY)
