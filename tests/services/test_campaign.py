"""What the campaign web page reads (bot/services/campaign.py): each viewer through the one ``viewer_of``."""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import Any

from bot.db import repositories as repo
from bot.services import Actor, characters, event_records, records
from bot.services.event_memo import MEMO
from bot.services.viewer import Seat
from tests.conftest import CHANNEL, GUILD

SCREEN = Actor(GUILD, CHANNEL, 0, "table", table=True)  # a /web view:table link's reader
HERE = frozenset({CHANNEL})


async def test_a_table_screen_reads_the_fight_as_the_channel_does(table: Any, manager: Any, gm: Any) -> None:
    await table.setup.set_secret_rolls(manager, True)
    await table.characters.create(gm, "Grunt", {"str": 10}, ["Club"], npc=True)
    await table.encounters.add(gm, "Grunt")
    fight = await table.encounters.roll_initiative(gm)
    grunt = next(c for c in fight.combatants if c.name == "Grunt")
    assert grunt.initiative is not None  # the GM's tracker has the NPC's figure; the channel's has not

    assert (await table.campaign.viewer(SCREEN)).seat is Seat.TABLE
    (seen,) = await table.campaign.encounters(SCREEN, HERE)
    assert seen.combatants == fight.public.combatants
    assert next(c for c in seen.combatants if c.name == "Grunt").initiative is None
    (gms,) = await table.campaign.encounters(gm, None)
    assert next(c for c in gms.combatants if c.name == "Grunt").initiative == grunt.initiative


async def test_a_live_page_rereads_only_the_events_it_has_not_worded_as_they_are_now(table: Any, gm: Any,
                                                                                   manager: Any) -> None:
    await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=3")
    (fight,) = await table.campaign.encounters(gm, None)
    first = await table.campaign.live_log(gm, None, CHANNEL, fight.id, {}, 200)
    assert [e.id for e in first.fresh] == [i for i, _ in first.stamps] and first.fresh[0].kind == "attack"
    known = dict(first.stamps)
    assert (await table.campaign.live_log(gm, None, CHANNEL, fight.id, known, 200)).fresh == ()
    await table.records.undo(gm)  # the attack is taken back (changed) and the undo recorded (new)
    again = await table.campaign.live_log(gm, None, CHANNEL, fight.id, known, 200)
    assert [(e.kind, e.undone) for e in again.fresh] == [("undo", False), ("attack", True)]
    await table.setup.set_secret_rolls(manager, True)  # what the viewer may read changed: all worded afresh
    assert len((await table.campaign.live_log(gm, None, CHANNEL, fight.id, dict(again.stamps), 200)).fresh) \
        == len(again.stamps)


async def test_a_log_reads_its_records_off_the_event_loop(table: Any, gm: Any, monkeypatch: Any) -> None:
    """Issue 32, reading must not stall the bot: the typed records, the projection and the NPC lookup's names
    are CPU work (a page reads 200 events) done in a worker thread, not on the loop's."""
    await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=3")
    MEMO._kept.clear()  # read afresh, not remembered from the attack's own answer
    MEMO._parsed.clear()  # nor its payload's record, from another test's identical attack
    threads: list[threading.Thread] = []

    def watched(name: str) -> None:
        real = getattr(event_records, name)

        def reading(*args: Any) -> Any:
            threads.append(threading.current_thread())
            return real(*args)
        monkeypatch.setattr(records, name, reading)

    watched("read_event")
    (fight,) = await table.campaign.encounters(gm, None)
    log = await table.campaign.live_log(gm, None, CHANNEL, fight.id, {}, 200)
    page = await table.campaign.log(gm, None, CHANNEL)
    assert log.fresh and page.events and threads
    assert threading.main_thread() not in threads


async def test_the_roster_reads_its_sheets_off_the_event_loop(table: Any, gm: Any, monkeypatch: Any) -> None:
    """Issue 32: each sheet's copy, summary and projection (50 sheets of 64 wounds: ~200 ms) in a worker thread."""
    threads: list[threading.Thread] = []
    real = characters.character_view

    def viewed(*args: Any) -> Any:
        threads.append(threading.current_thread())
        return real(*args)
    monkeypatch.setattr(characters, "character_view", viewed)
    roster = await table.campaign.roster(gm, None)
    assert {"Aldo", "Brun"} <= {v.name for v in roster} and roster[0].summary is not None
    assert threads and threading.main_thread() not in threads


async def test_what_a_page_keeps_between_reads_follows_the_new_events(table: Any, gm: Any, alice: Any) -> None:
    """The members' names and a filtered log's index are kept per process, and read on from the new events."""
    await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=3")
    assert (await table.campaign.member_names(gm))[gm.user_id] == "Gemma"
    first = await table.campaign.log(gm, None, CHANNEL, character="Brun")
    assert [e.kind for e in first.events] == ["attack", "join"]  # newest first: Brun's blow, Brun joining
    await table.combat.attack(replace(alice, user_name="Alice the Bold"), "Brun", "Sword", attacker="Aldo",
                              dice_text="attack=5 location=4")
    assert (await table.campaign.member_names(gm))[alice.user_id] == "Alice the Bold"
    again = await table.campaign.log(gm, None, CHANNEL, character="brun")
    assert [e.kind for e in again.events] == ["attack", "attack", "join"]
    assert again.events[0].id > first.events[0].id
    assert [e.kind for e in (await table.campaign.log(gm, None, CHANNEL, character="Aldo")).events] == [
        "attack", "attack", "join"]
    assert (await table.campaign.log(gm, None, CHANNEL, character="Nobody")).events == ()


async def test_a_live_page_reads_whole_only_the_events_whose_stamps_it_does_not_know(table: Any, gm: Any,
                                                                                    monkeypatch: Any) -> None:
    """Issue 33: every new event re-rendered each live page, which read its 200 events whole to stamp them; the
    stamps come from the stored text, and only the events not known as they are are read whole."""
    await table.combat.attack(gm, "Brun", "Sword", attacker="Aldo", dice_text="attack=5 location=3")
    (fight,) = await table.campaign.encounters(gm, None)
    asked: list[list[int]] = []
    real = repo.events_by_ids

    async def by_ids(session: Any, ids: Any) -> Any:
        asked.append(sorted(ids))
        return await real(session, ids)
    monkeypatch.setattr(repo, "events_by_ids", by_ids)
    first = await table.campaign.live_log(gm, None, CHANNEL, fight.id, {}, 200)
    assert asked == [sorted(i for i, _ in first.stamps)]
    assert (await table.campaign.live_log(gm, None, CHANNEL, fight.id, dict(first.stamps), 200)).fresh == ()
    assert len(asked) == 1  # nothing new: no event read whole
    await table.records.undo(gm)
    again = await table.campaign.live_log(gm, None, CHANNEL, fight.id, dict(first.stamps), 200)
    assert asked[-1] == sorted(e.id for e in again.fresh) and len(asked[-1]) == 2  # the undo and the undone attack

    async def one_gone(session: Any, ids: Any) -> Any:  # deleted between the two reads
        return [e for e in await real(session, ids) if e.kind != "undo"]
    monkeypatch.setattr(repo, "events_by_ids", one_gone)
    gone = await table.campaign.live_log(gm, None, CHANNEL, fight.id, dict(first.stamps), 200)
    assert [e.kind for e in gone.fresh] == ["attack"] and len(gone.stamps) == len(again.stamps) - 1
