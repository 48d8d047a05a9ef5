"""Login without a password: the signed single-use links /web hands out, and the sessions they open.

A link's token is ``<payload>.<signature>``: the payload (base64url JSON) names the guild, the member, the role,
the member's generation, a nonce and the expiry; the signature is HMAC-SHA256 under a key made at start-up.
What /web captured besides (the member's roles, the channels they may see) waits under the nonce, server-side,
until the link is opened once. Opening it trades the token for a session id in a cookie.

Everything here is held in memory, on purpose: a session lasts one game evening (12 hours), the key is made
afresh when the process starts, so a restart ends every session and every link (nothing a browser holds
outlives the process that can check it), and there is no table of secrets to protect or migrate. A member's
generation goes up with ``/web revoke:true``, which ends their sessions and voids links not yet opened.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

Role = Literal["gm", "player", "table"]
LINK_SECONDS = 10 * 60
SESSION_SECONDS = 12 * 60 * 60
# The token exchange, per address: this many tries in the window (a person clicks a link once or twice).
EXCHANGE_TRIES = 10
EXCHANGE_WINDOW = 60.0
MAX_PENDING = 10_000  # links waiting to be opened (each expires after LINK_SECONDS anyway)


@dataclass(frozen=True)
class Grant:
    """What /web captured for one link: who asked, as what, and what they may see (``channels`` None: every
    channel of the guild, the GM's view)."""

    guild_id: int
    user_id: int
    user_name: str
    role: Role
    role_ids: tuple[int, ...]
    is_manager: bool
    channels: frozenset[int] | None
    table_channel: int | None = None  # role "table": the one channel it shows


@dataclass(frozen=True)
class Session:
    id: str = field(repr=False)
    grant: Grant
    generation: int
    expires: float

    @property
    def role(self) -> Role:
        return self.grant.role


Refusal = Literal["missing", "tampered", "expired", "used", "revoked", "busy"]


class Refused(Exception):
    def __init__(self, why: Refusal) -> None:
        super().__init__(why)
        self.why: Refusal = why


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class WebSessions:
    """Links, sessions and members' generations of one process. ``clock`` is seconds (monotonic enough);
    tests move it."""

    def __init__(self, *, clock: Callable[[], float] = time.time, key: bytes | None = None) -> None:
        self._clock = clock
        self._key = key or secrets.token_bytes(32)
        self._pending: dict[str, tuple[Grant, float]] = {}
        self._sessions: dict[str, Session] = {}
        self._generations: dict[tuple[int, int], int] = {}
        self._tries: dict[str, deque[float]] = {}

    def now(self) -> float:
        return self._clock()

    # -- links -------------------------------------------------------------------------------------

    def _sign(self, payload: bytes) -> str:
        return _b64(hmac.new(self._key, payload, hashlib.sha256).digest())

    def link_token(self, grant: Grant) -> str:
        """A token for one link: valid for LINK_SECONDS, once, while the member's generation stands."""
        self._forget_expired()
        if len(self._pending) >= MAX_PENDING:
            raise Refused("busy")
        nonce = secrets.token_urlsafe(12)
        expires = int(self._clock()) + LINK_SECONDS
        self._pending[nonce] = (grant, expires)
        payload = json.dumps({"g": grant.guild_id, "u": grant.user_id, "r": grant.role, "n": nonce,
                              "v": self.generation(grant.guild_id, grant.user_id), "e": expires},
                             separators=(",", ":")).encode()
        return f"{_b64(payload)}.{self._sign(payload)}"

    def exchange(self, token: str | None) -> Session:
        """The session a link opens, or Refused saying why (the link is used up either way once it is read)."""
        if not token:
            raise Refused("missing")
        body, _, signature = token.partition(".")
        try:
            payload = _unb64(body)
            valid = hmac.compare_digest(self._sign(payload), signature)
            claims = json.loads(payload) if valid else None
        except (ValueError, UnicodeDecodeError):
            raise Refused("tampered") from None
        if not isinstance(claims, dict) or not all(isinstance(claims.get(k), int) for k in "guve") \
                or not isinstance(claims.get("n"), str) or claims.get("r") not in ("gm", "player", "table"):
            raise Refused("tampered")
        pending = self._pending.pop(claims["n"], None)
        if claims["e"] < self._clock():
            raise Refused("expired")
        if pending is None:
            raise Refused("used")
        grant = pending[0]
        if (grant.guild_id, grant.user_id, grant.role) != (claims["g"], claims["u"], claims["r"]):
            raise Refused("tampered")
        generation = self.generation(grant.guild_id, grant.user_id)
        if claims["v"] != generation:
            raise Refused("revoked")
        session = Session(secrets.token_urlsafe(32), grant, generation, self._clock() + SESSION_SECONDS)
        self._sessions[session.id] = session
        return session

    def allow_exchange(self, address: str) -> bool:
        """The per-address rate limit on opening links (guessing tokens gets nowhere fast)."""
        now = self._clock()
        tries = self._tries.setdefault(address, deque())
        while tries and tries[0] <= now - EXCHANGE_WINDOW:
            tries.popleft()
        if len(tries) >= EXCHANGE_TRIES:
            return False
        tries.append(now)
        if len(self._tries) > MAX_PENDING:  # forget idle addresses
            for idle in [a for a, t in self._tries.items() if not t or t[-1] <= now - EXCHANGE_WINDOW]:
                del self._tries[idle]
        return True

    # -- sessions ----------------------------------------------------------------------------------

    def session(self, session_id: str | None) -> Session | None:
        """The live session of a cookie: None when unknown, expired or revoked since."""
        if not session_id:
            return None
        session = self._sessions.get(session_id)
        if session is None:
            return None
        if session.expires <= self._clock() \
                or session.generation != self.generation(session.grant.guild_id, session.grant.user_id):
            del self._sessions[session_id]
            return None
        return session

    def generation(self, guild_id: int, user_id: int) -> int:
        return self._generations.get((guild_id, user_id), 0)

    def revoke(self, guild_id: int, user_id: int) -> int:
        """End the member's sessions in the guild and void their unopened links; how many sessions ended."""
        self._generations[(guild_id, user_id)] = self.generation(guild_id, user_id) + 1
        ended = [sid for sid, s in self._sessions.items() if (s.grant.guild_id, s.grant.user_id) == (guild_id, user_id)]
        for sid in ended:
            del self._sessions[sid]
        return len(ended)

    def _forget_expired(self) -> None:
        now = self._clock()
        for sid in [sid for sid, s in self._sessions.items() if s.expires <= now]:
            del self._sessions[sid]
        for nonce in [n for n, (_, expires) in self._pending.items() if expires < now]:
            del self._pending[nonce]
