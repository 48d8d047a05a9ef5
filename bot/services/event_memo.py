"""A log entry as a viewer reads it, remembered by the stored event's content.

Reading one stored action for a log (its outcome record parsed by the rules' tolerant reader, projected for the
viewer) costs a millisecond or more; a busy page reads 200 of them, and
many readers read the same ones (the web page's viewers of one fight, /log after /log). What a viewer reads depends
only on the stored payload, the event's kind and who reads it (bot/services/projection.py), so the result is kept
under exactly that: the payload's JSON text (digested), the kind, the viewer's seat, secret-roll mode and user, and
whether the characters it names are NPCs (an old edit's sheet, an action's actor and target). A payload changed in
place (an answered offer, a defence prompt's answer) has another text, so another key: nothing is ever read stale. The
row's other columns (undone, message id ...) are never kept; each view is built from the row it is asked for, around
the kept record, which is frozen (no reader changes what another one gets).

The typed record each payload reads as (``read_event``, before any projection) is kept too, under the payload's
digest and the kind alone: it is the same for every viewer, so a page's second kind of viewer, or the log's page
after the fight's page, does not read the same 200 payloads again.

Readers call it from worker threads (bot/services/records.py ``logged``): a lock guards the kept entries and the
counts, never ``read()`` itself (two threads may read the same event at once; both answers are the same).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from bot.db.models import Event
from bot.services.event_records import EventRecord
from bot.services.results import EventView, view_around
from bot.services.viewer import Viewer

SIZE = 2048  # entries: the newest 200 of a few busy channels, for each kind of viewer (a few KiB each)
Key = tuple[bytes, str, str, bool, int | None, Hashable]


class EventMemo:
    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._kept: OrderedDict[Key, EventRecord] = OrderedDict()
        self._parsed: OrderedDict[tuple[bytes, str], EventRecord] = OrderedDict()  # (digest, kind): read_event's
        self.hits = 0
        self.misses = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._kept)

    @staticmethod
    def digest(row: Event) -> bytes | None:
        """The digest of ``row``'s payload as JSON text (None: not JSON, never from the database)."""
        try:
            text = json.dumps(row.payload, sort_keys=True, separators=(",", ":"))
        except (TypeError, ValueError):
            return None
        return hashlib.blake2b(text.encode(), digest_size=16).digest()

    def record(self, row: Event, digest: bytes | None, read: Callable[[], EventRecord]) -> EventRecord:
        """``row``'s payload as its typed record (``read()``: ``read_event`` of it), kept or read now. ``digest``:
        ``self.digest(row)`` (None: read, not kept)."""
        if digest is None:
            return read()
        key = (digest, row.kind)
        with self._lock:
            kept = self._parsed.get(key)
            if kept is not None:
                self._parsed.move_to_end(key)
                return kept
        record = read()
        with self._lock:
            self._parsed[key] = record
            if len(self._parsed) > self.size:
                self._parsed.popitem(last=False)
        return record

    def view(self, row: Event, viewer: Viewer, looked_up: Hashable, read: Callable[[], EventView],
             digest: bytes | None = None) -> EventView:
        """``row`` as ``viewer`` reads it in a log: ``read()``'s answer, kept or made now. ``looked_up``: what
        ``read`` looks up besides the row (whether the characters it names are NPCs, bot/services/records.py);
        ``digest``: ``self.digest(row)`` when the caller has it."""
        digest = digest or self.digest(row)
        if digest is None:  # not JSON (never from the database): read it afresh
            return read()
        key: Key = (digest, row.kind, viewer.seat.name, viewer.secret_rolls, viewer.user_id, looked_up)
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None:
                self.hits += 1
                self._kept.move_to_end(key)
            else:
                self.misses += 1
        if kept is not None:
            return view_around(row, kept)
        seen = read()
        with self._lock:
            self._kept[key] = seen.record
            if len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return seen


MEMO = EventMemo()  # one per process: keyed by content, it is right for every bot and database
