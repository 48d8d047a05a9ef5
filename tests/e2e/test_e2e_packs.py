"""A server's homebrew content pack through Discord: /pack upload, show, reset."""

from __future__ import annotations

from importlib import resources
from typing import Any

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
    assert done.ephemeral and "`weapons.yaml` now replaces the default one" in table.text(done)
    assert "weapons" in table.text(done) and "NPC templates" in table.text(done)
    shown = await table.run("pack show", user=table.gm)
    assert shown.ephemeral and "`weapons.yaml`" in table.value(shown, "Homebrew files (replace the default ones)")

    hero = await table.run("character create", {"name": "Hero", "stats": "str=1 sta=1 dex=1 qik=0",
                                                "weapons": "moon blade"}, user=table.alice)
    assert "Moon Blade" in table.text(hero)
    again = table.emu.make_attachment("weapons.yaml", DEFAULT_WEAPONS)
    line = await table.line("pack upload", {"file": again}, user=table.alice)
    assert "only the GM (or a server manager) can change the server's content pack" in line, line

    reset = await table.run("pack reset", {"file": "weapons.yaml"}, user=table.manager)
    assert "`weapons.yaml` is the default one again" in table.text(reset)
    assert await table.count_rows("SELECT count(*) FROM content_packs") == 0
    table.check_clean()
