"""Names as the pack says them, matched the same way in all three systems (issue 22 §3): NPCs are named
after the template's display name, a typed name matches whatever its case, spaces, underscores or hyphens,
and a character name that is not quite right gets a "did you mean"."""

from __future__ import annotations

from typing import Any


async def test_npcs_take_the_packs_name_and_templates_match_however_typed(table: Any) -> None:
    await table.setup("pendragon")
    await table.run("encounter start")
    joined = await table.run("encounter npcs", {"template": "Saxon Warrior", "count": 2})
    assert "2 \u00d7 **Saxon warrior** joined the encounter" in joined.content, joined.content
    await table.run("encounter npcs", {"template": "man at arms"})
    await table.wait_tracker(lambda t: "Saxon warrior 1" in t and "Saxon warrior 2" in t and "Man-at-arms 1" in t,
                             what="the NPCs under the pack's names")
    line = await table.line("encounter npcs", {"template": "saxn"})
    assert "unknown NPC template 'saxn'" in line and "Saxon warrior" in line, line
    table.check_clean()


async def test_a_fading_suns_location_matches_its_name_or_its_label_however_spelled(table: Any) -> None:
    await table.setup("fading-suns")
    await table.run("character create", {"name": "Erian", "stats": "dex=6 end=5 skills.melee=5",
                                         "weapons": "Broadsword"}, user=table.alice)
    await table.run("encounter start")
    await table.run("encounter add", {"character": "Erian"}, user=table.alice)
    await table.run("encounter npcs", {"template": "Vorox Warrior"})
    for typed in ("Right Arm", "R.Arm", "right-arm"):
        hit = await table.run("attack", {"target": "Vorox Warrior 1", "weapon": "BROADSWORD", "location": typed,
                                         "modifier": 6, "dice": "attack=11 defense=15 "
                                                                "defender_effect=1"}, user=table.alice)
        assert "right arm" in hit.embeds[0]["description"].casefold(), (typed, table.text(hit))
        await table.run("undo")
    line = await table.line("attack", {"target": "Vorox Warrior 1", "location": "tail", "dice": "attack=11"},
                            user=table.alice)
    assert "unknown hit location 'tail'" in line, line
    table.check_clean()


async def test_a_character_name_that_is_not_quite_right_gets_a_did_you_mean(table: Any) -> None:
    await table.setup("ars-harn")
    await table.run("character create", {"name": "Aelfric the Grog", "weapons": "Broadsword",
                                         "stats": "str=1 sta=1 dex=0 qik=0 abilities.Sword=3"}, user=table.alice)
    await table.run("encounter start")
    line = await table.line("encounter add", {"character": "Aelfric"}, user=table.alice)
    assert "no character named 'Aelfric'" in line and "did you mean 'Aelfric the Grog'" in line, line
    line = await table.line("injuries", {"character": "Aelfrik the Grog"}, user=table.alice)
    assert "did you mean 'Aelfric the Grog'" in line, line
    table.check_clean()
