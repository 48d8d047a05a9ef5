"""Keep the bot's token and interaction tokens out of every log line and every reply: the token itself,
anything shaped like a Discord token (three dot-separated base64url parts: the bot's id, a timestamp, an
HMAC), and an interaction's token (valid for 15 minutes: whoever holds it may answer and edit as the bot)
become ``[redacted]``. discord.py's DEBUG lines carry those in the webhook and callback URLs
(``/webhooks/<app>/<token>/...``, ``/interactions/<id>/<token>/callback``) and gateway payloads
(``"token": "..."``)."""

from __future__ import annotations

import re

REDACTED = "[redacted]"
# Each character of a token may come with a backslash before it: a refusal's line is made plain whole, markdown
# escaped (bot/ui/replies.py ``refusal``), and a token typed into it reads ``fOoo\_g`` there.
_ESCAPE = r"\\?"
_PART = rf"(?:{_ESCAPE}[A-Za-z0-9_-])"
# A Discord bot token: base64 of the user id (>= 17 digits, so >= 23 characters), a 6-character timestamp,
# and an HMAC of 27 or more characters.
TOKEN_SHAPE = re.compile(rf"{_PART}{{23,}}{_ESCAPE}\.{_PART}{{6}}{_ESCAPE}\.{_PART}{{27,}}")

# Interaction tokens are base64 of "interaction:<id>:<secret>"; any other in a URL path or a payload field.
INTERACTION_TOKEN = re.compile(rf"aW50ZXJhY3Rpb246(?:{_ESCAPE}[A-Za-z0-9_\-=+/])+")
_IN_PATH = re.compile(r"(/(?:webhooks|interactions)/[0-9]+/)([^/?#\s'\"]{20,})")
_IN_FIELD = re.compile(r"""(['"]token['"]\s*:\s*['"])([^'"]{20,})""")

_secrets: dict[str, re.Pattern[str]] = {}  # a secret -> the secret with its characters' escapes allowed


def add_secret(secret: str | None) -> None:
    """Redact ``secret`` too, wherever it appears, escaped as markdown or not (the bot's token, whatever its shape)."""
    if secret and len(secret) >= 8:
        _secrets[secret] = re.compile("".join(_ESCAPE + re.escape(c) for c in secret))


def redact(text: str) -> str:
    for secret, escaped in _secrets.items():
        if secret in text:
            text = text.replace(secret, REDACTED)
        if "\\" in text:
            text = escaped.sub(REDACTED, text)
    if "aW50ZXJhY3Rpb246" in text:
        text = INTERACTION_TOKEN.sub(REDACTED, text)
    if "/webhooks/" in text or "/interactions/" in text:
        text = _IN_PATH.sub(r"\1" + REDACTED, text)
    if "token" in text:
        text = _IN_FIELD.sub(r"\1" + REDACTED, text)
    return TOKEN_SHAPE.sub(REDACTED, text) if "." in text else text
