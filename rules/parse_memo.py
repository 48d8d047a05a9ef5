"""Parsed sheets remembered by the sheet's content, so that a sheet read again is not parsed again.

The bot hands an engine the same stored sheet many times: ``resolve`` for each action on it, the encounter's
view (its summary and turn readiness), the wound picture. Parsing is a pure function of the sheet and the
catalog, and the parsed characters are frozen, so an engine may keep them: ``ParseMemo.get`` gives the one
parsed before for a sheet of the same content and the same catalog (by identity, through a weak reference).

The key is a digest of the sheet's ``marshal`` bytes (format 2: the values, their types and the keys' order;
no back-references, no interning), so a sheet changed in any way, even in place, is parsed again, and ``True``
is not ``1``. A sheet marshal cannot write (a Mapping that is not a dict, an object inside) is parsed every time.
Only a sheet that parsed is kept: a mistake is raised again, naming whoever asked. The parsed record must never
be changed in place (the engines replace, they do not mutate: tests/rules/test_engine_purity.py), and it must
share nothing mutable with the sheet it was read from or the sheets written from it (``plain_copy``): it is
handed out for every sheet of that content, and a change inside one of those must not reach it.
"""

from __future__ import annotations

import hashlib
import marshal
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")

SIZE = 2048  # parsed sheets kept, least recently used dropped first


def plain_copy(value: Any) -> Any:
    """``value`` copied all the way down through its dicts, lists and tuples, each kept the type it was (a list
    is not equal to a tuple); anything else is shared as it is."""
    if isinstance(value, dict):
        return {k: plain_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain_copy(v) for v in value]
    if isinstance(value, tuple):
        return tuple(plain_copy(v) for v in value)
    return value


def content_key(sheet: Any) -> bytes | None:
    """A digest of ``sheet``'s content, or None when it is not plain data."""
    try:
        return hashlib.blake2b(marshal.dumps(sheet, 2), digest_size=16).digest()
    except ValueError:
        return None


class ParseMemo(Generic[T]):
    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[int, bytes], tuple[weakref.ref[Any], T]] = OrderedDict()
        self._lock = threading.Lock()  # the bot also parses in worker threads
        self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._kept)

    def get(self, sheet: Any, catalog: Any, parse: Callable[[], T]) -> T:
        """``parse()``'s result for ``sheet`` under ``catalog``, or the one it gave for a sheet like it."""
        digest = content_key(sheet)
        if digest is None:
            return parse()
        key = (id(catalog), digest)
        with self._lock:
            found = self._kept.get(key)
            if found is not None and found[0]() is catalog:
                self._kept.move_to_end(key)
                self.hits += 1
                return found[1]
        parsed = parse()
        try:
            held = weakref.ref(catalog)
        except TypeError:
            return parsed
        with self._lock:
            self.misses += 1
            self._kept[key] = (held, parsed)
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return parsed
