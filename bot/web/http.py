"""What the web server and its pages share: the address prefix, the headers, the viewer's key, and ``Problem``."""

from __future__ import annotations

from aiohttp import web

from bot.web.viewer import Viewer

PREFIX = "/web"
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
VIEWER = web.RequestKey("viewer", Viewer)
SESSION_ID = web.RequestKey("session_id", str)
NEW_LINK = "Ask the bot for a new link with /web in your Discord server."


class Problem(Exception):
    """A page that cannot be shown: its HTTP status and the one line the reader gets."""

    def __init__(self, status: int, line: str) -> None:
        super().__init__(line)
        self.status = status
        self.line = line
