"""/odds through the emulator and the real discord.py client: a private embed with a chart, in every system,
and /odds compare: two declarations side by side. Nothing is rolled, saved or posted for others."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from emulator import Message


async def fighters(table: Any, system: str, title: str, alice: dict[str, str], bob: dict[str, str]) -> None:
    await table.setup(system)
    await table.run("character create", alice, user=table.alice)
    await table.run("character create", bob, user=table.bob)
    started = await table.run("encounter start")
    assert title in started.content
    await table.run("encounter add", {"character": alice["name"]}, user=table.alice)
    await table.run("encounter add", {"character": bob["name"]}, user=table.bob)


async def ask(table: Any, options: dict[str, Any], title: str) -> Message:
    """Alice asks; the answer is hers alone, with the chart attached and shown in the embed."""
    before = len(table.public())
    message = await table.run("odds", options, user=table.alice, within=30.0)
    assert message.ephemeral, table.text(message)
    assert message.embeds[0]["title"] == f"\U0001f3b2 Odds: {title}"
    chart = message.embed_image()
    assert chart is not None and chart.filename == "odds.png"
    width, height = Image.open(io.BytesIO(chart.data)).size
    assert width == 800 and 200 < height < 1000
    assert len(table.public()) == before  # nothing posted for others, the tracker untouched
    return message


def field(table: Any, message: Message, name: str) -> str:
    return str(table.value(message, name))


async def test_odds_in_ars_harn_and_a_comparison_of_two_aims(table: Any) -> None:
    await fighters(table, "ars-harn", "Ars Magica",
                   {"name": "Bjorn", "stats": "str=2 sta=1 dex=1 qik=1 abilities.Sword=5", "weapons": "Broadsword"},
                   {"name": "Brun", "stats": "str=1 sta=1 dex=1 qik=0 abilities.Club=4", "weapons": "Mace"})
    high = await ask(table, {"target": "Brun", "weapon": "Broadsword", "aspect": "edge", "aim": "high"},
                     "Bjorn vs Brun")
    assert "Broadsword, edge, aim high" in high.embeds[0]["description"]
    assert field(table, high, "Hit").endswith("%") and "Exact" in high.embeds[0]["footer"]["text"]
    # a forced attack die of 0 with a botch: no hit at all
    botched = await ask(table, {"target": "Brun", "aspect": "edge", "dice": "attack=0 attack.botch=0"},
                        "Bjorn vs Brun")
    assert field(table, botched, "Hit") == "0%" and "attack=0" in botched.embeds[0]["description"]
    both = await ask(table, {"target": "Brun", "aspect": "edge", "aim": "high", "compare": "aim:mid"}, "Bjorn vs Brun")
    assert "**A** Broadsword, edge, aim high" in both.embeds[0]["description"]
    assert "**B** Broadsword, edge, aim mid" in both.embeds[0]["description"]
    hit = field(table, both, "Hit")
    assert hit.startswith("A ") and " \u00b7 B " in hit
    # aiming high costs 3 on the attack: a lower chance to hit than mid (when both were worked out in time)
    a, b = (float(part.split()[1].lstrip("\u2265<>").rstrip("%")) for part in hit.split(" \u00b7 "))
    assert a < b or "time ran out" in both.embeds[0]["footer"]["text"]
    # where blows land: the body figure instead of the bars (taller), for both aims side by side
    where = await ask(table, {"target": "Brun", "aspect": "edge", "aim": "high", "compare": "aim:mid",
                              "chart": "locations"}, "Bjorn vs Brun")
    assert Image.open(io.BytesIO(where.embed_image().data)).size[1] > 800
    assert Image.open(io.BytesIO(both.embed_image().data)).size[1] < 700
    # /attack's save_excess too: the excess kept for next round, so no more damage than when it is added
    saved = await ask(table, {"target": "Brun", "aspect": "edge", "compare": "save_excess:true"}, "Bjorn vs Brun")
    assert "**A** Broadsword, edge, aim mid\n**B** Broadsword, edge, aim mid, excess saved" in \
        saved.embeds[0]["description"]
    hit_a, hit_b = field(table, saved, "Hit").split(" \u00b7 ")
    assert hit_a[2:] == hit_b[2:]  # the same blow lands as often: only what the excess does changes
    log = await table.run("log", {"limit": 5})
    assert "attacks" not in table.text(log)  # nothing was resolved or recorded


async def test_odds_in_pendragon_compare_two_weapons(table: Any) -> None:
    await fighters(table, "pendragon", "Pendragon",
                   {"name": "Sir Bors", "stats": "siz=15 dex=12 str=14 con=13 app=10 skills.sword=16 skills.spear=12",
                    "weapons": "sword, spear", "armour": "chainmail"},
                   {"name": "Sir Kay", "stats": "siz=13 dex=11 str=12 con=12 app=10 skills.sword=14",
                    "weapons": "sword", "armour": "chainmail"})
    # Pendragon has no hit locations: chart:locations draws the outcome bars
    answer = await ask(table, {"target": "Sir Kay", "weapon": "sword", "compare": "weapon:spear", "chart": "locations"},
                       "Sir Bors vs Sir Kay")
    assert Image.open(io.BytesIO(answer.embed_image().data)).size[1] < 700
    assert "**A** sword" in answer.embeds[0]["description"] and "**B** spear" in answer.embeds[0]["description"]
    assert {"Win", "Tie", "Loss", "Major wound", "Unconscious"} <= {f["name"] for f in answer.embeds[0]["fields"]}
    # the follow-up rolls the footer names are Pendragon's own
    footer = answer.embeds[0]["footer"]["text"]
    assert "knockdown and major wound rolls too" in footer and "shock" not in footer


async def test_odds_in_fading_suns_with_a_dodge(table: Any) -> None:
    await fighters(table, "fading-suns", "Fading Suns",
                   {"name": "Erian", "stats": "dex=6 end=5 skills.melee=5 skills.dodge=4", "weapons": "broadsword"},
                   {"name": "Tomas", "stats": "dex=5 skills.dodge=3", "weapons": "axe"})
    answer = await ask(table, {"target": "Tomas", "defense": "dodge", "compare": "location:head"},
                       "Erian vs Tomas")
    assert "**B** broadsword, aimed at head, target dodges" in answer.embeds[0]["description"]
    assert field(table, answer, "Success").startswith("A ")


@pytest.mark.parametrize(("compare", "line"), [
    ("aim=sideways", "option 'aim' must be one of high, mid, low"),
    ("colour:red", "compare: 'colour' is not an option"),
    ("modifier:lots", "compare: modifier: 'lots' is not a whole number"),
])
async def test_a_bad_comparison_is_one_private_line(table: Any, compare: str, line: str) -> None:
    await fighters(table, "ars-harn", "Ars Magica",
                   {"name": "Bjorn", "stats": "str=2 sta=1 dex=1 qik=1 abilities.Sword=5", "weapons": "Broadsword"},
                   {"name": "Brun", "stats": "str=1 sta=1 dex=1 qik=0 abilities.Club=4", "weapons": "Mace"})
    handle = await table.send("odds", {"target": "Brun", "compare": compare}, user=table.alice)
    message = await handle.message(30.0)
    assert message.ephemeral and line in message.content, message.content
    assert not message.embeds


async def test_a_comparison_the_rules_forbid_still_answers_the_first_and_says_why_not_the_second(
        table: Any) -> None:
    """Issue 22 §4: compare:weapon:sword beside a lance charge refused the whole answer (a sword cannot charge)."""
    await fighters(table, "pendragon", "Pendragon",
                   {"name": "Sir Bors", "stats": "siz=15 dex=12 str=14 con=13 app=10 skills.sword=16 skills.lance=14 "
                    "skills.horsemanship=15 horse=charger", "weapons": "lance, sword", "armour": "chainmail"},
                   {"name": "Sir Kay", "stats": "siz=13 dex=11 str=12 con=12 app=10 skills.sword=14",
                    "weapons": "sword", "armour": "chainmail"})
    answer = await ask(table, {"target": "Sir Kay", "weapon": "lance", "mounted": True, "charge": True,
                               "compare": "weapon:sword"}, "Sir Bors vs Sir Kay")
    description = answer.embeds[0]["description"]
    assert description.startswith("**A** lance, mounted, charge"), description
    assert "**B** sword, mounted, charge: cannot be made \u2014 " in description and "to charge" in description
    assert field(table, answer, "Win").endswith("%") and " \u00b7 B " not in field(table, answer, "Win")
