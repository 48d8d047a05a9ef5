"""Keep the bot's token out of every log line and every reply: the token itself, and anything shaped like a
Discord token (three dot-separated base64url parts: the bot's id, a timestamp, an HMAC), becomes
``[redacted]``."""

from __future__ import annotations

import re

REDACTED = "[redacted]"
# A Discord bot token: base64 of the user id (>= 17 digits, so >= 23 characters), a 6-character timestamp,
# and an HMAC of 27 or more characters.
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{23,}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,}")

_secrets: set[str] = set()


def add_secret(secret: str | None) -> None:
    """Redact ``secret`` too, wherever it appears (the bot's token, whatever its shape)."""
    if secret and len(secret) >= 8:
        _secrets.add(secret)


def redact(text: str) -> str:
    for secret in _secrets:
        if secret in text:
            text = text.replace(secret, REDACTED)
    return TOKEN_SHAPE.sub(REDACTED, text) if "." in text else text
