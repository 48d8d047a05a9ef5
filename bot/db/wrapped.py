"""The exceptions a database error wraps: a driver's error inside SQLAlchemy's (``orig``), a cause, a context.
How a failed statement is recognised (storage full, server unreachable) looks at each of them."""

from __future__ import annotations

from collections.abc import Iterator


def wrapped(error: BaseException) -> Iterator[BaseException]:
    """``error`` and every exception it wraps (its ``orig``, ``__cause__``, ``__context__`` and theirs), once each."""
    seen: set[int] = set()
    pending: list[BaseException | None] = [error]
    while pending:
        found = pending.pop()
        if found is None or id(found) in seen:
            continue
        seen.add(id(found))
        yield found
        pending += [getattr(found, "orig", None), found.__cause__, found.__context__]
