"""content/examples/playground-first-character.txt, replayed: a new Pendragon player's bare create lists every
field the sheet needs, help shows Pendragon's stats, the template and the export come as files, and the
example knight, imported as shipped, charges on his charger."""

from __future__ import annotations

import pytest

from tests.bot.playground_replay import Replays


@pytest.mark.latency
async def test_a_new_pendragon_player_reads_well_from_a_bare_create_to_a_lance_charge(discord_profile: str,
                                                                                     replays: Replays) -> None:
    replay = await replays("playground-first-character.txt", discord=discord_profile)
    text = replay.text
    assert ("\u26a0\ufe0f Gawain: 5 fields to fix:\n"
            "\u2022 field 'siz' is missing: Size, 1 to 200\n") in text
    assert "Required, 1 to 200: siz Size, dex Dexterity, str Strength, con Constitution," in text
    template = (replay.files / "001-pendragon-sheet.yaml").read_text(encoding="utf-8")
    assert "# horse: charger" in template
    exported = (replay.files / "002-Sir-Gawain.yaml").read_text(encoding="utf-8")
    assert "horse: charger" in exported and "name: Sir Gawain" in exported
    assert "Sir Gawain attacks Cerdic 1" in text and "damage 24 \u2212 armour 4" in text  # the charger's 6d6
