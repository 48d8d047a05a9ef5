"""The GM screen over stored events (issue 31): an action's secrecy is read from who acted (an NPC or not, today's
roster) and today's secret rolls, not only from the flags it was stored with: an event stored before the flags
(or with the screen down) shows a player no NPC's roll once the screen is up. The GM's copies (the GM channel,
the owner's DM) go through the projection too."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.services.actions import record_event
from bot.services.event_kinds import UnknownEvent
from bot.services.event_records import ActionEvent, Hidden, read_event
from bot.services.projection import projected
from bot.services.results import EventView
from bot.services.viewer import GM_SCREEN, TABLE_SCREEN
from bot.ui import late_embeds
from tests.bot.action_report_support import action_report
from tests.conftest import GM_ROLE

FIXTURES = Path(__file__).parents[1] / "bot" / "fixtures"
SHEETS = Path(__file__).resolve().parents[2] / "content" / "examples" / "sheets"
# Sir Owain's blow at Bandit 1 (playground-pendragon.txt #5), stored with no secret flags, as events were before
OLD_BLOW = {e["source"]: e for e in json.loads((FIXTURES / "pendragon_events.json").read_text())["events"]}[
    "playground-pendragon.txt #5"]["payload"]
BANDIT_ROLLS = {"defender", "knockdown", "major_wound", "valorous", "stat_loss"}


async def _stored_blow(services: Any, manager: Any, gm: Any) -> int:
    await services.setup.set_system(manager, "pendragon")
    await services.setup.set_gm_role(manager, GM_ROLE)
    bandit = (SHEETS / "gawain.yaml").read_bytes().replace(b"Sir Gawain", b"Bandit 1")
    await services.characters.import_sheet(gm, "bandit.yaml", bandit, npc=True)

    async def work(session: Any) -> int:
        event = record_event(services.runtime, session, gm, "attack", UnknownEvent(dict(OLD_BLOW)), None, None)
        await session.flush()
        return int(event.id)

    return int(await services.runtime.transact(None, work))


def _labels(record: Any) -> set[str]:
    assert isinstance(record, ActionEvent)
    return {r.root for r in record.shown_rolls}


async def test_a_blow_stored_without_flags_hides_the_npcs_rolls_from_a_player_once_the_screen_is_up(
        services: Any, manager: Any, gm: Any, alice: Any) -> None:
    event_id = await _stored_blow(services, manager, gm)
    assert _labels((await services.records.event(alice, event_id)).record) >= BANDIT_ROLLS  # the screen is down
    await services.setup.set_secret_rolls(manager, True)
    seen = await services.records.event(alice, event_id)
    assert not BANDIT_ROLLS & _labels(seen.record) and "attacker" in _labels(seen.record)
    assert _labels((await services.records.event(gm, event_id)).record) >= BANDIT_ROLLS
    logged = await services.records.log(alice)
    assert not BANDIT_ROLLS & _labels(logged[0].record)


def test_the_gms_copy_of_a_secret_action_goes_through_the_projection_and_the_late_post_words_no_hidden_dice() -> None:
    payload = {**OLD_BLOW, "actor": "Bandit 1", "target": "Sir Owain"}
    report = action_report("pendragon", "attack", "Bandit 1", "Sir Owain", payload["outcome"], payload["rolls"],
                           event_id=5, secret=True)
    assert report.for_gm == report.event and isinstance(report.public.rolls, Hidden)

    stored = EventView(id=5, kind="attack", channel_id=1, encounter_id=None, user_id=2, user_name="GM",
                       record=read_event("attack", {**payload, "secret": True}))
    public = json.dumps(late_embeds.late(projected(stored, TABLE_SCREEN)).to_dict())
    assert "d20" not in public and "[15]" not in public
    assert "[15]" in json.dumps(late_embeds.late_details(projected(stored, GM_SCREEN)).to_dict())
