"""Login without a password, in the database: the single-use links /web hands out and the sessions they open.

A link's token is a random string; the database keeps only its SHA-256 (``web_links``), beside what /web
captured (the Grant: the member, the role, their role ids, the channels they may see, the guild's name). Opening
the link once marks it used, in one conditional UPDATE, so a second opening fails in every process, and trades it
for a random session id in a cookie; ``web_sessions`` keeps only that id's SHA-256 and the grant. Any process on
the database serves any session, and a page needs nothing from the process's gateway cache.

``/web revoke:true`` ends the member's sessions in the guild and withdraws their links not yet opened, in the
database, so it holds in every process. A session lasts 12 hours, a link 10 minutes; expired rows are deleted
as new links are made. Nothing in these tables opens a page by itself: a hash is not a token.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import WebLink, WebSession
from bot.services.runtime import Runtime

Role = Literal["gm", "player", "table"]
LINK_SECONDS = 10 * 60
SESSION_SECONDS = 12 * 60 * 60
MAX_PENDING = 10_000  # links waiting to be opened, across processes (each expires after LINK_SECONDS anyway)


@dataclass(frozen=True)
class Grant:
    """What /web captured for one link: who asked, as what, and what they may see (``channels`` None: every
    channel of the guild, the GM's view), and the guild's and channels' names, so that a page needs no gateway
    cache (any process serves it)."""

    guild_id: int
    user_id: int
    user_name: str
    role: Role
    role_ids: tuple[int, ...]
    is_manager: bool
    channels: frozenset[int] | None
    table_channel: int | None = None  # role "table": the one channel it shows
    guild_name: str = ""
    channel_names: tuple[tuple[int, str], ...] = ()  # the text channels and threads it may see, named at /web time

    def to_json(self) -> str:
        return json.dumps({"u": self.user_name, "r": self.role, "ro": list(self.role_ids), "m": self.is_manager,
                           "c": None if self.channels is None else sorted(self.channels), "t": self.table_channel,
                           "g": self.guild_name, "n": [list(pair) for pair in self.channel_names]},
                          separators=(",", ":"))

    @classmethod
    def from_json(cls, guild_id: int, user_id: int, text: str) -> Grant:
        d: dict[str, Any] = json.loads(text)
        return cls(guild_id, user_id, str(d["u"]), d["r"], tuple(int(r) for r in d["ro"]), bool(d["m"]),
                   None if d["c"] is None else frozenset(int(c) for c in d["c"]), d["t"], str(d["g"]),
                   tuple((int(i), str(n)) for i, n in d["n"]))


@dataclass(frozen=True)
class Session:
    id: str = field(repr=False)
    grant: Grant
    expires: float

    @property
    def role(self) -> Role:
        return self.grant.role


Refusal = Literal["missing", "tampered", "expired", "used", "revoked", "busy"]


class Refused(Exception):
    def __init__(self, why: Refusal) -> None:
        super().__init__(why)
        self.why: Refusal = why


def digest(secret: str) -> str:
    """What the database keeps of a token or a session id."""
    return hashlib.sha256(secret.encode()).hexdigest()


class WebSessionService:
    """Links and sessions on the database. ``clock`` is seconds since the epoch; tests move it."""

    def __init__(self, rt: Runtime, *, clock: Callable[[], float] = time.time) -> None:
        self._rt = rt
        self._clock = clock

    def now(self) -> float:
        return self._clock()

    async def link_token(self, grant: Grant) -> str:
        """A token for one link: valid for LINK_SECONDS, once, unless the member revokes first."""
        token = secrets.token_urlsafe(32)
        now = self._clock()

        async def work(session: AsyncSession) -> None:
            await session.execute(delete(WebLink).where(WebLink.expires < now))
            await session.execute(delete(WebSession).where(WebSession.expires <= now))
            waiting = await session.scalar(select(func.count()).select_from(WebLink).where(WebLink.state == "open"))
            if (waiting or 0) >= MAX_PENDING:
                raise Refused("busy")
            session.add(WebLink(token_hash=digest(token), guild_id=grant.guild_id, user_id=grant.user_id,
                                grant=grant.to_json(), state="open", expires=now + LINK_SECONDS))

        await self._rt.transact(None, work)
        return token

    async def exchange(self, token: str | None) -> Session:
        """The session a link opens, or Refused saying why (a link opens once, in whichever process)."""
        if not token:
            raise Refused("missing")
        if len(token) > 100:
            raise Refused("tampered")
        token_hash, session_id = digest(token), secrets.token_urlsafe(32)
        now = self._clock()

        async def work(session: AsyncSession) -> Session:
            link = (await session.execute(select(WebLink.guild_id, WebLink.user_id, WebLink.grant, WebLink.state,
                                                 WebLink.expires).where(WebLink.token_hash == token_hash))).first()
            if link is None:
                raise Refused("tampered")
            if link.expires < now:
                raise Refused("expired")
            if link.state != "open":
                raise Refused("revoked" if link.state == "revoked" else "used")
            taken = await session.execute(update(WebLink).where(WebLink.token_hash == token_hash,
                                                                WebLink.state == "open").values(state="used"))
            if getattr(taken, "rowcount", 0) != 1:  # another process opened (or withdrew) it just now
                raise Refused("used")
            grant = Grant.from_json(link.guild_id, link.user_id, link.grant)
            opened = Session(session_id, grant, now + SESSION_SECONDS)
            session.add(WebSession(id_hash=digest(session_id), guild_id=grant.guild_id, user_id=grant.user_id,
                                   grant=link.grant, expires=opened.expires))
            return opened

        return await self._rt.transact(None, work)

    async def session(self, session_id: str | None) -> Session | None:
        """The live session of a cookie: None when unknown, expired or revoked."""
        if not session_id or len(session_id) > 100:
            return None
        now = self._clock()

        async def work(session: AsyncSession) -> Session | None:
            row = (await session.execute(select(WebSession.guild_id, WebSession.user_id, WebSession.grant,
                                                WebSession.expires)
                                         .where(WebSession.id_hash == digest(session_id),
                                                WebSession.expires > now))).first()
            if row is None:
                return None
            return Session(session_id, Grant.from_json(row.guild_id, row.user_id, row.grant), row.expires)

        return await self._rt.read(work)

    async def revoke(self, guild_id: int, user_id: int) -> int:
        """End the member's sessions in the guild and withdraw their links not yet opened; how many sessions
        ended. The links first: a link being opened meanwhile either is refused or its session is ended here."""
        async def work(session: AsyncSession) -> int:
            await session.execute(update(WebLink).where(WebLink.guild_id == guild_id, WebLink.user_id == user_id,
                                                        WebLink.state == "open").values(state="revoked"))
            ended = await session.execute(delete(WebSession).where(WebSession.guild_id == guild_id,
                                                                   WebSession.user_id == user_id,
                                                                   WebSession.expires > self._clock()))
            return int(getattr(ended, "rowcount", 0))

        return await self._rt.transact(None, work)
