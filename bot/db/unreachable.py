"""Whether a failed statement means the database server is not answering (stopped, restarting, the network gone):
then the transaction never committed, nothing was saved, and the user is told so in one line (bot/errors.py
``DatabaseNotAnswering``), not with the internal-error apology."""

from __future__ import annotations

import errno

from bot.db.wrapped import wrapped

# PostgreSQL's SQLSTATE class 08 (connection exception) and the server going away (57P01 admin shutdown,
# 57P02 crash shutdown, 57P03 cannot connect now: starting up or shutting down).
SHUTTING_DOWN = frozenset({"57P01", "57P02", "57P03"})


def is_unreachable(error: BaseException) -> bool:
    """``error`` (or what it wraps: SQLAlchemy's ``orig``, a cause) says the database server cannot be reached."""
    return any(_says_unreachable(found) for found in wrapped(error))


def _says_unreachable(found: BaseException) -> bool:
    if isinstance(found, ConnectionError) or (isinstance(found, OSError) and found.errno in (
            errno.ECONNREFUSED, errno.ECONNRESET, errno.EHOSTUNREACH, errno.ENETUNREACH, errno.ETIMEDOUT)):
        return True
    if getattr(found, "connection_invalidated", False):  # SQLAlchemy: the connection died under the statement
        return True
    state = getattr(found, "sqlstate", None) or getattr(found, "pgcode", None)
    if isinstance(state, str) and (state.startswith("08") or state in SHUTTING_DOWN):
        return True
    return type(found).__name__ in ("ConnectionDoesNotExistError", "InterfaceError") \
        and "connection" in str(found).lower() and "closed" in str(found).lower()
