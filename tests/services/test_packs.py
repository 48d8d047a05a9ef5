"""Per-server homebrew content packs: /pack upload, show and reset, on each backend."""

from __future__ import annotations

from importlib import resources
from typing import Any

import pytest

from bot.errors import NotFound, PermissionDenied
from content.input_guard import PACK_FILE
from rules.errors import RulesError
from tests.conftest import GM_ROLE

MAX_BYTES = PACK_FILE.max_bytes

DEFAULT_WEAPONS = (resources.files("content") / "ars_harn" / "weapons.yaml").read_bytes()
NEW_WEAPON = b"  Moon Blade: {skill: Sword, weight: 3, hm_attack: 15, hm_defence: 5, blunt: 2, edge: 7, point: 4}\n"
WEAPONS = DEFAULT_WEAPONS + NEW_WEAPON
HERO = {"str": 1, "sta": 1, "dex": 1, "qik": 0, "abilities.Sword": 5}


async def _ars_harn(services: Any, manager: Any) -> None:
    await services.setup.set_system(manager, "ars-harn")
    await services.setup.set_gm_role(manager, GM_ROLE)


async def test_an_uploaded_weapon_can_be_wielded_and_attacked_with(services: Any, manager: Any, gm: Any,
                                                                   alice: Any) -> None:
    await _ars_harn(services, manager)
    default = await services.packs.show(gm)
    assert (default.system, default.files) == ("ars-harn", ())
    with pytest.raises(NotFound, match="unknown weapon 'moon blade'"):
        await services.characters.create(alice, "Hero", HERO, ["moon blade"])

    view = await services.packs.upload(gm, "weapons.yaml", WEAPONS, replace=True)  # the whole file, as it is
    assert (view.changed, [f.filename for f in view.files]) == ("weapons.yaml", ["weapons.yaml"])
    assert view.weapons == default.weapons + 1 and (view.armour, view.npcs) == (default.armour, default.npcs)
    assert view.files[0].uploaded_by == gm.user_id and view.files[0].size == len(WEAPONS)
    assert "Moon Blade" in await services.characters.item_names(alice, "weapon", "moon")

    hero = await services.characters.create(alice, "Hero", HERO, ["moon blade"])
    assert hero.sheet["weapons"] == ["Moon Blade"] and hero.summary is not None
    await services.encounters.start(gm)
    await services.encounters.add(alice, "Hero")
    await services.encounters.add_npcs(gm, "bandit", 1)
    report = await services.combat.attack(alice, "Bandit 1", "Moon Blade", {"aspect": "edge", "aim": "high"},
                                          "attack=9 defense=3 location=12", attacker="Hero")
    assert report.outcome.weapon == "Moon Blade"
    assert report.encounter is not None and (await services.encounters.status(gm)).combatants


@pytest.mark.parametrize(("filename", "data", "where"), [
    ("weapons.yaml", WEAPONS.replace(b"hm_attack: 15, hm_defence: 5, blunt: 2, edge: 7",
                                     b"hm_attack: 15, hm_defence: 5, blunt: 2, edge: keen"),
     "weapons.yaml: entry 'Moon Blade': field 'edge'"),
    ("spells.yaml", b"spells: {}\n", "spells.yaml: is not a file of the ars-harn pack (its files: armour.yaml,"),
    ("weapons.yaml", b"weapons: !!python/object/apply:os.system ['true']\n",
     "weapons.yaml: line 1, column 10: the tag !!python/object/apply:os.system is not allowed (plain data only)"),
    ("armour.yaml", b"#" * (MAX_BYTES + 1),
     f"armour.yaml: is {MAX_BYTES + 1} bytes, over the {MAX_BYTES // 1024} KiB limit"),
])
async def test_a_bad_upload_changes_nothing_and_names_the_file_entry_and_field(
        services: Any, manager: Any, gm: Any, filename: str, data: bytes, where: str) -> None:
    await _ars_harn(services, manager)
    before = await services.packs.upload(gm, "weapons.yaml", WEAPONS)
    with pytest.raises(RulesError) as caught:
        await services.packs.upload(gm, filename, data)
    message = str(caught.value)
    assert message.startswith(where) and "\n" not in message
    after = await services.packs.show(gm)
    assert after.files == before.files and after.weapons == before.weapons


async def test_reset_one_file_or_the_whole_pack(services: Any, manager: Any, gm: Any, alice: Any) -> None:
    await _ars_harn(services, manager)
    default = await services.packs.show(gm)
    await services.packs.upload(gm, "weapons.yaml", WEAPONS)
    armour = (resources.files("content") / "ars_harn" / "armour.yaml").read_bytes()
    both = await services.packs.upload(manager, "Armour.yml", armour)
    assert [f.filename for f in both.files] == ["armour.yaml", "weapons.yaml"]
    assert await services.packs.file_names(gm, "w") == ["weapons.yaml"]

    with pytest.raises(NotFound, match=r"no homebrew npcs\.yaml for ars-harn \(homebrew files: armour\.yaml, weapons"):
        await services.packs.reset(gm, "npcs.yaml")
    with pytest.raises(PermissionDenied):
        await services.packs.reset(alice, "weapons.yaml")
    one = await services.packs.reset(gm, "weapons.yaml")
    assert (one.changed, [f.filename for f in one.files], one.weapons) == ("weapons.yaml", ["armour.yaml"],
                                                                          default.weapons)
    assert "Moon Blade" not in await services.characters.item_names(alice, "weapon", "moon")
    everything = await services.packs.reset(gm)
    assert (everything.changed, everything.files) == ("all", ())


async def test_another_process_sees_a_new_pack_through_the_pack_version(make_services: Any, manager: Any,
                                                                        gm: Any, alice: Any) -> None:
    first, second = make_services(), make_services(seed=2)
    await _ars_harn(first, manager)
    assert await second.characters.item_names(alice, "weapon", "moon") == []  # caches the default pack
    await first.packs.upload(gm, "weapons.yaml", WEAPONS)
    assert await second.characters.item_names(alice, "weapon", "moon") == ["Moon Blade"]
    await second.characters.create(alice, "Hero", HERO, ["Moon Blade"])
    await first.packs.reset(gm, "weapons.yaml")
    assert await second.characters.item_names(alice, "weapon", "moon") == []


async def test_a_player_cannot_upload(services: Any, manager: Any, alice: Any) -> None:
    await _ars_harn(services, manager)
    with pytest.raises(PermissionDenied, match="only the GM"):
        await services.packs.upload(alice, "weapons.yaml", WEAPONS)
    assert (await services.packs.show(alice)).files == ()
