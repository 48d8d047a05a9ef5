"""Each page rendered once per kind of viewer and campaign revision, not once per request (issue 33).

A page's content depends on what the database holds of the campaign (``CampaignService.revision``: any
process's writes move it), on the viewer's kind (``bot/web/live.py``'s ``kind_of``: every input of the projection
but the user id) and on the page's own parameters. An entry is keyed by all of them, so a GM's rendering is never
a player's, and a change written anywhere makes the next read a miss. What the database does not hold (members',
roles' and channels' names from this process's gateway cache) is checked at each hit: an entry keeps the names
its render looked up (``Rendered.names``), and the reader's ``fresh`` looks them up again (a few dict reads);
one that changed makes the read a miss. Entries older than ``max_age`` are rendered again whatever happened: a bound on
anything a page shows that neither covers.

The one part of a page that names its viewer (the header's name) is not in the entry: a page is rendered with
``MARK`` where it goes, kept split there, and each answer puts the viewer's own escaped name between the halves
(``Rendered.body``). Autoescaping turns a ``<`` typed by a user into ``&lt;``, so no user text can hold the mark.

Misses of one key at once wait for one render (single flight): fifty viewers opening the same page render it
once. The render runs as a task of its own, so a browser gone away does not cancel it under the others.
The cache holds at most ``max_entries`` entries and ``max_bytes`` bytes, the least recently used dropped first.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field

from markupsafe import Markup, escape

MAX_ENTRIES = 1024
MAX_BYTES = 64 * 1024 * 1024
MAX_AGE = 300.0  # seconds an entry is served at most (the revision and the names checked at each hit cover the rest)
MARK = Markup(f"<!--viewer-{secrets.token_hex(8)}-->")  # where a page names its viewer: never in user text


@dataclass(frozen=True)
class Rendered:
    """A page's content: ``head`` and ``tail`` around the viewer's name (``tail`` None: nothing names the
    viewer, as a picture); ``names``: what the render looked up outside the database (a lookup's key, what it
    found), which a hit checks again."""

    head: bytes
    tail: bytes | None = None
    content_type: str = "text/html"
    names: tuple[tuple[Hashable, Hashable], ...] = ()
    made: float = field(default=0.0, compare=False)

    @classmethod
    def page(cls, html: str, names: tuple[tuple[Hashable, Hashable], ...] = ()) -> Rendered:
        head, mark, tail = html.partition(MARK)
        if not mark:
            return cls(html.encode(), None, names=names)
        return cls(head.encode(), tail.encode(), names=names)

    @property
    def size(self) -> int:
        return len(self.head) + len(self.tail or b"")

    def body(self, who: str) -> bytes:
        """The page as one viewer gets it: ``who`` (plain text, escaped here) where the page names its viewer."""
        if self.tail is None:
            return self.head
        return self.head + str(escape(who)).encode() + self.tail


Render = Callable[[], Awaitable[Rendered]]
Fresh = Callable[[Rendered], bool]
Counted = Callable[[str, bool], None]  # (page, hit)


class PageCache:
    """``counted(page, hit)``: told of each read (the pages' Prometheus counters, bot/web/metrics.py)."""

    def __init__(self, *, max_entries: int = MAX_ENTRIES, max_bytes: int = MAX_BYTES, max_age: float = MAX_AGE,
                 clock: Callable[[], float] = time.monotonic, counted: Counted | None = None) -> None:
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.max_age = max_age
        self._clock = clock
        self._counted = counted
        self._kept: OrderedDict[Hashable, Rendered] = OrderedDict()
        self._bytes = 0
        self._rendering: dict[Hashable, asyncio.Task[Rendered]] = {}
        self.hits = 0
        self.misses = 0  # renders started

    def __len__(self) -> int:
        return len(self._kept)

    @property
    def bytes(self) -> int:
        return self._bytes

    async def get(self, page: str, key: Hashable, render: Render, fresh: Fresh | None = None) -> Rendered:
        """The page of ``key``: kept (and ``fresh`` says its names still hold), being rendered (wait for that
        render), or rendered now by ``render``. ``page``: the route, for the counters. A failed render is not
        kept: its waiters get its exception."""
        kept = self._fresh(key, fresh)
        if kept is not None:
            self._count(page, hit=True)
            return kept
        task = self._rendering.get(key)
        self._count(page, hit=task is not None)
        if task is None:
            task = self._rendering[key] = asyncio.create_task(self._render(key, render), name=f"web render {page}")
            task.add_done_callback(_retrieved)  # every waiter gone: its failure is not reported as never retrieved
        return await asyncio.shield(task)

    def _fresh(self, key: Hashable, fresh: Fresh | None) -> Rendered | None:
        kept = self._kept.get(key)
        if kept is None:
            return None
        if self._clock() - kept.made > self.max_age or (fresh is not None and not fresh(kept)):
            self._drop(key)
            return None
        self._kept.move_to_end(key)
        return kept

    async def _render(self, key: Hashable, render: Render) -> Rendered:
        try:
            made = self._clock()
            rendered = await render()
            rendered = Rendered(rendered.head, rendered.tail, rendered.content_type, rendered.names, made)
            self._keep(key, rendered)
            return rendered
        finally:
            del self._rendering[key]

    def _keep(self, key: Hashable, rendered: Rendered) -> None:
        if rendered.size > self.max_bytes:
            return
        self._drop(key)
        self._kept[key] = rendered
        self._bytes += rendered.size
        while len(self._kept) > self.max_entries or self._bytes > self.max_bytes:
            self._drop(next(iter(self._kept)))

    def _drop(self, key: Hashable) -> None:
        gone = self._kept.pop(key, None)
        if gone is not None:
            self._bytes -= gone.size

    def _count(self, page: str, *, hit: bool) -> None:
        if hit:
            self.hits += 1
        else:
            self.misses += 1
        if self._counted is not None:
            self._counted(page, hit)


def _retrieved(task: asyncio.Task[Rendered]) -> None:
    if not task.cancelled():
        task.exception()
