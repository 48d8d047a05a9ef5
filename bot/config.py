"""The process configuration, read from the environment (a small frozen dataclass; no settings framework needed)."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.db.engine import DEFAULT_DATABASE_URL

LOG_LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")
LOG_FORMATS = ("json", "text")
DEFAULT_HEALTH_PORT = 8081
DEFAULT_STALL_MS = 100


class ConfigError(Exception):
    """A setting that is missing or unreadable; the message is one line naming the variable."""


class MissingToken(ConfigError):
    def __init__(self) -> None:
        super().__init__("DISCORD_TOKEN is not set: put the bot's token in the environment (see deploy/.env.example),"
                         " or play offline with: grievous playground --demo")


@dataclass(frozen=True)
class Config:
    token: str = field(repr=False)
    database_url: str = DEFAULT_DATABASE_URL
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None  # this process's shards; None: all of them
    sync_commands: bool = False  # only one process of several should sync the command tree
    log_level: str = "INFO"
    log_format: str = "json"  # json: one JSON object a line; text: key=value lines for a terminal
    # The health and metrics endpoint (GET /healthz, /metrics); None: no endpoint. 0 picks a free port.
    health_host: str = "127.0.0.1"
    health_port: int | None = DEFAULT_HEALTH_PORT
    stall_ms: int = DEFAULT_STALL_MS  # the watchdog logs every event-loop stall longer than this
    # How long reading an upload or building a pack may take before the command is refused with one line
    # (None: bot/services/slow_work.py's WORK_BUDGET, 10 s). A slow machine may give it more.
    work_seconds: int | None = None
    # The database connection pool (SQLAlchemy's QueuePool): connections kept open, and how many more a
    # burst may open. None: SQLAlchemy's defaults, 5 and 10. See docs/scaling.md for the budget.
    db_pool_size: int | None = None
    db_max_overflow: int | None = None
    # The campaign web page (bot/web/). WEB_BASE_URL is the address the /web links carry (behind a reverse proxy: its
    # public https address); WEB_PORT the port this process serves the page on. WEB_BASE_URL alone: the bot makes
    # the links and serves no page (`grievous web` processes do, docs/operations.md).
    web_host: str = "127.0.0.1"
    web_port: int | None = None
    web_base_url: str | None = None
    # Reverse proxies whose X-Forwarded-For is believed (for the token exchange's per-address rate limit).
    web_trusted_proxies: tuple[str, ...] = ()

    @property
    def web_serves(self) -> bool:
        """This process serves the page (``grievous run`` then makes the /web links too)."""
        return self.web_port is not None and self.web_base_url is not None

    def pool_options(self) -> dict[str, int]:
        """Engine options for ``Database.from_url``: only the ones set."""
        options = {"pool_size": self.db_pool_size, "max_overflow": self.db_max_overflow}
        return {name: value for name, value in options.items() if value is not None}

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, *, require_token: bool = True) -> Config:
        env = os.environ if env is None else env
        token = env.get("DISCORD_TOKEN", "").strip()
        if require_token and not token:
            raise MissingToken
        shard_count = _int(env, "SHARD_COUNT")
        shard_ids = _shard_ids(env.get("SHARD_IDS", ""))
        if shard_ids is not None and shard_count is None:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT (the total number of shards) as well")
        if shard_ids is not None and shard_count is not None and max(shard_ids) >= shard_count:
            raise ConfigError(f"SHARD_IDS go up to {max(shard_ids)}, but SHARD_COUNT is {shard_count}")
        level = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in LOG_LEVELS:
            raise ConfigError(f"LOG_LEVEL is one of {', '.join(LOG_LEVELS)}, not '{level}'")
        log_format = env.get("LOG_FORMAT", "json").strip().lower() or "json"
        if log_format not in LOG_FORMATS:
            raise ConfigError(f"LOG_FORMAT is one of {', '.join(LOG_FORMATS)}, not '{log_format}'")
        web_port, web_base_url = _web_port(env.get("WEB_PORT", "")), _base_url(env.get("WEB_BASE_URL", ""))
        if web_port is not None and web_base_url is None:
            raise ConfigError("the web page needs WEB_BASE_URL (the address its links carry) beside WEB_PORT (where "
                              "it listens); set both, or neither to keep it off")
        stall_ms = _int(env, "STALL_LOG_MS")
        overflow = _int(env, "DATABASE_MAX_OVERFLOW", low=0)
        return cls(
            token=token,
            database_url=env.get("DATABASE_URL", "").strip() or DEFAULT_DATABASE_URL,
            shard_count=shard_count,
            shard_ids=shard_ids,
            sync_commands=_bool(env, "SYNC_COMMANDS"),
            log_level=level,
            log_format=log_format,
            health_host=env.get("HEALTH_HOST", "").strip() or "127.0.0.1",
            health_port=_port(env.get("HEALTH_PORT", "")),
            stall_ms=stall_ms if stall_ms is not None else DEFAULT_STALL_MS,
            work_seconds=_int(env, "WORK_SECONDS"),
            db_pool_size=_int(env, "DATABASE_POOL_SIZE"),
            db_max_overflow=overflow,
            web_host=env.get("WEB_HOST", "").strip() or "127.0.0.1",
            web_port=web_port,
            web_base_url=web_base_url,
            web_trusted_proxies=tuple(p.strip() for p in env.get("WEB_TRUSTED_PROXIES", "").split(",") if p.strip()),
        )


def _int(env: Mapping[str, str], name: str, *, low: int = 1) -> int | None:
    text = env.get(name, "").strip()
    if not text:
        return None
    try:
        value = int(text)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, not '{text}'") from None
    if value < low:
        raise ConfigError(f"{name} must be at least {low}, not {value}")
    return value


def _port(text: str) -> int | None:
    """HEALTH_PORT: empty for the default, "off" for no endpoint, else a port (0 picks a free one)."""
    text = text.strip().lower()
    if not text:
        return DEFAULT_HEALTH_PORT
    if text in ("off", "none", "false", "no"):
        return None
    if not text.isdigit() or int(text) > 65535:
        raise ConfigError(f"HEALTH_PORT is a port number (0-65535) or off, not '{text}'")
    return int(text)


def _web_port(text: str) -> int | None:
    """WEB_PORT: empty or off for no web page, else a port (0 picks a free one)."""
    text = text.strip().lower()
    if text in ("", "off", "none", "false", "no"):
        return None
    if not text.isdigit() or int(text) > 65535:
        raise ConfigError(f"WEB_PORT is a port number (0-65535) or off, not '{text}'")
    return int(text)


def _base_url(text: str) -> str | None:
    """WEB_BASE_URL: where a browser reaches the page (``https://grievous.example.org``), without a path's
    trailing slash; empty for no web page."""
    text = text.strip().rstrip("/")
    if not text:
        return None
    if not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", text):
        raise ConfigError(f"WEB_BASE_URL is an http or https address like https://grievous.example.org, not '{text}'")
    return text


def _bool(env: Mapping[str, str], name: str) -> bool:
    text = env.get(name, "").strip().lower()
    if text in ("", "0", "false", "no", "off"):
        return False
    if text in ("1", "true", "yes", "on"):
        return True
    raise ConfigError(f"{name} must be true or false, not '{text}'")


def _shard_ids(text: str) -> tuple[int, ...] | None:
    """``"0-3"``, ``"0,2,5"`` or ``"0-3,8"`` as sorted shard ids; empty means all shards."""
    text = text.strip()
    if not text:
        return None
    ids: set[int] = set()
    try:
        for part in text.split(","):
            low, _, high = part.strip().partition("-")
            start, end = int(low), int(high) if high else int(low)
            if start < 0 or end < start:
                raise ValueError
            ids.update(range(start, end + 1))
    except ValueError:
        raise ConfigError(f"SHARD_IDS is a list like 0-3 or 0,2,5, not '{text}'") from None
    return tuple(sorted(ids))
