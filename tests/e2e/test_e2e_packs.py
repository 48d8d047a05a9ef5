"""A server's homebrew content pack through Discord: /pack upload, show, reset."""

from __future__ import annotations

from importlib import resources
from typing import Any

import pytest
import yaml

DEFAULT_WEAPONS = (resources.files("content") / "ars_harn" / "weapons.yaml").read_bytes()
NEW_WEAPON = b"  Moon Blade: {skill: Sword, weight: 3, hm_attack: 15, hm_defence: 5, blunt: 2, edge: 7, point: 4}\n"


async def test_a_gm_uploads_a_homebrew_weapon_and_a_player_wields_it(table: Any) -> None:
    await table.setup("ars-harn")

    bad = table.emu.make_attachment("weapons.yaml", DEFAULT_WEAPONS + NEW_WEAPON.replace(b"edge: 7", b"edge: keen"))
    line = await table.line("pack upload", {"file": bad}, user=table.manager)
    assert line.startswith("\u26a0") and "weapons.yaml: entry 'Moon Blade': field 'edge'" in line, line
    stray = table.emu.make_attachment("spells.yaml", b"spells: {}\n")
    line = await table.line("pack upload", {"file": stray}, user=table.manager)
    assert "spells.yaml: is not a file of the ars-harn pack" in line, line
    assert await table.count_rows("SELECT count(*) FROM content_packs") == 0

    good = table.emu.make_attachment("weapons.yaml", DEFAULT_WEAPONS + NEW_WEAPON, "application/x-yaml")
    # A GM (the GM role, without Manage Server) manages the server's homebrew.
    done = await table.run("pack upload", {"file": good}, user=table.gm)
    assert done.ephemeral and "`weapons.yaml` for **Ars Magica × HarnMaster** takes your entries" in table.text(done)
    assert "Added: Moon Blade" in table.text(done) and "Changed" not in table.text(done)
    assert "weapons" in table.text(done) and "NPC templates" in table.text(done)
    shown = await table.run("pack show", user=table.gm)
    assert shown.ephemeral and "`weapons.yaml`" in table.value(shown, "Homebrew files (replace the default ones)")

    hero = await table.sheet("character create", {"name": "Hero", "stats": "str=1 sta=1 dex=1 qik=0",
                                                "weapons": "moon blade"}, user=table.alice)
    assert "Moon Blade" in table.text(hero)
    again = table.emu.make_attachment("weapons.yaml", DEFAULT_WEAPONS)
    line = await table.line("pack upload", {"file": again}, user=table.alice)
    assert "only the GM (or a server manager) can change the server's content pack" in line, line

    reset = await table.run("pack reset", {"file": "weapons.yaml"}, user=table.manager)
    assert "`weapons.yaml` is the default one again" in table.text(reset)
    assert await table.count_rows("SELECT count(*) FROM content_packs") == 0
    table.check_clean()


# Each system's fight, as the GM-rolls tests set it up: (character options, NPC template, weapon, attack options).
HOMEBREW_FLOWS = {
    "ars-harn": ({"name": "Bjorn", "stats": "str=2 sta=1 dex=1 qik=1 abilities.Sword=5"}, "bandit", "Broadsword",
                 {"target": "Bandit 1", "aspect": "edge", "aim": "high", "dice": "attack=9 defense=3 location=12"}),
    "pendragon": ({"name": "Sir Owain", "stats": "siz=14 dex=12 str=13 con=14 app=11 skills.sword=16"}, "bandit",
                  "sword", {"target": "Bandit 1", "dice": "attacker=14 defender=3 damage=4,4,3,3,2"}),
    "fading-suns": ({"name": "Erian", "stats": "dex=6 end=5 skills.melee=5"}, "thug", "broadsword",
                    {"target": "Thug 1", "dice": "attack=10 location=5"}),
}


# One weapon changed where an attack shows it (the damage it deals), and what its Details then read.
CHANGE = {"ars-harn": ({"edge": 9}, "Impact: damage "), "pendragon": ({"dice_mod": 2}, "Damage: "),
          "fading-suns": ({"damage": 9}, "Damage: ")}


@pytest.mark.parametrize("system", list(HOMEBREW_FLOWS))
async def test_homebrew_starts_from_the_file_the_bot_hands_out(table: Any, system: str) -> None:
    """Hand out weapons.yaml, keep one weapon changed and one new, upload it as a browser names a second
    download, and wield the new weapon in an attack; mistakes come all at once, in the same words everywhere."""
    character, template, weapon, attack = HOMEBREW_FLOWS[system]
    await table.setup(system)
    given = await table.run("pack file", {"name": "weapons"}, user=table.gm)
    [attachment] = given.attachments
    assert given.ephemeral and attachment.filename == "weapons.yaml" and "default file" in given.content
    shipped = yaml.safe_load(attachment.data)
    entry = dict(shipped["weapons"][weapon])
    change, damage_line = CHANGE[system]
    changed = {**entry, **change}
    mine = yaml.safe_dump({"weapons": {"Moonblade": dict(entry), weapon: changed}}).encode()

    wrong = yaml.safe_dump({"weapons": {"Moonblade": {**entry, "skill": ["Sword", "Axe"], "colour": "red"}}}).encode()
    handle = await table.send("pack upload", {"file": table.emu.make_attachment("weapons (1).yaml", wrong)},
                              user=table.gm)
    refused = await handle.message()
    assert refused.ephemeral and "2 mistakes to fix" in refused.content, refused.content
    assert "weapons.yaml: entry 'Moonblade': field 'skill': must be text" in refused.content
    assert "weapons.yaml: entry 'Moonblade': field 'colour': is not a field here" in refused.content
    assert await table.count_rows("SELECT count(*) FROM content_packs") == 0

    done = await table.run("pack upload", {"file": table.emu.make_attachment("weapons (1).yaml", mine)},
                           user=table.gm)
    assert "Added: Moonblade" in table.text(done) and f"Changed: {weapon}" in table.text(done), table.text(done)
    again = await table.run("pack file", {"name": "weapons.yaml"}, user=table.gm)
    kept = yaml.safe_load(again.attachments[0].data)
    assert "this server's homebrew" in again.content and kept["weapons"][weapon] == changed
    assert kept["source"] == shipped["source"] and len(kept["weapons"]) == len(shipped["weapons"]) + 1

    await table.run("character create", {**character, "weapons": f"moonblade, {weapon}"}, user=table.alice)
    await table.run("encounter start")
    await table.run("encounter npcs", {"template": template, "count": 2})
    await table.run("encounter add", {"character": character["name"]}, user=table.alice)
    blow = await table.run("attack", {**attack, "weapon": "moonblade"}, user=table.alice)
    said = table.text(blow) + table.text(await table.details(blow))
    assert "moonblade" in said.lower(), said
    # the changed weapon, with the same dice on the other NPC: the homebrew's damage, not the shipped one's
    other = {**attack, "target": attack["target"].replace(" 1", " 2"), "weapon": weapon}
    if system == "ars-harn":  # one weapon in hand: the other is taken up first
        await table.run("ready", {"character": character["name"], "weapon": weapon}, user=table.alice)
    changed_blow = table.text(await table.details(await table.run("attack", other, user=table.alice)))

    def damage(text: str) -> str:
        return next(line for line in text.splitlines() if line.startswith(damage_line))

    assert damage(changed_blow) != damage(said), (damage(said), damage(changed_blow))
    table.check_clean()
