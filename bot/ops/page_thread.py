"""The web pages' CPU work (projecting sheets, wording log lines, Jinja) on one thread of its own.

A thread doing CPU work takes turns with the event loop for the interpreter lock, each turn up to
``sys.getswitchinterval()`` (5 ms); with several such threads, the loop waits out one turn of each between two
of its own. Fifty viewers' first reads kept the default pool's six threads busy, and `grievous web`'s loop
stalled up to 158 ms, nearly all of it waiting for the lock (docs/benchmarks.md, issue 33). With one thread it
waits out one turn at a time (bench/gil_turns.py measures both). The renders run one after the other, as the
lock had them run anyway. The commands' own work (pictures, odds, /log) keeps the default pool: a page never
queues before an answer.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")
_pool: ThreadPoolExecutor | None = None
_made = threading.Lock()


def _the_pool() -> ThreadPoolExecutor:
    global _pool
    with _made:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="web-render")
        return _pool


async def on_page_thread(work: Callable[..., T], *args: Any) -> T:
    """``work(*args)`` on the pages' thread, in the caller's context (as ``asyncio.to_thread``)."""
    context = contextvars.copy_context()
    call = functools.partial(context.run, work, *args)
    return await asyncio.get_running_loop().run_in_executor(_the_pool(), call)
