"""Events stored before the typed outcomes (issue 19) still render, in the words they had.

``fixtures/pendragon_events.json`` holds the payloads the code of 2026-12-02 stored for every Pendragon action
(the events table after ``fixtures/pendragon_events.txt`` and the shipped Pendragon playground scripts), and the
outcomes of the actions the bot does not store. They are never regenerated. ``fixtures/pendragon_words.json``
holds what each renders to: the describer's headline, fields, public lines and severity, and the Details
embed. A change of wording made on purpose rewrites the words file (``GRIEVOUS_WRITE_WORDS=1``), and its diff
is the list of what changed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from bot.services.views import EventView
from bot.ui.action_embeds import event_details
from bot.ui.outcomes import describe

FIXTURES = Path(__file__).parent / "fixtures"
EVENTS = json.loads((FIXTURES / "pendragon_events.json").read_text(encoding="utf-8"))["events"]
WORDS_FILE = FIXTURES / "pendragon_words.json"


def words_of(event: dict[str, Any]) -> dict[str, Any]:
    payload = event["payload"]
    actor = str(payload.get("actor") or "?")
    target = payload.get("target") or actor
    words = describe("pendragon", payload["outcome"], (actor, target))
    view = EventView(id=1, kind=event["kind"], channel_id=1, encounter_id=None, user_id=1, user_name="gm",
                     summary=payload)
    return {"headline": words.headline, "fields": [list(f) for f in words.fields], "brief": words.brief,
            "numbers": words.numbers, "severity": words.severity.name, "details": event_details(view).to_dict()}


def test_every_action_the_engine_has_is_in_the_fixtures() -> None:
    from rules.pendragon.engine import ACTIONS

    kinds = {str(e["payload"]["outcome"].get("action")) for e in EVENTS}
    assert kinds == set(ACTIONS)


@pytest.mark.parametrize("event", EVENTS, ids=[e["source"] for e in EVENTS])
def test_a_stored_event_renders_as_it_did(event: dict[str, Any]) -> None:
    expected = json.loads(WORDS_FILE.read_text(encoding="utf-8")) if WORDS_FILE.exists() else {}
    got = words_of(event)
    if os.environ.get("GRIEVOUS_WRITE_WORDS"):
        expected[event["source"]] = got
        WORDS_FILE.write_text(json.dumps(expected, indent=1, ensure_ascii=False, sort_keys=True) + "\n",
                              encoding="utf-8")
        return
    assert got == expected[event["source"]]



@pytest.mark.parametrize("event", EVENTS, ids=[e["source"] for e in EVENTS])
def test_a_stored_outcome_reads_back_as_its_record_and_writes_the_same_shape(event: dict[str, Any]) -> None:
    """The typed record holds every key an event stored: reading a payload and writing it again gives the same
    mapping, so nothing an old event kept is lost to the records. Only ``gm_decision`` (the first of
    ``gm_decisions``, written twice before the records) is no longer written."""
    from rules.pendragon.outcomes import RECORDS

    stored = dict(event["payload"]["outcome"])
    record = RECORDS[stored["action"]].from_dict(stored)
    first = stored.pop("gm_decision")
    assert first == (stored["gm_decisions"][0] if stored["gm_decisions"] else None)
    assert record.to_dict() == stored
