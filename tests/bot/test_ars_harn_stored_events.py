"""Events stored before the typed outcomes (issue 19) still render, in the words they had.

``fixtures/ars_harn_events.json`` holds the payloads the code of 2026-12-02 stored for every ars-harn action
(the events table after ``fixtures/ars_harn_events.txt`` and the shipped ars-harn playground scripts), and the
outcomes of the actions the bot does not store. They are never regenerated. ``fixtures/ars_harn_words.json``
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
EVENTS = json.loads((FIXTURES / "ars_harn_events.json").read_text(encoding="utf-8"))["events"]
WORDS_FILE = FIXTURES / "ars_harn_words.json"


def words_of(event: dict[str, Any]) -> dict[str, Any]:
    payload = event["payload"]
    actor = str(payload.get("actor") or "?")
    target = payload.get("target") or actor
    words = describe("ars-harn", payload["outcome"], (actor, target))
    view = EventView(id=1, kind=event["kind"], channel_id=1, encounter_id=None, user_id=1, user_name="gm",
                     summary=payload)
    return {"headline": words.headline, "fields": [list(f) for f in words.fields], "brief": words.brief,
            "numbers": words.numbers, "severity": words.severity.name, "details": event_details(view).to_dict()}


def test_every_action_the_engine_has_is_in_the_fixtures() -> None:
    from rules.ars_harn.engine import ACTION_OPTIONS

    kinds = {str(e["payload"]["outcome"].get("action")) for e in EVENTS}
    assert kinds == set(ACTION_OPTIONS)


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


def test_an_attack_on_a_secret_npc_shows_a_player_no_total_of_the_npcs() -> None:
    """Issue 22 §1: under secret rolls the NPC's Defense Total and its wound's rolls are the GM's; a player's
    Details keep the attacker's own total and what the NPC's rolls did."""
    from rules.registry import read_outcome

    attacks = [e for e in EVENTS if e["payload"]["outcome"].get("action") == "attack"
               and e["payload"]["outcome"].get("defense_total") is not None]
    assert attacks
    for event in attacks:
        stored = event["payload"]["outcome"]
        hidden = read_outcome("ars-harn", stored).hiding_target()
        words = describe("ars-harn", hidden.to_dict(), ("Bjorn", "Bandit 1"))
        fields = dict((name, value) for name, value, _ in words.fields)
        assert "against a defence the GM keeps secret" in fields["Attack"]
        assert f"**{stored['attack_total']}**" in fields["Attack"]
        for name in ("Shock", "Kill roll", "Fumble", "Stumble", "Amputation"):
            assert " vs " not in fields.get(name, ""), (event["source"], fields)
