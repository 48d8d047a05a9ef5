"""The stored events of every kind, in all three systems, and the words each renders to (issue 38).

``fixtures/<system>_event_kinds.json`` holds the events the code of 2026-12-07 stored (before the typed event
records) when it played every example playground script and ``fixtures/event_scripts/<system>.txt`` (the kinds the
examples leave out: /roll, edits, leave, delay, declare, order, /undo, an NPC's sheet under secret rolls). They are
never regenerated: they stand for the events already in a database.

``fixtures/event_kinds_words.json`` holds what each renders to, for the GM, a player and the channel, with the
server's secret rolls on and off: its /log line (``event_line``) and its Details (``event_details``). A change of
wording made on purpose rewrites it (``GRIEVOUS_WRITE_WORDS=1``), and its diff is the list of what changed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from bot.errors import PermissionDenied
from bot.services.event_records import ActionEvent, Hidden, read_event
from bot.services.projection import projected
from bot.services.records import _logged
from bot.services.results import EventView
from bot.services.viewer import Seat, Viewer
from bot.ui.action_embeds import event_details
from bot.ui.record_embeds import event_line

FIXTURES = Path(__file__).parent / "fixtures"
WORDS = FIXTURES / "event_kinds_words.json"
SYSTEMS = ("ars-harn", "pendragon", "fading-suns")

# who reads: the seat, and whether the server keeps NPC rolls secret
VIEWERS = {"gm": Viewer(Seat.GM, True, 1), "player": Viewer(Seat.PLAYER, True, 2),
           "table": Viewer(Seat.TABLE, True), "player-open": Viewer(Seat.PLAYER, False, 2)}


def stored(system: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = json.loads(
        (FIXTURES / f"{system.replace('-', '_')}_event_kinds.json").read_text(encoding="utf-8"))["events"]
    return events


def view_of(event: dict[str, Any]) -> EventView:
    return EventView(id=event["id"], kind=event["kind"], channel_id=1, encounter_id=None, user_id=1,
                     user_name=event["user_name"],
                     record=read_event(event["kind"], json.loads(json.dumps(event["payload"]))),
                     undone=event["undone"])


def details(event: dict[str, Any], viewer: Viewer) -> Any:
    """What the Details button shows ``viewer`` (as ``RecordService.event`` reads it), or why it shows nothing."""
    if "outcome" not in event["payload"]:
        return "no details"
    seen = projected(view_of(event), viewer)
    if isinstance(seen.record, ActionEvent) and isinstance(seen.record.rolls, Hidden):
        return f"refused: {PermissionDenied.__name__}"
    return event_details(seen).to_dict()


def words_of(event: dict[str, Any]) -> dict[str, Any]:
    """The event's /log line and Details for each viewer; a viewer's Details the GM's are written ``= gm``."""
    lines = {name: event_line(_logged(view_of(event), viewer, frozenset())) for name, viewer in VIEWERS.items()}
    shown: dict[str, Any] = {}
    for name, viewer in VIEWERS.items():
        got = details(event, viewer)
        shown[name] = "= gm" if name != "gm" and got == shown["gm"] else got
    return {"log": lines, "details": shown}


def expected_words() -> dict[str, Any]:
    words: dict[str, Any] = json.loads(WORDS.read_text(encoding="utf-8")) if WORDS.exists() else {}
    return words


def write_words() -> bool:
    """Rewrite the words file from what the code renders now (``GRIEVOUS_WRITE_WORDS=1``); True if it did."""
    if not os.environ.get("GRIEVOUS_WRITE_WORDS"):
        return False
    words = {system: {e["source"]: words_of(e) for e in stored(system)} for system in SYSTEMS}
    WORDS.write_text(json.dumps(words, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
    return True
