"""What the engine reads off a stored sheet (its summary, whether it can take its turn), remembered by the
sheet's content.

An encounter's view asks both of every combatant after every command, and each is a full parse of the
sheet by the engine: about twenty parses an attack in a two-NPC fight, more in a large one (issue 23). The
engine's answers are pure functions of the sheet, the catalog and the server's rulings, so they are kept
under a digest of the sheet's and the rulings' content: a sheet changed in any way, by any command or
process, is a new key, and nothing needs telling. The catalog is compared by identity (a pack rebuilt after
an upload is a new catalog), through a weak reference, so that the pack cache's bound still holds. The
answers are frozen records, safe to share.

The digest is of the sheet's ``marshal`` bytes (format 2: no back-references, so the bytes depend only on
the values, their types and the keys' order), about a tenth of the cost of canonical JSON; a view digests
each sheet once for both questions (``key``). The same content with its keys in another order is a miss,
never a wrong answer.

The web roster reads its sheets in a worker thread (bot/services/campaign.py): a lock guards the kept answers and
the counts, never ``compute()`` (two threads may compute the same answer at once; both are the same).
"""

from __future__ import annotations

import hashlib
import marshal
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from rules.model import Catalog

T = TypeVar("T")

SIZE = 4096  # answers kept, least recently used dropped first (a digest and a small record each)


NO_KEY = b""  # the key of a sheet that is not plain data (an object, a Mapping that is not a dict): never kept


def sheet_key(sheet: Any) -> bytes:
    """The digest a sheet (or rulings) is remembered under; ``NO_KEY`` for one that is not plain data."""
    try:
        return hashlib.blake2b(marshal.dumps(sheet, 2), digest_size=16).digest()
    except ValueError:  # a type marshal does not write: not a stored sheet
        return NO_KEY


class SheetReads:
    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._answers: OrderedDict[tuple[str, str, int, bytes, bytes], tuple[weakref.ref[Any], Any]] = OrderedDict()
        self.hits = self.misses = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._answers)

    def get(self, what: str, system: str, sheet: Mapping[str, Any], catalog: Catalog,
            rulings: Mapping[str, Any] | None, compute: Callable[[], T], *, key: bytes | None = None) -> T:
        """``compute()``'s answer (``what`` names the question), or the one it gave before for a sheet, catalog
        and rulings like these. ``key``: ``sheet_key(sheet)``, when the caller has it already."""
        digest = sheet_key(sheet) if key is None else key
        ruled = sheet_key(rulings) if rulings is not None else b"-"
        if digest == NO_KEY or ruled == NO_KEY:
            return compute()
        try:
            held = weakref.ref(catalog)
        except TypeError:  # no weak reference to it
            return compute()
        key_of = (what, system, id(catalog), digest, ruled)
        with self._lock:
            found = self._answers.get(key_of)
            if found is not None and found[0]() is catalog:
                self._answers.move_to_end(key_of)
                self.hits += 1
                answer: T = found[1]
                return answer
            self.misses += 1
        answer = compute()
        with self._lock:
            self._answers[key_of] = (held, answer)
            self._answers.move_to_end(key_of)
            while len(self._answers) > self.size:
                self._answers.popitem(last=False)
        return answer
