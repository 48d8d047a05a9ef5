"""The pages' CPU work runs on one thread of its own (bot/ops/page_thread.py), in the caller's context."""

from __future__ import annotations

import asyncio
import contextvars
import threading

from bot.ops.page_thread import on_page_thread

ASKED_BY: contextvars.ContextVar[str] = contextvars.ContextVar("asked_by", default="nobody")


async def test_the_pages_work_runs_on_one_thread_not_the_loops_nor_the_default_pool() -> None:
    running = {"now": 0, "most": 0}
    lock = threading.Lock()

    def work(n: int) -> tuple[str, int]:
        with lock:
            running["now"] += 1
            running["most"] = max(running["most"], running["now"])
        threading.Event().wait(0.01)  # long enough for a second thread, were there one, to start beside it
        with lock:
            running["now"] -= 1
        return threading.current_thread().name, n * 2

    done = await asyncio.gather(*(on_page_thread(work, n) for n in range(8)))
    assert [n for _, n in done] == [n * 2 for n in range(8)]
    names = {name for name, _ in done}
    assert len(names) == 1 and names.pop().startswith("web-render")
    assert running["most"] == 1
    assert threading.current_thread().name != "web-render"


async def test_the_work_sees_the_callers_context_variables() -> None:
    ASKED_BY.set("a page")
    assert await on_page_thread(ASKED_BY.get) == "a page"
