"""A whole fight in each system, typed as slash commands by a manager, a GM and two players, through the real
GrievousBot, the loopback Discord emulator and a real database (SQLite; PostgreSQL too where it can run).

Every roll that matters is forced with the `dice` option, so each fight ends the same way: in the system's
life-or-death roll, decided by the GM's button. The `table` fixture fails a test if Discord would have refused
anything the bot sent, if an interaction was not answered exactly once, or if the bot logged an error.
"""

from __future__ import annotations

from typing import Any

import pytest

from emulator import Message

# Each flow runs again with realistic latency (50 ms REST, 40 ms gateway) and Discord's buckets: [realistic].
pytestmark = pytest.mark.latency


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


async def attack(table: Any, user: Any, options: dict[str, Any], title: str) -> Message:
    """A public attack embed titled `title`."""
    message = await table.run("attack", options, user=user)
    assert not message.ephemeral and message.embeds[0]["title"] == title, table.text(message)
    return message


async def decide(table: Any, message: Message, choice: str, leaves: int = 0) -> Message:
    """The GM presses `choice` on `message`: its decision's buttons go (`leaves` others stay) and the decision
    is posted."""
    [button] = [b for b in table.buttons(message) if b.endswith(f":{choice}")]
    before = len(table.public())
    pressed = await table.emu.click(message, button, user=table.gm)
    assert (await pressed.response()).type == 7  # the answer is the update of the message with the buttons
    [result] = await pressed.followups()
    said = table.text(result)  # what came of it, then who chose (the choice is not named twice: issue 34, N14)
    assert not result.ephemeral and f"Chosen by <@{table.gm.id}>." in said and "The GM chose" not in said, said
    await table.emu.wait_until(lambda: len(table.buttons(message)) == leaves or None, what="the GM buttons to go")
    assert len(table.public()) == before + 1
    return result


async def undo_last(table: Any, what: str) -> None:
    """The GM takes back the last action, which was `what`."""
    undone = await table.run("undo")
    assert "Undone" in table.text(undone) and what in table.text(undone), table.text(undone)


async def check_log(table: Any, *expected: str) -> str:
    log = await table.run("log", {"limit": 25})
    assert log.ephemeral
    shown = table.text(log)
    for line in expected:
        assert line in shown, f"{line!r} not in the log:\n{shown}"
    return shown


async def end_encounter(table: Any, tracker_id: int) -> None:
    """The GM ends it: the tracker is the same message, edited (a burst of changes under the channel's rate
    limit may be one edit: the bot shows the newest state), and unpinned."""
    ended = await table.run("encounter end")
    assert "The encounter ended" in ended.content
    await table.emu.wait_until(lambda: not table.emu.pins(table.combat) or None, what="the tracker to be unpinned")
    tracker = table.emu.state.messages[tracker_id]
    assert "Ended" in table.text(tracker) and len(tracker.revisions) >= 2
    trackers = [m for m in table.public() if "Encounter \u2014" in table.text(m)]
    assert [m.id for m in trackers] == [tracker_id], "the tracker was posted again instead of edited"


async def start_encounter(table: Any, system_title: str) -> int:
    started = await table.run("encounter start")
    assert system_title in started.content and not started.ephemeral
    tracker = await table.tracker()
    assert "Round 1" in table.text(tracker)
    return int(tracker.id)


