"""The campaign web page: an aiohttp app on the event loop of the process serving it (the bot's, beside its health
endpoint, or `grievous web`'s: bot/web_process.py).

Pages are HTML rendered on the server (Jinja2, autoescaped), usable without JavaScript; one small script of our
own (static/live.js) makes the encounter page live through Server-Sent Events. Every response carries a strict
Content-Security-Policy (our own files only; no inline script or style) and ``Referrer-Policy: no-referrer``.
Each page reads through the services as the session's viewer (bot/web/viewer.py) and words what it read with
the bot's own embeds (bot/ui), shown as HTML by bot/web/markdown.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
from collections.abc import Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import jinja2
from aiohttp import web

from bot.errors import UserError
from bot.ops.page_thread import on_page_thread
from bot.services.live_events import EventFeed
from bot.services.web_sessions import WebSessionService
from bot.web import pages
from bot.web.gate import RETRY_AFTER, Busy, PageGate
from bot.web.http import CSP, NEW_LINK, PREFIX, SESSION_ID, VIEWER, Problem
from bot.web.live import LiveRenders
from bot.web.metrics import WebMetrics
from bot.web.page_cache import PageCache
from bot.web.recording import Recorder
from bot.web.sessions import ExchangeLimit, Grant, Refused, Session
from bot.web.viewer import Viewer

if TYPE_CHECKING:
    from bot.web.host import PageHost

log = logging.getLogger("grievous.web")
COOKIE = "grievous_session"
LIVE_SECONDS = 0.5  # how often the process's one poller looks for new events (a page updates within 2 s)
MAX_LINK = 512  # a Discord link button's URL

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
REFUSALS = {
    "missing": (400, "This address has no login link in it. " + NEW_LINK),
    "tampered": (400, "This login link is not one the bot made (it was changed or cut short). " + NEW_LINK),
    "expired": (410, "This login link has expired: links last 10 minutes. " + NEW_LINK),
    "used": (410, "This login link was already used: each link opens the page once. " + NEW_LINK),
    "revoked": (410, "This login link was withdrawn with /web revoke. " + NEW_LINK),
    "busy": (503, "Too many links are waiting to be opened; try again in a few minutes."),
}


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.PackageLoader("bot.web", "templates"),
                             autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True)
    env.globals["prefix"] = PREFIX
    env.filters["q"] = lambda text: quote(str(text), safe="")
    return env


class WebServer:
    """``bot`` is the process it serves from (bot/web/host.py: the bot, or a web-only process); ``base_url`` is where
    browsers reach this server (None: http://host:port, for the playground)."""

    def __init__(self, bot: PageHost, *, host: str = "127.0.0.1", port: int = 0, base_url: str | None = None,
                 trusted_proxies: tuple[str, ...] = (), sessions: WebSessionService | None = None,
                 recorder: Recorder | None = None, live_seconds: float = LIVE_SECONDS) -> None:
        self.bot = bot
        self.host = host
        self.port = port
        self._base_url = base_url
        self._sessions = sessions
        self.limit = ExchangeLimit()
        self.recorder = recorder
        self.live_seconds = live_seconds
        self._proxies = tuple(ipaddress.ip_network(p, strict=False) for p in trusted_proxies)
        self._runner: web.AppRunner | None = None
        self.templates = _environment()
        self._static = Path(str(resources.files("bot.web") / "static"))
        self._closing = asyncio.Event()
        self.feed: EventFeed | None = None  # the live pages' poller of new events, while the server runs
        self._feed_task: asyncio.Task[None] | None = None
        # The pages' own Prometheus metrics, in the bot's registry (bot/web/metrics.py; a test's bot may be None).
        self.metrics = WebMetrics(bot.metrics.registry if bot is not None else None)
        self.gate = PageGate()  # how many pages render (read the database) at once (bot/web/gate.py)
        self.cache = PageCache(counted=self.metrics.cache_read)  # each page once per kind and revision
        self.pages = pages.Pages(self)
        self.live = LiveRenders(self, self.pages)  # the live streams, one rendering per kind of viewer

    @property
    def sessions(self) -> WebSessionService:
        """The links and sessions, in the database (bot/services/web_sessions.py): any process serves any."""
        return self._sessions or self.bot.services.web_sessions

    @property
    def base_url(self) -> str:
        return self._base_url or f"http://{self.host}:{self.port}"

    @property
    def secure(self) -> bool:
        return self.base_url.startswith("https://")

    async def link(self, grant: Grant) -> str:
        """The login address for one /web answer (under Discord's 512 characters for a link button)."""
        url = f"{self.base_url}{PREFIX}/login?t={await self.sessions.link_token(grant)}"
        if len(url) > MAX_LINK:
            raise UserError("the web page's address (WEB_BASE_URL) is too long for a Discord link button")
        return url

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self.metrics.middleware, self._headers, self._record, self._problems,
                                           self._gated, self._viewer])
        routes = self.pages
        app.router.add_get(f"{PREFIX}/login", self._login)
        app.router.add_get(PREFIX, self._home)
        app.router.add_get(f"{PREFIX}/", routes.campaign)
        app.router.add_get(f"{PREFIX}/roster", routes.roster)
        app.router.add_get(f"{PREFIX}/character/{{name}}", routes.character)
        app.router.add_get(f"{PREFIX}/character/{{name}}/diagram.png", routes.diagram)
        app.router.add_get(f"{PREFIX}/encounter/{{channel}}", routes.encounter)
        app.router.add_get(f"{PREFIX}/encounter/{{channel}}/live", routes.live)
        app.router.add_get(f"{PREFIX}/log/{{channel}}", routes.log)
        app.router.add_static(f"{PREFIX}/static", self._static, append_version=False)
        return app

    async def _home(self, request: web.Request) -> web.StreamResponse:
        raise web.HTTPFound(f"{PREFIX}/")

    async def start(self) -> None:
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, self.port).start()
        self.port = int(self._runner.addresses[0][1])
        log.info("campaign web page on %s%s/ (listening on %s:%d)", self.base_url, PREFIX, self.host, self.port)

    async def stop(self) -> None:
        self._closing.set()
        await self.live.close()
        if self.feed is not None:
            await self.feed.close()
        if self._feed_task is not None:
            self._feed_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._feed_task
            self._feed_task = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def live_feed(self) -> EventFeed:
        """The process's poller of new events (bot/services/live_events.py), started when the first live page
        opens."""
        if self.feed is None:
            self.feed = self.bot.services.campaign.event_feed(self.live_seconds)
            self._feed_task = asyncio.create_task(self.feed.run(), name="web event feed")
        return self.feed

    @property
    def closing(self) -> asyncio.Event:
        return self._closing

    # -- rendering ---------------------------------------------------------------------------------

    async def render(self, template: str, status: int = 200, **context: Any) -> web.Response:
        body = await self.fragment(template, **context)
        return web.Response(text=body, status=status, content_type="text/html", charset="utf-8")

    async def fragment(self, template: str, **context: Any) -> str:
        """``template`` rendered in a worker thread: a 200-line page is CPU work the event loop must not wait on (and
        so is a template's first compiling, ~40 ms)."""
        return await on_page_thread(lambda: self.templates.get_template(template).render(**context))

    # -- the login ---------------------------------------------------------------------------------

    def client_address(self, request: web.Request) -> str:
        """The browser's address: the peer's, or behind a trusted proxy the last X-Forwarded-For hop that is
        not itself a trusted proxy."""
        peer = request.remote or "unknown"
        if not self._proxies or not self._trusted(peer):
            return peer
        hops = [h.strip() for h in request.headers.get("X-Forwarded-For", "").split(",") if h.strip()]
        for hop in reversed(hops):
            if not self._trusted(hop):
                return hop
        return peer

    def _trusted(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self._proxies)

    async def _login(self, request: web.Request) -> web.StreamResponse:
        if not self.limit.allow(self.client_address(request)):
            raise Problem(429, "Too many login attempts from this address; wait a minute, then open your link again.")
        try:
            session = await self.sessions.exchange(request.query.get("t"))
        except Refused as refused:
            log.info("web login refused: %s", refused.why)  # never the token itself
            raise Problem(*REFUSALS[refused.why]) from None
        log.info("web session opened: guild %s, %s", session.grant.guild_id, session.role)
        if self.recorder is not None:
            self.recorder.opened(request, session)
        response = web.HTTPSeeOther(f"{PREFIX}/")
        response.set_cookie(COOKIE, session.id, httponly=True, samesite="Lax", secure=self.secure, path=PREFIX,
                            max_age=int(session.expires - self.sessions.now()))
        raise response

    async def viewer_session(self, request: web.Request) -> Session | None:
        return await self.sessions.session(request.cookies.get(COOKIE))

    # -- middlewares -------------------------------------------------------------------------------

    @web.middleware
    async def _headers(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            response = await handler(request)
        except web.HTTPException as exc:  # a redirect (the login's) is a response raised
            _secured(exc, request)
            raise
        return _secured(response, request)

    @web.middleware
    async def _problems(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Every failure as a short page with its status and one line of what to do: never a traceback."""
        try:
            return await handler(request)
        except Problem as problem:
            return await self._problem_page(request, problem.status, problem.line)
        except Busy:
            page = await self._problem_page(request, 503, "The page is busy; it reloads in a moment.")
            page.headers["Retry-After"] = str(RETRY_AFTER)
            return page
        except web.HTTPNotFound:
            return await self._problem_page(request, 404, "There is no such page. Start again from the campaign page.")
        except web.HTTPMethodNotAllowed:
            return await self._problem_page(request, 405, "This page is only read, never sent to.")
        except web.HTTPRedirection:
            raise
        except web.HTTPException as exc:
            return await self._problem_page(request, exc.status, "This request cannot be answered.")
        except UserError:  # a service's refusal: not its words, which may name what the viewer may not see
            return await self._problem_page(request, 404, "That is not here for you to see. Start again from the "
                                                          "campaign page.")
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("web page %s failed", request.path)
            return await self._problem_page(request, 500, "Something went wrong on our side; try again in a moment.")

    async def _problem_page(self, request: web.Request, status: int, line: str) -> web.Response:
        viewer = request.get(VIEWER)
        return await self.render("problem.html", status, title=f"{status}", line=line, viewer=viewer,
                                 nav=viewer is not None, viewer_name=viewer.header_name if viewer is not None else "",
                                 fights=())

    @web.middleware
    async def _record(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Tests: every byte a session received (pages, fragments, pictures; live frames are added by the
        live handler), under the session's label."""
        response = await handler(request)
        if self.recorder is not None and isinstance(response, web.Response) and response.body is not None:
            body = response.body
            self.recorder.received(request, bytes(body) if isinstance(body, bytes | bytearray) else b"")
        return response

    @web.middleware
    async def _gated(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """The login's database work through the gate (bot/web/gate.py). A page takes it only to render (not
        to be answered from the page cache: Pages._cached), a live stream's renders each time."""
        if not request.path.startswith(f"{PREFIX}/login"):
            return await handler(request)
        async with self.gate.page():
            return await handler(request)

    @web.middleware
    async def _viewer(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path.startswith((f"{PREFIX}/static/", f"{PREFIX}/login")) or request.path == PREFIX:
            return await handler(request)
        session = await self.viewer_session(request)
        if session is None:
            raise Problem(401, "You are not logged in here, or your session has ended. " + NEW_LINK)
        request[VIEWER] = Viewer.of(session)
        request[SESSION_ID] = session.id
        return await handler(request)


def _secured(response: web.StreamResponse, request: web.Request) -> web.StreamResponse:
    """The headers every answer carries: our own sources only, no referrer, no framing, no caching of pages."""
    response.headers["Content-Security-Policy"] = CSP
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["X-Frame-Options"] = "DENY"
    if not request.path.startswith(f"{PREFIX}/static/"):
        response.headers["Cache-Control"] = "no-store"
    return response
