"""Discord's REST rate limits: per-route buckets with their headers, the global limit, 429s, and the
invalid-request counter behind Cloudflare's temporary bans.

What Discord documents (developers/topics/rate-limits.mdx): limits are per route and per top-level
resource (``channel_id``, ``guild_id``, ``webhook_id`` with its token), routes can share a bucket
(``X-RateLimit-Bucket``), every response carries ``X-RateLimit-Limit/-Remaining/-Reset/-Reset-After/
-Bucket``, a 429 carries ``retry_after`` (seconds, float), ``global`` and the header ``X-RateLimit-Scope``
(``user``, ``global`` or ``shared``); a bot may make 50 requests a second in all, interaction endpoints
excepted; 401, 403 and 429 (but a ``shared`` 429) responses are "invalid requests", and 10,000 of them in
10 minutes get the IP banned for a while. The bucket sizes are NOT documented ("should not hard-code"):
those in ``DEFAULT_RULES`` are plausible choices, listed in docs/emulator.md.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

JSONDict = dict[str, Any]
GLOBAL_LIMIT = 50  # requests a second, all routes but the interaction endpoints (documented)
INVALID_LIMIT = 10_000  # 401/403/429 responses per INVALID_WINDOW before a ban (documented)
INVALID_WINDOW = 600.0
CLOUDFLARE = web.ResponseKey("cloudflare", bool)  # a response marked so is Cloudflare's own page: no Discord headers
VIA = "1.1 google"  # Discord's 429s come through its proxy; discord.py reads a 429 without Via as a ban


@dataclass(frozen=True)
class Rule:
    """One kind of bucket: ``limit`` requests per ``per`` seconds, per top-level resource."""

    name: str
    limit: int
    per: float
    methods: frozenset[str]
    matches: Callable[[str], bool]  # on the route's template, e.g. "/channels/{channel_id}/messages"

    @property
    def hash(self) -> str:
        """The opaque bucket id Discord sends as X-RateLimit-Bucket (stable per rule)."""
        return hashlib.sha1(self.name.encode()).hexdigest()[:32]


def _messages(path: str) -> bool:
    return path in ("/channels/{channel_id}/messages", "/channels/{channel_id}/messages/{message_id}")


def _pins(path: str) -> bool:
    return "/pins/" in path or path.endswith("/pins")


# Assumed sizes (Discord does not publish them): per channel, 5 message writes per 5 s (what bots have long
# observed for sending); pins, reactions and reads their own buckets; command writes per application/guild.
DEFAULT_RULES: tuple[Rule, ...] = (
    Rule("channel message writes", 5, 5.0, frozenset({"POST", "PATCH"}), _messages),
    Rule("channel message deletes", 5, 1.0, frozenset({"DELETE"}), _messages),
    Rule("channel message reads", 10, 1.0, frozenset({"GET"}), _messages),
    Rule("channel pins", 5, 5.0, frozenset({"PUT", "DELETE", "GET"}), _pins),
    Rule("reactions", 1, 0.25, frozenset({"PUT", "DELETE"}), lambda p: "/reactions/" in p),
    Rule("application commands", 5, 5.0, frozenset({"PUT", "POST", "PATCH", "DELETE"}),
         lambda p: p.startswith("/applications/") and "/commands" in p),
    Rule("interaction webhook", 5, 2.0, frozenset({"GET", "POST", "PATCH", "DELETE"}),
         lambda p: p.startswith("/webhooks/{application_id}/{token}")),
)
# Top-level resources (documented: channel, guild, webhook with its token); the application's commands
# are keyed by application (and guild) the same way.
MAJOR = ("channel_id", "guild_id", "application_id", "webhook_id", "token")


@dataclass
class Window:
    limit: int
    per: float
    used: int = 0
    reset_at: float = 0.0  # monotonic


@dataclass
class Verdict:
    """The headers a response gets, and whether it is refused with 429 (then ``body`` is its JSON)."""

    headers: dict[str, str] = field(default_factory=dict)
    body: JSONDict | None = None
    text: str | None = None  # a Cloudflare ban answers plain text, not JSON


class RateLimits:
    """The rate-limit state of one emulated Discord. ``enabled=False`` turns every limit off.

    ``window_scale`` is a test setting, not Discord's: every bucket's window and the global limit's second
    are multiplied by it, the counts kept (0.1: 5 message writes per 0.5 s). Buckets still empty, the headers
    and 429s are the same, and discord.py still waits them out, in a tenth of the time. The e2e suite uses it
    for tests that are not about rate limits (tests/e2e/conftest.py); 1.0 is the assumed sizes below."""

    def __init__(self, *, enabled: bool = True, rules: Sequence[Rule] = DEFAULT_RULES,
                 global_limit: int = GLOBAL_LIMIT, invalid_limit: int = INVALID_LIMIT,
                 clock: Callable[[], float] = time.monotonic, window_scale: float = 1.0) -> None:
        if not window_scale > 0:
            raise ValueError(f"window_scale must be above 0, not {window_scale}")
        self.enabled = enabled
        self.rules = tuple(rules)
        self.global_limit = global_limit
        self.invalid_limit = invalid_limit
        self.clock = clock
        self.window_scale = window_scale
        self._windows: dict[tuple[str, str], Window] = {}
        self._global = Window(global_limit, window_scale)
        self._invalid: deque[float] = deque()
        self.limited: list[str] = []  # every 429 given, as "METHOD /path (scope)": for tests and benchmarks

    # -- the invalid-request counter --------------------------------------------------------------

    @property
    def invalid_requests(self) -> int:
        """401, 403 and non-shared 429 responses in the last 10 minutes."""
        self._expire(self.clock())
        return len(self._invalid)

    def _expire(self, now: float) -> None:
        while self._invalid and self._invalid[0] <= now - INVALID_WINDOW:
            self._invalid.popleft()

    def answered(self, status: int, headers: Mapping[str, str]) -> None:
        """Count a response toward the invalid-request limit."""
        if status in (401, 403) or (status == 429 and headers.get("X-RateLimit-Scope") != "shared"):
            self._invalid.append(self.clock())

    # -- buckets ------------------------------------------------------------------------------------

    def rule_for(self, method: str, template: str) -> Rule | None:
        return next((r for r in self.rules if method in r.methods and r.matches(template)), None)

    def check(self, method: str, template: str, params: Mapping[str, str]) -> Verdict:
        """Take one request on its route's bucket (and the global one): the headers to send, or a 429."""
        if not self.enabled:
            return Verdict()
        now = self.clock()
        self._expire(now)
        if len(self._invalid) >= self.invalid_limit:
            return Verdict(text="error code: 1015", headers={"Retry-After": str(int(INVALID_WINDOW))})
        interaction = template.startswith(("/interactions/", "/webhooks/{application_id}/{token}"))
        if not interaction:  # interaction endpoints are not bound to the global limit
            window = self._roll(self._global, now)
            if window.used >= window.limit:
                retry = window.reset_at - now
                return Verdict(
                    headers={"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global",
                             "Retry-After": str(math.ceil(retry)), "Via": VIA},
                    body=self._limited(method, template, retry, is_global=True, scope="global"))
            window.used += 1
        rule = self.rule_for(method, template)
        if rule is None:
            return Verdict(headers={"Via": VIA})
        major = "+".join(params[k] for k in MAJOR if k in params)
        fresh = Window(rule.limit, rule.per * self.window_scale)
        window = self._roll(self._windows.setdefault((rule.name, major), fresh), now)
        if window.used >= window.limit:
            retry = window.reset_at - now
            headers = self._headers(rule, window, now)
            headers.update({"X-RateLimit-Scope": "user", "Retry-After": str(math.ceil(retry))})
            return Verdict(headers=headers, body=self._limited(method, template, retry, is_global=False,
                                                               scope="user"))
        window.used += 1
        return Verdict(headers=self._headers(rule, window, now))

    @staticmethod
    def _roll(window: Window, now: float) -> Window:
        if now >= window.reset_at:
            window.used, window.reset_at = 0, now + window.per
        return window

    @staticmethod
    def _headers(rule: Rule, window: Window, now: float) -> dict[str, str]:
        after = max(0.0, window.reset_at - now)
        return {
            "X-RateLimit-Limit": str(window.limit),
            "X-RateLimit-Remaining": str(max(0, window.limit - window.used)),
            "X-RateLimit-Reset": f"{time.time() + after:.3f}",
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": rule.hash,
            "Via": VIA,
        }

    def _limited(self, method: str, template: str, retry: float, *, is_global: bool, scope: str) -> JSONDict:
        self.limited.append(f"{method} {template} ({scope})")
        return {"message": "You are being rate limited.", "retry_after": round(max(retry, 0.001), 3),
                "global": is_global}
