"""Under /setup secret-rolls on:true, every surface a player reaches tells of an NPC only what their character
would see (issue 22 §1): the public line and the Details of an attack on it, /log, the /undo line, the pinned
tracker and /encounter initiative, autocomplete, /character show and /odds. Each test reads one surface as a
player and fails on a number from the NPC's hidden dice or sheet: its soak, armour, hit points, initiative,
stats or equipment. The GM still sees every number (checked too, so each test can fail)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from emulator import Message

pytestmark = pytest.mark.latency

# system: the player's sheet, the NPC template and its first name, the player's hit on it (their own side's dice
# only: under secret rolls the NPC's are the GM's, rolled by the bot, the table's seed making them the same each run)
FIGHTS = {
    "ars-harn": ({"name": "Bjorn", "stats": "str=2 sta=1 dex=1 qik=1 abilities.Sword=5", "weapons": "Broadsword"},
                 "bandit", "Bandit 1", "attack=1,1,9 location=9"),
    "pendragon": ({"name": "Bjorn", "stats": "siz=14 dex=12 str=14 con=13 app=10 skills.sword=15", "weapons": "sword"},
                  "bandit", "Bandit 1", "attacker=14 damage=4,4,4,4,3"),
    "fading-suns": ({"name": "Bjorn", "stats": "str=5 dex=6 end=5 skills.melee=5", "weapons": "broadsword"},
                    "thug", "Thug 1", "attack=3 location=12"),
}
# what an NPC's sheet takes off a blow, and what it has left: numbers its secret rolls keep
SHEET_NUMBERS = re.compile(r"soak \**\d|armour \**\d|hit points?\b|takes \**\d+\** damage|\d+ vs \d+ success")


def hidden(text: str) -> list[str]:
    return [line for line in text.splitlines() if SHEET_NUMBERS.search(line)]


async def facing(table: Any, system: str, *, initiative: bool = True) -> str:
    """Bjorn (Alice's) and one NPC in an encounter, secret rolls on, initiative rolled (unless not): the NPC's
    name."""
    sheet, template, npc, _ = FIGHTS[system]
    await table.setup(system)
    await table.run("character create", sheet, user=table.alice)
    await table.run("encounter start")
    await table.run("encounter add", {"character": "Bjorn"}, user=table.alice)
    await table.run("encounter npcs", {"template": template, "count": 1})
    await table.run("setup secret-rolls", {"on": True}, user=table.manager)
    if initiative:
        await table.run("encounter initiative")
    return npc


async def fight(table: Any, system: str) -> tuple[str, Message]:
    """``facing``, then Bjorn hits the NPC: the NPC's name, and the hit."""
    npc = await facing(table, system)
    return npc, await table.run("attack", {"target": npc, "dice": FIGHTS[system][3]}, user=table.alice)


@pytest.mark.parametrize("system", list(FIGHTS))
async def test_a_players_attack_on_a_secret_npc_leaves_its_soak_armour_and_hit_points_out_of_the_public_line(
        table: Any, system: str) -> None:
    npc, attack = await fight(table, system)
    shown = table.text(attack)
    assert npc in shown and not hidden(shown), shown
    table.check_clean()


@pytest.mark.parametrize("system", list(FIGHTS))
async def test_a_players_details_on_a_secret_npc_show_the_damage_dealt_not_what_its_sheet_took_off(
        table: Any, system: str) -> None:
    """The known leak: 'Impact: damage 16 − soak 1 = 15' (ars-harn), '− armour 4 (leather jerkin) = 3' (Fading
    Suns), '− armour 1 = 18' and 'Hit points: −11' (Pendragon)."""
    _, attack = await fight(table, system)
    mine = table.text(await table.details(attack, user=table.alice))
    assert not hidden(mine) and "the GM keeps secret" in mine, mine
    gms = table.text(await table.details(attack, user=table.gm))
    assert hidden(gms), gms  # the GM's Details keep every number
    table.check_clean()


@pytest.mark.parametrize("system", list(FIGHTS))
async def test_the_log_and_the_undo_line_tell_an_attack_on_a_secret_npc_as_the_players_saw_it(
        table: Any, system: str) -> None:
    npc, _ = await fight(table, system)
    log = table.text(await table.run("log", user=table.alice))
    assert npc in log and not hidden(log), log
    undone = table.text(await table.run("undo"))
    assert npc in undone and not hidden(undone), undone
    table.check_clean()


@pytest.mark.parametrize("system", ["ars-harn", "fading-suns"])
async def test_the_tracker_and_the_initiative_keep_an_npcs_initiative_for_the_gm(table: Any, system: str) -> None:
    npc = await facing(table, system, initiative=False)
    typed = {"dice": f"Bjorn=9; {npc}=7"} if system == "ars-harn" else {}  # Fading Suns: the bot rolls
    handle = await table.send("encounter initiative", typed)
    public = await handle.message()
    order = table.text(public)
    assert f"**{npc}**" in order and not re.search(rf"{npc}\** \(\d", order) and f"{npc}: typed" not in order, order
    assert re.search(r"Bjorn\** \(\d+\)", order), order  # a player's own initiative stays
    [private] = await handle.followups()  # the GM gets the NPCs' numbers, privately
    assert private.ephemeral and re.search(rf"{npc}\** \(\d+\)", table.text(private)), table.text(private)
    tracker = table.text(await table.wait_tracker(lambda t: re.search(r"Bjorn\** \(\d+\)", t) is not None))
    npc_line = next(line for line in tracker.splitlines() if npc in line and "Turn" not in line)
    assert not re.search(r"\(\d", npc_line), tracker
    table.check_clean()


async def test_autocomplete_offers_a_player_nothing_from_a_secret_npcs_sheet(table: Any) -> None:
    npc, _ = await fight(table, "ars-harn")

    async def offered(command: str, options: dict[str, Any], focused: str, user: Any) -> list[str]:
        typing = await table.emu.autocomplete(command, options, focused=focused, user=user, channel=table.combat)
        return [str(c["name"]) for c in await typing.choices()]

    carried = ["Dagger", "Shortsword"]  # the bandit's weapons
    assert await offered("attack", {"attacker": npc, "weapon": ""}, "weapon", table.gm) == carried
    assert await offered("attack", {"attacker": npc, "weapon": ""}, "weapon", table.alice) != carried  # the pack's
    assert await offered("ready", {"character": npc, "weapon": ""}, "weapon", table.alice) == []
    assert await offered("ready", {"character": npc, "weapon": ""}, "weapon", table.gm) == ["Dagger"]
    table.check_clean()


@pytest.mark.parametrize("system", list(FIGHTS))
async def test_character_show_of_a_secret_npc_is_its_name_condition_and_wounds(table: Any, system: str) -> None:
    npc, _ = await fight(table, system)
    shown = await table.run("character show", {"name": npc}, user=table.alice)
    fields = [f["name"] for e in shown.embeds for f in e.get("fields", [])]
    assert npc in table.text(shown) and any(f.startswith("Wounds (1)") for f in fields), table.text(shown)
    assert "Stats" not in fields and "Equipment" not in fields and "behind the screen" in table.text(shown), fields
    gms = await table.run("character show", {"name": npc})
    assert "Stats" in [f["name"] for e in gms.embeds for f in e.get("fields", [])]
    table.check_clean()


async def test_odds_against_a_secret_npc_are_the_gms_to_ask(table: Any) -> None:
    npc, _ = await fight(table, "ars-harn")
    line = await table.line("odds", {"target": npc}, user=table.alice)
    assert "behind the screen" in line and "only the GM" in line, line
    gms = await table.run("odds", {"attacker": "Bjorn", "target": npc})
    assert "%" in table.text(gms)
    table.check_clean()


async def test_a_secret_npc_that_loses_its_own_attack_keeps_its_armour_and_hit_points(table: Any) -> None:
    """Pendragon: the NPC attacks a knight and loses; the knight's blow lands on it. The public line says the
    blow landed, not what the NPC's armour took off or the hit points it has left (its sheet)."""
    npc = await facing(table, "pendragon")
    attack = await table.run("attack", {"attacker": npc, "target": "Bjorn",
                                        "dice": "attacker=3 defender=14 defender_damage=4,4,4,4,3"})
    shown = table.text(attack)
    assert npc in shown and not hidden(shown), shown
    assert "unconscious" in shown and "major wound" in shown, shown  # what the table saw happen is still said
    table.check_clean()
