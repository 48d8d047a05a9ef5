"""The web pages' own Prometheus metrics, in the bot's registry (so ``/metrics`` on the health port shows them).

- ``grievous_web_requests_total{page, status}``: every answer, by the route's pattern and its HTTP status;
- ``grievous_web_request_seconds{page}``: from the request reaching the app to its answer (live streams left out:
  they last as long as the page is open);
- ``grievous_web_live_connections``: live (Server-Sent Events) streams open now;
- ``grievous_web_page_cache_hits_total{page}`` / ``grievous_web_page_cache_misses_total{page}``: pages answered
  from the page cache (bot/web/page_cache.py; waiting for another request's render counts as a hit) and pages
  rendered.

``page`` is the route's pattern (``/web/character/{name}``), never the address asked for: a name, a channel
id or a login token never becomes a label, and the number of series stays small. Nothing here logs.

The middleware also names the request's task after its page while it runs, so a stall of the event loop that
a page caused is named by the watchdog (``the bot's own work (task web /web/roster)``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from aiohttp import web
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
# Seconds: a page is read by a person (the target is 100 ms at p99); past a few seconds it has failed.
PAGE_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
UNKNOWN = "unknown"  # an address no route matches (its 404)
LIVE_SUFFIX = "/live"


def page_of(request: web.Request) -> str:
    """The route's pattern (bounded: the app's own routes), or ``unknown``."""
    route = request.match_info.route
    resource = route.resource if route is not None else None
    if resource is None:
        return UNKNOWN
    if isinstance(resource, web.StaticResource):
        return resource.canonical + "/*"  # one series for every static file
    return resource.canonical


class WebMetrics:
    """``registry``: the bot's (``bot.metrics.registry``); None makes one of its own (a test)."""

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry if registry is not None else CollectorRegistry(auto_describe=True)
        r = self.registry
        self.requests = Counter("grievous_web_requests", "Web page answers, by the page's route and the HTTP "
                                "status.", ["page", "status"], registry=r)
        self.seconds = Histogram("grievous_web_request_seconds", "From a web request's arrival to its answer, by "
                                 "the page's route (live streams left out).", ["page"], buckets=PAGE_BUCKETS,
                                 registry=r)
        self.live = Gauge("grievous_web_live_connections", "Live (Server-Sent Events) streams open now.",
                          registry=r)
        self.cache_hits = Counter("grievous_web_page_cache_hits", "Web pages answered from the page cache, by the "
                                  "page's route.", ["page"], registry=r)
        self.cache_misses = Counter("grievous_web_page_cache_misses", "Web pages rendered (not in the page cache), "
                                    "by the page's route.", ["page"], registry=r)

    def cache_read(self, page: str, hit: bool) -> None:
        """One read of the page cache (``PageCache``'s ``counted``)."""
        (self.cache_hits if hit else self.cache_misses).labels(page).inc()

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Outermost: it sees the status every other middleware settled on (error pages included)."""
        page = page_of(request)
        live = page.endswith(LIVE_SUFFIX)
        task = asyncio.current_task()
        name = task.get_name() if task is not None else None
        if task is not None:
            task.set_name(f"web {page}")
        started = time.perf_counter()
        status = 500
        if live:
            self.live.inc()
        try:
            response = await handler(request)
            status = response.status
            return response
        except web.HTTPException as exc:  # a redirect raised (the login's), or an answer no middleware made a page
            status = exc.status
            raise
        except asyncio.CancelledError:
            status = 499  # the browser went away first (nginx's word for it)
            raise
        finally:
            if live:
                self.live.dec()
            else:
                self.seconds.labels(page).observe(time.perf_counter() - started)
            self.requests.labels(page, str(status)).inc()
            if task is not None and name is not None:
                task.set_name(name)
