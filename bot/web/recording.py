"""For tests: every byte each session received (pages, pictures, live frames), to look for planted secrets."""

from __future__ import annotations

from collections import defaultdict

from aiohttp import web

from bot.web.http import SESSION_ID
from bot.web.sessions import Session


def label(session: Session) -> str:
    """``gm:<user id>``, ``player:<user id>`` or ``table:<channel id>``."""
    grant = session.grant
    return f"table:{grant.table_channel}" if grant.role == "table" else f"{grant.role}:{grant.user_id}"


class Recorder:
    def __init__(self) -> None:
        self._labels: dict[str, str] = {}
        self.bodies: dict[str, list[tuple[str, bytes]]] = defaultdict(list)  # label -> (path, body) in order

    def opened(self, request: web.Request, session: Session) -> None:
        self._labels[session.id] = label(session)

    def received(self, request: web.Request, body: bytes) -> None:
        session_id = request.get(SESSION_ID)
        who = self._labels.get(session_id, "anonymous") if isinstance(session_id, str) else "anonymous"
        self.bodies[who].append((request.path, body))

    def of(self, who: str) -> bytes:
        """Everything ``who`` (a label) received, joined."""
        return b"\n".join(body for _, body in self.bodies.get(who, []))
