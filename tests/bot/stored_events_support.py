"""What the three `test_<system>_stored_events.py` modules share: the fixtures of events stored before the
typed outcomes (issue 19), and the words each rendered to.

``fixtures/<system>_events.json`` holds the payloads the code of 2026-12-02 stored for every action of a
system, and the outcomes of the actions the bot does not store; they are never regenerated.
``fixtures/<system>_words.json`` holds what each renders to: the describer's headline, fields, public lines and
severity, and the Details embed. A change of wording made on purpose rewrites the words file
(``GRIEVOUS_WRITE_WORDS=1``), and its diff is the list of what changed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from bot.services.event_records import read_event
from bot.services.results import EventView
from bot.ui.action_embeds import event_details
from bot.ui.outcomes import describe

FIXTURES = Path(__file__).parent / "fixtures"


def stored_events(system: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = json.loads(
        (FIXTURES / f"{system.replace('-', '_')}_events.json").read_text(encoding="utf-8"))["events"]
    return events


def words_of(system: str, event: dict[str, Any]) -> dict[str, Any]:
    payload = event["payload"]
    actor = str(payload.get("actor") or "?")
    target = payload.get("target") or actor
    words = describe(system, payload["outcome"], (actor, target))
    view = EventView(id=1, kind=event["kind"], channel_id=1, encounter_id=None, user_id=1, user_name="gm",
                     record=read_event(event["kind"], payload))
    return {"headline": words.headline, "fields": [list(f) for f in words.fields], "brief": words.brief,
            "numbers": words.numbers, "severity": words.severity.name, "details": event_details(view).to_dict()}


def check_renders_as_it_did(system: str, event: dict[str, Any]) -> None:
    words_file = FIXTURES / f"{system.replace('-', '_')}_words.json"
    expected = json.loads(words_file.read_text(encoding="utf-8")) if words_file.exists() else {}
    got = words_of(system, event)
    if os.environ.get("GRIEVOUS_WRITE_WORDS"):
        expected[event["source"]] = got
        words_file.write_text(json.dumps(expected, indent=1, ensure_ascii=False, sort_keys=True) + "\n",
                              encoding="utf-8")
        return
    assert got == expected[event["source"]]