async def test_ars_harn_fight_ends_in_a_kill_roll_the_gm_decides(table: Any) -> None:
    await table.setup("ars-harn")
    bjorn = await table.sheet("character create", {
        "name": "Bjorn", "stats": "str=2 sta=1 dex=1 qik=1 abilities.Sword=5", "weapons": "Broadsword",
        "armour": "Leather Cap"}, user=table.alice)
    assert bjorn.embeds[0]["title"] == "Bjorn" and "Broadsword" in table.value(bjorn, "Equipment")
    await table.run("character create", {"name": "Brun", "stats": "str=1 sta=1 dex=1 qik=0 abilities.Club=4",
                                         "weapons": "Mace"}, user=table.bob)
    tracker_id = await start_encounter(table, "Ars Magica")
    await table.run("encounter add", {"character": "Bjorn"}, user=table.alice)
    await table.run("encounter add", {"character": "Brun"}, user=table.bob)
    joined = await table.run("encounter npcs", {"template": "bandit", "count": 1})
    assert "joined the encounter" in joined.content
    order = await table.run("encounter initiative", {"dice": "initiative=9,5,3"})
    assert "Initiative" in order.embeds[0]["title"]
    assert table.text(order).index("Bjorn") < table.text(order).index("Brun") < table.text(order).index("Bandit 1")

    # Bjorn's edge to the thigh: S2, shock and stumble passed.
    first = await attack(table, table.alice, {"target": "Bandit 1", "weapon": "Broadsword", "aspect": "edge",
                                              "aim": "mid", "dice": "attack=5 defense=3 location=85 defender_shock=8 "
                                                                    "stumble=8"}, "Bjorn attacks Bandit 1")
    first_details = await table.details(first)
    assert "left thigh" in first.embeds[0]["description"] and "**S2**" in table.value(first_details, "Injury")
    first_details = await table.details(first)
    assert "passed" in table.value(first_details, "Shock")
    await table.wait_tracker(lambda t: "Bandit 1" in t and "1 wound" in t, what="the tracker to show the wound")

    # The bandit swings back and misses; Bjorn gets a tactical advantage.
    miss = await attack(table, table.gm, {"target": "Bjorn", "attacker": "Bandit 1", "aspect": "edge", "aim": "mid",
                                          "dice": "attack=2 defense=8"}, "Bandit 1 attacks Bjorn")
    assert "**Miss**" in miss.embeds[0]["description"]

    # Brun's mace lands, and the GM takes it back.
    brun = await attack(table, table.bob, {"target": "Bandit 1", "aspect": "blunt", "aim": "mid",
                                           "dice": "attack=8 defense=2 location=50 defender_shock=9 defender_kill=9"},
                        "Brun attacks Bandit 1")
    assert "thorax" in brun.embeds[0]["description"]
    await undo_last(table, "Brun attacks Bandit 1")
    injuries = await table.run("injuries", {"character": "Bandit 1"})
    assert "Wounds (1)" in table.text(injuries) and "Thorax" not in table.text(injuries)

    # Bjorn's killing blow: K5 to the thorax, the kill roll fails, the GM decides.
    kill = await attack(table, table.alice, {
        "target": "Bandit 1", "weapon": "Broadsword", "aspect": "edge", "aim": "mid", "modifier": 8,
        "dice": "attack=9 defense=2 location=50 defender_kill=2 defender_shock=8"}, "Bjorn attacks Bandit 1")
    kill_details = await table.details(kill)
    assert "**thorax**" in kill.embeds[0]["description"] and "**K5**" in table.value(kill_details, "Injury")
    kill_details = await table.details(kill)
    assert "failed" in table.value(kill_details, "Kill roll") and "GM" in table.value(kill, "\u23f3 Waiting for the GM")
    assert sorted(table.buttons(kill)) == ["grv:gm:1:death", "grv:gm:1:incapacitation"]
    await decide(table, kill, "death")

    injuries = await table.run("injuries", {"character": "Bandit 1"})
    shown = table.text(injuries)
    assert "dead" in injuries.embeds[0]["description"] and "Wounds (2)" in shown
    assert "left Thigh: **S2**" in shown and "Thorax: **K5**" in shown
    await table.wait_tracker(lambda t: "dead" in t and "2 wounds" in t)
    await check_log(table, "Bjorn attacks Bandit 1", "Bandit 1 attacks Bjorn", "The GM decides: **Bandit 1**",
                    "takes back an action", "sets the turn order")
    await end_encounter(table, tracker_id)


PENDRAGON_SHEET = b"""\
name: Sir Gawain
siz: 15
dex: 12
str: 15
con: 14
app: 12
skills: {sword: 18, horsemanship: 14}
traits: {valorous: 16}
weapons: [sword]
armour: [chainmail, shield]
"""


async def test_pendragon_fight_ends_with_the_gm_deciding_the_dying(table: Any) -> None:
    await table.setup("pendragon")
    sheet = table.emu.make_attachment("gawain.yaml", PENDRAGON_SHEET, "application/x-yaml")
    gawain = await table.sheet("character import", {"sheet": sheet}, user=table.alice)
    assert gawain.embeds[0]["title"] == "Sir Gawain" and "player character" in gawain.embeds[0]["description"]
    await table.run("character create", {"name": "Sir Kay", "stats": "siz=13 dex=11 str=12 con=12 app=10 "
                                         "skills.sword=14", "weapons": "sword", "armour": "chainmail"},
                    user=table.bob)
    tracker_id = await start_encounter(table, "Pendragon")
    await table.run("encounter add", {"character": "Sir Gawain"}, user=table.alice)
    await table.run("encounter add", {"character": "Sir Kay"}, user=table.bob)
    await table.run("encounter npcs", {"template": "saxon_warrior", "name_prefix": "Cerdic"})
    await table.run("encounter initiative")  # Pendragon has none: the order stays as they joined
    # an earlier state of the tracker (before Cerdic joined) may be the pinned one for a moment
    await table.wait_tracker(lambda t: "Cerdic 1" in t
                             and t.index("Sir Gawain") < t.index("Sir Kay") < t.index("Cerdic 1"))

    # Gawain wins the exchange: 20 damage less leather 4 is a major wound; Cerdic stays up.
    first = await attack(table, table.alice, {
        "target": "Cerdic 1", "weapon": "sword",
        "dice": "attacker=15 defender=14 damage=4,4,4,4,4 "
                "defender_knockdown=5 defender_major_wound=3 defender_valorous=3 defender_stat_loss=6"},
        "Sir Gawain attacks Cerdic 1")
    assert "takes **16** damage" in first.embeds[0]["description"]
    first_details = await table.details(first)
    assert "major wound" in table.value(first_details, "Major wound")
    assert "11" in table.value(first_details, "Hit points")

    # Sir Kay and Cerdic both fail: nobody is hurt; the GM takes it back anyway.
    both = await attack(table, table.bob, {"target": "Cerdic 1", "dice": "attacker=19 defender=18"},
                        "Sir Kay attacks Cerdic 1")
    both_details = await table.details(both)
    assert "failure" in table.value(both_details, "Sir Kay") and "failure" in table.value(both_details, "Cerdic 1")
    await undo_last(table, "Sir Kay attacks Cerdic 1")

    # A critical: double damage, Cerdic is dying and the GM decides.
    dying = await attack(table, table.alice, {"target": "Cerdic 1", "weapon": "sword",
                                              "dice": "attacker=18 defender=17 damage=6,6,6,6,6 defender_stat_loss=4"},
                         "Sir Gawain attacks Cerdic 1")
    dying_details = await table.details(dying)
    assert "critical" in table.value(dying_details, "Sir Gawain") and "**56**" in table.value(dying_details, "Damage")
    dying_details = await table.details(dying)
    assert "dying" in table.value(dying_details, "Dying")
    # the critical also asks for Sir Gawain's experience check: each decision has its own buttons
    assert sorted(table.buttons(dying)) == ["grv:gm:1:death", "grv:gm:1:survival", "grv:gm:2:approve",
                                            "grv:gm:2:deny"]
    await decide(table, dying, "death", leaves=2)

    injuries = await table.run("injuries", {"character": "Cerdic 1"})
    assert injuries.embeds[0]["description"].startswith("dead")
    assert "Wounds (2)" in table.text(injuries) and "mortal" in table.text(injuries)
    await check_log(table, "**Sir Gawain** wins the exchange: Cerdic 1 takes **56** damage",
                    "The GM decides: **Cerdic 1**", "takes back an action")
    await end_encounter(table, tracker_id)


