"""Whether the database's storage is full: how a write failed for want of space is recognised, and what the
process remembers of it (for the one line users get and for ``/healthz`` and ``grievous health``).

SQLite says SQLITE_FULL ("database or disk is full"), PostgreSQL SQLSTATE 53100 (disk_full), the operating
system ENOSPC. A transaction that fails so is rolled back whole: nothing was saved. The next write that
commits clears the state, so the bot recovers without a restart once space is freed.
"""

from __future__ import annotations

import errno
import logging
import time
from dataclasses import dataclass

from bot.db.wrapped import wrapped

log = logging.getLogger("grievous")

SQLITE_FULL = 13
PG_DISK_FULL = "53100"


def is_storage_full(error: BaseException) -> bool:
    """``error`` (or what it wraps: SQLAlchemy's ``orig``, a cause) is a write refused for want of space."""
    return any(_says_full(found) for found in wrapped(error))


def _says_full(found: BaseException) -> bool:
    if isinstance(found, OSError) and found.errno == errno.ENOSPC:
        return True
    if getattr(found, "sqlite_errorcode", None) == SQLITE_FULL or "database or disk is full" in str(found):
        return True
    return getattr(found, "sqlstate", None) == PG_DISK_FULL or getattr(found, "pgcode", None) == PG_DISK_FULL


@dataclass
class StorageState:
    """``full`` is None while writes succeed; else when the last write failed for want of space, and why."""

    full_since: float | None = None
    cause: str = ""

    def failed(self, error: BaseException) -> None:
        if self.full_since is None:
            self.full_since = time.time()
            log.error("the database's storage is full: writes fail and nothing is saved until space is freed (%s)",
                      _first_line(error))
        self.cause = _first_line(error)

    def written(self) -> None:
        if self.full_since is not None:
            log.warning("the database's storage has room again: writes are saved")
            self.full_since = None
            self.cause = ""

    def check(self) -> str:
        """``ok``, or the health line: since when writes fail."""
        if self.full_since is None:
            return "ok"
        since = time.strftime("%H:%M:%S UTC", time.gmtime(self.full_since))
        return f"full since {since}: writes fail, nothing is saved ({self.cause})"


def _first_line(error: BaseException) -> str:
    cause = getattr(error, "orig", None) or error
    text = (str(cause).strip().splitlines() or [type(cause).__name__])[0]
    return text[:200]
