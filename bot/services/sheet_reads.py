"""What the engine reads off a stored sheet (its summary, whether it can take its turn), remembered by the
sheet's content.

An encounter's view asks both of every combatant after every command, and each is a full parse of the
sheet by the engine: about twenty parses an attack in a two-NPC fight, more in a large one (issue 23). The
engine's answers are pure functions of the sheet, the catalog and the server's rulings, so they are kept
under a digest of the sheet's and the rulings' canonical JSON: a sheet changed in any way, by any command or
process, is a new key, and nothing needs telling. The catalog is compared by identity (a pack rebuilt after
an upload is a new catalog), through a weak reference, so that the pack cache's bound still holds. The
answers are frozen records, safe to share.
"""

from __future__ import annotations

import hashlib
import json
import weakref
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

T = TypeVar("T")

SIZE = 4096  # answers kept, least recently used dropped first (a digest and a small record each)


def _digest(*parts: Mapping[str, Any] | None) -> bytes:
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), allow_nan=True)
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


class SheetReads:
    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._answers: OrderedDict[tuple[str, str, int, bytes], tuple[weakref.ref[Any], Any]] = OrderedDict()
        self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._answers)

    def get(self, what: str, system: str, sheet: Mapping[str, Any], catalog: object,
            rulings: Mapping[str, Any] | None, compute: Callable[[], T]) -> T:
        """``compute()``'s answer (``what`` names the question), or the one it gave before for a sheet, catalog
        and rulings like these."""
        try:
            key = (what, system, id(catalog), _digest(sheet, rulings))
            held = weakref.ref(catalog)
        except (TypeError, ValueError):  # not JSON (keys of mixed types, an object), or no weak reference
            return compute()
        found = self._answers.get(key)
        if found is not None and found[0]() is catalog:
            self._answers.move_to_end(key)
            self.hits += 1
            answer: T = found[1]
            return answer
        self.misses += 1
        answer = compute()
        self._answers[key] = (held, answer)
        self._answers.move_to_end(key)
        while len(self._answers) > self.size:
            self._answers.popitem(last=False)
        return answer
