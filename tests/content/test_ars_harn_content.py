"""The ars-harn default pack loads, every table is whole, and a broken pack names file, entry, field."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from content import ContentError, load_catalog, load_pack_documents
from content.ars_harn.schema import build

CAT = load_catalog("ars-harn")
DOCS = load_pack_documents("ars-harn")


def test_every_pack_file_names_its_source() -> None:
    for name, doc in DOCS.items():
        assert isinstance(doc.get("source"), str) and doc["source"].strip(), name


def test_the_eight_armour_materials_with_blunt_edge_point_fire() -> None:
    assert CAT.materials == {
        "cloth": {"blunt": 1, "edge": 1, "point": 1, "fire": 1},
        "quilt": {"blunt": 5, "edge": 3, "point": 2, "fire": 4},
        "leather": {"blunt": 2, "edge": 4, "point": 3, "fire": 3},
        "kurbul": {"blunt": 4, "edge": 5, "point": 4, "fire": 3},
        "ring": {"blunt": 3, "edge": 6, "point": 4, "fire": 3},
        "mail": {"blunt": 2, "edge": 8, "point": 5, "fire": 1},
        "scale": {"blunt": 5, "edge": 9, "point": 4, "fire": 5},
        "plate": {"blunt": 6, "edge": 10, "point": 6, "fire": 2},
    }


def test_piece_weight_is_coverage_units_times_material_weight() -> None:
    materials = DOCS["armour.yaml"]["materials"]
    for name, piece in DOCS["armour.yaml"]["pieces"].items():
        expected = piece["units"] * materials[piece["material"]]["lb_per_unit"]
        assert abs(piece["weight"] - expected) <= 0.06, name


def test_location_coverage_units_add_up_to_every_standard_piece_but_a_single_breastplate() -> None:
    # research 3b: Thorax+Abdomen 6 and Hip+Groin 2.5, split 3.75/2.25 and 1.5/1 (docs ruling 22)
    assert [CAT.location(n).coverage for n in ("thorax", "abdomen", "hip", "groin")] == [3.75, 2.25, 1.5, 1]
    for name, piece in DOCS["armour.yaml"]["pieces"].items():
        units = sum(CAT.location(loc).coverage for loc in piece["locations"])
        expected = piece["units"] * 2 if name.endswith("Breastplate") else piece["units"]
        assert units == expected, name
    assert sum(loc.coverage for loc in CAT.locations.values()) == 25  # research 3b: whole body 25 units


def test_standard_pieces_cover_their_locations() -> None:
    hauberk = CAT.piece("Mail Hauberk")
    assert set(hauberk.locations) == {"upper_arm", "shoulder", "thorax", "abdomen", "hip", "groin", "elbow",
                                      "forearm", "thigh"}
    assert hauberk.weight == 33.0
    assert CAT.piece("mail coif").locations == ("skull", "neck")
    assert len(CAT.armour_names()) >= 60


def test_strike_table_covers_1_to_100_once_per_aim() -> None:
    for aim, rows in CAT.strike_table.items():
        covered = sorted(v for row in rows for v in range(row.low, row.high + 1))
        assert covered == list(range(1, 101)), aim
    assert CAT.strike("high", 96).key == "abdomen"
    assert CAT.strike("mid", 44).key == "thorax"
    assert CAT.strike("low", 100).key == "foot"


def test_injury_table_rows_and_flags() -> None:
    assert CAT.injury_bands == (1, 5, 10, 15, 20)
    assert CAT.location("skull").injuries == ("M1", "S2", "S3", "K4", "K5")
    assert CAT.location("upper arm").injuries == ("M1", "M1", "S2", "S3", "G4")
    arms = {k for k, loc in CAT.locations.items() if loc.limb == "arm"}
    legs = {k for k, loc in CAT.locations.items() if loc.limb == "leg"}
    assert arms == {"shoulder", "upper_arm", "elbow", "forearm", "hand"}
    assert legs == {"hip", "thigh", "knee", "calf", "foot"}
    amputation = {k for k, loc in CAT.locations.items() if loc.amputation}
    assert amputation == {"neck", "upper_arm", "elbow", "forearm", "hand", "groin", "thigh", "knee", "calf", "foot"}


def test_weapon_table_and_ars_mapping() -> None:
    mapping = DOCS["weapons.yaml"]["ars_mapping"]
    for name, entry in DOCS["weapons.yaml"]["weapons"].items():
        weapon = CAT.weapon(name)
        if "hm_attack" in entry and "atk" not in entry:
            assert weapon.atk == entry["hm_attack"] // mapping["attack_divisor"], name
            assert weapon.dfn == entry["hm_defence"] // mapping["defence_divisor"], name
        if "init" not in entry:
            assert weapon.init == mapping["init_by_skill"][entry["skill"]], name
    assert CAT.weapon("Battleaxe").damage == {"blunt": 6, "edge": 9, "point": 6}
    assert CAT.weapon("Warhammer").has("edge") is False
    assert len(CAT.weapon_names()) >= 45


def test_npc_templates() -> None:
    assert set(CAT.npc_templates()) >= {"bandit", "man_at_arms", "knight"}


def broken(file: str, change: Any) -> ContentError:
    docs = copy.deepcopy(DOCS)
    change(docs[file])
    with pytest.raises(ContentError) as info:
        build(docs)
    return info.value


def test_a_broken_weapon_names_file_entry_and_field() -> None:
    err = broken("weapons.yaml", lambda d: d["weapons"]["Dagger"].pop("skill"))
    assert (err.file, err.entry, err.field) == ("weapons.yaml", "Dagger", "skill")


def test_a_broken_piece_names_file_entry_and_field() -> None:
    err = broken("armour.yaml", lambda d: d["pieces"]["Mail Coif"].update(material="adamant"))
    assert (err.file, err.entry, err.field) == ("armour.yaml", "Mail Coif", "material")


def test_a_gap_in_the_strike_table_is_refused() -> None:
    err = broken("locations.yaml", lambda d: d["strike_table"]["mid"][0].update(high=4))
    assert "roll 5" in str(err)


def test_a_bad_injury_code_is_refused() -> None:
    err = broken("locations.yaml", lambda d: d["locations"]["skull"]["injuries"].__setitem__(0, "X9"))
    assert (err.entry, err.field) == ("skull", "injuries.0")


def test_a_bad_npc_names_the_npc() -> None:
    err = broken("npcs.yaml", lambda d: d["npcs"]["bandit"].update(weapons=["Lightsaber"]))
    assert (err.file, err.entry) == ("npcs.yaml", "bandit")