async def test_fading_suns_fight_ends_with_the_gm_confirming_a_death_effect(table: Any) -> None:
    await table.setup("fading-suns")
    ruling = await table.run("setup ruling", {"name": "gm_confirms_death", "value": "true"}, user=table.manager)
    assert ruling.ephemeral and "gm_confirms_death" in table.text(ruling)
    await table.run("character create", {"name": "Erian", "stats": "dex=6 end=5 skills.melee=5 skills.dodge=4",
                                         "weapons": "broadsword", "armour": "leather jerkin"}, user=table.alice)
    await table.run("character create", {"name": "Tomas", "stats": "dex=5", "weapons": "axe"}, user=table.bob)
    tracker_id = await start_encounter(table, "Fading Suns")
    await table.run("encounter add", {"character": "Erian"}, user=table.alice)
    await table.run("encounter add", {"character": "Tomas"}, user=table.bob)
    await table.run("encounter npcs", {"template": "thug"})
    order = await table.run("encounter initiative")
    assert "Erian" in table.text(order) and "Thug 1" in table.text(order)

    # Erian's broadsword takes the thug's right leg: grievous; the wound-effect roll passes.
    leg = await attack(table, table.alice, {"target": "Thug 1", "weapon": "broadsword",
                                            "dice": "attack=9 defense=15 location=3 "
                                                    "defender_effect=4"}, "Erian attacks Thug 1")
    assert "**right leg**" in leg.embeds[0]["description"] and "**grievous**" in leg.embeds[0]["description"]
    leg_details = await table.details(leg)
    assert "success" in table.value(leg_details, "STUN roll")
    await table.wait_tracker(lambda t: "1 wound" in t)

    # The thug swings at Erian and misses; the GM takes it back.
    miss = await attack(table, table.gm, {"target": "Erian", "attacker": "Thug 1", "dice": "attack=18"},
                        "Thug 1 attacks Erian")
    miss_details = await table.details(miss)
    assert "failure" in table.value(miss_details, "Goal roll")
    await undo_last(table, "Thug 1 attacks Erian")

    # A called shot to the head: crippled, the effect roll calls for DEATH, which the GM must confirm.
    head = await attack(table, table.alice, {"target": "Thug 1", "weapon": "broadsword", "location": "head",
                                             "modifier": 6, "dice": "attack=11 defense=15 defender_effect=18"},
                        "Erian attacks Thug 1")
    assert "**head**" in head.embeds[0]["description"] and "**crippled**" in head.embeds[0]["description"]
    head_details = await table.details(head)
    assert "aim" in table.value(head_details, "Goal roll") and "death" in table.value(head_details, "Effect")
    assert sorted(table.buttons(head)) == ["grv:gm:1:death", "grv:gm:1:unconscious"]
    await decide(table, head, "unconscious")

    injuries = await table.run("injuries", {"character": "Thug 1"})
    shown = table.text(injuries)
    assert "unconscious" in injuries.embeds[0]["description"] and "dead" not in injuries.embeds[0]["description"]
    assert "Right Leg: **grievous**" in shown and "Head: **crippled**" in shown
    await check_log(table, "Erian attacks Thug 1", "The GM decides: **Thug 1**", "takes back an action")
    await end_encounter(table, tracker_id)
