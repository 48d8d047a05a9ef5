"""Discord-style identifiers: snowflakes, tokens and ISO timestamps."""

from __future__ import annotations

import base64
import datetime as dt
import secrets
import time

DISCORD_EPOCH_MS = 1_420_070_400_000


class SnowflakeFactory:
    """Hands out strictly increasing snowflakes (timestamp << 22 | worker << 17 | process << 12 | seq)."""

    def __init__(self, worker: int = 1, process: int = 0) -> None:
        self._worker = worker & 0x1F
        self._process = process & 0x1F
        self._last_ms = 0
        self._increment = 0

    def next(self) -> int:
        now_ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        if now_ms <= self._last_ms:
            self._increment += 1
            if self._increment > 0xFFF:
                # Borrow the next millisecond instead of blocking.
                self._last_ms += 1
                self._increment = 0
            now_ms = self._last_ms
        else:
            self._increment = 0
        self._last_ms = now_ms
        return (now_ms << 22) | (self._worker << 17) | (self._process << 12) | self._increment

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """A snowflake that shard ``shard_id`` of ``shard_count`` serves: ``(id >> 22) % shard_count``, as
        Discord routes a guild. Its timestamp moves up to ``shard_count - 1`` ms ahead; later ids follow it."""
        snowflake = self.next()
        ahead = (shard_id - (snowflake >> 22)) % shard_count
        if ahead:
            self._last_ms += ahead
            self._increment = 0
            snowflake = (self._last_ms << 22) | (self._worker << 17) | (self._process << 12)
        return snowflake


def snowflake_time(snowflake: int) -> dt.datetime:
    ms = (snowflake >> 22) + DISCORD_EPOCH_MS
    return dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC)


def iso_timestamp(moment: dt.datetime | None = None) -> str:
    moment = moment or dt.datetime.now(dt.UTC)
    return moment.isoformat(timespec="microseconds")


def _b64(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def bot_token(bot_id: int) -> str:
    """A token shaped like Discord's: base64(user id) . timestamp part . HMAC part."""
    return f"{_b64(str(bot_id))}.{secrets.token_urlsafe(4)[:6]}.{secrets.token_urlsafe(27)[:38]}"


def interaction_token(interaction_id: int) -> str:
    return "aW50ZXJhY3Rpb246" + _b64(f"{interaction_id}:{secrets.token_urlsafe(48)}")


def session_id() -> str:
    return secrets.token_hex(16)
